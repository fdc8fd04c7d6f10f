"""League results: reporting, confirming, disputing and overriding a game's result, and a
tracked match proposing its result to the league game it was played for. Every function checks
who may do it, in one transaction, and logs what it changed (re-exported by ``services``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.accounts.models import User
from apps.leagues.common import LeagueError as LeagueError
from apps.leagues.common import check_season_open as _season_open
from apps.leagues.common import log_action as _log
from apps.leagues.common import require_user as _user
from apps.leagues.models import (
    LogEntry,
    Pairing,
    Result,
    Round,
    Season,
)

# The round writes live in apps.leagues.rounds; callers keep using services.round_*.
from apps.leagues.rounds import round_discard as round_discard
from apps.leagues.rounds import round_pair as round_pair
from apps.leagues.rounds import round_publish as round_publish
from apps.leagues.rounds import round_swap as round_swap
from apps.leagues.selectors import (
    AnyUser,
    LeagueAccess,
    counts_from,
    league_access,
    pairing_get,
)
from apps.notifications import services as notifications


def _check_numbers(outcome: str, vp_a: int, vp_b: int) -> None:
    if outcome not in Result.Outcome.values:
        raise LeagueError("invalid_outcome", _("Say who won: a, b or draw."))
    if not (0 <= vp_a <= 9999 and 0 <= vp_b <= 9999):
        raise LeagueError("invalid_vp", _("Victory points are whole numbers from 0 to 9999."))


def _side_of(pairing: Pairing, user_id: int | None) -> str:
    """ "a" or "b": the user's side of the pairing; 403 for anyone else."""
    if user_id is not None and pairing.player_a.player_id == user_id:
        return "a"
    if (
        user_id is not None
        and pairing.player_b is not None
        and pairing.player_b.player_id == user_id
    ):
        return "b"
    raise LeagueError(
        "not_your_pairing", _("Only the two players of a game report its result."), 403
    )


def _reportable(pairing: Pairing) -> None:
    _season_open(pairing.round.season)
    if pairing.round.status != Round.Status.PUBLISHED:
        raise LeagueError("round_not_published", _("This round is not published yet."), 409)
    if pairing.player_b_id is None:
        raise LeagueError("bye", _("A bye has no result to report: it scores as a win."))


def _still_answerable(result: Result, season: Season) -> None:
    deadline = counts_from(result, season.confirm_hours)
    if deadline is not None and deadline <= timezone.now():
        raise LeagueError(
            "confirmation_closed",
            _(
                "This result counts: %(hours)d hours passed without an answer. Ask an "
                "organiser to change it."
            )
            % {"hours": season.confirm_hours},
            status=409,
        )


@transaction.atomic
def result_report(
    *, user: AnyUser, key: str, pairing_id: int, outcome: str, vp_a: int, vp_b: int
) -> Result:
    """A player reports their game. The same result reported by the opponent confirms it; a
    different one is refused (dispute it instead). A reporter may correct their own report
    until it is answered; a tracked match's result is the match's, corrected by nobody."""
    access = league_access(user, key)
    pairing = pairing_get(access, pairing_id, lock=True)
    side = _side_of(pairing, access.user_id)
    _reportable(pairing)
    _check_numbers(outcome, vp_a, vp_b)
    season = pairing.round.season
    result: Result | None = getattr(pairing, "result", None)
    now = timezone.now()
    if result is None:
        result = Result(
            pairing=pairing,
            outcome=outcome,
            vp_a=vp_a,
            vp_b=vp_b,
            source=Result.Source.MANUAL,
            reported_side=side,
            reported_by=_user(user),
            reported_at=now,
        )
        try:
            with transaction.atomic():
                result.save()
        except IntegrityError:
            raise _conflict() from None
        notifications.notify_result_reported(result)
        return result
    if result.status != Result.Status.REPORTED:
        raise LeagueError(
            "result_final",
            _("This result is %(status)s; ask an organiser to change it.")
            % {"status": result.get_status_display().lower()},
            status=409,
        )
    _still_answerable(result, season)
    same = (result.outcome, result.vp_a, result.vp_b) == (outcome, vp_a, vp_b)
    if result.reported_side == side and result.source == Result.Source.TRACKED:
        raise _own_report()
    if result.reported_side == side:
        result.outcome, result.vp_a, result.vp_b, result.reported_at = outcome, vp_a, vp_b, now
        result.save(update_fields=["outcome", "vp_a", "vp_b", "reported_at", "updated_at"])
        notifications.notify_result_reported(result)
        return result
    if not same:
        raise _conflict()
    _check_confirmable(result, side)
    return _confirm(result, side, _user(user), now)


