"""The optional clock of a match: a chess clock (a time budget per player) or a round timer (a
time limit per round), stored on ``Match.clock`` beside the event log, never in it.

Time is the server's: a device only says *what* happened (start, pass the turn, pause), and
the server reads its own clock to settle the running stretch. Undo does not rewind the clock,
and running out of time ends nothing by itself (the players decide; see "End on time").

The stored shape (``Match.clock``; ``{}`` when the match has no clock)::

    {"version": 1, "mode": "chess" | "round", "limit_seconds": 1800,
     "used_ms": [61000, 59000],   # per player: time spent on their turns, settled
     "turn": 0,                   # whose time runs (or ran last, when paused)
     "running": true,
     "since": "2026-11-26T10:00:00.000+00:00",  # start of the running stretch, null if paused
     "round": 1,                  # round timer: the round being timed
     "round_used_ms": 0}          # round timer: time of this round before ``since``

The maths below is pure (``now`` is always passed in); ``match_clock_act`` is the one write.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from apps.accounts.models import User
from apps.matches import tracker_head
from apps.matches.models import Match, MatchStatus
from apps.matches.selectors import match_for_participant
from apps.systems.core.errors import RuleViolation

VERSION = 1
CHESS = "chess"
ROUND = "round"
MODES = (CHESS, ROUND)
MAX_MINUTES = 600  # ten hours: longer than any club evening
ACTIONS = ("start", "switch", "pause", "resume", "next_round", "reset")
# The actions that set a clock running: refused once the match is over.
RUNNING_ACTIONS = ("start", "switch", "resume", "next_round")


class ClockError(RuleViolation):
    """A clock action that cannot be taken (no clock, unknown player, ...): a 400 in the API,
    the fragment with the message on the page. ``message`` is a catalogue msgid."""


@dataclass(frozen=True)
class Clock:
    mode: str
    limit_ms: int
    used_ms: tuple[int, ...]
    turn: int
    running: bool
    since: datetime | None
    round: int = 1
    round_used_ms: int = 0


@dataclass(frozen=True)
class Reading:
    """The clock at one instant: what the tracker shows and the API answers."""

    mode: str
    limit_ms: int
    turn: int
    running: bool
    used_ms: tuple[int, ...]
    remaining_ms: tuple[int, ...]  # chess: each player's budget left; round: the round's, each
    round: int
    round_remaining_ms: int

    @property
    def expired(self) -> tuple[bool, ...]:
        return tuple(left <= 0 for left in self.remaining_ms)


def _ms(moment: datetime) -> datetime:
    """``moment`` cut to whole milliseconds, so every settled stretch is an exact number of
    them and a run of switches loses no time to rounding."""
    return moment.replace(microsecond=moment.microsecond // 1000 * 1000)


def _stretch_ms(clock: Clock, now: datetime) -> int:
    """The running stretch, never negative (a server clock stepped back must not add time)."""
    if not clock.running or clock.since is None:
        return 0
    return max(0, round((_ms(now) - clock.since).total_seconds() * 1000))


def _settled(clock: Clock, now: datetime) -> Clock:
    """The running stretch booked to the player whose turn it is (and to the round); the
    clock keeps running from ``now``, or stays paused."""
    stretch = _stretch_ms(clock, now)
    used = list(clock.used_ms)
    used[clock.turn] += stretch
    return replace(
        clock,
        used_ms=tuple(used),
        round_used_ms=clock.round_used_ms + stretch,
        since=_ms(now) if clock.running else None,
    )


def reading(clock: Clock, now: datetime) -> Reading:
    settled = _settled(clock, now)
    round_left = settled.limit_ms - settled.round_used_ms
    if clock.mode == CHESS:
        remaining = tuple(settled.limit_ms - used for used in settled.used_ms)
    else:
        remaining = tuple(round_left for _ in settled.used_ms)
    return Reading(
        mode=clock.mode,
        limit_ms=clock.limit_ms,
        turn=clock.turn,
        running=clock.running,
        used_ms=settled.used_ms,
        remaining_ms=remaining,
        round=clock.round,
        round_remaining_ms=round_left,
    )


def _player(clock_players: int, player: int | None) -> int:
    if player is None or not 0 <= player < clock_players:
        raise ClockError("unknown_player", gettext_noop("This match has no such player."))
    return player


def clock_start(
    *, mode: str, minutes: int | None, players: int, first: int | None, now: datetime
) -> Clock:
    """A new clock, running for ``first`` (default the first player) from ``now``."""
    if mode not in MODES:
        raise ClockError("invalid_mode", gettext_noop("Choose a chess clock or a round timer."))
    if minutes is None or not 1 <= minutes <= MAX_MINUTES:
        raise ClockError(
            "invalid_minutes", gettext_noop("Give the minutes as a whole number from 1 to 600.")
        )
    return Clock(
        mode=mode,
        limit_ms=minutes * 60_000,
        used_ms=(0,) * players,
        turn=_player(players, 0 if first is None else first),
        running=True,
        since=_ms(now),
    )


def clock_switch(clock: Clock, *, to: int | None, now: datetime) -> Clock:
    """The turn passes to ``to``: the stretch so far is booked to the player who had it and
    ``to``'s time runs (a paused clock starts). Naming the player (not "the next one") makes
    two tablets tapping the same clock at once count once."""
    to = _player(len(clock.used_ms), to)
    if clock.running and clock.turn == to:
        return clock
    settled = _settled(clock, now)
    return replace(settled, turn=to, running=True, since=_ms(now))


def clock_pause(clock: Clock, *, now: datetime) -> Clock:
    if not clock.running:
        return clock
    return replace(_settled(clock, now), running=False, since=None)


def clock_resume(clock: Clock, *, now: datetime) -> Clock:
    if clock.running:
        return clock
    return replace(clock, running=True, since=_ms(now))


def clock_next_round(clock: Clock, *, round_: int | None, now: datetime) -> Clock:
    """Round timer: the next round's time starts (for the player whose turn it is).
    ``round_`` names the round to start, so a double tap starts it once."""
    if clock.mode != ROUND:
        raise ClockError("not_round_timer", gettext_noop("Only a round timer has rounds."))
    if round_ is not None and round_ <= clock.round:
        return clock
    settled = _settled(clock, now)
    return replace(settled, round=clock.round + 1, round_used_ms=0, running=True, since=_ms(now))


# --- Stored form ------------------------------------------------------------------------------


def clock_to_json(clock: Clock) -> dict[str, Any]:
    return {
        "version": VERSION,
        "mode": clock.mode,
        "limit_seconds": clock.limit_ms // 1000,
        "used_ms": list(clock.used_ms),
        "turn": clock.turn,
        "running": clock.running,
        "since": clock.since.isoformat(timespec="milliseconds") if clock.since else None,
        "round": clock.round,
        "round_used_ms": clock.round_used_ms,
    }


def clock_from_json(data: Any, players: int) -> Clock | None:
    """The stored clock, or ``None`` when the match has none (or an unreadable one: a clock
    is a convenience, and a broken one must not break the tracker)."""
    if not isinstance(data, dict) or data.get("mode") not in MODES:
        return None
    try:
        used = tuple(int(value) for value in data["used_ms"])
        since = datetime.fromisoformat(data["since"]) if data.get("since") else None
        clock = Clock(
            mode=data["mode"],
            limit_ms=int(data["limit_seconds"]) * 1000,
            used_ms=(used + (0,) * players)[:players],
            turn=int(data["turn"]),
            running=bool(data["running"]) and since is not None,
            since=since.astimezone(UTC) if since else None,
            round=int(data.get("round", 1)),
            round_used_ms=int(data.get("round_used_ms", 0)),
        )
    except (KeyError, TypeError, ValueError):
        return None
    return clock if 0 <= clock.turn < players else None


def clock_apply(
    clock: Clock | None,
    *,
    action: str,
    players: int,
    now: datetime,
    mode: str = "",
    minutes: int | None = None,
    player: int | None = None,
    round_: int | None = None,
) -> Clock | None:
    """One action on the clock (``None``: no clock); ``reset`` removes it."""
    if action == "start":
        return clock_start(mode=mode, minutes=minutes, players=players, first=player, now=now)
    if action == "reset":
        return None
    if action not in ACTIONS:
        raise ClockError("unknown_action", gettext_noop("This clock has no such button."))
    if clock is None:
        raise ClockError("no_clock", gettext_noop("This match has no clock: set one up first."))
    if action == "switch":
        return clock_switch(clock, to=player, now=now)
    if action == "pause":
        return clock_pause(clock, now=now)
    if action == "resume":
        return clock_resume(clock, now=now)
    return clock_next_round(clock, round_=round_, now=now)


# --- The write --------------------------------------------------------------------------------


def match_clock(match: Match) -> Clock | None:
    return clock_from_json(match.clock, match.players.count())


def clock_now(match: Match) -> datetime:
    """The instant a match's clock is read at: a finished match's clock stands still at the
    end of the game (nobody is left to pause it)."""
    return match.finished_at or timezone.now()


@transaction.atomic
def match_clock_act(
    *,
    user: User,
    match_id: int,
    action: str,
    mode: str = "",
    minutes: int | None = None,
    player: int | None = None,
    round_: int | None = None,
    now: datetime | None = None,
) -> Match:
    """Apply one clock action for a participant (404 for anyone else, as for commands),
    holding the match row lock: two tablets tapping at once are applied one after the other,
    each settling the stretch the other left, so no time is lost or counted twice."""
    match = match_for_participant(user, match_id, lock=True)
    if match.status == MatchStatus.FINISHED and action in (
        "start",
        "switch",
        "resume",
        "next_round",
    ):
        raise ClockError("game_over", gettext_noop("The match is over: its clock stands still."))
    players = match.players.count()
    clock = clock_apply(
        clock_from_json(match.clock, players),
        action=action,
        players=players,
        now=now or timezone.now(),
        mode=mode,
        minutes=minutes,
        player=player,
        round_=round_,
    )
    match.clock = clock_to_json(clock) if clock is not None else {}
    match.save(update_fields=["clock", "updated_at"])
    tracker_head.renew_on_commit(match.pk)
    return match
