"""Exact distribution helpers, including Universalis comparative rolls."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from apps.systems.core.dice import die
from apps.systems.core.distributions import (
    add,
    chance_text,
    compare,
    fraction_text,
    mean,
    p_at_least,
    p_at_most,
    percent_text,
    shift,
    uniform,
)


def test_uniform_weights_repeated_values() -> None:
    assert uniform([0, 0, 1, 2]) == {0: Fraction(1, 2), 1: Fraction(1, 4), 2: Fraction(1, 4)}


def test_uniform_of_nothing_is_refused() -> None:
    with pytest.raises(ValueError):
        uniform([])


def test_sum_shift_and_tails_of_two_d6() -> None:
    two_d6 = add(die(6), die(6))
    assert two_d6[7] == Fraction(6, 36)
    assert sum(two_d6.values()) == 1
    assert mean(two_d6) == 7
    assert p_at_least(two_d6, 10) == Fraction(6, 36)
    assert p_at_most(two_d6, 3) == Fraction(3, 36)
    assert shift(two_d6, 4)[11] == Fraction(6, 36)


def test_comparative_roll_d12_plus_2_against_d12_equals_enumeration() -> None:
    win = tie = loss = 0
    for a, b in product(range(1, 13), repeat=2):
        win += a + 2 > b
        tie += a + 2 == b
        loss += a + 2 < b
    odds = compare(shift(die(12), 2), die(12))
    assert (odds.win, odds.tie, odds.loss) == (
        Fraction(win, 144),
        Fraction(tie, 144),
        Fraction(loss, 144),
    )
    assert odds.tie == Fraction(10, 144)
    assert odds.win + odds.tie + odds.loss == 1


@pytest.mark.parametrize(
    ("p", "shown"),
    [
        (Fraction(0), "0 %"),
        (Fraction(1), "100 %"),
        (Fraction(37, 100), "37 %"),
        (Fraction(1, 3), "33 %"),
        (Fraction(1, 1000), "<1 %"),
        (Fraction(1, 200), "<1 %"),
        (Fraction(199, 200), ">99 %"),
        (Fraction(999, 1000), ">99 %"),
        ("5/12", "42 %"),
    ],
)
def test_percent_text_never_shows_a_false_certainty(p: Fraction | str, shown: str) -> None:
    assert percent_text(p) == shown


def test_percent_text_of_unreadable_text_is_empty() -> None:
    assert percent_text("one in three") == ""
    assert percent_text("1/0") == ""


def test_fraction_text_is_the_recorded_form() -> None:
    assert fraction_text(Fraction(10, 24)) == "5/12"


@pytest.mark.parametrize(
    ("p", "shown"),
    [
        (Fraction(5, 12), "42 % (5/12)"),
        (Fraction(1, 1296), "<1 % (1/1296)"),
        (Fraction(1, 1297), "<1 %"),
        (Fraction(0), "0 %"),
        (Fraction(1), "100 %"),
    ],
)
def test_chance_text_shows_the_exact_fraction_while_it_is_readable(p: Fraction, shown: str) -> None:
    assert chance_text(p) == shown
