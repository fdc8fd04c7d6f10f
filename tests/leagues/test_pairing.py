"""Pairing properties (no database): checked against every possible pairing of small rounds."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from apps.leagues.pairing import (
    PairingError,
    RoundPairing,
    SwissPlayer,
    check_pairing,
    everyone_has_met,
    met_key,
    rematches,
    round_robin_schedule,
    swap_players,
    swiss_pairing,
    without_dropped,
)


def every_pairing(ids: list[int]) -> Iterator[RoundPairing]:
    """All ways to pair ``ids`` (with one bye when odd)."""
    seats: list[int | None] = list(ids) + ([None] if len(ids) % 2 else [])

    def pairs(rest: list[int | None]) -> Iterator[list[tuple[int | None, int | None]]]:
        if not rest:
            yield []
            return
        first, others = rest[0], rest[1:]
        for i, partner in enumerate(others):
            for tail in pairs(others[:i] + others[i + 1 :]):
                yield [(first, partner), *tail]

    for matching in pairs(seats):
        games = tuple((a, b) for a, b in matching if a is not None and b is not None)
        byes = tuple(p for a, b in matching if a is None or b is None for p in (a, b) if p)
        yield RoundPairing(games=games, byes=byes)


@st.composite
def rounds(draw: st.DrawFn, max_players: int = 9) -> tuple[list[SwissPlayer], set[frozenset[int]]]:
    n = draw(st.integers(min_value=2, max_value=max_players))
    ids = list(range(1, n + 1))
    scores = sorted(draw(st.lists(st.integers(0, 12), min_size=n, max_size=n)), reverse=True)
    met = draw(st.sets(st.sampled_from([met_key(a, b) for a, b in combinations(ids, 2)])))
    had_bye = draw(st.sets(st.sampled_from(ids)))
    players = [
        SwissPlayer(id=i, score=s, had_bye=i in had_bye) for i, s in zip(ids, scores, strict=True)
    ]
    return players, met


def second_byes(pairing: RoundPairing, players: list[SwissPlayer]) -> int:
    had = {p.id for p in players if p.had_bye}
    return sum(1 for p in pairing.byes if p in had)


@given(rounds())
def test_everyone_is_paired_exactly_once_with_at_most_one_bye(case) -> None:  # noqa: ANN001
    players, met = case
    pairing = swiss_pairing(players, met)
    check_pairing(pairing, [p.id for p in players])
    assert len(pairing.byes) == len(players) % 2


@given(rounds())
def test_no_rematch_while_one_can_be_avoided(case) -> None:  # noqa: ANN001
    players, met = case
    fewest = min(rematches(p, met) for p in every_pairing([p.id for p in players]))
    assert rematches(swiss_pairing(players, met), met) == fewest


@given(rounds())
def test_no_second_bye_while_it_can_be_avoided(case) -> None:  # noqa: ANN001
    """Rematches weigh more than a second bye; among the pairings with the fewest rematches,
    the chosen one gives a second bye only when all of them do."""
    players, met = case
    candidates = list(every_pairing([p.id for p in players]))
    fewest = min(rematches(p, met) for p in candidates)
    best = min(second_byes(p, players) for p in candidates if rematches(p, met) == fewest)
    assert second_byes(swiss_pairing(players, met), players) == best


@given(rounds())
def test_the_bye_goes_to_the_lowest_ranked_player_who_can_take_it(case) -> None:  # noqa: ANN001
    players, met = case
    if len(players) % 2 == 0:
        return
    rank = {p.id: i for i, p in enumerate(players)}
    candidates = list(every_pairing([p.id for p in players]))

    def priority(p: RoundPairing) -> tuple[int, int, int]:
        return (rematches(p, met), second_byes(p, players), -rank[p.byes[0]])

    best = min(priority(p) for p in candidates)
    assert priority(swiss_pairing(players, met)) == best


def test_first_round_pairs_neighbours_in_the_given_order() -> None:
    players = [SwissPlayer(id=i) for i in (4, 2, 7, 1)]
    pairing = swiss_pairing(players, set())
    assert pairing.games == ((4, 2), (7, 1))


def test_winners_meet_winners() -> None:
    players = [SwissPlayer(1, 3), SwissPlayer(2, 3), SwissPlayer(3, 0), SwissPlayer(4, 0)]
    pairing = swiss_pairing(players, {met_key(1, 3), met_key(2, 4)})
    assert pairing.games == ((1, 2), (3, 4))


def test_fewer_than_two_players_cannot_be_paired() -> None:
    with pytest.raises(PairingError) as error:
        swiss_pairing([SwissPlayer(1)], set())
    assert error.value.code == "not_enough_players"


def test_everyone_has_met_everyone() -> None:
    met = {met_key(1, 2), met_key(1, 3), met_key(2, 3)}
    assert everyone_has_met([1, 2, 3], met)
    assert not everyone_has_met([1, 2, 3, 4], met)


def test_sixty_four_players_with_seven_rounds_of_history_pair_in_under_a_second() -> None:
    rng = random.Random(5)
    ids = list(range(1, 65))
    met: set[frozenset[int]] = set()
    for _ in range(7):
        rng.shuffle(ids)
        met |= {met_key(ids[i], ids[i + 1]) for i in range(0, 64, 2)}
    players = [SwissPlayer(id=i, score=rng.randint(0, 21)) for i in ids]
    players.sort(key=lambda p: -p.score)
    start = time.perf_counter()
    pairing = swiss_pairing(players, met)
    assert time.perf_counter() - start < 1.0
    assert rematches(pairing, met) == 0
    check_pairing(pairing, ids)


@given(st.integers(min_value=2, max_value=12))
@settings(max_examples=20)
def test_round_robin_plays_every_pair_exactly_once(n: int) -> None:
    ids = list(range(10, 10 + n))
    schedule = round_robin_schedule(ids)
    games = [met_key(a, b) for r in schedule for a, b in r.games]
    assert sorted(games, key=sorted) == sorted(
        (met_key(a, b) for a, b in combinations(ids, 2)), key=sorted
    )
    for pairing in schedule:
        check_pairing(pairing, ids)
    byes = [p for r in schedule for p in r.byes]
    assert sorted(byes) == (sorted(ids) if n % 2 else [])


def test_a_dropped_players_opponent_gets_a_bye() -> None:
    pairing = RoundPairing(games=((1, 2), (3, 4)))
    assert without_dropped(pairing, {2}) == RoundPairing(games=((3, 4),), byes=(1,))


def test_swapping_players_keeps_everyone_paired_once() -> None:
    pairing = RoundPairing(games=((1, 2), (3, 4)), byes=(5,))
    swapped = swap_players(pairing, 2, 5)
    assert swapped == RoundPairing(games=((1, 5), (3, 4)), byes=(2,))
    check_pairing(swapped, [1, 2, 3, 4, 5])
    with pytest.raises(PairingError):
        swap_players(pairing, 1, 2)
    with pytest.raises(PairingError):
        swap_players(pairing, 1, 9)
