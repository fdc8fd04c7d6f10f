"""Exact flip odds against brute force over card identities, a closed form and sampling."""

from __future__ import annotations

import math
import random
import timeit
from collections import Counter, defaultdict
from collections.abc import Callable
from fractions import Fraction
from functools import partial
from itertools import permutations

import pytest

from apps.systems.core.deck import Deck, flip, shuffled_deck
from apps.systems.core.errors import RuleViolation
from apps.systems.core.flip_odds import (
    criticals_distribution,
    flip_odds,
    flip_outcomes,
    hit_chance,
    p_result_at_least,
    result_distribution,
)

# The ``stacked_deck`` fixture (conftest.py): a deck whose top cards are known.
StackDeck = Callable[..., Deck]

FRESH_40 = [value for value in range(10) for _ in range(4)]


def brute_force(deck: Deck, cards: int) -> dict[tuple[int, ...], Fraction]:
    """Sorted revealed values over every equally likely ordering of individual cards.

    The player cannot tell the unseen cards' order, so every ordering of them (the five under
    the Wendepunkt included) is equally likely; ``permutations`` tells equal values apart by
    position, i.e. counts card identities. Cards needed beyond the Wendepunkt come from a
    reshuffle of all 40 number cards, which does not depend on what came before, so the two
    parts are counted separately and multiplied.
    """
    unseen = deck.above_turn + deck.below_turn
    above = len(deck.above_turn)
    before = Counter(tuple(order[: min(cards, above)]) for order in permutations(unseen))
    after = Counter(permutations(FRESH_40, max(0, cards - above)))
    ways: Counter[tuple[int, ...]] = Counter()
    for first, n_first in before.items():
        for second, n_second in after.items():
            ways[tuple(sorted(first + second))] += n_first * n_second
    total = sum(ways.values())
    return {values: Fraction(n, total) for values, n in ways.items()}


def keep(values: tuple[int, ...], modifier: int) -> int:
    return max(values) if modifier > 0 else min(values)


@pytest.mark.parametrize(
    ("above", "below", "modifier"),
    [
        ([5, 9, 0], [1, 2, 9, 7, 7], 0),
        ([5, 9, 0], [1, 2, 9, 7, 7], -1),
        ([3, 3, 8], [3, 0, 0, 6, 1], 2),  # takes the last card before the Wendepunkt
        ([4, 9], [0, 0, 9, 5, 2], -2),  # one card after the reshuffle
        ([6], [9, 9, 9, 1, 0], 2),  # two cards after the reshuffle
        ([6], [9, 9, 9, 1, 0], -1),
        ([], [9, 8, 7, 6, 5], 1),  # the Wendepunkt is the next card
    ],
)
def test_exact_flip_odds_equal_brute_force_over_card_orderings(
    stacked_deck: StackDeck, above: list[int], below: list[int], modifier: int
) -> None:
    deck = stacked_deck(above, below)
    expected = brute_force(deck, 1 + abs(modifier))
    assert flip_outcomes(deck, modifier) == expected
    assert sum(expected.values()) == 1

    kept: defaultdict[int, Fraction] = defaultdict(Fraction)
    nines: defaultdict[int, Fraction] = defaultdict(Fraction)
    for values, p in expected.items():
        kept[keep(values, modifier)] += p
        nines[values.count(9)] += p
    assert result_distribution(deck, modifier) == dict(kept)
    assert criticals_distribution(deck, modifier) == dict(nines)


def test_hit_chance_equals_brute_force(stacked_deck: StackDeck) -> None:
    deck = stacked_deck([6], [9, 9, 0, 1, 4])
    attack, reflex = 3, 9
    hit = graze = critical = Fraction(0)
    for values, p in brute_force(deck, 3).items():
        card = max(values)
        hit += p if card != 0 and card + attack > reflex else 0
        graze += p if card != 0 and card + attack == reflex else 0
        critical += p if 9 in values else 0
    odds = hit_chance(deck, 2, attack, reflex)
    assert (odds.hit, odds.graze, odds.critical) == (hit, graze, critical)
    assert odds.hit + odds.graze + odds.miss == 1


def test_full_deck_normal_flip_reaches_seven_with_12_in_40() -> None:
    deck = shuffled_deck(random.Random(1))
    assert p_result_at_least(deck, 0, 7) == Fraction(12, 40)
    odds = flip_odds(deck, 0)
    assert odds.at_least[7] == Fraction(12, 40)
    assert odds.at_least[0] == 1
    assert odds.zero == odds.any_nine == Fraction(4, 40)
    assert odds.result == {value: Fraction(1, 10) for value in range(10)}


def test_boosted_full_deck_flip_matches_the_hypergeometric_closed_form() -> None:
    # P(max of 3 cards < 7) = C(28, 3) / C(40, 3): all three from the 28 cards below 7.
    deck = shuffled_deck(random.Random(1))
    assert p_result_at_least(deck, 2, 7) == 1 - Fraction(math.comb(28, 3), math.comb(40, 3))


def test_kept_zero_misses_whatever_the_total() -> None:
    deck = shuffled_deck(random.Random(1))
    odds = hit_chance(deck, 0, attack_value=8, target_reflex=7)
    assert odds.hit == Fraction(36, 40)
    assert odds.graze == 0
    assert odds.miss == Fraction(4, 40)


def test_odds_refuse_a_modifier_out_of_range() -> None:
    with pytest.raises(RuleViolation) as error:
        flip_outcomes(shuffled_deck(random.Random(1)), 3)
    assert error.value.code == "flip_modifier_out_of_range"


def test_sampled_flips_match_the_exact_odds(stacked_deck: StackDeck) -> None:
    """20,000 seeded boosted flips that cross the Wendepunkt, against the exact odds.

    Each sample re-deals the unseen cards in a random order, because the odds are what the player
    knows (which cards were drawn, not the order of the rest). Tolerance per value: 4 standard
    errors, 4 * sqrt(p(1 - p) / n), at most 4 * sqrt(0.25 / 20,000) = 0.0141.
    """
    deck = stacked_deck([2, 8], [9, 0, 0, 4, 5])
    modifier, samples = 2, 20_000
    rng = random.Random(20261122)
    unseen = list(deck.above_turn + deck.below_turn)
    results: Counter[int] = Counter()
    any_nine = 0
    for _ in range(samples):
        rng.shuffle(unseen)
        dealt = Deck(above_turn=tuple(unseen[:2]), below_turn=tuple(unseen[2:]), drawn=deck.drawn)
        sampled = flip(dealt, modifier, rng)
        results[sampled.result] += 1
        any_nine += sampled.nines > 0

    exact = flip_odds(deck, modifier)
    for value in range(10):
        p = float(exact.result.get(value, 0))
        tolerance = 4 * math.sqrt(p * (1 - p) / samples)
        assert abs(results[value] / samples - p) <= tolerance, value
    p = float(exact.any_nine)
    assert abs(any_nine / samples - p) <= 4 * math.sqrt(p * (1 - p) / samples)


def test_full_deck_odds_take_well_under_5_ms() -> None:
    deck = shuffled_deck(random.Random(1))
    for modifier in (-2, 2):
        # Best of several runs, so that a busy machine does not fail the test.
        seconds = min(timeit.repeat(partial(flip_outcomes, deck, modifier), number=10, repeat=5))
        assert seconds / 10 < 0.005
