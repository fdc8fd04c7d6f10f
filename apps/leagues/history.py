"""A player's league history across seasons, as one viewer may see it: the seasons played with
rank and record, the games newest first, the win rate per faction and the rating per system.

Only leagues the viewer may list are read: public ones, and those the viewer organises or
plays in (the rule of ``selectors.league_list_for_user``). A link-only league is left out for
everyone else too: listing it here would hand out its unguessable address. A roster's faction
is hidden, like the roster itself, until its season's lists are revealed, except from its
player and the league's organisers.

The page reads a fixed number of queries however many seasons and games the player has: the
standings of every season are computed from two batched queries, not two per season.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from django.db.models import Q, QuerySet
from django.db.models.fields.json import KT, KeyTextTransform
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.accounts.models import User
from apps.catalog.models import Faction, GameSystem
from apps.leagues.models import League, Pairing, Registration, Result, Round, Season
from apps.leagues.rating_chart import RatingChart, rating_chart
from apps.leagues.ratings import SHOWN_START, PlayerRating, ranks
from apps.leagues.reveal import lists_hidden
from apps.leagues.selectors import (
    AnyUser,
    counts_by_status,
    record_standings,
    season_records,
    system_ratings,
)
from apps.leagues.standings import Outcome, Row
from apps.matches.models import Match

GAMES_SHOWN: Final = 100
# A registration and the faction slug of its roster → the faction's name as the viewer may see it.
FactionOf = Callable[[Registration, str | None], str]
# A tracked match's link as ``matches.services`` stores it: the tracker's path.
MATCH_LINK: Final = re.compile(r"/matches/(\d+)/?$")


@dataclass(frozen=True)
class SeasonLine:
    registration: Registration  # with season, league and system
    row: Row | None  # the player's standings row: rank, W/D/L
    players: int


@dataclass(frozen=True)
class GameLine:
    pairing: Pairing  # with round, season, league, both players and the result
    mine: Registration
    opponent: Registration | None  # None: a bye
    result: Result | None
    my_faction: str
    their_faction: str
    outcome: str  # for the player: "W", "D", "L", "bye", or "" while there is no result
    vp_for: int | None
    vp_against: int | None
    counts: bool
    match_id: int | None  # the tracked match, when the viewer may open its log and summary


@dataclass(frozen=True)
class FactionLine:
    faction: str
    system: str
    wins: int
    draws: int
    losses: int

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def win_percent(self) -> int:
        """Wins per game played, rounded to whole per cent (a draw is not half a win)."""
        return round(100 * self.wins / self.games) if self.games else 0


@dataclass(frozen=True)
class SystemRating:
    system: GameSystem
    rank: int
    players: int
    rating: PlayerRating
    chart: RatingChart | None


@dataclass(frozen=True)
class PlayerHistory:
    player: User
    seasons: list[SeasonLine]
    games: list[GameLine]
    more_games: bool
    factions: list[FactionLine]
    ratings: list[SystemRating]


def visible_leagues(viewer: AnyUser) -> QuerySet[League, Any]:
    """The leagues ``viewer`` may see listed, as a subquery (no query of its own)."""
    visible = Q(visibility=League.Visibility.PUBLIC)
    if viewer.is_authenticated:
        visible |= Q(organisers=viewer) | Q(seasons__registrations__player=viewer)
    return League.objects.filter(visible).values("pk")


def player_history(
    player: User, viewer: AnyUser, *, now: datetime | None = None, limit: int = GAMES_SHOWN
) -> PlayerHistory:
    """What ``viewer`` may see of ``player``'s league games; ``limit`` caps the games list."""
    now = now or timezone.now()
    registrations = list(
        Registration.objects.filter(player=player, season__league__in=visible_leagues(viewer))
        .select_related("season__league__system")
        .defer("roster_snapshot")
        .annotate(faction_slug=KT("roster_snapshot__faction"))
        .order_by("-season__starts_on", "-season_id")
    )
    organised = _organised(viewer, registrations)
    rows = _season_rows([r.season for r in registrations], now)
    names = _faction_names(registrations)

    def faction_of(registration: Registration, slug: str | None) -> str:
        season = registration.season
        hidden = lists_hidden(season, now=now)
        if hidden and viewer.pk != registration.player_id and season.league_id not in organised:
            return _("not revealed yet")
        if not slug:
            return _("without a roster")
        return names.get((season.league.system_id, slug), slug)

    seasons = [
        SeasonLine(r, _row_of(rows.get(r.season_id, []), r.pk), len(rows.get(r.season_id, [])))
        for r in registrations
    ]
    games, more = _games(registrations, viewer, faction_of, now, limit)
    return PlayerHistory(
        player=player,
        seasons=seasons,
        games=games,
        more_games=more,
        factions=_factions(seasons, lambda r: faction_of(r, r.faction_slug)),  # type: ignore[attr-defined]
        ratings=_ratings(player, now),
    )


