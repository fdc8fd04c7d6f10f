"""Reads of leagues: the one permission-checked fetch, standings, rounds, ratings."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db.models import Case, Count, DateTimeField, F, Max, Prefetch, Q, QuerySet, When
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.accounts.models import User
from apps.catalog.models import GameSystem
from apps.leagues.models import League, Pairing, Registration, Result, Round, Season
from apps.leagues.ratings import PlayerRating, RatedGame, rate
from apps.leagues.standings import (
    Bye,
    Entrant,
    Game,
    Outcome,
    Row,
    Scoring,
    TieBreaker,
    standings,
)

AnyUser = User | AnonymousUser


@dataclass(frozen=True)
class LeagueAccess:
    """A league as one user may see it. Every league page, API view and service gets its
    league through ``league_access``, so visibility and roles are decided in one place."""

    league: League
    user: AnyUser
    is_organiser: bool
    is_member: bool

    def require_organiser(self) -> None:
        if not self.is_organiser:
            raise PermissionDenied(_("Only the league's organisers may do this."))

    @property
    def user_id(self) -> int | None:
        return self.user.pk if self.user.is_authenticated else None


def league_access(user: AnyUser, key: str, *, lock: bool = False) -> LeagueAccess:
    """The league with this key as ``user`` may see it, or 404: a members-only league is not
    revealed to anyone else. ``lock`` holds the league row until the transaction ends."""
    queryset = League.objects.select_related("system").filter(key=key)
    if lock:
        queryset = queryset.select_for_update()
    league = queryset.first()
    if league is None:
        raise Http404
    is_organiser = is_member = False
    if user.is_authenticated:
        is_organiser = league.organisers.filter(pk=user.pk).exists()
        is_member = (
            is_organiser or Registration.objects.filter(season__league=league, player=user).exists()
        )
    if league.visibility == League.Visibility.MEMBERS and not is_member:
        raise Http404
    return LeagueAccess(league=league, user=user, is_organiser=is_organiser, is_member=is_member)


def league_list_for_user(user: AnyUser) -> QuerySet[League]:
    """Public leagues and every league the user organises or plays in."""
    visible = Q(visibility=League.Visibility.PUBLIC)
    if user.is_authenticated:
        visible |= Q(organisers=user) | Q(seasons__registrations__player=user)
    return (
        League.objects.filter(visible)
        .distinct()
        .select_related("system")
        .annotate(season_count=Count("seasons", distinct=True))
    )


def league_by_join_code(code: str) -> League:
    """The league a join code opens, or 404. Codes are typed by people: case, spaces and
    dashes do not matter."""
    normalised = normalise_code(code)
    league = League.objects.select_related("system").filter(join_code=normalised).first()
    if not normalised or league is None:
        raise Http404
    return league


def normalise_code(code: str) -> str:
    return "".join(ch for ch in code.upper() if ch.isalnum())


def season_get(access: LeagueAccess, season_id: int, *, lock: bool = False) -> Season:
    queryset = Season.objects.filter(league=access.league, pk=season_id)
    if lock:
        queryset = queryset.select_for_update()
    season = queryset.first()
    if season is None:
        raise Http404
    return season


def round_get(season: Season, number: int) -> Round:
    found = Round.objects.filter(season=season, number=number).first()
    if found is None:
        raise Http404
    return found


def pairing_get(access: LeagueAccess, pairing_id: int, *, lock: bool = False) -> Pairing:
    """A pairing of this league, or 404; ``lock`` holds its row (reports and confirmations of
    one game are decided one after the other)."""
    queryset = Pairing.objects.filter(round__season__league=access.league, pk=pairing_id)
    if lock:
        queryset = queryset.select_for_update()
    pairing = queryset.first()
    if pairing is None:
        raise Http404
    # Related rows are read after the lock, so they are not stale.
    return (
        Pairing.objects.select_related(
            "round__season", "player_a__player", "player_b__player", "result"
        )
        .filter(pk=pairing.pk)
        .get()
    )


def registration_of(user: AnyUser, season: Season) -> Registration | None:
    if not user.is_authenticated:
        return None
    return Registration.objects.filter(season=season, player=user).first()


def season_scoring(season: Season) -> Scoring:
    return Scoring(
        win=season.win_points,
        draw=season.draw_points,
        loss=season.loss_points,
        vp_bonus_points=season.vp_bonus_points,
        vp_bonus_margin=season.vp_bonus_margin,
        bye_vp=season.bye_vp,
    )


def season_tie_breakers(season: Season) -> tuple[TieBreaker, ...]:
    return tuple(TieBreaker(code) for code in season.tie_breakers)


def result_counts(result: Result, confirm_hours: int, now: datetime) -> bool:
    """Confirmed and decided results count; a player's unanswered report counts once its time
    to confirm has passed; a disputed one waits for the organisers, and a tracked match's
    result for the other player (or an organiser): it never counts on its own."""
    return counts_by_status(result.status, result.source, result.reported_at, confirm_hours, now)


def counts_by_status(
    status: str, source: str, reported_at: datetime | None, confirm_hours: int, now: datetime
) -> bool:
    """``result_counts`` from a result's values (for reads of plain tuples, not rows);
    ``reported_at`` is read only for an unanswered report."""
    if status in (Result.Status.CONFIRMED, Result.Status.DECIDED):
        return True
    if status == Result.Status.REPORTED and source == Result.Source.MANUAL:
        assert reported_at is not None
        return reported_at + timedelta(hours=confirm_hours) <= now
    return False


def counts_from(result: Result, confirm_hours: int) -> datetime | None:
    """When a player's unanswered report starts to count on its own (None if it does not
    wait, or never counts on its own: a tracked match's result)."""
    if result.status != Result.Status.REPORTED or result.source != Result.Source.MANUAL:
        return None
    return result.reported_at + timedelta(hours=confirm_hours)


