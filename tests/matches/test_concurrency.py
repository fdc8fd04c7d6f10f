"""Two tablets tapping at once on one match (PostgreSQL row locks, real threads): every command
lands exactly once, in a gapless sequence, and the log still replays to the snapshot."""

from __future__ import annotations

import threading
import uuid

import pytest
from django.db import connection, connections

from apps.matches import services
from apps.matches.models import Match, MatchEvent
from apps.matches.selectors import engine_for
from apps.systems.core.errors import RuleViolation
from tests.matches.factories import small_match

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="row locks need PostgreSQL; SQLite serialises writers itself (CI runs PostgreSQL)",
    ),
]

DEVICES = 4
TAPS = 6


def _run(target, count: int) -> list[BaseException]:  # noqa: ANN001
    start = threading.Barrier(count)
    errors: list[BaseException] = []

    def body(index: int) -> None:
        try:
            start.wait()
            target(index)
        except BaseException as error:  # noqa: BLE001 - reported by the caller's assertion
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=body, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return errors


def test_simultaneous_commands_all_land_once_in_order(deathmatch, user) -> None:
    match = small_match(user, deathmatch)
    keys = [[uuid.uuid4().hex for _ in range(TAPS)] for _ in range(DEVICES)]

    def device(index: int) -> None:
        for key in keys[index]:
            services.match_apply_command(
                user=user,
                match_id=match.pk,
                command_type="flip",
                args={"player": index % 2},
                expected_seq=None,
                idempotency_key=key,
            )

    assert _run(device, DEVICES) == []
    events = list(MatchEvent.objects.filter(match=match).order_by("seq"))
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    flips = [e for e in events if e.type == "free_flipped"]
    assert len(flips) == DEVICES * TAPS
    match.refresh_from_db()
    assert match.seq == len(events)
    engine = engine_for(match)
    assert engine.dump_state(services.match_rebuilt_state(match)) == match.state


def test_a_double_tap_on_two_devices_with_one_key_counts_once(deathmatch, user) -> None:
    match = small_match(user, deathmatch)
    key = uuid.uuid4().hex

    def tap(_index: int) -> None:
        services.match_apply_command(
            user=user,
            match_id=match.pk,
            command_type="flip",
            args={"player": 0},
            expected_seq=1,
            idempotency_key=key,
        )

    assert _run(tap, DEVICES) == []
    assert MatchEvent.objects.filter(match=match, type="free_flipped").count() == 1


def test_racing_commands_on_the_same_seq_one_wins_the_others_are_stale(deathmatch, user) -> None:
    match = small_match(user, deathmatch)
    outcomes: list[str] = []
    lock = threading.Lock()

    def tap(index: int) -> None:
        try:
            services.match_apply_command(
                user=user,
                match_id=match.pk,
                command_type="flip",
                args={"player": index % 2},
                expected_seq=1,
                idempotency_key=None,
            )
            result = "applied"
        except services.StaleCommand:
            result = "stale"
        except RuleViolation as error:
            result = error.code
        with lock:
            outcomes.append(result)

    assert _run(tap, DEVICES) == []
    assert sorted(outcomes) == ["applied"] + ["stale"] * (DEVICES - 1)
    assert Match.objects.get(pk=match.pk).seq == 2
