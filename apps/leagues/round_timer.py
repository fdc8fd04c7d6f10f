"""The round timer: what a round's timer shows (``round_timer``) and the organisers' actions on
it (start, pause, resume, add or take off minutes, stop).

The timer is stored as an end time while it runs and as the seconds left while it is paused,
so every page computes the same time left from the database alone, with no ticking writes.
Each action locks the season row like the other round writes and goes into the log.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.common.clock_face import clock_digits
from apps.leagues.common import LeagueError, check_season_open
from apps.leagues.common import log_action as _log
from apps.leagues.models import LogEntry, Round
from apps.leagues.models_day import MAX_TIMER_MINUTES
from apps.leagues.selectors import AnyUser, league_access, season_get

DEFAULT_MINUTES = 150


@dataclass(frozen=True)
class RoundTimer:
    """A round's timer as read at ``read_at``: running (``ends_at``) or paused
    (``paused_remaining`` seconds); ``minutes`` is its length."""

    minutes: int
    ends_at: datetime | None
    paused_remaining: int | None
    read_at: datetime = field(default_factory=timezone.now)

    def remaining(self, now: datetime) -> int:
        """Whole seconds left at ``now`` (0 once time is up)."""
        if self.ends_at is None:
            return max(0, self.paused_remaining or 0)
        return max(0, int((self.ends_at - now).total_seconds() + 0.999))

    @property
    def running(self) -> bool:
        return self.ends_at is not None

    @property
    def paused(self) -> bool:
        return self.ends_at is None

    @property
    def seconds_left(self) -> int:
        return self.remaining(self.read_at)

    @property
    def expired(self) -> bool:
        return self.seconds_left == 0

    @property
    def clock(self) -> str:
        """The time left as the page shows it before any script runs: ``1:05:09``, ``4:59``."""
        return clock_digits(self.seconds_left * 1000)


def round_timer(round_: Round, *, now: datetime | None = None) -> RoundTimer | None:
    """The round's timer, or None when no timer was started (or it was stopped)."""
    if round_.timer_minutes is None:
        return None
    if round_.timer_ends_at is None and round_.timer_paused_remaining is None:
        return None
    return RoundTimer(
        minutes=round_.timer_minutes,
        ends_at=round_.timer_ends_at,
        paused_remaining=round_.timer_paused_remaining,
        read_at=now or timezone.now(),
    )


# --- The organisers' actions ----------------------------------------------------------------


def _published_round(user: AnyUser, key: str, season_id: int, number: int) -> Round:
    """The published round, its row locked, for an organiser; 403/404 as elsewhere."""
    access = league_access(user, key)
    access.require_organiser()
    season = season_get(access, season_id, lock=True)
    check_season_open(season)
    round_ = Round.objects.select_for_update().filter(season=season, number=number).first()
    if round_ is None:
        raise LeagueError("unknown_round", _("No such round."), status=404)
    if round_.status != Round.Status.PUBLISHED:
        raise LeagueError(
            "round_not_published", _("Publish the round before starting its timer."), 409
        )
    return round_


def _save(round_: Round, user: AnyUser, action: str, **details: object) -> Round:
    round_.save(update_fields=["timer_minutes", "timer_ends_at", "timer_paused_remaining"])
    season = round_.season
    _log(season.league, action, actor=user, season=season, round=round_.number, **details)
    return round_


def _check_minutes(minutes: int) -> None:
    if not 1 <= minutes <= MAX_TIMER_MINUTES:
        raise LeagueError(
            "invalid_minutes",
            _("A round timer runs from 1 to %d minutes.") % MAX_TIMER_MINUTES,
        )


def _timer_or_refuse(round_: Round) -> RoundTimer:
    timer = round_timer(round_)
    if timer is None:
        raise LeagueError("no_timer", _("This round's timer is not running."), 409)
    return timer