@dataclass(frozen=True)
class SeasonRecord:
    """What the season's standings are computed from."""

    entrants: list[Entrant]
    games: list[Game]
    byes: list[Bye]
    # Pairs of registrations that have been paired against each other (for rematches).
    met: set[frozenset[int]]
    had_bye: set[int]


def season_records(
    seasons: Sequence[Season], *, now: datetime | None = None
) -> dict[int, SeasonRecord]:
    """Each season's record, from two queries however many seasons (a player's history reads
    all of theirs at once)."""
    now = now or timezone.now()
    by_id = {season.pk: season for season in seasons}
    # Plain tuples rather than model instances: a long season has hundreds of players and
    # games, and this runs for every view of its standings after a change.
    entrants: dict[int, list[Entrant]] = {pk: [] for pk in by_id}
    for pk, season_id, display_name, username, dropped_at in (
        Registration.objects.filter(season__in=list(by_id))
        .order_by("pk")
        .values_list("pk", "season_id", "player__display_name", "player__username", "dropped_at")
    ):
        name = User.name_shown(display_name, username)
        entrants[season_id].append(Entrant(id=pk, name=name, dropped=dropped_at is not None))
    # The report's time only where ``counts_by_status`` reads it (an unanswered report): read
    # for every game, the time zone conversion of 1,280 timestamps was most of the query's time.
    waiting_since = Case(
        When(
            result__status=Result.Status.REPORTED,
            result__source=Result.Source.MANUAL,
            then=F("result__reported_at"),
        ),
        default=None,
        output_field=DateTimeField(),
    )
    pairings = (
        Pairing.objects.filter(round__season__in=list(by_id), round__status=Round.Status.PUBLISHED)
        .annotate(waiting_since=waiting_since)
        .order_by("round__number", "table")
        .values_list(
            "round__season_id",
            "round__number",
            "player_a_id",
            "player_b_id",
            "result__status",
            "result__source",
            "result__outcome",
            "result__vp_a",
            "result__vp_b",
            "waiting_since",
        )
    )
    games: dict[int, list[Game]] = {pk: [] for pk in by_id}
    byes: dict[int, list[Bye]] = {pk: [] for pk in by_id}
    met: dict[int, set[frozenset[int]]] = {pk: set() for pk in by_id}
    for season_id, number, a, b, status, source, outcome, vp_a, vp_b, reported_at in pairings:
        if b is None:
            byes[season_id].append(Bye(round=number, player=a))
            continue
        met[season_id].add(frozenset((a, b)))
        confirm_hours = by_id[season_id].confirm_hours
        if status is not None and counts_by_status(status, source, reported_at, confirm_hours, now):
            games[season_id].append(
                Game(round=number, a=a, b=b, outcome=Outcome(outcome), vp_a=vp_a, vp_b=vp_b)
            )
    return {
        pk: SeasonRecord(
            entrants=entrants[pk],
            games=games[pk],
            byes=byes[pk],
            met=met[pk],
            had_bye={bye.player for bye in byes[pk]},
        )
        for pk in by_id
    }


def season_record(season: Season, *, now: datetime | None = None) -> SeasonRecord:
    return season_records([season], now=now)[season.pk]


def record_standings(season: Season, record: SeasonRecord) -> list[Row]:
    """The season's table from its record, by the season's scoring and tie-breakers."""
    return standings(
        record.entrants,
        record.games,
        record.byes,
        season_scoring(season),
        season_tie_breakers(season),
    )


def season_standings(season: Season, *, now: datetime | None = None) -> list[Row]:
    return record_standings(season, season_record(season, now=now))


SORTABLE: dict[str, Callable[[Row], Any]] = {
    "rank": lambda row: row.rank,
    "name": lambda row: row.entrant.name.casefold(),
    "played": lambda row: -row.played,
    "wins": lambda row: -row.wins,
    "draws": lambda row: -row.draws,
    "losses": lambda row: row.losses,
    "points": lambda row: row.rank,
    "vp_diff": lambda row: -row.vp_diff,
    "vp_for": lambda row: -row.vp_for,
    "sos": lambda row: -row.sos,
}


