"""Writes to leagues. Every function checks who may do it through ``league_access`` and runs in
one transaction that locks the row the change hangs on (the season for pairing and joining, the
pairing for results), so two requests at once apply one after the other."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.accounts.models import User
from apps.catalog.models import GameSystem
from apps.leagues.common import LeagueError as LeagueError
from apps.leagues.common import check_season_open as _season_open
from apps.leagues.common import log_action as _log
from apps.leagues.common import require_user as _user
from apps.leagues.models import (
    League,
    LogEntry,
    Pairing,
    Registration,
    Result,
    RosterChange,
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
    league_by_join_code,
    pairing_get,
    season_get,
)
from apps.leagues.standings import TieBreaker
from apps.rosters.documents import roster_document
from apps.rosters.models import Roster
from apps.rosters.selectors import roster_for_owner
from apps.systems.core.registry import registry

JOIN_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud at the club
MAX_PLAYERS_PER_SEASON = 256


def _new_join_code() -> str:
    return "".join(secrets.choice(JOIN_CODE_ALPHABET) for _ in range(8))


# --- Leagues ----------------------------------------------------------------------------------


@transaction.atomic
def league_create(
    *,
    creator: User,
    system: GameSystem,
    name: str,
    description: str = "",
    visibility: str = League.Visibility.MEMBERS,
    sample: bool = False,
) -> League:
    """A new league; its creator is its first organiser."""
    league = League(
        key=secrets.token_urlsafe(9),
        system=system,
        name=name.strip(),
        description=description.strip(),
        visibility=visibility,
        join_code=_new_join_code(),
        sample=sample,
    )
    league.full_clean()
    league.save()
    league.organisers.add(creator)
    return league


@transaction.atomic
def league_update(
    *, user: AnyUser, key: str, name: str, description: str, visibility: str
) -> League:
    access = league_access(user, key, lock=True)
    access.require_organiser()
    league = access.league
    league.name, league.description = name.strip(), description.strip()
    league.visibility = visibility
    league.full_clean()
    league.save(update_fields=["name", "description", "visibility"])
    return league


@transaction.atomic
def league_add_organiser(*, user: AnyUser, key: str, username: str) -> User:
    access = league_access(user, key, lock=True)
    access.require_organiser()
    new = User.objects.filter(username__iexact=username.strip()).first()
    if new is None:
        raise LeagueError("unknown_user", _("There is no user called “%s”.") % username.strip())
    if access.league.organisers.filter(pk=new.pk).exists():
        raise LeagueError("already_organiser", _("%s already organises this league.") % new)
    access.league.organisers.add(new)
    _log(access.league, LogEntry.Action.ORGANISER_ADDED, actor=user, name=new.shown_name)
    return new


@transaction.atomic
def league_new_join_code(*, user: AnyUser, key: str) -> League:
    """A fresh join code; the old one stops working (e.g. after it was passed around)."""
    access = league_access(user, key, lock=True)
    access.require_organiser()
    access.league.join_code = _new_join_code()
    access.league.save(update_fields=["join_code"])
    return access.league


# --- Seasons ----------------------------------------------------------------------------------


def _checked_tie_breakers(codes: Sequence[str]) -> list[str]:
    known = {str(t) for t in TieBreaker}
    if len(set(codes)) != len(codes) or not set(codes) <= known:
        raise LeagueError(
            "invalid_tie_breakers",
            _("Tie-breakers: list each of %(known)s at most once.")
            % {"known": ", ".join(sorted(known))},
        )
    return list(codes)


@transaction.atomic
def season_create(
    *,
    user: AnyUser,
    key: str,
    name: str,
    starts_on: date,
    ends_on: date,
    pairing_method: str = Season.Method.SWISS,
    win_points: int = 3,
    draw_points: int = 1,
    loss_points: int = 0,
    vp_bonus_points: int = 0,
    vp_bonus_margin: int = 0,
    bye_vp: int = 0,
    tie_breakers: Sequence[str] | None = None,
    confirm_hours: int = 48,
) -> Season:
    access = league_access(user, key, lock=True)
    access.require_organiser()
    if ends_on < starts_on:
        raise LeagueError("invalid_dates", _("The season cannot end before it starts."))
    if not win_points >= draw_points >= loss_points:
        raise LeagueError(
            "invalid_scoring", _("A win must score at least a draw, a draw at least a loss.")
        )
    if vp_bonus_points and vp_bonus_margin < 1:
        raise LeagueError("invalid_scoring", _("Give the VP margin that earns the bonus."))
    if Season.objects.filter(league=access.league, name=name.strip()).exists():
        raise LeagueError("duplicate_season", _("This league already has a season of that name."))
    season = Season(
        league=access.league,
        name=name.strip(),
        starts_on=starts_on,
        ends_on=ends_on,
        pairing_method=pairing_method,
        win_points=win_points,
        draw_points=draw_points,
        loss_points=loss_points,
        vp_bonus_points=vp_bonus_points,
        vp_bonus_margin=vp_bonus_margin,
        bye_vp=bye_vp,
        tie_breakers=_checked_tie_breakers(
            tie_breakers if tie_breakers is not None else [str(t) for t in TieBreaker]
        ),
        confirm_hours=confirm_hours,
    )
    season.full_clean()
    season.save()
    return season


@transaction.atomic
def season_finish(*, user: AnyUser, key: str, season_id: int) -> Season:
    access = league_access(user, key)
    access.require_organiser()
    season = season_get(access, season_id, lock=True)
    if Round.objects.filter(season=season, status=Round.Status.DRAFT).exists():
        raise LeagueError("draft_round", _("Publish or discard the draft round first."))
    season.status = Season.Status.FINISHED
    season.save(update_fields=["status"])
    _log(access.league, LogEntry.Action.SEASON_FINISHED, actor=user, season=season)
    return season


# --- Registration and rosters -----------------------------------------------------------------


def _roster_snapshot(
    user: User, season: Season, roster_id: int | None
) -> tuple[Roster | None, dict[str, object] | None]:
    """The player's roster for the season and its document, checked for the league's system.

    A system whose rosters are not modelled yet takes players without one."""
    needs_roster = registry().get(season.league.system.slug).rosters is not None
    if roster_id is None:
        if needs_roster:
            raise LeagueError("roster_required", _("Choose the roster you will play."))
        return None, None
    roster = Roster.objects.filter(owner=user, pk=roster_id).first()
    if roster is None:
        raise LeagueError("unknown_roster", _("That roster is not one of yours."))
    if roster.system_id != season.league.system_id:
        raise LeagueError(
            "wrong_system",
            _("The roster is for another rule system than this league's."),
        )
    if not roster.legal:
        raise LeagueError(
            "roster_not_legal", _("The roster still has problems; fix them in the builder first.")
        )
    return roster, roster_document(roster_for_owner(user, roster.pk))


@transaction.atomic
def season_join(*, user: AnyUser, season_id: int, code: str, roster_id: int | None) -> Registration:
    """Register for a season with the league's join code and a roster, frozen as it is now."""
    player = _user(user)
    league = league_by_join_code(code)
    season = Season.objects.select_for_update().filter(league=league, pk=season_id).first()
    if season is None:
        raise LeagueError("unknown_season", _("This league has no such season."), status=404)
    _season_open(season)
    if (
        season.pairing_method == Season.Method.ROUND_ROBIN
        and Round.objects.filter(season=season).exists()
    ):
        raise LeagueError(
            "registration_closed",
            _("The round-robin schedule is made; registration closed with round 1."),
            status=409,
        )
    if Registration.objects.filter(season=season, player=player).exists():
        raise LeagueError("already_joined", _("You have already joined this season."), status=409)
    if Registration.objects.filter(season=season).count() >= MAX_PLAYERS_PER_SEASON:
        raise LeagueError("season_full", _("This season is full."), status=409)
    roster, snapshot = _roster_snapshot(player, season, roster_id)
    registration = Registration(
        season=season,
        player=player,
        roster=roster,
        roster_name=roster.name if roster else "",
        roster_snapshot=snapshot,
    )
    try:
        with transaction.atomic():
            registration.save()
    except IntegrityError:
        # Another request of the same player got there first (the unique constraint).
        raise LeagueError(
            "already_joined", _("You have already joined this season."), status=409
        ) from None
    return registration