def _conflict() -> LeagueError:
    return LeagueError(
        "conflicting_report",
        _(
            "Your opponent has already reported a different result. Confirm theirs, or "
            "dispute it and the organisers decide."
        ),
        status=409,
    )


def _own_report() -> LeagueError:
    return LeagueError(
        "own_report",
        _("You reported this result; your opponent confirms or disputes it."),
        status=403,
    )


def _check_confirmable(result: Result, side: str) -> None:
    """Only the side that did not report confirms. A result no player of the game reported
    (a tracked result from before they named their reporter) is confirmed by nobody: it is
    disputed, or an organiser decides it."""
    if result.reported_side == side:
        raise _own_report()
    if result.reported_side not in ("a", "b"):
        raise LeagueError(
            "no_reporter",
            _(
                "No player of this game reported this result, so it cannot be confirmed: "
                "dispute it, or ask an organiser to decide it."
            ),
            status=403,
        )


def _answerable(access: LeagueAccess, pairing_id: int) -> tuple[Pairing, Result, str]:
    pairing = pairing_get(access, pairing_id, lock=True)
    side = _side_of(pairing, access.user_id)
    _reportable(pairing)
    result: Result | None = getattr(pairing, "result", None)
    if result is None:
        raise LeagueError("no_report", _("Nobody has reported this game yet."), status=409)
    if result.status != Result.Status.REPORTED:
        raise LeagueError(
            "result_final",
            _("This result is %(status)s; ask an organiser to change it.")
            % {"status": result.get_status_display().lower()},
            status=409,
        )
    if result.reported_side == side:
        raise _own_report()
    _still_answerable(result, pairing.round.season)
    return pairing, result, side


def _confirm(result: Result, side: str, user: User, now: datetime) -> Result:
    result.status = Result.Status.CONFIRMED
    result.confirmed_side, result.confirmed_by, result.confirmed_at = side, user, now
    result.save()
    return result


@transaction.atomic
def result_confirm(*, user: AnyUser, key: str, pairing_id: int) -> Result:
    """The opponent of the reporter confirms (for a tracked match: the opponent of the player
    who opened it). Nobody else ever confirms; organisers decide instead."""
    access = league_access(user, key)
    _pairing, result, side = _answerable(access, pairing_id)
    _check_confirmable(result, side)
    return _confirm(result, side, _user(user), timezone.now())


@transaction.atomic
def result_dispute(*, user: AnyUser, key: str, pairing_id: int, reason: str) -> Result:
    """The opponent of the reporter says the result is wrong; the organisers decide."""
    access = league_access(user, key)
    pairing, result, _side = _answerable(access, pairing_id)
    reason = reason.strip()
    if not reason or len(reason) > 500:
        raise LeagueError(
            "reason_required", _("Say in a few words what is wrong (up to 500 characters).")
        )
    result.status = Result.Status.DISPUTED
    result.disputed_by, result.disputed_at, result.dispute_reason = (
        _user(user),
        timezone.now(),
        reason,
    )
    result.save()
    _log(
        access.league,
        LogEntry.Action.RESULT_DISPUTED,
        actor=user,
        season=pairing.round.season,
        round=pairing.round.number,
        game=_game_text(pairing, result),
        reason=reason,
    )
    notifications.notify_result_disputed(result, actor_id=access.user_id)
    return result


def _game_text(pairing: Pairing, result: Result | None) -> str:
    """The game as it stood, in the log: names are kept as they were, in no language."""
    b = pairing.player_b
    a_name = pairing.player_a.player.shown_name
    b_name = b.player.shown_name if b else ""
    if result is None:
        return f"{a_name} – {b_name}"
    marks = {"a": ("W", "L"), "b": ("L", "W"), "draw": ("D", "D")}[result.outcome]
    return f"{a_name} {result.vp_a} ({marks[0]}) – {b_name} {result.vp_b} ({marks[1]})"


