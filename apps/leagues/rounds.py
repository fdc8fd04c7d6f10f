"""Pairing rounds: the next round as a draft (Swiss or round-robin), swapping players in it,
publishing or discarding it. Each write locks the season row, so two organisers at once act one
after the other."""

from __future__ import annotations

import random
import secrets

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from apps.leagues import pairing as pairing_rules
from apps.leagues.checkins import players_to_pair
from apps.leagues.common import LeagueError
from apps.leagues.common import check_season_open as _season_open
from apps.leagues.common import log_action as _log
from apps.leagues.models import LogEntry, Pairing, Registration, Result, Round, Season
from apps.leagues.pairing_sparse import Progress, swiss_pairing_sparse
from apps.leagues.selectors import (
    AnyUser,
    LeagueAccess,
    league_access,
    record_standings,
    result_counts,
    season_get,
    season_record,
)
from apps.notifications import services as notifications


def check_previous_round_complete(season: Season) -> None:
    last = Round.objects.filter(season=season).order_by("-number").first()
    if last is None:
        return
    if last.status == Round.Status.DRAFT:
        raise LeagueError(
            "draft_round", _("Round %d is still a draft: publish or discard it.") % last.number, 409
        )
    now = timezone.now()
    waiting = 0
    for pairing in last.pairings.select_related("result").filter(player_b__isnull=False):
        result: Result | None = getattr(pairing, "result", None)
        waiting += result is None or not result_counts(result, season.confirm_hours, now)
    if waiting:
        raise LeagueError(
            "round_incomplete",
            ngettext(
                "Round %(number)d still has %(count)d game without a result that counts.",
                "Round %(number)d still has %(count)d games without a result that counts.",
                waiting,
            )
            % {"number": last.number, "count": waiting},
            status=409,
        )


def _swiss(
    season: Season,
    active: list[Registration],
    *,
    rng: random.Random,
    progress: Progress | None = None,
) -> tuple[pairing_rules.RoundPairing, set[frozenset[int]]]:
    record = season_record(season)
    active_ids = {r.pk for r in active}
    if record.games or record.byes:
        rows = record_standings(season, record)
        order = [(row.entrant.id, row.points) for row in rows if row.entrant.id in active_ids]
    else:
        # Round 1: nobody has a score yet, so the pairings are drawn.
        ids = sorted(active_ids)
        rng.shuffle(ids)
        order = [(pk, 0) for pk in ids]
    players = [
        pairing_rules.SwissPlayer(id=pk, score=score, had_bye=pk in record.had_bye)
        for pk, score in order
    ]
    return swiss_pairing_sparse(players, record.met, progress=progress), record.met


def _round_robin(
    season: Season, active: list[Registration], number: int, *, rng: random.Random
) -> pairing_rules.RoundPairing:
    if not season.round_robin_order:
        ids = [r.pk for r in active]
        rng.shuffle(ids)
        season.round_robin_order = ids
        season.save(update_fields=["round_robin_order"])
    schedule = pairing_rules.round_robin_schedule(season.round_robin_order)
    if number > len(schedule):
        raise LeagueError(
            "everyone_met",
            _("Everyone has played everyone: the round-robin is complete."),
            status=409,
        )
    active_ids = {r.pk for r in active}
    dropped = set(season.round_robin_order) - active_ids
    return pairing_rules.without_dropped(schedule[number - 1], dropped)


@transaction.atomic
def round_pair(
    *,
    user: AnyUser,
    key: str,
    season_id: int,
    allow_rematches: bool = False,
    rng: random.Random | None = None,
    progress: Progress | None = None,
) -> Round:
    """Pair the next round as a draft the organisers can change before publishing it.

    Swiss refuses rematches unless ``allow_rematches``: when everyone has met everyone, or
    when no pairing of the remaining players avoids one, the organisers decide. ``progress``
    hears (done, total) as a Swiss pairing goes (apps.leagues.pairing_jobs shows it)."""
    access = league_access(user, key)
    access.require_organiser()
    season = season_get(access, season_id, lock=True)
    _season_open(season)
    check_previous_round_complete(season)
    active = list(
        Registration.objects.filter(season=season, dropped_at__isnull=True).order_by("pk")
    )
    if len(active) < 2:
        raise LeagueError(
            "not_enough_players", _("At least two players are needed to pair a round."), 409
        )
    number = (
        Round.objects.filter(season=season)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
        or 0
    ) + 1
    # Check-in (apps.leagues.checkins): the absent sit this Swiss round out.
    active = players_to_pair(season, number, active)
    if len(active) < 2:
        raise LeagueError(
            "not_enough_players",
            _("Fewer than two players are checked in for round %d.") % number,
            409,
        )
    rng = rng or secrets.SystemRandom()
    rematch_count = 0
    if season.pairing_method == Season.Method.ROUND_ROBIN:
        result = _round_robin(season, active, number, rng=rng)
    else:
        result, met = _swiss(season, active, rng=rng, progress=progress)
        rematch_count = pairing_rules.rematches(result, met)
        if rematch_count and not allow_rematches:
            if pairing_rules.everyone_has_met([r.pk for r in active], met):
                raise LeagueError(
                    "everyone_met",
                    _(
                        "Everyone has already played everyone. Finish the season, or pair "
                        "again allowing rematches."
                    ),
                    status=409,
                )
            raise LeagueError(
                "rematch_unavoidable",
                _(
                    "No pairing avoids a rematch (at least %d). Pair again allowing "
                    "rematches to accept them."
                )
                % rematch_count,
                status=409,
            )
    new_round = Round.objects.create(season=season, number=number, rematches=rematch_count)
    _store_pairings(new_round, result)
    if season.status == Season.Status.OPEN:
        season.status = Season.Status.RUNNING
        season.save(update_fields=["status"])
    _log(access.league, LogEntry.Action.ROUND_PAIRED, actor=user, season=season, round=number)
    return new_round


