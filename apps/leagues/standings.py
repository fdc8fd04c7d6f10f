"""Standings of a season: points from the scoring, then the tie-breakers in the season's order.

Plain values in, plain values out: no ORM. Only results that count are passed in (the caller
decides which do: confirmed, decided by an organiser, or unanswered past the deadline).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final


class Outcome(StrEnum):
    A = "a"
    B = "b"
    DRAW = "draw"


class TieBreaker(StrEnum):
    VP_DIFF = "vp_diff"
    VP_FOR = "vp_for"
    SOS = "sos"
    HEAD_TO_HEAD = "h2h"
    FEWEST_LOSSES = "losses"


# The common order of tournament software (points first, always): strength of schedule, then
# VP difference, then head-to-head. VP scored and fewest losses are there to add.
DEFAULT_TIE_BREAKERS: Final = (TieBreaker.SOS, TieBreaker.VP_DIFF, TieBreaker.HEAD_TO_HEAD)


@dataclass(frozen=True)
class Scoring:
    """Points per result. A win by ``vp_bonus_margin`` VP or more earns ``vp_bonus_points`` on
    top (0 switches the bonus off). A bye scores as a win with ``bye_vp`` VP and no bonus."""

    win: int = 3
    draw: int = 1
    loss: int = 0
    vp_bonus_points: int = 0
    vp_bonus_margin: int = 0
    bye_vp: int = 0

    def points(self, vp_for: int, vp_against: int, outcome: str) -> int:
        if outcome == "D":
            return self.draw
        if outcome == "L":
            return self.loss
        bonus = self.vp_bonus_points and vp_for - vp_against >= self.vp_bonus_margin
        return self.win + (self.vp_bonus_points if bonus else 0)


@dataclass(frozen=True)
class Entrant:
    id: int
    name: str
    dropped: bool = False


@dataclass(frozen=True)
class Game:
    """A counted result between ``a`` and ``b``."""

    round: int
    a: int
    b: int
    outcome: Outcome
    vp_a: int
    vp_b: int


@dataclass(frozen=True)
class Bye:
    round: int
    player: int


@dataclass(frozen=True)
class HistoryItem:
    """One round of a player's season: ``result`` is "W", "D", "L" or "bye"."""

    round: int
    opponent: int | None
    result: str
    vp_for: int
    vp_against: int
    points: int


