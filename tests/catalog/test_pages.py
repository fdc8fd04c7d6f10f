"""The rules-reference page of each system."""

from __future__ import annotations

import pytest

from apps.systems.core.registry import registry

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("slug", [system.slug for system in registry().all()])
@pytest.mark.parametrize("language", ["de", "en"])
def test_reference_page_renders_the_summary(client, slug: str, language: str) -> None:
    system = registry().get(slug)
    response = client.get(f"/systems/{slug}/", HTTP_ACCEPT_LANGUAGE=language)
    html = response.content.decode()
    assert response.status_code == 200
    assert f'<html lang="{language}">' in html
    assert f"<h1>{system.name}</h1>" in html
    assert "<h2>" in html  # the Markdown summary was rendered, not shown raw
    assert "##" not in html


def test_reference_summaries_differ_by_language(client) -> None:
    german = client.get("/systems/deathmatch/", HTTP_ACCEPT_LANGUAGE="de").content
    english = client.get("/systems/deathmatch/", HTTP_ACCEPT_LANGUAGE="en").content
    assert german != english
    assert b"Wendepunkt" in german and b"Wendepunkt" in english


def test_unknown_system_page_is_404(client) -> None:
    assert client.get("/systems/chess/").status_code == 404
