"""The clock's maths, with the time passed in: no database, no sleeping."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from apps.common.clock_face import clock_digits as digits
from apps.matches.clock import (
    Clock,
    ClockError,
    clock_apply,
    clock_from_json,
    clock_next_round,
    clock_pause,
    clock_resume,
    clock_start,
    clock_switch,
    clock_to_json,
    reading,
)

T0 = datetime(2026, 11, 26, 10, 0, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def chess(minutes: int = 10, players: int = 2) -> Clock:
    return clock_start(mode="chess", minutes=minutes, players=players, first=0, now=T0)


def test_a_chess_clock_counts_down_only_the_running_player() -> None:
    now = reading(chess(), at(61))
    assert now.remaining_ms == (600_000 - 61_000, 600_000)
    assert now.used_ms == (61_000, 0)
    assert now.turn == 0 and now.running


def test_switching_books_the_stretch_to_the_player_who_had_the_turn() -> None:
    clock = clock_switch(chess(), to=1, now=at(30))
    clock = clock_switch(clock, to=0, now=at(75))
    clock = clock_switch(clock, to=1, now=at(80))
    assert reading(clock, at(100)).used_ms == (35_000, 65_000)
    # However often the turn passes, the times add up to the time since the start.
    assert sum(reading(clock, at(100)).used_ms) == 100_000


def test_tapping_the_clock_already_running_changes_nothing() -> None:
    clock = clock_switch(chess(), to=1, now=at(30))
    assert clock_switch(clock, to=1, now=at(31)) == clock


def test_a_paused_clock_stands_still_and_resumes_where_it_stopped() -> None:
    clock = clock_pause(chess(), now=at(20))
    assert reading(clock, at(500)).remaining_ms == (580_000, 600_000)
    assert clock_pause(clock, now=at(30)) == clock
    clock = clock_resume(clock, now=at(500))
    assert reading(clock, at(510)).remaining_ms == (570_000, 600_000)


def test_switching_a_paused_clock_starts_the_named_player() -> None:
    clock = clock_switch(clock_pause(chess(), now=at(20)), to=1, now=at(90))
    assert clock.running and clock.turn == 1
    assert reading(clock, at(100)).used_ms == (20_000, 10_000)


def test_time_up_is_reported_and_ends_nothing() -> None:
    now = reading(chess(minutes=1), at(61))
    assert now.expired == (True, False)
    assert now.remaining_ms[0] == -1_000
    assert now.running
    assert digits(now.remaining_ms[0]) == "0:00"


def test_a_server_clock_stepping_back_adds_no_time() -> None:
    assert reading(chess(), at(-5)).used_ms == (0, 0)


def test_a_round_timer_counts_the_round_and_restarts_with_the_next() -> None:
    clock = clock_start(mode="round", minutes=5, players=2, first=None, now=T0)
    clock = clock_switch(clock, to=1, now=at(100))
    assert reading(clock, at(250)).remaining_ms == (50_000, 50_000)
    assert reading(clock, at(301)).expired == (True, True)
    clock = clock_next_round(clock, round_=2, now=at(320))
    assert clock.round == 2
    assert reading(clock, at(330)).round_remaining_ms == 290_000
    # The same "start round 2" again (a double tap) starts nothing.
    assert clock_next_round(clock, round_=2, now=at(340)) == clock


def test_a_chess_clock_has_no_rounds() -> None:
    with pytest.raises(ClockError) as refused:
        clock_next_round(chess(), round_=None, now=at(1))
    assert refused.value.code == "not_round_timer"


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"mode": "hourglass", "minutes": 5}, "invalid_mode"),
        ({"mode": "chess", "minutes": 0}, "invalid_minutes"),
        ({"mode": "chess", "minutes": None}, "invalid_minutes"),
        ({"mode": "chess", "minutes": 601}, "invalid_minutes"),
        ({"mode": "chess", "minutes": 5, "player": 2}, "unknown_player"),
    ],
)
def test_a_clock_set_up_wrongly_is_refused(fields: dict, code: str) -> None:
    with pytest.raises(ClockError) as refused:
        clock_apply(None, action="start", players=2, now=T0, **fields)
    assert refused.value.code == code


def test_actions_need_a_clock_and_a_known_player() -> None:
    with pytest.raises(ClockError) as refused:
        clock_apply(None, action="pause", players=2, now=T0)
    assert refused.value.code == "no_clock"
    with pytest.raises(ClockError) as refused:
        clock_apply(chess(), action="switch", players=2, now=T0, player=5)
    assert refused.value.code == "unknown_player"
    with pytest.raises(ClockError) as refused:
        clock_apply(chess(), action="explode", players=2, now=T0)
    assert refused.value.code == "unknown_action"
    assert clock_apply(chess(), action="reset", players=2, now=T0) is None


def test_the_stored_form_round_trips_to_the_millisecond() -> None:
    clock = clock_switch(chess(), to=1, now=T0 + timedelta(microseconds=123_456_789))
    stored = clock_to_json(clock)
    assert stored["used_ms"] == [123_456, 0]
    assert stored["since"] == "2026-11-26T10:02:03.456+00:00"
    assert clock_from_json(stored, 2) == clock


@pytest.mark.parametrize(
    "stored", [{}, None, {"mode": "chess"}, {"mode": "chess", "used_ms": "x"}, []]
)
def test_no_clock_or_an_unreadable_one_reads_as_none(stored: object) -> None:
    assert clock_from_json(stored, 2) is None


@pytest.mark.parametrize(
    ("ms", "shown"), [(0, "0:00"), (1, "0:01"), (59_001, "1:00"), (3_600_000, "1:00:00")]
)
def test_the_digits_round_up_to_the_second(ms: int, shown: str) -> None:
    assert digits(ms) == shown
