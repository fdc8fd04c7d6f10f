"""Match API (api.md): create, ETag polling, commands with stale/idempotency answers, the log."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from apps.matches.models import Match, MatchEvent
from apps.matches.selectors import engine_for
from apps.matches.services import match_rebuilt_state
from tests.accounts.factories import UserFactory
from tests.matches.factories import api_for, roster_for, small_team

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(deathmatch, user) -> APIClient:  # noqa: ARG001 - the catalogue must be loaded
    return api_for(user)


def test_create_a_match_from_two_saved_teams(client, user) -> None:
    first = roster_for(user, small_team("phalanx"))
    second = roster_for(user, small_team("shelzahav"))
    response = client.post(
        "/api/v1/matches/",
        {
            "system": "deathmatch",
            "mission": "last-man-standing",
            "players": [{"name": "Anna", "roster": first.pk}, {"roster": second.pk}],
            "settings": {"game_size": 3, "gadgets": False},
        },
        format="json",
    )
    body = response.json()
    assert response.status_code == 201, body
    assert body["seq"] == 1
    assert [p["name"] for p in body["players"]] == ["Anna", "Team Shelzahav"]
    state = body["state"]
    assert state["players"][0]["deck"]["remaining_before_turn"] == 35
    assert "above_turn" not in str(state)


def test_get_answers_304_while_the_seq_is_unchanged(client, match) -> None:
    response = client.get(f"/api/v1/matches/{match.pk}/")
    etag = response["ETag"]
    assert etag == '"1"'
    again = client.get(f"/api/v1/matches/{match.pk}/", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304


def test_a_command_appends_events_and_replay_equals_the_snapshot(client, match) -> None:
    response = client.post(
        f"/api/v1/matches/{match.pk}/commands/",
        {"type": "deployment_flip", "args": {}, "expected_seq": 1, "idempotency_key": "k1"},
        format="json",
    )
    body = response.json()
    assert response.status_code == 200, body
    assert body["seq"] > 1 and body["events"][0]["type"] == "deployment_flipped"
    match.refresh_from_db()
    engine = engine_for(match)
    assert engine.dump_state(match_rebuilt_state(match)) == match.state


def test_stale_expected_seq_is_a_409_with_the_fresh_state(client, match) -> None:
    url = f"/api/v1/matches/{match.pk}/commands/"
    client.post(url, {"type": "deployment_flip", "expected_seq": 1}, format="json")
    response = client.post(url, {"type": "deployment_flip", "expected_seq": 1}, format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "stale"
    assert response.json()["seq"] == Match.objects.get(pk=match.pk).seq


def test_the_same_idempotency_key_returns_the_first_answer(client, match) -> None:
    url = f"/api/v1/matches/{match.pk}/commands/"
    body = {"type": "flip", "args": {"player": 0}, "idempotency_key": "tap-1"}
    first = client.post(url, body, format="json").json()
    second = client.post(url, body, format="json").json()
    assert second["replayed"] is True
    assert [e["seq"] for e in second["events"]] == [e["seq"] for e in first["events"]]
    assert MatchEvent.objects.filter(match=match, type="free_flipped").count() == 1


def test_an_illegal_command_is_a_400_and_stores_nothing(client, match) -> None:
    response = client.post(f"/api/v1/matches/{match.pk}/commands/", {"type": "pass"}, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "not_now"
    assert MatchEvent.objects.filter(match=match).count() == 1


def without_decks(state: dict) -> dict:
    return {
        **state,
        "players": [{k: v for k, v in p.items() if k != "deck"} for p in state["players"]],
    }


def test_undo_reverts_the_last_command(client, match) -> None:
    url = f"/api/v1/matches/{match.pk}/commands/"
    before = Match.objects.get(pk=match.pk).state
    client.post(url, {"type": "deployment_flip"}, format="json")
    response = client.post(url, {"type": "undo"}, format="json")
    assert response.status_code == 200, response.json()
    after = Match.objects.get(pk=match.pk).state
    # All as before but the decks: the flipped cards stay drawn (SPEC §6, test_undo_deck.py).
    assert without_decks(after) == without_decks(before)
    assert all(player["deck"]["drawn"] for player in after["players"])
    again = client.post(url, {"type": "undo"}, format="json")
    assert again.json()["code"] == "nothing_to_undo"


def test_other_users_cannot_see_or_command_a_match(match) -> None:
    other = APIClient()
    other.force_authenticate(UserFactory())
    assert other.get(f"/api/v1/matches/{match.pk}/").status_code == 404
    response = other.post(
        f"/api/v1/matches/{match.pk}/commands/",
        {"type": "flip", "args": {"player": 0}},
        format="json",
    )
    assert response.status_code == 404


def test_spectators_read_with_the_token(match, api_client) -> None:
    url = f"/api/v1/matches/{match.pk}/"
    assert api_client.get(url).status_code == 404
    assert api_client.get(url, {"spectate": match.spectator_token}).status_code == 200
    assert api_client.get(f"{url}events/", {"spectate": match.spectator_token}).status_code == 200


def test_the_log_reads_as_a_timeline(client, match) -> None:
    client.post(f"/api/v1/matches/{match.pk}/commands/", {"type": "deployment_flip"}, format="json")
    events = client.get(f"/api/v1/matches/{match.pk}/events/", {"after": 1}).json()["events"]
    assert events[0]["text"].startswith("Deployment flip:")


def test_command_list_describes_every_command(api_client, deathmatch) -> None:
    commands = api_client.get("/api/v1/systems/deathmatch/commands/").json()
    types = {command["type"] for command in commands}
    assert {"flip", "ranged_attack", "undo", "reroll", "accept"} <= types
    flip = next(c for c in commands if c["type"] == "flip")
    assert [a["name"] for a in flip["args"]][:2] == ["player", "boost"]


def test_last_man_standing_checks_teams_with_its_mech_bonus(client, user) -> None:
    """+0.5 ARP per Mech (rounded up) only in Last Man Standing: a team that spends it is
    legal there and refused in another mode."""
    mech_team = small_team(
        "phalanx",
        name="Koloss",
        entries=[
            {"profile": "phalanx-hauptmann-brandt", "items": []},
            {"profile": "phalanx-schildtraeger", "items": []},
            {"profile": "phalanx-schreitpanzer-koloss", "items": []},
        ],
    )
    pool = client.post("/api/v1/rosters/validate/", mech_team, format="json").json()["totals"][
        "arp_pool"
    ]
    # Spend the pool plus the one ARP the bonus adds: 1-ARP cards within their limits.
    per_fighter = ["medkit", "wurfhaken", "kampfstimulanzien", "zielerfassungs-implantat"]
    left = pool + 1
    for entry in mech_team["entries"]:
        entry["items"] = per_fighter[: min(left, len(per_fighter))]
        left -= len(entry["items"])
    assert left == 0
    mech_team["settings"] = {"game_size": 3, "last_man_standing": True}
    koloss = roster_for(user, mech_team)
    other = roster_for(user, small_team("shelzahav"))
    body = {
        "system": "deathmatch",
        "players": [{"roster": koloss.pk}, {"roster": other.pk}],
        "settings": {"game_size": 3, "gadgets": False},
    }
    refused = client.post("/api/v1/matches/", {**body, "mission": "deathmatch"}, format="json")
    assert refused.status_code == 400
    assert refused.json()["code"] == "roster_illegal"
    accepted = client.post(
        "/api/v1/matches/", {**body, "mission": "last-man-standing"}, format="json"
    )
    assert accepted.status_code == 201, accepted.json()


def test_a_flip_reports_its_cards_result_and_reshuffle(client, match) -> None:
    """api.md: the flip command reports the cards drawn, the result and whether the deck was
    reshuffled."""
    url = f"/api/v1/matches/{match.pk}/commands/"
    response = client.post(url, {"type": "flip", "args": {"player": 0, "boost": 1}}, format="json")
    assert response.status_code == 200, response.json()
    (event,) = [e for e in response.json()["events"] if e["type"] == "free_flipped"]
    data = event["data"]
    cards = [card["value"] for card in data["flip"]["cards"]]
    assert len(cards) == 2
    assert data["result"] == max(cards)
    assert data["flip"]["reshuffled"] is False


def test_legal_commands_answer_what_the_table_may_send_and_why_not(client, match) -> None:
    response = client.get(f"/api/v1/matches/{match.pk}/legal/")
    assert response.status_code == 200
    body = response.json()
    assert body["seq"] == match.seq
    commands = {(c["type"], c["legal"]): c for c in body["commands"]}
    # A new match without gadgets begins with the deployment flip: offered and legal.
    assert ("deployment_flip", True) in commands
    refused = [c for c in body["commands"] if not c["legal"]]
    assert all(c["code"] and c["message"] for c in refused)
    legal = next(c for c in body["commands"] if c["legal"] and c["type"] == "deployment_flip")
    sent = client.post(
        f"/api/v1/matches/{match.pk}/commands/",
        {"type": legal["type"], "args": legal["args"], "expected_seq": match.seq},
        format="json",
    )
    assert sent.status_code == 200


def test_legal_commands_are_private_to_the_match(deathmatch, match) -> None:
    outsider = APIClient()
    outsider.force_authenticate(UserFactory())
    assert outsider.get(f"/api/v1/matches/{match.pk}/legal/").status_code == 404
