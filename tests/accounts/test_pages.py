"""Every django-allauth page Skirmish serves renders in English and in German, inside the
site's own layout (header, navigation, footer). (That each heading is translated waits for the
German catalogue to be regenerated with the allauth pages' strings.)"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.accounts.factories import UserFactory

pytestmark = pytest.mark.django_db

# (URL name, URL kwargs, logged in)
PAGES = [
    ("account_login", {}, False),
    ("account_signup", {}, False),
    ("account_reset_password", {}, False),
    ("account_reset_password_done", {}, False),
    ("account_reset_password_from_key", {"uidb36": "1", "key": "not-a-key"}, False),
    ("account_reset_password_from_key_done", {}, False),
    ("account_confirm_email", {"key": "not-a-key"}, False),
    ("account_email_verification_sent", {}, False),
    ("account_inactive", {}, False),
    ("account_email", {}, True),
    ("account_change_password", {}, True),
    ("account_logout", {}, True),
    ("account_reauthenticate", {}, True),
    ("accounts:profile", {}, True),
]


def _page(client, name: str, kwargs: dict[str, str], language: str) -> str:  # noqa: ANN001
    response = client.get(reverse(name, kwargs=kwargs), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200, (name, language, response.status_code)
    return response.content.decode()


@pytest.mark.parametrize(("name", "kwargs", "logged_in"), PAGES, ids=[p[0] for p in PAGES])
def test_account_page_in_both_languages_in_the_sites_layout(
    client,  # noqa: ANN001
    name: str,
    kwargs: dict[str, str],
    logged_in: bool,
) -> None:
    if logged_in:
        client.force_login(UserFactory())
    english = _page(client, name, kwargs, "en")
    german = _page(client, name, kwargs, "de")
    for page, language, leagues in ((english, "en", ">Leagues<"), (german, "de", ">Ligen<")):
        assert f'<html lang="{language}">' in page, name
        assert '<header class="site-header">' in page and "<footer" in page, name
        assert leagues in page, (name, language)
        assert "· Skirmish</title>" in page and "<h1" in page, name
