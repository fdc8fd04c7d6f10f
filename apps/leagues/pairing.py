"""Pairing a round: Swiss as one maximum-weight matching over the whole round, and round-robin.

Plain values in, plain values out: no ORM and no randomness (the caller orders the players).

Swiss priorities, strictly in this order (a lower one never outweighs a higher one):

1. as few rematches as possible (none while one can be avoided);
2. no second bye while it can be avoided;
3. the bye goes to the lowest-ranked player who can take it;
4. opponents with scores as close as possible (the sum of squared score differences);
5. within a score group, neighbours in the standings (1st v 2nd, 3rd v 4th, ...).

Each priority is a weight tier large enough that the whole of every lower tier stays below one
unit of it, so one maximum-weight matching (networkx's blossom algorithm, exact with integer
weights) finds the best pairing of the whole round at once instead of greedily table by table.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Final

import networkx as nx

BYE_NODE: Final = "bye"


class PairingError(ValueError):
    """A round cannot be paired as asked; ``code`` is stable, ``message`` English."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class SwissPlayer:
    """A player to pair: ``score`` are the standings points so far."""

    id: int
    score: int = 0
    had_bye: bool = False


@dataclass(frozen=True)
class RoundPairing:
    """The games of a round in table order (the better-ranked player first) and the byes."""

    games: tuple[tuple[int, int], ...]
    byes: tuple[int, ...] = ()

    def players(self) -> list[int]:
        return [p for game in self.games for p in game] + list(self.byes)


def met_key(a: int, b: int) -> frozenset[int]:
    """How a past game between two players is looked up (order does not matter)."""
    return frozenset((a, b))


def rematches(pairing: RoundPairing, met: Collection[frozenset[int]]) -> int:
    """How many games of the round repeat a game already played."""
    return sum(1 for a, b in pairing.games if met_key(a, b) in met)


def everyone_has_met(player_ids: Iterable[int], met: Collection[frozenset[int]]) -> bool:
    """True when every two of the players have already played each other."""
    ids = list(player_ids)
    return len(ids) >= 2 and all(met_key(a, b) in met for a, b in combinations(ids, 2))


def swiss_pairing(players: Sequence[SwissPlayer], met: Collection[frozenset[int]]) -> RoundPairing:
    """Pair ``players`` (in standings order, best first); ``met`` holds the past games.

    An odd number of players gives exactly one bye. Raises ``PairingError`` for fewer than two
    players or a player listed twice.
    """
    check_players(players)
    weights = SwissWeights.of(players, met)
    graph: nx.Graph[int | str] = nx.Graph()
    for a, b in combinations(players, 2):
        graph.add_edge(a.id, b.id, weight=weights.game(a, b))
    if len(players) % 2:
        for p in players:
            graph.add_edge(p.id, BYE_NODE, weight=weights.bye(p))
    matching = nx.max_weight_matching(graph, maxcardinality=True, weight="weight")
    return pairing_from_matching(matching, weights.rank)


def check_players(players: Sequence[SwissPlayer]) -> None:
    """Raise ``PairingError`` for fewer than two players or a player listed twice."""
    ids = [p.id for p in players]
    if len(set(ids)) != len(ids):
        raise PairingError("duplicate_player", "A player is listed twice.")
    if len(players) < 2:
        raise PairingError("not_enough_players", "At least two players are needed to pair.")


@dataclass(frozen=True)
class SwissWeights:
    """The weight of every possible game and bye of a round (see the module docstring).

    The sparse pairing (``pairing_sparse``) uses the same weights on fewer edges, so that a
    matching it finds is compared with the full one on one scale."""

    rank: dict[int, int]
    met: Collection[frozenset[int]]
    neighbour_unit: int
    score_unit: int
    bye_rank_unit: int
    second_bye_unit: int
    rematch_unit: int
    top: int

    @classmethod
    def of(cls, players: Sequence[SwissPlayer], met: Collection[frozenset[int]]) -> SwissWeights:
        n = len(players)
        edges = (n + 1) // 2  # games plus the bye: every matching of the graph has this many
        spread = max(p.score for p in players) - min(p.score for p in players)
        # Tier units, lowest first; see the module docstring.
        score_unit = edges * n + 1
        bye_rank_unit = score_unit * (edges * spread * spread + 1)
        second_bye_unit = bye_rank_unit * (n + 1)
        rematch_unit = second_bye_unit * 2
        return cls(
            rank={p.id: i for i, p in enumerate(players)},
            met=met,
            neighbour_unit=1,
            score_unit=score_unit,
            bye_rank_unit=bye_rank_unit,
            second_bye_unit=second_bye_unit,
            rematch_unit=rematch_unit,
            top=rematch_unit * (edges + 2),  # keeps every weight positive
        )

    def game(self, a: SwissPlayer, b: SwissPlayer) -> int:
        penalty = (
            self.rematch_unit * (met_key(a.id, b.id) in self.met)
            + self.score_unit * (a.score - b.score) ** 2
            + self.neighbour_unit * abs(self.rank[a.id] - self.rank[b.id])
        )
        return self.top - penalty

    def bye(self, p: SwissPlayer) -> int:
        n = len(self.rank)
        penalty = self.second_bye_unit * p.had_bye + self.bye_rank_unit * (n - 1 - self.rank[p.id])
        return self.top - penalty


