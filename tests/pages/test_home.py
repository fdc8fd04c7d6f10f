"""Home page, language switch and error pages."""

from __future__ import annotations

import pytest
from django.urls import reverse

from apps.systems.core.registry import registry

pytestmark = pytest.mark.django_db


def test_home_lists_the_five_systems_with_reference_links(client) -> None:
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="en")
    html = response.content.decode()
    assert response.status_code == 200
    for system in registry().all():
        assert system.name in html
        assert reverse("catalog:system_reference", args=[system.slug]) in html


def test_home_has_no_external_assets(client) -> None:
    html = client.get("/").content.decode()
    assert "http://" not in html.replace("http://www.w3.org", "")
    assert "https://" not in html


def test_language_switch_sets_german(client) -> None:
    response = client.post(
        reverse("set_language"), {"language": "de", "next": "/"}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 302
    html = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<html lang="de">' in html
    assert "Regelsysteme" in html


def test_language_switch_sets_english(client) -> None:
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    html = client.get("/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert '<html lang="en">' in html
    assert "Rule systems" in html


def test_unknown_page_is_a_friendly_404(client) -> None:
    response = client.get("/no/such/page/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 404
    assert "Page not found" in response.content.decode()
    assert reverse("pages:home") in response.content.decode()


def test_unknown_api_url_is_a_json_404(client) -> None:
    response = client.get("/api/v1/nothing-here/")
    assert response.status_code == 404
    assert response.json() == {"code": "not_found", "message": response.json()["message"]}


def test_server_error_page_under_api_is_json(rf) -> None:
    from apps.common.errors import server_error

    response = server_error(rf.get("/api/v1/systems/"))
    assert response.status_code == 500
    assert b'"code": "server_error"' in response.content


def test_server_error_page_is_static_html(rf) -> None:
    from apps.common.errors import server_error

    response = server_error(rf.get("/"))
    assert response.status_code == 500
    assert b"Skirmish" in response.content