def _organised(viewer: AnyUser, registrations: Sequence[Registration]) -> set[int]:
    """The leagues among the player's that ``viewer`` organises (they see unrevealed lists)."""
    if not viewer.is_authenticated or not registrations:
        return set()
    leagues = {r.season.league_id for r in registrations}
    return set(
        League.objects.filter(pk__in=leagues, organisers=viewer).values_list("pk", flat=True)
    )


def _row_of(rows: Sequence[Row], registration_id: int) -> Row | None:
    return next((row for row in rows if row.entrant.id == registration_id), None)


def _season_rows(seasons: Sequence[Season], now: datetime) -> dict[int, list[Row]]:
    """The standings of every season, from two queries in all."""
    by_id = {season.pk: season for season in seasons}
    records = season_records(list(by_id.values()), now=now)
    return {pk: record_standings(by_id[pk], record) for pk, record in records.items()}


def _faction_names(registrations: Iterable[Registration]) -> dict[tuple[int, str], str]:
    """Every faction of the systems played, by (system id, slug): its catalogue name. All of
    them, not only the player's: the games list names the opponents' factions too (a system
    has a few dozen at most)."""
    systems = {r.season.league.system_id for r in registrations}
    if not systems:
        return {}
    rows = Faction.objects.filter(system__in=systems).values_list("system_id", "slug", "name")
    return {(system, slug): name for system, slug, name in rows}


def _games(
    registrations: Sequence[Registration],
    viewer: AnyUser,
    faction_of: FactionOf,
    now: datetime,
    limit: int,
) -> tuple[list[GameLine], bool]:
    """The player's games of published rounds, newest first, at most ``limit`` (and whether
    there are more)."""
    mine = {r.pk: r for r in registrations}
    if not mine:
        return [], False
    pairings = list(
        Pairing.objects.filter(Q(player_a__in=list(mine)) | Q(player_b__in=list(mine)))
        .filter(round__status=Round.Status.PUBLISHED)
        .select_related("round", "player_a__player", "player_b__player", "result")
        .defer("player_a__roster_snapshot", "player_b__roster_snapshot")
        .annotate(
            # KT() does not follow relations; a key of the joined registration's document does.
            faction_a=KeyTextTransform("faction", "player_a__roster_snapshot"),
            faction_b=KeyTextTransform("faction", "player_b__roster_snapshot"),
        )
        .order_by("-round__published_at", "-round__number", "-pk")[: limit + 1]
    )
    more = len(pairings) > limit
    pairings = pairings[:limit]
    openable = _openable_matches(viewer, pairings)
    lines = []
    for pairing in pairings:
        own = mine.get(pairing.player_a_id)
        side = "a" if own is not None else "b"
        own = own or mine[pairing.player_b_id or 0]
        # The season as read with the registration: it carries the league and the system.
        pairing.round.season = own.season
        opponent = pairing.player_b if side == "a" else pairing.player_a
        if opponent is not None:
            opponent.season = own.season
        lines.append(_game_line(pairing, own, opponent, side, faction_of, openable, now))
    return lines, more