def pairing_from_matching(
    matching: Iterable[tuple[int | str, int | str]], rank: dict[int, int]
) -> RoundPairing:
    """The round a matching stands for: tables in standings order, the better player first."""
    games: list[tuple[int, int]] = []
    byes: list[int] = []
    for u, v in matching:
        if u == BYE_NODE or v == BYE_NODE:
            byes.append(int(v if u == BYE_NODE else u))
        else:
            first, second = sorted((int(u), int(v)), key=rank.__getitem__)
            games.append((first, second))
    games.sort(key=lambda game: rank[game[0]])
    return RoundPairing(games=tuple(games), byes=tuple(byes))


def round_robin_schedule(player_ids: Sequence[int]) -> tuple[RoundPairing, ...]:
    """Every round of a round-robin (the circle method): each player meets each other once.

    An odd number of players gives one bye a round, to each player once.
    """
    if len(set(player_ids)) != len(player_ids):
        raise PairingError("duplicate_player", "A player is listed twice.")
    if len(player_ids) < 2:
        raise PairingError("not_enough_players", "At least two players are needed to pair.")
    seats: list[int | None] = list(player_ids)
    if len(seats) % 2:
        seats.append(None)
    n = len(seats)
    schedule = []
    for _ in range(n - 1):
        games: list[tuple[int, int]] = []
        byes: list[int] = []
        for i in range(n // 2):
            a, b = seats[i], seats[n - 1 - i]
            if a is not None and b is not None:
                games.append((a, b))
            else:
                byes.extend(p for p in (a, b) if p is not None)
        schedule.append(RoundPairing(games=tuple(games), byes=tuple(byes)))
        # The first seat stays; the others turn one place.
        seats = [seats[0], seats[-1], *seats[1:-1]]
    return tuple(schedule)


def without_dropped(pairing: RoundPairing, dropped: Collection[int]) -> RoundPairing:
    """A scheduled round-robin round without dropped players: an opponent of a dropped player
    gets a bye for that round; a dropped player is not paired."""
    games: list[tuple[int, int]] = []
    byes = [p for p in pairing.byes if p not in dropped]
    for a, b in pairing.games:
        if a in dropped and b in dropped:
            continue
        if a in dropped or b in dropped:
            byes.append(b if a in dropped else a)
        else:
            games.append((a, b))
    return RoundPairing(games=tuple(games), byes=tuple(byes))


def swap_players(pairing: RoundPairing, x: int, y: int) -> RoundPairing:
    """Exchange the places of two players of the round (a bye is a place too)."""
    if x == y:
        raise PairingError("same_player", "Choose two different players to swap.")
    seated = pairing.players()
    for player in (x, y):
        if player not in seated:
            raise PairingError("not_in_round", "Both players must be paired in this round.")
    if any({x, y} == set(game) for game in pairing.games):
        raise PairingError("same_game", "These two players already play each other.")

    def place(p: int) -> int:
        return y if p == x else x if p == y else p

    return RoundPairing(
        games=tuple((place(a), place(b)) for a, b in pairing.games),
        byes=tuple(place(p) for p in pairing.byes),
    )


def check_pairing(pairing: RoundPairing, player_ids: Collection[int]) -> None:
    """Every one of ``player_ids`` exactly once, nobody else, nobody against themselves."""
    seated = pairing.players()
    if any(a == b for a, b in pairing.games):
        raise PairingError("self_pairing", "A player cannot play against themselves.")
    if len(seated) != len(set(seated)) or set(seated) != set(player_ids):
        raise PairingError("incomplete_pairing", "Every player must be paired exactly once.")