def _registration(access: LeagueAccess, registration_id: int) -> Registration:
    registration = (
        Registration.objects.select_for_update()
        .filter(season__league=access.league, pk=registration_id)
        .select_related("season", "player")
        .first()
    )
    if registration is None:
        raise LeagueError("unknown_player", _("No such player in this league."), status=404)
    return registration


@transaction.atomic
def registration_drop(*, user: AnyUser, key: str, registration_id: int) -> Registration:
    """Leave the season (the player) or take a player out (an organiser): no more pairings;
    games played stay in the standings."""
    access = league_access(user, key)
    registration = _registration(access, registration_id)
    if registration.player_id != access.user_id:
        access.require_organiser()
    _season_open(registration.season)
    if registration.dropped_at is not None:
        raise LeagueError("already_dropped", _("This player has already dropped."), status=409)
    registration.dropped_at = timezone.now()
    registration.save(update_fields=["dropped_at"])
    _log(
        access.league,
        LogEntry.Action.PLAYER_DROPPED,
        actor=user,
        season=registration.season,
        name=registration.player.shown_name,
    )
    return registration


@transaction.atomic
def roster_change_request(
    *, user: AnyUser, key: str, registration_id: int, roster_id: int
) -> RosterChange:
    """Ask to play another roster (or the new version of the same one); organisers decide."""
    access = league_access(user, key)
    registration = _registration(access, registration_id)
    if registration.player_id != access.user_id:
        raise LeagueError("not_your_registration", _("This is not your registration."), 403)
    _season_open(registration.season)
    if registration.roster_changes.filter(status=RosterChange.Status.PENDING).exists():
        raise LeagueError(
            "change_pending", _("A roster change is already waiting for the organisers."), 409
        )
    roster, snapshot = _roster_snapshot(_user(user), registration.season, roster_id)
    assert roster is not None and snapshot is not None
    change = RosterChange.objects.create(
        registration=registration, roster=roster, roster_name=roster.name, snapshot=snapshot
    )
    _log(
        access.league,
        LogEntry.Action.ROSTER_REQUESTED,
        actor=user,
        season=registration.season,
        name=registration.player.shown_name,
        roster=roster.name,
    )
    return change


