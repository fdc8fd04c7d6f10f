"""Undo through the API never rewinds a deck (SPEC §6 "Seen cards stay seen"; Deathmatch
rulebook l. 217 "verdeckter Stapel", l. 243 "Das zweite Ergebnis ist immer bindend"): the
generic undo asks the engine what the undone command revealed (``undo_events``) and logs it
after the undo marker, so the log still replays to the stored state."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from apps.matches.models import UNDO_EVENT, Match, MatchEvent
from apps.matches.selectors import can_undo, engine_for, match_state, undone_groups_of
from apps.matches.services import match_rebuilt_state
from tests.matches.factories import api_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(deathmatch, user) -> APIClient:  # noqa: ARG001 - the catalogue must be loaded
    return api_for(user)


def send(client: APIClient, match: Match, type_: str, **args: Any) -> dict[str, Any]:
    response = client.post(
        f"/api/v1/matches/{match.pk}/commands/", {"type": type_, "args": args}, format="json"
    )
    body: dict[str, Any] = response.json()
    assert response.status_code == 200, body
    return body


def state(match: Match) -> Any:
    match.refresh_from_db()
    return match_state(match)


def deck(match: Match, player: int) -> Any:
    return state(match).players[player].deck


def replays(match: Match) -> bool:
    match.refresh_from_db()
    return engine_for(match).dump_state(match_rebuilt_state(match)) == match.state


def test_an_undone_free_flip_leaves_its_card_drawn(client, match) -> None:
    before = deck(match, 0)
    flipped = send(client, match, "flip", player=0)
    card = flipped["events"][0]["data"]["result"]
    assert card == before.above_turn[0]
    after_flip = deck(match, 0)
    send(client, match, "undo")
    # The state is back before the flip, but the deck is not: the card stays seen.
    assert state(match).open_free_flip is None
    assert deck(match, 0) == after_flip
    assert replays(match)
    again = send(client, match, "flip", player=0)
    assert again["events"][0]["data"]["flip"]["cards"][0]["value"] == before.above_turn[1]
    assert replays(match)


def test_undo_logs_the_kept_decks_after_its_marker_and_undoes_commands_not_itself(
    client, match
) -> None:
    send(client, match, "deployment_flip")
    drawn = (deck(match, 0), deck(match, 1))
    send(client, match, "flip", player=1)
    flipped = deck(match, 1)
    send(client, match, "undo")
    rows = list(MatchEvent.objects.filter(match=match).order_by("seq"))
    marker, kept = rows[-2], rows[-1]
    assert (marker.type, kept.type) == (UNDO_EVENT, "decks_kept")
    assert kept.group == marker.group
    assert deck(match, 1) == flipped
    # The next undo undoes the deployment flip (not the kept decks); the decks stay as drawn.
    send(client, match, "undo")
    assert state(match).awaiting == "deployment_flip"
    assert (deck(match, 0), deck(match, 1)) == (drawn[0], flipped)
    assert replays(match)
    refused = client.post(
        f"/api/v1/matches/{match.pk}/commands/", {"type": "undo"}, format="json"
    ).json()
    assert refused["code"] == "nothing_to_undo"


def test_the_kept_decks_are_hidden_from_the_log(client, match) -> None:
    send(client, match, "flip", player=0)
    send(client, match, "undo")
    events = client.get(f"/api/v1/matches/{match.pk}/events/", {"after": 1}).json()["events"]
    kept = next(event for event in events if event["type"] == "decks_kept")
    assert "above_turn" not in str(kept["data"])
    assert kept["text"]


def test_the_undo_button_is_gone_when_only_kept_decks_are_left(client, match) -> None:
    # Found by walking every tracker form: after undoing the only command, the decks the undo
    # kept made the page offer "Undo" again, which then answered "There is nothing to undo."
    send(client, match, "flip", player=0)
    match.refresh_from_db()
    assert can_undo(match, undone_groups_of(match))
    send(client, match, "undo")
    match.refresh_from_db()
    assert not can_undo(match, undone_groups_of(match))