@transaction.atomic
def round_timer_start(
    *, user: AnyUser, key: str, season_id: int, number: int, minutes: int = DEFAULT_MINUTES
) -> Round:
    """Start the round's timer at ``minutes``. A timer already set is refused rather than
    restarted, so a second organiser's click cannot wipe out the time already played."""
    _check_minutes(minutes)
    round_ = _published_round(user, key, season_id, number)
    if round_timer(round_) is not None:
        raise LeagueError(
            "timer_running", _("The timer is already set: stop it first to start again."), 409
        )
    round_.timer_minutes = minutes
    round_.timer_ends_at = timezone.now() + timedelta(minutes=minutes)
    round_.timer_paused_remaining = None
    return _save(round_, user, LogEntry.Action.TIMER_STARTED, minutes=minutes)


@transaction.atomic
def round_timer_pause(*, user: AnyUser, key: str, season_id: int, number: int) -> Round:
    round_ = _published_round(user, key, season_id, number)
    timer = _timer_or_refuse(round_)
    if timer.paused:
        raise LeagueError("timer_paused", _("The timer is already paused."), 409)
    left = timer.remaining(timezone.now())
    round_.timer_ends_at, round_.timer_paused_remaining = None, left
    return _save(round_, user, LogEntry.Action.TIMER_PAUSED, seconds_left=left)


@transaction.atomic
def round_timer_resume(*, user: AnyUser, key: str, season_id: int, number: int) -> Round:
    round_ = _published_round(user, key, season_id, number)
    timer = _timer_or_refuse(round_)
    if timer.running:
        raise LeagueError("timer_not_paused", _("The timer is not paused."), 409)
    left = timer.paused_remaining or 0
    round_.timer_ends_at = timezone.now() + timedelta(seconds=left)
    round_.timer_paused_remaining = None
    return _save(round_, user, LogEntry.Action.TIMER_RESUMED, seconds_left=left)


@transaction.atomic
def round_timer_adjust(
    *, user: AnyUser, key: str, season_id: int, number: int, minutes: int
) -> Round:
    """Add ``minutes`` (negative: take them off); the time left never goes below zero and
    the timer's length stays within 1..600 minutes."""
    if minutes == 0 or abs(minutes) > MAX_TIMER_MINUTES:
        raise LeagueError(
            "invalid_minutes",
            _("Add or take off between 1 and %d minutes.") % MAX_TIMER_MINUTES,
        )
    round_ = _published_round(user, key, season_id, number)
    timer = _timer_or_refuse(round_)
    now = timezone.now()
    left = max(0, timer.remaining(now) + minutes * 60)
    if left > MAX_TIMER_MINUTES * 60:
        raise LeagueError(
            "invalid_minutes",
            _("A round timer runs from 1 to %d minutes.") % MAX_TIMER_MINUTES,
        )
    if timer.running:
        round_.timer_ends_at = now + timedelta(seconds=left)
    else:
        round_.timer_paused_remaining = left
    round_.timer_minutes = min(MAX_TIMER_MINUTES, max(1, timer.minutes + minutes))
    return _save(round_, user, LogEntry.Action.TIMER_ADJUSTED, minutes=minutes)


@transaction.atomic
def round_timer_stop(*, user: AnyUser, key: str, season_id: int, number: int) -> Round:
    round_ = _published_round(user, key, season_id, number)
    _timer_or_refuse(round_)
    round_.timer_minutes = round_.timer_ends_at = round_.timer_paused_remaining = None
    return _save(round_, user, LogEntry.Action.TIMER_STOPPED)


TIMER_ACTIONS = ("start", "pause", "resume", "adjust", "stop")


def round_timer_act(
    *,
    action: str,
    minutes: int | None,
    user: AnyUser,
    key: str,
    season_id: int,
    number: int,
) -> Round:
    """One of ``TIMER_ACTIONS`` by name, as the page's and the API's forms send it:
    ``minutes`` is the length for ``start`` (default 150), the change for ``adjust``."""
    if action == "start":
        return round_timer_start(
            user=user,
            key=key,
            season_id=season_id,
            number=number,
            minutes=DEFAULT_MINUTES if minutes is None else minutes,
        )
    if action == "adjust":
        return round_timer_adjust(
            user=user, key=key, season_id=season_id, number=number, minutes=minutes or 0
        )
    simple = {
        "pause": round_timer_pause,
        "resume": round_timer_resume,
        "stop": round_timer_stop,
    }.get(action)
    if simple is not None:
        return simple(user=user, key=key, season_id=season_id, number=number)
    raise LeagueError("invalid_action", _("Unknown timer action."))