@transaction.atomic
def result_override(
    *,
    user: AnyUser,
    key: str,
    pairing_id: int,
    outcome: str,
    vp_a: int,
    vp_b: int,
    reason: str,
) -> Result:
    """An organiser sets a game's result, deciding a dispute or correcting any result; the
    reason and the result before are logged."""
    access = league_access(user, key)
    access.require_organiser()
    pairing = pairing_get(access, pairing_id, lock=True)
    _season_open(pairing.round.season)
    if pairing.round.status != Round.Status.PUBLISHED:
        raise LeagueError("round_not_published", _("This round is not published yet."), 409)
    if pairing.player_b_id is None:
        raise LeagueError("bye", _("A bye has no result to report: it scores as a win."))
    _check_numbers(outcome, vp_a, vp_b)
    reason = reason.strip()
    if not reason or len(reason) > 500:
        raise LeagueError(
            "reason_required", _("Give the reason for the decision (up to 500 characters).")
        )
    now = timezone.now()
    result: Result | None = getattr(pairing, "result", None)
    before = _game_text(pairing, result) if result else ""
    was_disputed = result is not None and result.status == Result.Status.DISPUTED
    if result is None:
        result = Result(
            pairing=pairing,
            source=Result.Source.ORGANISER,
            reported_side="",
            reported_by=_user(user),
            reported_at=now,
        )
    result.outcome, result.vp_a, result.vp_b = outcome, vp_a, vp_b
    result.status = Result.Status.DECIDED
    result.decided_by, result.decided_at, result.decision_reason = _user(user), now, reason
    result.save()
    _log(
        access.league,
        LogEntry.Action.RESULT_OVERRIDDEN,
        actor=user,
        season=pairing.round.season,
        round=pairing.round.number,
        before=before,
        after=_game_text(pairing, result),
        reason=reason,
        dispute=was_disputed,
    )
    notifications.notify_result_decided(result, actor_id=access.user_id)
    return result


# --- Tracked matches --------------------------------------------------------------------------


def league_result_propose_from_match(
    *,
    system_slug: str,
    user_ids: tuple[int, int],
    winner_user_id: int | None,
    vp_by_user: Mapping[int, int],
    match_url: str,
    reporter_user_id: int,
    pairing_id: int | None = None,
) -> Result | None:
    """Record a finished tracked match as the result of the two players' open league game.

    A match started from a game's pairing (``pairing_id``) reports to that game only. Otherwise
    the open game is the oldest pairing between the two users (either order) in a published
    round of a running season of a league of ``system_slug`` that has no result yet or only an
    unanswered report. The tracked result is then a report by ``reporter_user_id`` (the player
    who opened the match; the caller makes sure both players held their own seats): only the
    *other* player confirms or disputes it, or an organiser decides it, and it never counts on
    its own. A player's report already waiting that says the same is kept and gets the match
    link; one that says otherwise is marked disputed for the organisers, with the match link as
    evidence.

    Returns the result, or None when the users have no such game or the input does not
    describe one (unknown system, the same user twice, a winner or reporter who did not play).
    Never raises for "no league": a match played outside any league is the common case.
    """
    players = _tracked_players(user_ids, winner_user_id, vp_by_user)
    if players is None or reporter_user_id not in players[:2]:
        return None
    first, second, vp = players
    candidates = (
        Pairing.objects.filter(
            round__status=Round.Status.PUBLISHED,
            round__season__status=Season.Status.RUNNING,
            round__season__league__system__slug=system_slug,
        )
        .filter(
            Q(player_a__player_id=first, player_b__player_id=second)
            | Q(player_a__player_id=second, player_b__player_id=first)
        )
        .order_by("round__published_at", "round__number", "pk")
        .values_list("pk", flat=True)
    )
    # A game started from its pairing takes that match's result only, never a friendly's.
    candidates = (
        candidates.filter(pk=pairing_id)
        if pairing_id is not None
        else candidates.filter(match__isnull=True)
    )
    with transaction.atomic():
        for pairing_id in candidates:
            open_game = _open_game(pairing_id)
            if open_game is None:
                continue
            pairing, existing = open_game
            a_user = pairing.player_a.player_id
            b_user = pairing.player_b.player_id if pairing.player_b else None
            outcome = _tracked_outcome(winner_user_id, a_user)
            vp_a, vp_b = vp.get(a_user, 0), vp.get(b_user or 0, 0)
            report = _TrackedReport(
                outcome, vp_a, vp_b, _safe_link(match_url), reporter_user_id, a_user
            )
            return _tracked(pairing, existing, report)
    return None


