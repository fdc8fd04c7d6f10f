"""Swiss pairing of big rounds: the full matching's weights on a sparse graph of candidates.

The full matching (``pairing.swiss_pairing``) weighs every two players: n² edges, and the
blossom algorithm takes minutes at 1,024 players. Here each player gets edges only to the next
``window`` players below them in the standings whom they have not met, and the bye only to the
``BYE_CANDIDATES`` players who deserve it most; big rounds are cut into pieces of about
``BLOCK`` players between score groups, paired one piece at a time.

What stays exact, and why:

- **Rematches and the bye: always.** A piece that cannot be paired without a rematch, or a
  bye that does not go to the lowest-ranked player without one (the best the bye rule can
  give), merges the piece with its neighbour and pairs again; one piece that still cannot is
  paired by the full matching. So a rematch or a worse bye is only ever the full matching's.
- **Scores and neighbours, in one piece (up to ``2 * BLOCK`` players): the full optimum.**
  Take an optimal pairing and a game a v d (a above d) in it. Every player x between them
  whom a has not met is "blocked": else swapping the partners (a v x and the other pair)
  lowers the squared score differences or keeps them and strictly lowers the rank distances,
  without a rematch. A block needs x to have the bye, or d to have met x or x's opponent, or
  a to have met x's opponent: at most ``1 + 3 r`` players, where r is the most opponents any
  player has met. So with ``window = 3 r + 2`` the optimal pairing lies in the sparse graph,
  and the matching there is as good as the full one in every tier (ties may differ).
- **In pieces (more players): each piece optimal for its players.** Pieces are cut between
  score groups with an even number of players above the cut, so a cut separates only players
  whose scores differ; a game across it would have been a floater to the next group.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Final

import networkx as nx

from apps.leagues.pairing import (
    BYE_NODE,
    RoundPairing,
    SwissPlayer,
    SwissWeights,
    check_players,
    pairing_from_matching,
    swiss_pairing,
)

BLOCK: Final = 32
BYE_CANDIDATES: Final = 8

Progress = Callable[[int, int], None]
"""Told (pieces paired, pieces in all) after each piece."""


def swiss_pairing_sparse(
    players: Sequence[SwissPlayer],
    met: Collection[frozenset[int]],
    *,
    block: int = BLOCK,
    progress: Progress | None = None,
) -> RoundPairing:
    """Pair ``players`` (standings order, best first) as ``swiss_pairing`` does, on candidate
    opponents only; see the module docstring for what is exact. Falls back to the full
    matching when the players are not in score order or the candidates cannot pair them."""
    check_players(players)
    scores = [p.score for p in players]
    if any(higher < lower for higher, lower in zip(scores, scores[1:], strict=False)):
        # The proof above walks down the standings; out of score order it does not hold.
        return swiss_pairing(players, met)
    weights = SwissWeights.of(players, met)
    position = {p.id: i for i, p in enumerate(players)}
    met_below = _met_positions(players, met, position)
    window = 3 * max((len(m) for m in met_below), default=0) + 2
    # Most deserving of the bye first: no bye yet, then lowest-ranked.
    bye_order = sorted(range(len(players)), key=lambda i: (players[i].had_bye, -i))
    candidates = set(bye_order[:BYE_CANDIDATES]) if len(players) % 2 else set()
    pieces = _pieces(scores, block, min(candidates, default=len(players)))

    field = _Field(players, weights, met_below, window, candidates, bye_order[0])
    done = _pair_pieces(field, pieces, position, progress)
    if done is None:
        return swiss_pairing(players, met)
    return RoundPairing(
        games=tuple(game for piece in done for game in piece.games),
        byes=tuple(bye for piece in done for bye in piece.byes),
    )


@dataclass(frozen=True)
class _Field:
    players: Sequence[SwissPlayer]
    weights: SwissWeights
    met_at: list[set[int]]
    window: int
    candidates: set[int]
    best_bye: int  # the position of the player who deserves the bye most


def _pair_pieces(
    field: _Field,
    pieces: list[tuple[int, int]],
    position: dict[int, int],
    progress: Progress | None,
) -> list[RoundPairing] | None:
    """Pair piece after piece, merging a piece that fails with its neighbour; None when the
    whole field as one piece cannot be paired without a rematch."""
    n = len(field.players)
    done: list[RoundPairing] = []
    while pieces:
        start, end = pieces[0]
        found = _pair_piece(field, start, end)
        best_bye = not field.candidates or end < n or _bye_is(found, field.players[field.best_bye])
        if found is not None and (best_bye or len(pieces) + len(done) == 1):
            done.append(found)
            pieces.pop(0)
            if progress is not None:
                progress(len(done), len(done) + len(pieces))
        elif len(pieces) > 1:
            pieces[:2] = [(start, pieces[1][1])]
        elif done:
            # The last piece cannot be paired well on its own: take the one above back in.
            previous = done.pop()
            pieces[0] = (min(position[p] for p in previous.players()), end)
        else:
            return None
    return done


def _bye_is(found: RoundPairing | None, player: SwissPlayer) -> bool:
    return found is not None and found.byes == (player.id,)


def _met_positions(
    players: Sequence[SwissPlayer], met: Collection[frozenset[int]], position: dict[int, int]
) -> list[set[int]]:
    """For each player, the positions of the players of this round they have met."""
    met_at: list[set[int]] = [set() for _ in players]
    for pair in met:
        if len(pair) != 2:
            continue
        a, b = pair
        if a in position and b in position:
            met_at[position[a]].add(position[b])
            met_at[position[b]].add(position[a])
    return met_at


def _pieces(scores: Sequence[int], block: int, first_candidate: int) -> list[tuple[int, int]]:
    """Cut positions into pieces of at least ``block`` players, each (but the last) even and
    ending between two score groups; the last holds every bye candidate."""
    n = len(scores)
    if n <= 2 * block:
        return [(0, n)]
    pieces: list[tuple[int, int]] = []
    start = 0
    for cut in range(block, n - block + 1):
        size = cut - start
        between_groups = scores[cut - 1] != scores[cut]
        if size >= block and size % 2 == 0 and (between_groups or size >= 2 * block):
            if cut > first_candidate:
                break
            pieces.append((start, cut))
            start = cut
    pieces.append((start, n))
    return pieces


def _pair_piece(field: _Field, start: int, end: int) -> RoundPairing | None:
    """The best pairing of positions ``start..end-1`` on the candidate edges, or None when
    they cannot all be paired (one bye if odd) without a rematch."""
    players, weights = field.players, field.weights
    graph: nx.Graph[int | str] = nx.Graph()
    for a in range(start, end):
        taken = 0
        for d in range(a + 1, end):
            if d in field.met_at[a]:
                continue
            graph.add_edge(
                players[a].id, players[d].id, weight=weights.game(players[a], players[d])
            )
            taken += 1
            if taken == field.window:
                break
    odd = (end - start) % 2
    if odd:
        for i in field.candidates:
            if start <= i < end:
                graph.add_edge(players[i].id, BYE_NODE, weight=weights.bye(players[i]))
    matching = nx.max_weight_matching(graph, maxcardinality=True, weight="weight")
    if 2 * len(matching) != end - start + odd:
        return None
    return pairing_from_matching(matching, weights.rank)