@transaction.atomic
def roster_change_decide(
    *, user: AnyUser, key: str, change_id: int, approve: bool, note: str = ""
) -> RosterChange:
    access = league_access(user, key)
    access.require_organiser()
    change = (
        RosterChange.objects.select_for_update()
        .filter(registration__season__league=access.league, pk=change_id)
        .select_related("registration__season", "registration__player")
        .first()
    )
    if change is None:
        raise LeagueError("unknown_change", _("No such roster change."), status=404)
    if change.status != RosterChange.Status.PENDING:
        raise LeagueError("already_decided", _("This change has already been decided."), 409)
    registration = change.registration
    change.status = RosterChange.Status.APPROVED if approve else RosterChange.Status.REJECTED
    change.decided_by, change.decided_at, change.note = _user(user), timezone.now(), note.strip()
    change.full_clean()
    change.save()
    if approve:
        registration.roster = change.roster
        registration.roster_name = change.roster_name
        registration.roster_snapshot = change.snapshot
        registration.save(update_fields=["roster", "roster_name", "roster_snapshot"])
    _log(
        access.league,
        LogEntry.Action.ROSTER_APPROVED if approve else LogEntry.Action.ROSTER_REJECTED,
        actor=user,
        season=registration.season,
        name=registration.player.shown_name,
        roster=change.roster_name,
        note=change.note,
    )
    return change


# --- Results ----------------------------------------------------------------------------------


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
) -> Result | None:
    """Record a finished tracked match as the result of the two players' open league game.

    The open game is the oldest pairing between the two users (either order) in a published
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
    return existing
