"""Writes to leagues. Every function checks who may do it through ``league_access`` and runs in
one transaction that locks the row the change hangs on (the season for pairing and joining, the
pairing for results), so two requests at once apply one after the other."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import date, datetime

from django.db import IntegrityError, transaction
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
    Registration,
    RosterChange,
    Round,
    Season,
)
from apps.leagues.results import (
    league_result_propose_from_match as league_result_propose_from_match,
)
from apps.leagues.results import result_confirm as result_confirm
from apps.leagues.results import result_dispute as result_dispute
from apps.leagues.results import result_override as result_override

# The round writes live in apps.leagues.rounds; callers keep using services.round_*.
from apps.leagues.results import result_report as result_report
from apps.leagues.rounds import round_discard as round_discard
from apps.leagues.rounds import round_pair as round_pair
from apps.leagues.rounds import round_publish as round_publish
from apps.leagues.rounds import round_swap as round_swap
from apps.leagues.season_catalog import check_frozen_roster, season_pin_first
from apps.leagues.selectors import (
    AnyUser,
    LeagueAccess,
    league_access,
    league_by_join_code,
    season_get,
)
from apps.leagues.standings import DEFAULT_TIE_BREAKERS, TieBreaker
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
    lists_reveal_at: datetime | None = None,
    check_in_required: bool = False,
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
            tie_breakers if tie_breakers is not None else [str(t) for t in DEFAULT_TIE_BREAKERS]
        ),
        confirm_hours=confirm_hours,
        lists_reveal_at=lists_reveal_at,
        check_in_required=check_in_required,
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
    document = roster_document(roster_for_owner(user, roster.pk))
    # Legal as the season counts it, not as the builder's flag says: with the costs it pinned,
    # which an organiser's later edit of the catalogue does not change, and refused when the
    # rules cannot read the document at all (apps.leagues.season_catalog).
    check_frozen_roster(season, document)
    return roster, document


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
    # The first registration fixes the season's costs (under the season's lock).
    season_pin_first(season)
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
        # The costs may have been re-pinned since the request: legal with the season's now.
        check_frozen_roster(registration.season, change.snapshot)
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
