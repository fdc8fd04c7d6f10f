"""Grundregeln teams in the generic builder: the points limit, the system's own builder part,
documents in and out, and the catalogue API."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from apps.catalog.models import GameSystem
from apps.rosters.documents import roster_document
from tests.matches.grundregeln import grund_roster, team_document

pytestmark = pytest.mark.django_db


@pytest.fixture
def grundregeln(deathmatch) -> GameSystem:  # noqa: ARG001 - loads every shipped catalogue
    return GameSystem.objects.get(slug="grundregeln")


def test_a_new_team_asks_for_an_optional_points_limit(grundregeln, user, client) -> None:
    client.force_login(user)
    page = client.get("/rosters/new/grundregeln/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Points limit" in page and "Game size" not in page
    faction = grundregeln.factions.get(slug="moorvolk")
    response = client.post(
        "/rosters/new/grundregeln/", {"name": "Sumpf", "faction": faction.pk, "points_limit": ""}
    )
    assert response.status_code == 302
    roster = user.rosters.get(name="Sumpf")
    assert roster.settings == {}


def test_the_builder_shows_points_and_refuses_what_breaks_the_limit(
    grundregeln, user, client
) -> None:
    client.force_login(user)
    roster = grund_roster(user, settings={"points_limit": 60})
    page = client.get(f"/rosters/{roster.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "65/60" in page and "points_over" in page and "sample" in page
    response = client.post(
        f"/rosters/{roster.pk}/settings/",
        {"name": roster.name, "points_limit": "150"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    roster.refresh_from_db()
    assert roster.settings == {"points_limit": 150} and roster.legal


def test_an_npc_cannot_join_a_team(grundregeln, user, client) -> None:
    client.force_login(user)
    roster = grund_roster(user)
    client.post(f"/rosters/{roster.pk}/fighters/", {"profile": "npc-wachhund"})
    roster.refresh_from_db()
    assert not roster.legal


def test_a_team_document_round_trips(grundregeln, user) -> None:
    roster = grund_roster(
        user,
        entries=[
            {
                "profile": "eisenfaust-hauptmann",
                "items": ["schild", "heiltrank"],
                "count": 1,
                "name": "Kurt",
            }
        ],
    )
    document = roster_document(roster)
    assert document["settings"] == {"points_limit": 100}
    assert document["entries"][0]["items"] == ["schild", "heiltrank"]
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    result = api.post("/api/v1/rosters/validate/", document, format="json").json()
    assert result["valid"] and result["totals"]["points"] == 30 + 5 + 6


def test_validation_reports_the_stable_codes(grundregeln) -> None:
    document = team_document(settings={"points_limit": 20})
    document["entries"].append({"profile": "npc-bandit", "items": [], "count": 1})
    result = APIClient().post("/api/v1/rosters/validate/", document, format="json").json()
    assert {issue["code"] for issue in result["issues"]} == {"npc_profile", "points_over"}


def test_the_catalogue_api_lists_grundregeln_profiles_and_items(grundregeln) -> None:
    api = APIClient()
    profiles = api.get("/api/v1/systems/grundregeln/profiles/?faction=moorvolk").json()
    rows = profiles if isinstance(profiles, list) else profiles["results"]
    troll = next(p for p in rows if p["slug"] == "moorvolk-troll")
    assert troll["size"] == "XL" and troll["npc"] is False and troll["sample"] is True
    items = api.get("/api/v1/systems/grundregeln/items/").json()
    item_rows = items if isinstance(items, list) else items["results"]
    assert {"schild", "streitaxt"} <= {i["slug"] for i in item_rows}
    missions = api.get("/api/v1/systems/grundregeln/missions/").json()
    mission_rows = missions if isinstance(missions, list) else missions["results"]
    assert {"letzte-stellung", "die-wachhunde", "der-brunnen"} <= {m["slug"] for m in mission_rows}


def test_the_npc_faction_cannot_be_chosen_for_a_team(grundregeln, user, client) -> None:
    """NPC profiles are fielded by scenarios, never by teams (catalogue notes): the new-team
    form does not offer their faction, and refuses it when sent anyway."""
    client.force_login(user)
    page = client.get("/rosters/new/grundregeln/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Moorvolk" in page and "NPCs" not in page
    npc = grundregeln.factions.get(slug="npc")
    response = client.post(
        "/rosters/new/grundregeln/", {"name": "Wölfe", "faction": npc.pk, "points_limit": ""}
    )
    assert response.status_code == 200
    assert not user.rosters.filter(name="Wölfe").exists()
    # Deathmatch keeps every faction of its catalogue.
    deathmatch = client.get("/rosters/new/deathmatch/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    for faction in GameSystem.objects.get(slug="deathmatch").factions.all():
        assert f'value="{faction.pk}"' in deathmatch


def test_a_document_of_the_npc_faction_is_refused(grundregeln, user) -> None:
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    api.force_authenticate(user)
    document = team_document(faction="eisenfaust")
    document["faction"] = "npc"
    response = api.post("/api/v1/rosters/import/", document, format="json")
    assert response.status_code == 400, response.json()
    assert "npc_faction" in str(response.json())
    assert not user.rosters.exists()


def test_a_legal_team_is_regelkonform_in_german(grundregeln, user, client) -> None:
    """Issue 13: the German pages said "legal" next to "regelkonform"; one word for both."""
    client.force_login(user)
    roster = grund_roster(user)
    assert roster.legal
    listing = client.get("/rosters/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert ">Regelkonform</span>" in listing and ">Legal<" not in listing
    builder = client.get(f"/rosters/{roster.pk}/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Dieses Team ist regelkonform." in builder