@dataclass
class Row:
    entrant: Entrant
    rank: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    points: int = 0
    vp_for: int = 0
    vp_against: int = 0
    sos: int = 0
    # Points in the games among the players tied with this one, where head-to-head was used.
    h2h: int | None = None
    # The tie-breaker that put this player ahead of the next one, when their points were equal.
    ahead_by: TieBreaker | None = None
    history: list[HistoryItem] = field(default_factory=list)

    @property
    def played(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def vp_diff(self) -> int:
        return self.vp_for - self.vp_against


def standings(
    entrants: Sequence[Entrant],
    games: Iterable[Game],
    byes: Iterable[Bye],
    scoring: Scoring,
    tie_breakers: Sequence[TieBreaker] = DEFAULT_TIE_BREAKERS,
) -> list[Row]:
    """The table, best first. Players still level after every tie-breaker share a rank and are
    listed by name."""
    rows = {e.id: Row(entrant=e) for e in entrants}
    games = [g for g in games if g.a in rows and g.b in rows]
    for game in games:
        _count_game(rows, game, scoring)
    for bye in byes:
        if (bye_row := rows.get(bye.player)) is not None:
            _count_bye(bye_row, bye, scoring)
    for row in rows.values():
        row.history.sort(key=lambda item: item.round)
        row.sos = sum(
            rows[item.opponent].points for item in row.history if item.opponent is not None
        )
    return _ranked(rows.values(), games, scoring, tie_breakers)


def _count_game(rows: Mapping[int, Row], game: Game, scoring: Scoring) -> None:
    """Add ``game`` to both players' rows and histories."""
    for me, vp_for, vp_against in (
        (game.a, game.vp_a, game.vp_b),
        (game.b, game.vp_b, game.vp_a),
    ):
        result = _result_for(game, me)
        points = scoring.points(vp_for, vp_against, result)
        row = rows[me]
        row.wins += result == "W"
        row.draws += result == "D"
        row.losses += result == "L"
        row.points += points
        row.vp_for += vp_for
        row.vp_against += vp_against
        opponent = game.b if me == game.a else game.a
        row.history.append(HistoryItem(game.round, opponent, result, vp_for, vp_against, points))


def _count_bye(row: Row, bye: Bye, scoring: Scoring) -> None:
    """A bye scores as a win with the season's bye VP, and counts no game played."""
    row.byes += 1
    row.points += scoring.win
    row.vp_for += scoring.bye_vp
    row.history.append(HistoryItem(bye.round, None, "bye", scoring.bye_vp, 0, scoring.win))


def _ranked(
    rows: Iterable[Row],
    games: Sequence[Game],
    scoring: Scoring,
    tie_breakers: Sequence[TieBreaker],
) -> list[Row]:
    """The rows best first with their ranks, and for each block the tie-breaker that put it
    ahead of the next block on the same points."""
    ordered: list[Row] = []
    by_points: dict[int, list[Row]] = defaultdict(list)
    for row in rows:
        by_points[row.points].append(row)
    for points in sorted(by_points, reverse=True):
        blocks, reasons = _split(by_points[points], list(tie_breakers), games, scoring)
        for i, block in enumerate(blocks):
            block.sort(key=lambda r: (r.entrant.name.casefold(), r.entrant.id))
            rank = len(ordered) + 1
            for row in block:
                row.rank = rank
                ordered.append(row)
            if i < len(reasons):
                block[-1].ahead_by = reasons[i]
    return ordered


def _result_for(game: Game, player: int) -> str:
    if game.outcome == Outcome.DRAW:
        return "D"
    return "W" if (game.outcome == Outcome.A) == (player == game.a) else "L"


def _split(
    group: list[Row], breakers: list[TieBreaker], games: Sequence[Game], scoring: Scoring
) -> tuple[list[list[Row]], list[TieBreaker]]:
    """Split players level on points into blocks still level after the tie-breakers, best
    first, and the tie-breaker that separates each block from the next."""
    if len(group) < 2 or not breakers:
        return [group], []
    breaker, rest = breakers[0], breakers[1:]
    value = _value_of(breaker, group, games, scoring)
    levels: dict[int, list[Row]] = defaultdict(list)
    for row in group:
        levels[value(row)].append(row)
    blocks: list[list[Row]] = []
    reasons: list[TieBreaker] = []
    for level in sorted(levels, reverse=True):
        if blocks:
            reasons.append(breaker)
        sub_blocks, sub_reasons = _split(levels[level], rest, games, scoring)
        blocks.extend(sub_blocks)
        reasons.extend(sub_reasons)
    return blocks, reasons


def _value_of(
    breaker: TieBreaker, group: list[Row], games: Sequence[Game], scoring: Scoring
) -> Callable[[Row], int]:
    """Higher is better for every tie-breaker."""
    if breaker == TieBreaker.VP_DIFF:
        return lambda row: row.vp_diff
    if breaker == TieBreaker.VP_FOR:
        return lambda row: row.vp_for
    if breaker == TieBreaker.SOS:
        return lambda row: row.sos
    if breaker == TieBreaker.FEWEST_LOSSES:
        return lambda row: -row.losses
    # Head-to-head: the points each scored in the games among exactly these players.
    members = {row.entrant.id: row for row in group}
    mini = _mini_league(members, games, scoring)
    for player, row in members.items():
        row.h2h = mini[player]
    return lambda row: mini[row.entrant.id]


def _mini_league(
    members: Mapping[int, Row], games: Sequence[Game], scoring: Scoring
) -> dict[int, int]:
    """Points from the games among ``members`` only (win, draw, loss; no VP bonus)."""
    points = dict.fromkeys(members, 0)
    for game in games:
        if game.a in members and game.b in members:
            for me in (game.a, game.b):
                result = _result_for(game, me)
                points[me] += {"W": scoring.win, "D": scoring.draw, "L": scoring.loss}[result]
    return points
