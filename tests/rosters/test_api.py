"""Roster API: owner-only access, share tokens, validation without login, bad input."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from apps.rosters.models import Roster
from tests.accounts.factories import UserFactory
from tests.rosters.factories import legal_standard_team

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner_client(deathmatch, user) -> APIClient:
    client = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    client.force_authenticate(user)
    return client


@pytest.fixture
def roster_id(owner_client) -> int:
    response = owner_client.post("/api/v1/rosters/", legal_standard_team(), format="json")
    assert response.status_code == 201, response.json()
    return int(response.json()["id"])


def test_create_returns_document_with_validation(owner_client) -> None:
    response = owner_client.post("/api/v1/rosters/", legal_standard_team(), format="json")
    body = response.json()
    assert response.status_code == 201
    assert body["valid"] is True and body["issues"] == []
    assert body["totals"]["mercenaries"] == 1
    assert body["faction"] == "organon"


def test_list_shows_only_own_rosters(owner_client, roster_id) -> None:
    other = APIClient()
    other.force_authenticate(UserFactory())
    other.post("/api/v1/rosters/", legal_standard_team(name="Not yours"), format="json")
    names = [r["name"] for r in owner_client.get("/api/v1/rosters/").json()]
    assert names == ["Team Vortex"]


def test_other_user_gets_404_for_every_method(roster_id) -> None:
    other = APIClient()
    other.force_authenticate(UserFactory())
    url = f"/api/v1/rosters/{roster_id}/"
    assert other.get(url).status_code == 404
    assert other.put(url, legal_standard_team(), format="json").status_code == 404
    assert other.patch(url, {"name": "Mine"}, format="json").status_code == 404
    assert other.delete(url).status_code == 404
    assert other.get(url + "export/").status_code == 404
    assert Roster.objects.get(pk=roster_id).name == "Team Vortex"


def test_anonymous_needs_the_share_token(owner_client, roster_id, api_client) -> None:
    url = f"/api/v1/rosters/{roster_id}/"
    assert api_client.get(url).status_code == 404
    assert api_client.delete(url).status_code == 401
    owner_client.patch(url, {"name": "Shared team"}, format="json")
    from apps.rosters.services import roster_share

    token = roster_share(
        owner=Roster.objects.get(pk=roster_id).owner, roster_id=roster_id, enabled=True
    ).share_token
    shared = api_client.get(url, {"share": token})
    assert shared.status_code == 200
    assert shared.json()["name"] == "Shared team"
    assert shared.json()["share_token"] is None
    assert api_client.get(url, {"share": "guess"}).status_code == 404


def test_put_replaces_the_entries(owner_client, roster_id) -> None:
    document = legal_standard_team()
    document["entries"] = document["entries"][:3]
    response = owner_client.put(f"/api/v1/rosters/{roster_id}/", document, format="json")
    assert response.status_code == 200
    assert len(response.json()["entries"]) == 3
    assert response.json()["valid"] is False


def test_patch_changes_name_and_game_size(owner_client, roster_id) -> None:
    response = owner_client.patch(
        f"/api/v1/rosters/{roster_id}/",
        {"name": "Renamed", "settings": {"game_size": 3}},
        format="json",
    )
    assert response.status_code == 200
    assert response.json()["name"] == "Renamed"
    assert {i["code"] for i in response.json()["issues"]} >= {"rank_count"}


def test_patch_with_bad_game_size_is_a_400_and_changes_nothing(owner_client, roster_id) -> None:
    response = owner_client.patch(
        f"/api/v1/rosters/{roster_id}/", {"settings": {"game_size": -4}}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "game_size"
    assert Roster.objects.get(pk=roster_id).settings == {"game_size": 5}


def test_delete_removes_the_roster(owner_client, roster_id) -> None:
    assert owner_client.delete(f"/api/v1/rosters/{roster_id}/").status_code == 204
    assert not Roster.objects.filter(pk=roster_id).exists()


def test_export_and_import_round_trip(owner_client, roster_id) -> None:
    exported = owner_client.get(f"/api/v1/rosters/{roster_id}/export/").json()
    imported = owner_client.post("/api/v1/rosters/import/", exported, format="json")
    assert imported.status_code == 201
    again = owner_client.get(f"/api/v1/rosters/{imported.json()['id']}/export/").json()
    assert again == exported


def test_import_lists_every_problem(owner_client) -> None:
    document = legal_standard_team()
    document["entries"][0]["profile"] = "nobody"
    document["entries"][1]["items"] = ["nothing"]
    response = owner_client.post("/api/v1/rosters/import/", document, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid_document"
    assert [p["path"] for p in body["problems"]] == ["entries[0].profile", "entries[1].items[0]"]
    assert not Roster.objects.exists()


def test_validate_needs_no_login_and_saves_nothing(deathmatch, api_client) -> None:
    document = legal_standard_team()
    # Two more Phalanx troopers: 3 mercenaries where 2 are allowed, and too many troopers.
    document["entries"].append({"profile": "phalanx-grenadier"})
    document["entries"].append({"profile": "phalanx-schildtraeger"})
    document["entries"].append({"profile": "no-such-profile"})
    response = api_client.post("/api/v1/rosters/validate/", document, format="json")
    assert response.status_code == 200
    body = response.json()
    codes = {issue["code"] for issue in body["issues"]}
    assert body["valid"] is False
    assert {"rank_count", "mercenary_limit", "unknown_profile"} <= codes
    assert set(body["totals"]) >= {"arp_pool", "arp_spent", "command_points", "mercenaries"}
    assert not Roster.objects.exists()


def test_validate_of_legal_team(deathmatch, api_client) -> None:
    response = api_client.post("/api/v1/rosters/validate/", legal_standard_team(), format="json")
    assert response.json() == {**response.json(), "valid": True, "issues": []}


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ("{broken json", "parse_error"),
        (json.dumps([1, 2, 3]), "invalid_document"),
        (json.dumps({"system": "chess"}), "unknown_system"),
    ],
)
def test_bad_documents_are_clear_400s(deathmatch, api_client, body: str, code: str) -> None:
    response = api_client.post(
        "/api/v1/rosters/validate/", data=body, content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == code
    assert response.json()["message"]


@pytest.mark.parametrize("debug", [False, True])
def test_a_ten_megabyte_document_is_refused(deathmatch, owner_client, settings, debug) -> None:
    # Also with DEBUG on (`make run`): an API client gets JSON, never Django's debug page.
    settings.DEBUG = debug
    document = legal_standard_team(name="x" * (10 * 1024 * 1024))
    response = owner_client.post("/api/v1/rosters/", document, format="json")
    assert response.status_code == 413
    assert response.json() == {
        "code": "too_large",
        "message": "The request is too large: at most 2.0\xa0MB are accepted.",
    }
    assert not Roster.objects.exists()


def test_a_ten_megabyte_document_to_validate_is_refused(deathmatch, api_client) -> None:
    body = json.dumps(legal_standard_team(name="x" * (10 * 1024 * 1024)))
    response = api_client.post("/api/v1/rosters/validate/", body, content_type="application/json")
    assert response.status_code == 413
    assert response.json()["code"] == "too_large"


@pytest.mark.parametrize("count", [-1, 0, 21, 10**30, "3", 2.5])
def test_negative_or_absurd_counts_are_400s_for_validate(deathmatch, api_client, count) -> None:
    document = legal_standard_team()
    document["entries"][1]["count"] = count
    response = api_client.post("/api/v1/rosters/validate/", document, format="json")
    assert response.status_code == 400
    assert response.json()["problems"] == [
        {
            "code": "count_invalid",
            "path": "entries[1].count",
            "message": "Must be a whole number from 1 to 20.",
        }
    ]


def test_a_count_the_game_size_cannot_take_is_a_validation_issue(deathmatch, api_client) -> None:
    document = legal_standard_team()
    document["entries"][1]["count"] = 8
    response = api_client.post("/api/v1/rosters/validate/", document, format="json")
    assert response.status_code == 200
    assert {"code": "count_invalid", "entry": 1} in [
        {"code": issue["code"], "entry": issue["entry"]} for issue in response.json()["issues"]
    ]


def test_absurd_counts_are_refused_on_import(owner_client) -> None:
    document = legal_standard_team()
    document["entries"][0]["count"] = 10**9
    response = owner_client.post("/api/v1/rosters/", document, format="json")
    assert response.status_code == 400
    assert response.json()["problems"][0]["code"] == "count_invalid"


def test_catalogue_lists_profiles_by_faction_with_deathmatch_fields(deathmatch, api_client) -> None:
    response = api_client.get("/api/v1/systems/deathmatch/profiles/", {"faction": "anaimaktos"})
    profiles = response.json()
    assert response.status_code == 200
    assert {p["slug"] for p in profiles} >= {"veteranin-raka-voss", "anaimaktos-schnitter"}
    assert all("anaimaktos" in p["factions"] for p in profiles)
    assert {"rank", "arp", "command", "hero"} <= set(profiles[0])


def test_catalogue_unknown_faction_is_404(deathmatch, api_client) -> None:
    response = api_client.get("/api/v1/systems/deathmatch/profiles/", {"faction": "nobody"})
    assert response.status_code == 404
    assert response.json()["code"] == "unknown_faction"


def test_catalogue_items_have_limit_and_character_upgrade(deathmatch, api_client) -> None:
    items = {i["slug"]: i for i in api_client.get("/api/v1/systems/deathmatch/items/").json()}
    jump = items["ruestungsupgrade-sprungmodule"]
    assert (jump["cost"], jump["limit_per_model"], jump["character_upgrade"]) == (2, 1, False)
    assert items["kampfstimulanzien"]["character_upgrade"] is True


def test_catalogue_factions_and_missions(deathmatch, api_client) -> None:
    factions = api_client.get("/api/v1/systems/deathmatch/factions/").json()
    assert {f["slug"] for f in factions} == {"anaimaktos", "phalanx", "organon", "shelzahav"}
    missions = api_client.get("/api/v1/systems/deathmatch/missions/").json()
    assert [m["number"] for m in missions if m["number"] is not None] == list(range(10))


# --- Issue 15: validate reads the document as import does -------------------------------------


@pytest.mark.parametrize(
    ("change", "path", "code"),
    [
        ({"format": "skirmish-roster/99"}, "format", "wrong_format"),
        ({"format": None}, "format", "wrong_format"),
        ({"name": {"text": "Team"}}, "name", "invalid_type"),
        ({"name": ["Team"]}, "name", "invalid_type"),
        ({"name": 7}, "name", "invalid_type"),
        ({"name": None}, "name", "required"),
        ({"name": "x" * 101}, "name", "too_long"),
        ({"faction": {"slug": "organon"}}, "faction", "invalid_type"),
        ({"entries": None}, "entries", "invalid_type"),
    ],
)
def test_validate_refuses_what_import_refuses(deathmatch, api_client, change, path, code) -> None:
    document = legal_standard_team(**change)
    response = api_client.post("/api/v1/rosters/validate/", document, format="json")
    assert response.status_code == 400, response.json()
    assert {"code": code, "path": path} in [
        {"code": p["code"], "path": p["path"]} for p in response.json()["problems"]
    ]
    assert "valid" not in response.json()


def test_validate_refuses_a_nickname_that_is_not_text(deathmatch, api_client) -> None:
    document = legal_standard_team()
    document["entries"][2]["name"] = {"first": "Kael"}
    response = api_client.post("/api/v1/rosters/validate/", document, format="json")
    assert response.status_code == 400
    assert response.json()["problems"] == [
        {"code": "invalid_type", "path": "entries[2].name", "message": "Must be text."}
    ]


def test_validate_and_import_agree_on_a_missing_format(deathmatch, owner_client) -> None:
    document = legal_standard_team()
    del document["format"]
    for url in ("/api/v1/rosters/validate/", "/api/v1/rosters/import/"):
        response = owner_client.post(url, document, format="json")
        assert response.status_code == 400
        assert response.json()["code"] == "wrong_format"
    assert not Roster.objects.exists()


def test_import_refuses_null_entries(owner_client) -> None:
    response = owner_client.post(
        "/api/v1/rosters/import/", legal_standard_team(entries=None), format="json"
    )
    assert response.status_code == 400
    assert response.json()["problems"][0]["path"] == "entries"
    assert not Roster.objects.exists()


def test_a_document_without_entries_still_imports_as_an_empty_draft(owner_client) -> None:
    document = legal_standard_team()
    del document["entries"]
    response = owner_client.post("/api/v1/rosters/import/", document, format="json")
    assert response.status_code == 201
    assert response.json()["entries"] == []
