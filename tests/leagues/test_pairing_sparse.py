"""The sparse Swiss pairing against the full matching (no database): on small random histories
it gives the same rematches and bye, and in one piece the same score and rank distances."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from apps.leagues.pairing import (
    RoundPairing,
    SwissPlayer,
    SwissWeights,
    check_pairing,
    met_key,
    rematches,
    swiss_pairing,
)
from apps.leagues.pairing_sparse import swiss_pairing_sparse

Case = tuple[list[SwissPlayer], set[frozenset[int]]]


@st.composite
def histories(draw: st.DrawFn, max_players: int = 16) -> Case:
    """Players in score order with a few past rounds: each round pairs everyone (a random
    permutation), as a season does; few rounds keep the candidate window below the field."""
    n = draw(st.integers(min_value=2, max_value=max_players))
    ids = list(range(1, n + 1))
    met: set[frozenset[int]] = set()
    for _ in range(draw(st.integers(min_value=0, max_value=3))):
        order = draw(st.permutations(ids))
        met |= {met_key(order[i], order[i + 1]) for i in range(0, n - 1, 2)}
    scores = sorted(draw(st.lists(st.integers(0, 9), min_size=n, max_size=n)), reverse=True)
    had_bye = draw(st.sets(st.sampled_from(ids)))
    order = draw(st.permutations(ids))
    players = [
        SwissPlayer(id=i, score=s, had_bye=i in had_bye) for i, s in zip(order, scores, strict=True)
    ]
    return players, met


def penalties(pairing: RoundPairing, players: list[SwissPlayer]) -> tuple[int, int]:
    """The two lowest tiers: the sum of squared score differences and of rank distances."""
    score = {p.id: p.score for p in players}
    rank = {p.id: i for i, p in enumerate(players)}
    return (
        sum((score[a] - score[b]) ** 2 for a, b in pairing.games),
        sum(abs(rank[a] - rank[b]) for a, b in pairing.games),
    )


@settings(max_examples=150, deadline=None)
@given(histories())
def test_one_piece_is_as_good_as_the_full_matching_in_every_tier(case: Case) -> None:
    players, met = case
    sparse, full = swiss_pairing_sparse(players, met), swiss_pairing(players, met)
    check_pairing(sparse, [p.id for p in players])
    assert rematches(sparse, met) == rematches(full, met)
    assert sparse.byes == full.byes
    assert penalties(sparse, players) == penalties(full, players)


@settings(max_examples=150, deadline=None)
@given(histories(max_players=21))
def test_in_small_pieces_rematches_and_the_bye_stay_exact(case: Case) -> None:
    players, met = case
    sparse = swiss_pairing_sparse(players, met, block=2)
    full = swiss_pairing(players, met)
    check_pairing(sparse, [p.id for p in players])
    assert rematches(sparse, met) == rematches(full, met)
    assert sparse.byes == full.byes


def test_players_out_of_score_order_get_the_full_matching() -> None:
    players = [SwissPlayer(id=i, score=s) for i, s in enumerate([1, 3, 0, 2, 2, 5], start=1)]
    met = {met_key(1, 2), met_key(3, 4)}
    assert swiss_pairing_sparse(players, met) == swiss_pairing(players, met)


def test_an_unavoidable_rematch_falls_back_to_the_full_matching() -> None:
    players = [SwissPlayer(id=i, score=0) for i in (1, 2, 3, 4)]
    met = {met_key(1, 2), met_key(1, 3), met_key(1, 4)}
    sparse = swiss_pairing_sparse(players, met)
    assert rematches(sparse, met) == rematches(swiss_pairing(players, met), met) == 1


def test_progress_is_told_after_each_piece() -> None:
    players = [SwissPlayer(id=i, score=10 - i // 8) for i in range(80)]
    seen: list[tuple[int, int]] = []
    swiss_pairing_sparse(players, set(), block=16, progress=lambda d, t: seen.append((d, t)))
    assert seen[-1][0] == seen[-1][1] > 1
    assert [d for d, _ in seen] == list(range(1, len(seen) + 1))


def test_1024_players_after_nine_rounds_are_all_paired_without_a_rematch() -> None:
    rng = random.Random(16)
    ids = list(range(1, 1025))
    met: set[frozenset[int]] = set()
    for _ in range(9):
        rng.shuffle(ids)
        met |= {met_key(ids[i], ids[i + 1]) for i in range(0, len(ids), 2)}
    players = sorted(
        (SwissPlayer(id=i, score=rng.randint(0, 27), had_bye=False) for i in ids),
        key=lambda p: -p.score,
    )
    pairing = swiss_pairing_sparse(players, met)
    check_pairing(pairing, ids)
    assert len(pairing.games) == 512
    assert pairing.byes == ()
    assert rematches(pairing, met) == 0
    # Same scale as the full matching: every game weighs something positive.
    weights = SwissWeights.of(players, met)
    by_id = {p.id: p for p in players}
    assert all(weights.game(by_id[a], by_id[b]) > 0 for a, b in pairing.games)