@dataclass(frozen=True)
class _TrackedReport:
    outcome: str
    vp_a: int
    vp_b: int
    match_url: str
    reporter: int
    a_user: int

    @property
    def side(self) -> str:
        return "a" if self.reporter == self.a_user else "b"


def _tracked_players(
    user_ids: tuple[int, int], winner_user_id: int | None, vp_by_user: Mapping[int, int]
) -> tuple[int, int, dict[int, int]] | None:
    """The two users and their VP as whole numbers, or None when they do not describe a game
    between two players (the same user twice, a winner who did not play, VP out of range).
    The input comes from a match engine, so it is checked, not trusted."""
    try:
        first, second = (int(u) for u in user_ids)
        vp = {int(k): int(v) for k, v in vp_by_user.items()}
    except (TypeError, ValueError):
        return None
    if first == second or winner_user_id not in (None, first, second):
        return None
    if any(not 0 <= vp.get(u, 0) <= 9999 for u in (first, second)):
        return None
    return first, second, vp


def _open_game(pairing_id: int) -> tuple[Pairing, Result | None] | None:
    """The pairing, locked, with its result, while it still takes a tracked result (no result
    yet, or a report waiting for an answer); None otherwise or when it is gone. Call inside
    a transaction."""
    locked = Pairing.objects.select_for_update().filter(pk=pairing_id).first()
    if locked is None:
        return None
    pairing = Pairing.objects.select_related(
        "round__season__league", "player_a__player", "player_b__player", "result"
    ).get(pk=locked.pk)
    existing: Result | None = getattr(pairing, "result", None)
    if existing is not None and existing.status != Result.Status.REPORTED:
        return None
    return pairing, existing


def _tracked_outcome(winner_user_id: int | None, a_user: int) -> str:
    """The outcome from player A's side of the pairing: the tracked match knows users only."""
    if winner_user_id is None:
        return Result.Outcome.DRAW
    return Result.Outcome.A if winner_user_id == a_user else Result.Outcome.B


def _safe_link(url: str) -> str:
    """The match link as shown on the game page: a path on this site or an http(s) address,
    never a ``javascript:`` or other scheme a link could run."""
    url = str(url)[:500]
    if url.startswith("/") and not url.startswith("//"):
        return url
    return url if url.startswith(("https://", "http://")) else ""


def _tracked(pairing: Pairing, existing: Result | None, report: _TrackedReport) -> Result:
    now = timezone.now()
    league = pairing.round.season.league
    outcome, vp_a, vp_b, match_url = report.outcome, report.vp_a, report.vp_b, report.match_url
    if existing is None:
        result = Result(
            pairing=pairing,
            outcome=outcome,
            vp_a=vp_a,
            vp_b=vp_b,
            source=Result.Source.TRACKED,
            reported_side=report.side,
            reported_by_id=report.reporter,
            reported_at=now,
            match_url=match_url,
        )
        result.full_clean()
        result.save()
        notifications.notify_result_reported(result)
        return result
    existing.match_url = match_url
    if (existing.outcome, existing.vp_a, existing.vp_b) == (outcome, vp_a, vp_b):
        existing.save(update_fields=["match_url", "updated_at"])
        return existing
    existing.status = Result.Status.DISPUTED
    existing.disputed_at = now
    existing.dispute_reason = "tracked match: " + _game_text(
        pairing, Result(outcome=outcome, vp_a=vp_a, vp_b=vp_b)
    )
    existing.save()
    _log(
        league,
        LogEntry.Action.RESULT_DISPUTED,
        actor=None,
        season=pairing.round.season,
        round=pairing.round.number,
        game=_game_text(pairing, existing),
        reason=existing.dispute_reason,
        match_url=match_url,
    )
    notifications.notify_result_disputed(existing, actor_id=None)
    return existing