def sorted_rows(rows: Sequence[Row], sort: str) -> list[Row]:
    """The table sorted by one column (best first in that column), the rank breaking ties."""
    key = SORTABLE.get(sort, SORTABLE["rank"])
    return sorted(rows, key=lambda row: (key(row), row.rank))


# The columns a round's pairings table shows (``pairing_rows`` via ``round_views.round_view``):
# whole rows of the pairings, their players and results (a dozen timestamps each) took a big
# round's 128 games several times as long to read (issue 16).
PAIRING_TABLE_FIELDS = (
    "round",
    "table",
    "player_a__player__username",
    "player_a__player__display_name",
    "player_b__player__username",
    "player_b__player__display_name",
    "result__outcome",
    "result__vp_a",
    "result__vp_b",
    "result__status",
    "result__source",
    "result__reported_at",
)


def season_rounds(
    season: Season,
    *,
    include_drafts: bool,
    numbers: Iterable[int] | None = None,
    table_only: bool = False,
) -> list[Round]:
    """The season's rounds with their pairings, players and results (only ``numbers``, when
    given: the season page shows the current round in full and the others on demand). With
    ``table_only``, of the pairings only what their table shows (``PAIRING_TABLE_FIELDS``)."""
    pairings = Pairing.objects.select_related(
        "player_a__player", "player_b__player", "result"
    ).order_by("table")
    if table_only:
        pairings = pairings.only(*PAIRING_TABLE_FIELDS)
    else:
        # The registrations' roster snapshots (a whole roster each) are never shown with a round.
        pairings = pairings.defer("player_a__roster_snapshot", "player_b__roster_snapshot")
    rounds = Round.objects.filter(season=season).prefetch_related(
        Prefetch("pairings", queryset=pairings)
    )
    if not include_drafts:
        rounds = rounds.filter(status=Round.Status.PUBLISHED)
    if numbers is not None:
        rounds = rounds.filter(number__in=list(numbers))
    return list(rounds.order_by("number"))


def season_round_summaries(season: Season, *, include_drafts: bool) -> list[Round]:
    """The season's rounds without their pairings, each annotated with ``games`` (not byes)
    and ``reported`` (games with a result): one query whatever the season's size."""
    rounds = Round.objects.filter(season=season).annotate(
        games=Count("pairings", filter=Q(pairings__player_b__isnull=False)),
        reported=Count("pairings__result"),
    )
    if not include_drafts:
        rounds = rounds.filter(status=Round.Status.PUBLISHED)
    return list(rounds.order_by("number"))


def open_disputes(season: Season) -> QuerySet[Result]:
    return Result.objects.filter(
        pairing__round__season=season, status=Result.Status.DISPUTED
    ).select_related("pairing__round", "pairing__player_a__player", "pairing__player_b__player")


@dataclass(frozen=True)
class Contact:
    name: str
    email: str


def season_contacts(access: LeagueAccess, season: Season) -> list[Contact]:
    """The email addresses of the season's players who have not dropped out, for its organisers
    only (so that they can reach their players); nobody else ever gets them."""
    access.require_organiser()
    registrations = (
        season.registrations.filter(dropped_at__isnull=True)
        .exclude(player__email="")
        .select_related("player")
    )
    contacts = [Contact(r.player.shown_name, r.player.email) for r in registrations]
    return sorted(contacts, key=lambda contact: contact.name.casefold())


def counted_results_of_system(system: GameSystem) -> QuerySet[Result]:
    """Every result of the system's leagues that may count (the deadline is checked per row)."""
    return Result.objects.filter(
        pairing__round__season__league__system=system,
        status__in=[Result.Status.CONFIRMED, Result.Status.DECIDED, Result.Status.REPORTED],
    )


def system_ratings(system: GameSystem, *, now: datetime | None = None) -> list[PlayerRating]:
    """Ratings of every player of the system's leagues (user ids), from every counted game in
    the order the games were reported. Computed on read: a report starts to count when its
    time to confirm runs out, with no write that could trigger a recomputation."""
    now = now or timezone.now()
    # Plain tuples in one query: every game of the system, read for every ratings page.
    rows = (
        counted_results_of_system(system)
        .filter(pairing__player_b__isnull=False)
        .order_by("reported_at", "pk")
        .values_list(
            "status",
            "source",
            "reported_at",
            "pairing__round__season__confirm_hours",
            "pairing__player_a__player_id",
            "pairing__player_b__player_id",
            "outcome",
        )
    )
    games = [
        RatedGame(a=a, b=b, outcome=Outcome(outcome), played=reported_at)
        for status, source, reported_at, hours, a, b, outcome in rows
        if counts_by_status(status, source, reported_at, hours, now)
    ]
    return rate(games)


def systems_with_leagues() -> QuerySet[GameSystem]:
    return GameSystem.objects.annotate(n=Count("leagues")).filter(n__gt=0)


def last_round_number(season: Season) -> int:
    return Round.objects.filter(season=season).aggregate(n=Max("number"))["n"] or 0
