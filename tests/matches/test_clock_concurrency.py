"""Two tablets tapping the clock at once (PostgreSQL row locks, real threads): every stretch of
time is booked once, to the player whose turn it was, so none is lost or counted twice."""

from __future__ import annotations

import threading
from datetime import datetime
from typing import Any

import pytest
from django.db import connection

from apps.matches.clock import match_clock_act
from apps.matches.models import Match
from tests.matches.factories import small_match
from tests.matches.test_concurrency import _run

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="row locks need PostgreSQL; SQLite serialises writers itself (CI runs PostgreSQL)",
    ),
]

SWITCHES = 30


def _since(clock: dict[str, Any]) -> datetime:
    return datetime.fromisoformat(clock["since"])


def test_simultaneous_switches_lose_no_time(deathmatch, user) -> None:
    match = small_match(user, deathmatch)
    started = match_clock_act(
        user=user, match_id=match.pk, action="start", mode="chess", minutes=60, player=0
    )
    seen: list[dict[str, Any]] = [started.clock]
    lock = threading.Lock()

    def tablet(index: int) -> None:
        # Each tablet keeps giving the turn to its own player, so nearly every press settles
        # a stretch the other tablet's press began.
        for _ in range(SWITCHES):
            clock = match_clock_act(
                user=user, match_id=match.pk, action="switch", player=index
            ).clock
            with lock:
                seen.append(clock)

    assert _run(tablet, 2) == []
    # Applied one after the other, the answers form one history: each state is the one
    # before it with the stretch between them booked to the player who had the turn. Two
    # presses decided on the same old state would fork it (and one of them would be lost).
    history = sorted({c["since"]: c for c in seen}.values(), key=_since)
    for before, after in zip(history, history[1:], strict=False):
        expected = list(before["used_ms"])
        stretch = (_since(after) - _since(before)).total_seconds() * 1000
        expected[before["turn"]] += round(stretch)
        assert after["used_ms"] == expected
    assert Match.objects.get(pk=match.pk).clock == history[-1]
    assert len(history) > 2  # the tablets really did take the turn from each other
