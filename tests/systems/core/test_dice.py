"""Dice procedures: exact distributions against enumeration, and seeded rolls."""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable
from fractions import Fraction
from itertools import product

import pytest

from apps.systems.core.dice import (
    d10_ten_is_zero,
    exploding_once_die_sum,
    exploding_once_successes,
    roll_d10_ten_is_zero,
    roll_dice,
    roll_exploding_once,
    sum_of_dice,
)
from apps.systems.core.errors import RuleViolation

D6 = range(1, 7)


def enumerate_exploding_successes(count: int, target: int) -> dict[int, Fraction]:
    """Every original roll, then every roll of its extra dice (one per natural 6)."""
    result: defaultdict[int, Fraction] = defaultdict(Fraction)
    for dice in product(D6, repeat=count):
        sixes = dice.count(6)
        for extra in product(D6, repeat=sixes):
            hits = sum(1 for value in dice + extra if value >= target)
            result[hits] += Fraction(1, 6 ** (count + sixes))
    return dict(result)


@pytest.mark.parametrize("count", [0, 1, 2, 3])
@pytest.mark.parametrize("target", [2, 3, 4, 5, 6])
def test_exploding_once_successes_equal_enumeration(count: int, target: int) -> None:
    assert exploding_once_successes(count, target) == enumerate_exploding_successes(count, target)


def test_exploding_once_die_sum_equals_enumeration() -> None:
    expected: defaultdict[int, Fraction] = defaultdict(Fraction)
    for first in D6:
        if first == 6:
            for extra in D6:
                expected[first + extra] += Fraction(1, 36)
        else:
            expected[first] += Fraction(1, 6)
    dist = exploding_once_die_sum()
    assert dist == dict(expected)
    assert 6 not in dist
    assert sorted(dist) == [1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12]


def test_extra_dice_never_explode_again() -> None:
    rng = random.Random(11)
    rolls = [roll_exploding_once(rng, 4) for _ in range(2_000)]
    for roll in rolls:
        assert len(roll.dice) == 4
        assert len(roll.extra) == roll.dice.count(6)
        assert all(1 <= value <= 6 for value in roll.all_dice)
    # Extra 6s occur and add nothing further.
    assert any(6 in roll.extra for roll in rolls)


def test_exploding_roll_counts_successes_over_all_dice() -> None:
    roll = roll_exploding_once(random.Random(3), 6)
    assert roll.successes(4) == sum(1 for value in roll.dice + roll.extra if value >= 4)


def test_sum_of_dice_equals_enumeration() -> None:
    expected: defaultdict[int, Fraction] = defaultdict(Fraction)
    for dice in product(D6, repeat=2):
        expected[sum(dice) + 5] += Fraction(1, 36)
    assert sum_of_dice(2, 6, modifier=5) == dict(expected)


def test_d10_with_ten_as_zero_is_uniform_0_to_9() -> None:
    assert d10_ten_is_zero() == {value: Fraction(1, 10) for value in range(10)}
    rng = random.Random(5)
    rolls = {roll_d10_ten_is_zero(rng) for _ in range(500)}
    assert rolls == set(range(10))


def test_seeded_dice_roll_in_range() -> None:
    rng = random.Random(2)
    assert set(roll_dice(rng, 1_000, 12)) == set(range(1, 13))


@pytest.mark.parametrize(
    ("call", "code"),
    [
        (lambda: roll_dice(random.Random(1), -1, 6), "dice_count_invalid"),
        (lambda: roll_dice(random.Random(1), 2, 1), "die_sides_invalid"),
        (lambda: exploding_once_successes(2, 1), "dice_target_out_of_range"),
        (lambda: exploding_once_successes(2, 7), "dice_target_out_of_range"),
    ],
)
def test_malformed_dice_requests_are_refused(call: Callable[[], object], code: str) -> None:
    with pytest.raises(RuleViolation) as error:
        call()
    assert error.value.code == code
