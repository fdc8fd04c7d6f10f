"""The command view tells the offline queue (static/js/tracker.js) where its command left the
match: X-Skirmish-Command-Seq, the seq right after the command's own events. A replayed key
answers with the board as it is now, which another device may have moved on since; the header
still names the command's own seq, so the queue can see that and not chain its next tap on it."""

from __future__ import annotations

import pytest
from django.test import Client

from apps.catalog.models import GameSystem
from apps.matches import services
from apps.matches.models import Match
from tests.matches.grundregeln import grund_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(user, deathmatch) -> Match:  # noqa: ANN001, ARG001 - deathmatch loads every catalogue
    return grund_match(user, GameSystem.objects.get(slug="grundregeln"))


def roll(client: Client, match: Match, key: str, expected: int) -> object:
    data = {
        "command": "roll",
        "args.dice:int": "1",
        "expected_seq": str(expected),
        "idempotency_key": key,
    }
    return client.post(f"/matches/{match.pk}/command/", data, HTTP_HX_REQUEST="true")


def test_an_applied_command_names_its_own_seq(client: Client, user, match: Match) -> None:  # noqa: ANN001
    client.force_login(user)
    seq = match.seq
    response = roll(client, match, "k1", seq)
    assert response.status_code == 200
    assert response["X-Skirmish-Command-Seq"] == str(seq + 1)
    assert f'data-seq="{seq + 1}"' in response.content.decode()


def test_a_replay_after_another_device_moved_names_the_first_seq(
    client: Client,
    user,  # noqa: ANN001
    match: Match,
) -> None:
    client.force_login(user)
    seq = match.seq
    roll(client, match, "k1", seq)
    services.match_apply_command(
        user=user,
        match_id=match.pk,
        command_type="roll",
        args={"dice": 1},
        expected_seq=seq + 1,
        idempotency_key="other-device",
    )
    # The answer to k1 was lost; the queue sends it again, with the seq it was sent with.
    response = roll(client, match, "k1", seq)
    assert response.status_code == 200
    assert response["X-Skirmish-Command-Seq"] == str(seq + 1)
    assert f'data-seq="{seq + 2}"' in response.content.decode()
    match.refresh_from_db()
    assert match.seq == seq + 2


def test_a_stale_command_carries_no_seq_of_its_own(client: Client, user, match: Match) -> None:  # noqa: ANN001
    client.force_login(user)
    response = roll(client, match, "k1", match.seq - 1)
    assert response.status_code in (409, 422)
    assert "X-Skirmish-Command-Seq" not in response