def _store_pairings(round_: Round, result: pairing_rules.RoundPairing) -> None:
    rows = [
        Pairing(round=round_, table=i, player_a_id=a, player_b_id=b)
        for i, (a, b) in enumerate(result.games, start=1)
    ]
    rows += [
        Pairing(round=round_, table=len(result.games) + i, player_a_id=p, player_b_id=None)
        for i, p in enumerate(result.byes, start=1)
    ]
    Pairing.objects.bulk_create(rows)


def _draft_round(access: LeagueAccess, season_id: int, number: int) -> tuple[Season, Round]:
    season = season_get(access, season_id, lock=True)
    round_ = Round.objects.filter(season=season, number=number).first()
    if round_ is None:
        raise LeagueError("unknown_round", _("No such round."), status=404)
    if round_.status != Round.Status.DRAFT:
        raise LeagueError(
            "round_published", _("Round %d is published; its pairings are final.") % number, 409
        )
    return season, round_


def _round_pairing(round_: Round) -> pairing_rules.RoundPairing:
    pairings = list(round_.pairings.order_by("table"))
    return pairing_rules.RoundPairing(
        games=tuple((p.player_a_id, p.player_b_id) for p in pairings if p.player_b_id is not None),
        byes=tuple(p.player_a_id for p in pairings if p.player_b_id is None),
    )


@transaction.atomic
def round_swap(
    *, user: AnyUser, key: str, season_id: int, number: int, player_x: int, player_y: int
) -> Round:
    """Exchange two players' places in a draft round (an opponent for an opponent, or the
    bye); every player stays paired exactly once."""
    access = league_access(user, key)
    access.require_organiser()
    season, round_ = _draft_round(access, season_id, number)
    current = _round_pairing(round_)
    try:
        swapped = pairing_rules.swap_players(current, player_x, player_y)
        pairing_rules.check_pairing(swapped, current.players())
    except pairing_rules.PairingError as error:
        raise LeagueError(error.code, _swap_message(error.code)) from None
    round_.pairings.all().delete()
    _store_pairings(round_, swapped)
    names = dict(
        Registration.objects.filter(pk__in=[player_x, player_y]).values_list(
            "pk", "player__username"
        )
    )
    round_.rematches = pairing_rules.rematches(swapped, season_record(season).met)
    round_.save(update_fields=["rematches"])
    _log(
        access.league,
        LogEntry.Action.PAIRING_SWAPPED,
        actor=user,
        season=season,
        round=number,
        names=[names.get(player_x, ""), names.get(player_y, "")],
    )
    return round_


def _swap_message(code: str) -> str:
    return {
        "same_player": _("Choose two different players to swap."),
        "not_in_round": _("Both players must be paired in this round."),
        "same_game": _("These two players already play each other."),
    }.get(code, _("Every player must be paired exactly once."))


@transaction.atomic
def round_publish(*, user: AnyUser, key: str, season_id: int, number: int) -> Round:
    access = league_access(user, key)
    access.require_organiser()
    season, round_ = _draft_round(access, season_id, number)
    round_.status, round_.published_at = Round.Status.PUBLISHED, timezone.now()
    round_.save(update_fields=["status", "published_at"])
    _log(access.league, LogEntry.Action.ROUND_PUBLISHED, actor=user, season=season, round=number)
    notifications.notify_round_published(round_)
    return round_


@transaction.atomic
def round_discard(*, user: AnyUser, key: str, season_id: int, number: int) -> None:
    """Throw a draft round away (e.g. to pair again after a late drop)."""
    access = league_access(user, key)
    access.require_organiser()
    season, round_ = _draft_round(access, season_id, number)
    round_.delete()
    if number == 1 and season.pairing_method == Season.Method.ROUND_ROBIN:
        season.round_robin_order = []
        season.save(update_fields=["round_robin_order"])
    _log(access.league, LogEntry.Action.ROUND_DISCARDED, actor=user, season=season, round=number)
