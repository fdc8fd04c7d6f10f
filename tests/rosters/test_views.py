"""Roster pages: the HTMX builder answers with the refreshed fragment; pages need their owner."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from apps.rosters import services
from apps.rosters.models import Roster, RosterEntry
from tests.accounts.factories import UserFactory
from tests.rosters.factories import legal_standard_team

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true", "HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture
def roster(deathmatch, user) -> Roster:
    document = legal_standard_team()
    document["entries"] = document["entries"][:1]
    return services.roster_import(owner=user, document=document)


def test_new_team_form_creates_roster_and_opens_builder(client, deathmatch, user) -> None:
    client.force_login(user)
    faction = deathmatch.factions.get(slug="organon")
    response = client.post(
        reverse("rosters:new", args=["deathmatch"]),
        {"name": "Team Vortex", "faction": faction.pk, "game_size": 5},
    )
    roster = Roster.objects.get(owner=user)
    assert response.status_code == 302
    assert response["Location"] == reverse("rosters:builder", args=[roster.pk])


def test_builder_add_fighter_answers_with_the_fragment(client, user, roster) -> None:
    client.force_login(user)
    response = client.post(
        reverse("rosters:entry_add", args=[roster.pk]),
        {"profile": "organon-konzernschuetze"},
        **HTMX,
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<div id="builder"')
    assert "<html" not in html
    assert "1/2" in html  # Troopers 1/2


def test_builder_without_htmx_redirects_back(client, user, roster) -> None:
    client.force_login(user)
    response = client.post(
        reverse("rosters:entry_add", args=[roster.pk]), {"profile": "organon-konzernschuetze"}
    )
    assert response.status_code == 302
    assert RosterEntry.objects.filter(roster=roster).count() == 2


def test_unknown_profile_is_an_inline_error(client, user, roster) -> None:
    client.force_login(user)
    response = client.post(
        reverse("rosters:entry_add", args=[roster.pk]), {"profile": "nobody"}, **HTMX
    )
    assert response.status_code == 422
    assert "Unknown profile" in response.content.decode()
    assert RosterEntry.objects.filter(roster=roster).count() == 1


def test_full_rank_is_shown_disabled_with_reason(client, user, roster) -> None:
    client.force_login(user)
    html = client.get(reverse("rosters:builder", args=[roster.pk]), HTTP_ACCEPT_LANGUAGE="en")
    text = html.content.decode()
    assert "already has its Leader" in text
    assert "disabled" in text


def test_builder_of_another_user_is_404(client, roster) -> None:
    client.force_login(UserFactory())
    assert client.get(reverse("rosters:builder", args=[roster.pk])).status_code == 404
    response = client.post(
        reverse("rosters:entry_add", args=[roster.pk]), {"profile": "organon-konzernschuetze"}
    )
    assert response.status_code == 404
    assert RosterEntry.objects.filter(roster=roster).count() == 1


def test_rosters_need_login(client, roster) -> None:
    response = client.get(reverse("rosters:list"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))


def test_list_marks_legal_and_draft(client, deathmatch, user) -> None:
    services.roster_import(owner=user, document=legal_standard_team())
    services.roster_import(owner=user, document=legal_standard_team(name="Half", entries=[]))
    client.force_login(user)
    html = client.get(reverse("rosters:list"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Legal" in html
    assert "Draft" in html


def test_delete_asks_first_then_deletes(client, user, roster) -> None:
    client.force_login(user)
    confirm = client.get(reverse("rosters:delete", args=[roster.pk]))
    assert confirm.status_code == 200
    assert Roster.objects.filter(pk=roster.pk).exists()
    client.post(reverse("rosters:delete", args=[roster.pk]))
    assert not Roster.objects.filter(pk=roster.pk).exists()


def test_shared_view_is_read_only_and_public(client, user, roster) -> None:
    token = services.roster_share(owner=user, roster_id=roster.pk, enabled=True).share_token
    response = client.get(reverse("rosters:shared", args=[token]), HTTP_ACCEPT_LANGUAGE="en")
    html = response.content.decode()
    assert response.status_code == 200
    assert roster.name in html
    assert "Remove fighter" not in html
    assert client.get(reverse("rosters:shared", args=["not-the-token"])).status_code == 404


def test_export_downloads_the_document(client, user, roster) -> None:
    client.force_login(user)
    response = client.get(reverse("rosters:export", args=[roster.pk]))
    assert response["Content-Disposition"].startswith("attachment")
    assert response.json()["format"] == "skirmish-roster/1"


def test_import_page_lists_problems_and_saves_nothing(client, deathmatch, user) -> None:
    client.force_login(user)
    document = legal_standard_team()
    document["entries"][0]["profile"] = "nobody"
    import json

    response = client.post(
        reverse("rosters:import"), {"text": json.dumps(document)}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 400
    assert "<strong>Entry 1, profile</strong> <code>entries[0].profile</code>" in (
        response.content.decode()
    )
    assert not Roster.objects.exists()


@pytest.mark.parametrize(
    ("path", "where"),
    [
        ("entries[0].items[2]", "entry 1, item 3"),
        ("entries[4].count", "entry 5, number of models"),
        ("entries[1].name", "entry 2, nickname"),
        ("entries[3]", "entry 4"),
        ("entries", "entries"),
        ("name", "team name"),
        ("system", "rule system"),
    ],
)
def test_import_problems_say_where_in_words(path: str, where: str) -> None:
    from django.utils import translation

    from apps.rosters.documents import problem_location

    with translation.override("en"):
        assert problem_location(path) == where


def test_import_page_reports_broken_json(client, deathmatch, user) -> None:
    client.force_login(user)
    response = client.post(reverse("rosters:import"), {"text": "{nope"}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert "not valid JSON" in response.content.decode()


def test_htmx_posts_need_csrf(deathmatch, user, roster) -> None:
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    strict.force_login(user)
    response = strict.post(
        reverse("rosters:entry_add", args=[roster.pk]),
        {"profile": "organon-konzernschuetze"},
        **HTMX,
    )
    assert response.status_code == 403


def test_import_page_refuses_a_pasted_ten_megabytes_with_a_friendly_page(
    client, deathmatch, user
) -> None:
    client.force_login(user)
    response = client.post(
        reverse("rosters:import"), {"text": "x" * (10 * 1024 * 1024)}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 413
    html = response.content.decode()
    assert "The request is too large: at most 2.0\xa0MB are accepted." in html
    assert reverse("pages:home") in html
    assert not Roster.objects.exists()


def test_a_fighter_removed_on_another_device_is_an_inline_error_in_german(
    client, user, roster
) -> None:
    client.force_login(user)
    entry = RosterEntry.objects.get(roster=roster)
    url = reverse("rosters:entry_remove", args=[roster.pk, entry.pk])
    assert client.post(url, **HTMX).status_code == 200
    response = client.post(url, HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 422
    assert "Dieser Kämpfer ist nicht mehr in der Aufstellung" in response.content.decode()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"name": "", "game_size": 5}, "Team name: This field is required."),
        ({"name": "Vortex", "game_size": 4}, "Game size: Select a valid choice."),
    ],
)
def test_bad_settings_say_which_field_is_wrong(client, user, roster, data, message) -> None:
    client.force_login(user)
    response = client.post(reverse("rosters:settings", args=[roster.pk]), data, **HTMX)
    assert response.status_code == 422
    assert message in response.content.decode()
    roster.refresh_from_db()
    assert (roster.name, roster.settings) == ("Team Vortex", {"game_size": 5})


def test_last_man_standing_adds_the_mech_bonus_to_the_pool(client, user, roster) -> None:
    from apps.rosters.selectors import roster_for_owner, roster_report

    def arp_pool() -> object:
        return roster_report(roster_for_owner(user, roster.pk)).totals["arp_pool"]

    client.force_login(user)
    url = reverse("rosters:settings", args=[roster.pk])
    # The leader (2 ARP) and the Argus turret, a Mech (1 ARP).
    services.roster_entry_add(
        owner=user, roster_id=roster.pk, profile_slug="organon-argus-geschuetzturm"
    )
    builder = client.get(reverse("rosters:builder", args=[roster.pk]), HTTP_ACCEPT_LANGUAGE="en")
    assert 'name="last_man_standing"' in builder.content.decode()
    assert arp_pool() == 3

    response = client.post(
        url, {"name": "Team Vortex", "game_size": 5, "last_man_standing": "on"}, **HTMX
    )
    assert response.status_code == 200
    roster.refresh_from_db()
    assert roster.settings == {"game_size": 5, "last_man_standing": True}
    assert arp_pool() == 4  # + 0.5 for the Mech, rounded up
    assert re.search(
        r'<input type="checkbox" name="last_man_standing"[^>]* checked>',
        (response.content.decode()),
    )

    client.post(url, {"name": "Team Vortex", "game_size": 5}, **HTMX)
    roster.refresh_from_db()
    assert roster.settings == {"game_size": 5}
    assert arp_pool() == 3


def test_a_card_removed_on_another_device_is_an_inline_error(client, user, roster) -> None:
    client.force_login(user)
    entry = RosterEntry.objects.get(roster=roster)
    row = entry.items.get()
    url = reverse("rosters:item_remove", args=[roster.pk, entry.pk, row.pk])
    assert client.post(url, **HTMX).status_code == 200
    response = client.post(url, **HTMX)
    assert response.status_code == 422
    assert "That card is no longer on this fighter" in response.content.decode()
