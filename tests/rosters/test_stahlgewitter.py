"""Stahlgewitter armies in the generic builder and API: points (never fighters), the game type
setting, units built with ``attach_to``, live totals and problems, and the roster document's
round trip with API parity."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from apps.catalog.models import GameSystem
from apps.rosters import services
from apps.rosters.documents import roster_document
from apps.rosters.selectors import roster_for_owner

pytestmark = pytest.mark.django_db


@pytest.fixture
def stahlgewitter(catalogue: None) -> GameSystem:
    return GameSystem.objects.get(slug="stahlgewitter")


def army(**changes: Any) -> dict[str, Any]:
    """A legal Legion 666 Scharmützel army: an officer's unit of three and a Kultist."""
    document: dict[str, Any] = {
        "format": "skirmish-roster/1",
        "system": "stahlgewitter",
        "name": "Höllenhunde",
        "faction": "legion-666",
        "settings": {"game_type": "scharmuetzel"},
        "entries": [
            {
                "profile": "legion-666-offizier",
                "items": ["sturmgewehre", "fahne"],
                "name": "Trupp 1",
            },
            {"profile": "legion-666-soldat", "items": ["sturmgewehre"], "count": 6, "attach_to": 0},
            {
                "profile": "legion-666-soldat-v",
                "items": ["schwerter", "vibro-variante", "kevlar"],
                "attach_to": 0,
            },
            {"profile": "legion-666-kultist", "items": ["messer"], "count": 4, "name": "Kult"},
        ],
    }
    document.update(changes)
    return document