def _game_line(
    pairing: Pairing,
    own: Registration,
    opponent: Registration | None,
    side: str,
    faction_of: FactionOf,
    openable: dict[int, int],
    now: datetime,
) -> GameLine:
    factions = {"a": pairing.faction_a, "b": pairing.faction_b}  # type: ignore[attr-defined]
    result = getattr(pairing, "result", None)
    outcome, vp_for, vp_against, counts = "", None, None, False
    if opponent is None:
        outcome = "bye"
    elif result is not None:
        vp_for, vp_against = (result.vp_a, result.vp_b)
        if side == "b":
            vp_for, vp_against = vp_against, vp_for
        outcome = "D" if result.outcome == Outcome.DRAW else "W" if result.outcome == side else "L"
        counts = counts_by_status(
            result.status, result.source, result.reported_at, own.season.confirm_hours, now
        )
    other = "b" if side == "a" else "a"
    return GameLine(
        pairing=pairing,
        mine=own,
        opponent=opponent,
        result=result,
        my_faction=faction_of(own, factions[side]),
        their_faction=faction_of(opponent, factions[other]) if opponent else "",
        outcome=outcome,
        vp_for=vp_for,
        vp_against=vp_against,
        counts=counts,
        match_id=openable.get(pairing.pk),
    )


def _openable_matches(viewer: AnyUser, pairings: Sequence[Pairing]) -> dict[int, int]:
    """Pairing id → id of its tracked match, for the matches whose log and summary ``viewer``
    may open (a participant: the creator or a seat holder, as ``matches.selectors`` rules)."""
    linked: dict[int, int] = {}
    for pairing in pairings:
        result = getattr(pairing, "result", None)
        found = MATCH_LINK.search(result.match_url) if result and result.match_url else None
        if found:
            linked[pairing.pk] = int(found.group(1))
    if not linked or not viewer.is_authenticated:
        return {}
    allowed = set(
        Match.objects.filter(pk__in=set(linked.values()))
        .filter(Q(created_by=viewer) | Q(players__user=viewer))
        .values_list("pk", flat=True)
    )
    return {pairing: match for pairing, match in linked.items() if match in allowed}


def _factions(
    seasons: Sequence[SeasonLine], faction_of: Callable[[Registration], str]
) -> list[FactionLine]:
    """Wins, draws and losses per faction played (and system), from the counted games of the
    standings; most games first."""
    totals: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0])
    for line in seasons:
        if line.row is None or not line.row.played:
            continue
        key = (faction_of(line.registration), line.registration.season.league.system.name)
        totals[key][0] += line.row.wins
        totals[key][1] += line.row.draws
        totals[key][2] += line.row.losses
    factions = [FactionLine(f, s, w, d, loss) for (f, s), (w, d, loss) in totals.items()]
    factions.sort(key=lambda f: (-f.games, f.faction.casefold(), f.system))
    return factions


def _ratings(player: User, now: datetime) -> list[SystemRating]:
    """The player's rating in every system they have played league games of (one query for the
    systems, one per system): the same numbers as the ratings pages, which every logged-in
    player may read, whichever leagues the games were played in."""
    systems = GameSystem.objects.filter(leagues__seasons__registrations__player=player).distinct()
    found = []
    for system in sorted(systems, key=lambda s: s.name):
        ranked = ranks(system_ratings(system, now=now))
        mine = next(((rank, r) for rank, r in ranked if r.player == player.pk), None)
        if mine is None:
            continue
        rank, rating = mine
        shown = [point.shown for point in rating.history]
        chart = rating_chart(shown, start=SHOWN_START)
        found.append(SystemRating(system, rank, len(ranked), rating, chart))
    return found


@dataclass(frozen=True)
class RatingRow:
    rank: int
    rating: PlayerRating
    player: User


def ratings_table(system: GameSystem, *, now: datetime | None = None) -> list[RatingRow]:
    """The ratings page's rows, best first: two queries (the games, the players)."""
    ranked = ranks(system_ratings(system, now=now))
    users = User.objects.in_bulk([rating.player for _rank, rating in ranked])
    return [
        RatingRow(rank, rating, users[rating.player])
        for rank, rating in ranked
        if rating.player in users
    ]


def season_player_ids(season: Season) -> dict[int, int]:
    """Registration id → user id of the season's players, for the links of the standings
    table to their league histories."""
    return dict(Registration.objects.filter(season=season).values_list("pk", "player_id"))
