"""Renaming a fighter (a nickname): the service and the builder's HTMX form.

An empty nickname is not an error: it removes the nickname and the fighter shows its profile's
name again (the form's field is optional, the builder shows ``entry.name or profile.name``).
"""

from __future__ import annotations

import re

import pytest
from django.core.exceptions import ValidationError
from django.http import Http404
from django.urls import reverse

from apps.rosters import services
from apps.rosters.models import Roster, RosterEntry
from tests.accounts.factories import UserFactory
from tests.rosters.factories import legal_standard_team

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true", "HTTP_ACCEPT_LANGUAGE": "en"}
PROFILE_NAME = "Konzernschütze"


@pytest.fixture
def roster(deathmatch, user) -> Roster:
    document = legal_standard_team()
    document["entries"] = [{"profile": "organon-konzernschuetze", "items": []}]
    return services.roster_import(owner=user, document=document)


@pytest.fixture
def entry(roster) -> RosterEntry:
    return RosterEntry.objects.get(roster=roster)


def heading(html: str, entry: RosterEntry) -> str:
    """The fighter's shown name: the heading of its card in the builder."""
    found = re.search(rf'<h3 id="fighter-{entry.pk}-name">([^<]*)</h3>', html)
    assert found, "the fighter's card is not in the page"
    return found.group(1)


# --- The service -------------------------------------------------------------------------------


def test_rename_stores_the_trimmed_nickname(user, roster, entry) -> None:
    services.roster_entry_rename(
        owner=user, roster_id=roster.pk, entry_id=entry.pk, name="  Rostiger Rudi  "
    )
    entry.refresh_from_db()
    assert entry.name == "Rostiger Rudi"


def test_rename_to_nothing_removes_the_nickname(user, roster, entry) -> None:
    services.roster_entry_rename(owner=user, roster_id=roster.pk, entry_id=entry.pk, name="Rudi")
    services.roster_entry_rename(owner=user, roster_id=roster.pk, entry_id=entry.pk, name="   ")
    entry.refresh_from_db()
    assert entry.name == ""


def test_rename_refuses_a_nickname_over_60_characters(user, roster, entry) -> None:
    services.roster_entry_rename(owner=user, roster_id=roster.pk, entry_id=entry.pk, name="Rudi")
    with pytest.raises(ValidationError):
        services.roster_entry_rename(
            owner=user, roster_id=roster.pk, entry_id=entry.pk, name="x" * 61
        )
    entry.refresh_from_db()
    assert entry.name == "Rudi"


def test_rename_of_another_users_fighter_is_404(roster, entry) -> None:
    with pytest.raises(Http404):
        services.roster_entry_rename(
            owner=UserFactory(), roster_id=roster.pk, entry_id=entry.pk, name="Dieb"
        )
    entry.refresh_from_db()
    assert entry.name == ""


# --- The builder's form ------------------------------------------------------------------------


def test_the_builder_offers_the_rename_form(client, user, roster, entry) -> None:
    client.force_login(user)
    html = client.get(reverse("rosters:builder", args=[roster.pk]), **HTMX).content.decode()
    action = reverse("rosters:entry_rename", args=[roster.pk, entry.pk])
    assert f'hx-post="{action}"' in html
    assert f'id="nick-{entry.pk}" type="text" name="name" maxlength="60"' in html


def test_renaming_in_the_builder_shows_the_new_name(client, user, roster, entry) -> None:
    client.force_login(user)
    response = client.post(
        reverse("rosters:entry_rename", args=[roster.pk, entry.pk]), {"name": "Rudi"}, **HTMX
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<div id="builder"')
    assert heading(html, entry) == "Rudi"
    assert f"<small>{PROFILE_NAME}</small>" in html  # the profile stays readable
    assert 'value="Rudi"' in html
    entry.refresh_from_db()
    assert entry.name == "Rudi"


def test_an_empty_nickname_shows_the_profile_name_again(client, user, roster, entry) -> None:
    client.force_login(user)
    url = reverse("rosters:entry_rename", args=[roster.pk, entry.pk])
    client.post(url, {"name": "Rudi"}, **HTMX)
    response = client.post(url, {"name": ""}, **HTMX)
    assert response.status_code == 200
    assert heading(response.content.decode(), entry) == PROFILE_NAME
    entry.refresh_from_db()
    assert entry.name == ""


def test_a_500_character_nickname_is_an_inline_message(client, user, roster, entry) -> None:
    client.force_login(user)
    url = reverse("rosters:entry_rename", args=[roster.pk, entry.pk])
    client.post(url, {"name": "Rudi"}, **HTMX)
    response = client.post(url, {"name": "x" * 500}, **HTMX)
    html = response.content.decode()
    assert response.status_code == 422
    assert html.lstrip().startswith('<div id="builder"')
    assert "A nickname has at most 60 characters." in html
    assert heading(html, entry) == "Rudi"
    entry.refresh_from_db()
    assert entry.name == "Rudi"


def test_renaming_without_htmx_redirects_to_the_builder(client, user, roster, entry) -> None:
    client.force_login(user)
    response = client.post(
        reverse("rosters:entry_rename", args=[roster.pk, entry.pk]), {"name": "Rudi"}
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("rosters:builder", args=[roster.pk])
    entry.refresh_from_db()
    assert entry.name == "Rudi"


def test_renaming_in_someone_elses_roster_is_404(client, roster, entry) -> None:
    client.force_login(UserFactory())
    url = reverse("rosters:entry_rename", args=[roster.pk, entry.pk])
    assert client.post(url, {"name": "Dieb"}, **HTMX).status_code == 404
    assert client.post(url, {"name": "x" * 500}, **HTMX).status_code == 404
    entry.refresh_from_db()
    assert entry.name == ""


def test_renaming_a_fighter_removed_elsewhere_is_an_inline_error(
    client, user, roster, entry
) -> None:
    client.force_login(user)
    services.roster_entry_remove(owner=user, roster_id=roster.pk, entry_id=entry.pk)
    response = client.post(
        reverse("rosters:entry_rename", args=[roster.pk, entry.pk]), {"name": "Rudi"}, **HTMX
    )
    assert response.status_code == 422
    assert "That fighter is no longer in this roster" in response.content.decode()