def test_new_army_and_settings_speak_of_points_and_offer_the_game_types(
    stahlgewitter, user, client
) -> None:
    client.force_login(user)
    page = client.get("/rosters/new/stahlgewitter/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Points limit" in page and "fighter" not in page.lower()
    faction = stahlgewitter.factions.get(slug="legion-666")
    response = client.post(
        "/rosters/new/stahlgewitter/", {"name": "Legion", "faction": faction.pk, "points_limit": ""}
    )
    assert response.status_code == 302
    roster = user.rosters.get(name="Legion")
    page = client.get(f"/rosters/{roster.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'name="game_type"' in page and "Gefecht (400-800 points)" in page
    response = client.post(
        f"/rosters/{roster.pk}/settings/",
        {"name": "Legion", "points_limit": "", "game_type": "gefecht"},
        HTTP_HX_REQUEST="true",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 200
    roster.refresh_from_db()
    assert roster.settings == {"game_type": "gefecht"}
    assert "400-800 points" in response.content.decode()


def test_the_builder_adds_a_unit_with_models_and_equipment_and_shows_totals_and_problems(
    stahlgewitter, user, client
) -> None:
    client.force_login(user)
    roster = services.roster_import(owner=user, document=army(entries=[]))
    base = f"/rosters/{roster.pk}/"
    page = client.get(base, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "empty_roster" in page and "Kaplan" in page
    client.post(f"{base}fighters/", {"profile": "legion-666-unteroffizier"})
    head = roster.entries.get()
    client.post(f"{base}fighters/", {"profile": "legion-666-soldat", "attach_to": head.pk})
    soldier = roster.entries.exclude(pk=head.pk).get()
    assert soldier.attach_to_id == head.pk
    client.post(f"{base}fighters/{soldier.pk}/items/", {"item": "raumkampfanzug"})
    client.post(f"{base}fighters/{head.pk}/items/", {"item": "maschinenpistolen"})
    page = client.get(base, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    # The soldier wears a Raumkampfanzug: PW 1 + 6, B 6 + 6 - 10 = 2, its reduction shown.
    assert "Armour: Raumkampfanzug (B −10 cm; PW without armour 1)" in page
    assert 'data-code="unarmed"' in page and 'data-code="game_type_range"' in page
    assert "Unit: Unteroffizier" in page and "3× · 30 cm" in page
    roster = roster_for_owner(user, roster.pk)
    assert not roster.legal


def test_a_faction_without_an_army_list_says_so_plainly(stahlgewitter, user, client) -> None:
    client.force_login(user)
    roster = services.roster_import(owner=user, document=army(faction="vhocons", entries=[]))
    page = client.get(f"/rosters/{roster.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "The rulebook prints no army list for this faction; choose one of" in page
    assert "Legion 666" in page and 'data-code="no_army_list"' in page


def test_an_army_document_round_trips_through_the_api(stahlgewitter, user) -> None:
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    api.force_authenticate(user)
    document = army()
    checked = api.post("/api/v1/rosters/validate/", document, format="json").json()
    assert checked["valid"], checked["issues"]
    assert checked["totals"]["units"] == 2 and checked["totals"]["models"] == 12
    assert checked["totals"]["min_points"] == 200 and checked["totals"]["points_limit"] == 400
    created = api.post("/api/v1/rosters/", document, format="json")
    assert created.status_code == 201
    roster_id = created.json()["id"]
    exported = api.get(f"/api/v1/rosters/{roster_id}/export/").json()
    assert exported["settings"] == {"game_type": "scharmuetzel"}
    assert [e.get("attach_to") for e in exported["entries"]] == [None, 0, 0, None]
    assert exported["entries"][1]["count"] == 6
    again = api.post("/api/v1/rosters/import/", exported, format="json").json()
    assert again["totals"] == created.json()["totals"] and again["valid"]
    roster = roster_for_owner(user, roster_id)
    assert roster_document(roster)["entries"] == exported["entries"]


def test_api_patch_sets_a_free_points_limit(stahlgewitter, user) -> None:
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    api.force_authenticate(user)
    roster_id = api.post("/api/v1/rosters/", army(), format="json").json()["id"]
    answer = api.patch(
        f"/api/v1/rosters/{roster_id}/",
        {"settings": {"game_type": "", "points_limit": 100}},
        format="json",
    )
    assert answer.status_code == 200
    body = answer.json()
    assert body["settings"] == {"points_limit": 100}
    assert "points_limit" in [issue["code"] for issue in body["issues"]]


@pytest.mark.parametrize(
    ("settings", "code"),
    [
        ({"points_limit": 0}, "points_limit"),
        ({"points_limit": "viele"}, "points_limit"),
        ({"game_type": 5}, "settings_invalid"),
        ({"game_type": "Große Schlacht!"}, "settings_invalid"),
        ({"figures": 5}, "settings_invalid"),
    ],
)
def test_bad_settings_answer_with_a_code_and_message(stahlgewitter, settings, code) -> None:
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    answer = api.post("/api/v1/rosters/validate/", army(settings=settings), format="json")
    assert answer.status_code == 400
    body = answer.json()
    assert body["code"] == code and body["message"]


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"profile": "legion-666-drache"}, "unknown_profile"),
        ({"items": ["laserschwert"]}, "unknown_item"),
        ({"attach_to": 7}, "attach_invalid"),
        ({"count": 0}, "count_invalid"),
    ],
)
def test_bad_entries_answer_with_a_code_and_message_never_a_500(
    stahlgewitter, user, change, code
) -> None:
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    api.force_authenticate(user)
    document = army()
    document["entries"][1].update(change)
    answer = api.post("/api/v1/rosters/import/", document, format="json")
    assert answer.status_code == 400
    body = answer.json()
    assert body["code"] == code and body["message"]
    assert not user.rosters.exists()


def test_rule_issues_carry_their_stable_codes(stahlgewitter) -> None:
    document = army(faction="sek", settings={"game_type": "schlacht"})
    document["entries"][2]["items"] = ["vibro-variante", "kevlar", "tipla-teilpanzerung"]
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    result = api.post("/api/v1/rosters/validate/", document, format="json").json()
    codes = {issue["code"] for issue in result["issues"]}
    assert {
        "wrong_faction",
        "armour_count",
        "variant_without_melee",
        "unarmed",
        "game_type_range",
    } <= codes


def _set(stats: dict[str, Any]) -> dict[str, Any]:
    """The stats that are not empty (the admin stores empty fields of other kinds or not)."""
    return {key: value for key, value in stats.items() if value not in (None, False, 0, "")}


@pytest.mark.parametrize(
    "slug", ["maschinenpistolen", "tipla-kampfpanzerung", "vibro-variante", "fahne", "gefecht"]
)
def test_organisers_edit_every_item_kind_in_the_admin(stahlgewitter, client, slug) -> None:
    """Every cost is editable: saving the admin form of each kind keeps its stats as shipped
    (keys of other kinds stay empty) and a changed cost makes a new version."""
    from django.urls import reverse

    from apps.catalog.models import Item
    from tests.accounts.factories import UserFactory
    from tests.catalog.test_admin import _form_data

    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    item = Item.objects.get(system=stahlgewitter, slug=slug)
    shipped = dict(item.stats)
    url = reverse("admin:catalog_item_change", args=[item.pk])
    data = _form_data(client.get(url))
    if item.kind != "game_type":
        data["cost"] = item.cost + 1
    response = client.post(url, data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    item.refresh_from_db()
    kept = {key: value for key, value in item.stats.items() if value not in (None, False, 0, "")}
    assert kept == {
        key: value for key, value in shipped.items() if value not in (None, False, 0, "")
    }


def test_organisers_edit_a_profile_in_the_admin(stahlgewitter, client) -> None:
    from django.urls import reverse

    from apps.catalog.models import Profile
    from tests.accounts.factories import UserFactory
    from tests.catalog.test_admin import _form_data

    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    profile = Profile.objects.get(system=stahlgewitter, slug="legion-666-offizier-e")
    url = reverse("admin:catalog_profile_change", args=[profile.pk])
    data = _form_data(client.get(url))
    assert data["stats__skills"] == "fanatiker, grausam"
    data["stats__points"] = 50
    response = client.post(url, data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    profile.refresh_from_db()
    assert profile.version == 2 and profile.stats["points"] == 50
    assert profile.stats["skills"] == ["fanatiker", "grausam"]
