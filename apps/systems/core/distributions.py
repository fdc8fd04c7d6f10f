"""Exact discrete probability distributions over integers.

A distribution maps each possible value to its probability as a ``Fraction``; the
probabilities sum to 1 and values with probability 0 are left out. Keys are kept in ascending
order so that distributions print and serialise the same way every time.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Final, TypeAlias

Distribution: TypeAlias = dict[int, Fraction]


def from_weights(weights: Mapping[int, int | Fraction]) -> Distribution:
    """Normalise non-negative weights (e.g. outcome counts) into a distribution."""
    total = sum(weights.values(), Fraction(0))
    if total <= 0 or any(w < 0 for w in weights.values()):
        raise ValueError("weights must be non-negative and not all zero")
    return {value: Fraction(weights[value]) / total for value in sorted(weights) if weights[value]}


def uniform(values: Iterable[int]) -> Distribution:
    """Every listed value equally likely; a value listed twice is twice as likely."""
    return from_weights(Counter(values))


def point(value: int) -> Distribution:
    """A value that is certain."""
    return {value: Fraction(1)}


def add(a: Distribution, b: Distribution) -> Distribution:
    """Distribution of the sum of two independent values."""
    total: dict[int, Fraction] = {}
    for x, px in a.items():
        for y, py in b.items():
            total[x + y] = total.get(x + y, Fraction(0)) + px * py
    return {value: total[value] for value in sorted(total)}


def shift(dist: Distribution, k: int) -> Distribution:
    """Distribution of the value plus a fixed modifier ``k``."""
    return {value + k: p for value, p in dist.items()}


def p_at_least(dist: Distribution, k: int) -> Fraction:
    return sum((p for value, p in dist.items() if value >= k), Fraction(0))


def p_at_most(dist: Distribution, k: int) -> Fraction:
    return sum((p for value, p in dist.items() if value <= k), Fraction(0))


def mean(dist: Distribution) -> Fraction:
    return sum((value * p for value, p in dist.items()), Fraction(0))


@dataclass(frozen=True)
class Comparison:
    """Odds of a comparative roll from A's side: A higher, equal, or lower than B."""

    win: Fraction
    tie: Fraction
    loss: Fraction


def compare(a: Distribution, b: Distribution) -> Comparison:
    """P(A > B), P(A = B), P(A < B) for independent A and B (e.g. 1d12+x against 1d12+y)."""
    win = tie = loss = Fraction(0)
    for x, px in a.items():
        for y, py in b.items():
            if x > y:
                win += px * py
            elif x == y:
                tie += px * py
            else:
                loss += px * py
    return Comparison(win=win, tie=tie, loss=loss)


def fraction_text(p: Fraction) -> str:
    """An exact probability as "n/d", the form events record it in."""
    return f"{p.numerator}/{p.denominator}"


def percent_text(p: Fraction | str) -> str:
    """A probability (or its "n/d" text) read at arm's length: whole percent, never a false
    0 % or 100 % ("<1 %" and ">99 %" at the ends); unreadable text gives ""."""
    try:
        value = Fraction(p)
    except (ValueError, ZeroDivisionError):
        return ""
    shown = round(float(value) * 100)
    if shown == 0 and value > 0:
        return "<1 %"
    if shown == 100 and value < 1:
        return ">99 %"
    return f"{shown} %"


# The exact fraction is shown beside the percentage while it stays readable (four six-sided
# dice: 6**4).
READABLE_DENOMINATOR: Final = 1296


def chance_text(p: Fraction) -> str:
    """A chance as the page shows it: "42 % (5/12)", the percentage with the exact fraction
    beside it; the percentage alone for a certainty, an impossibility or a fraction too long to
    read."""
    if p in (0, 1) or p.denominator > READABLE_DENOMINATOR:
        return percent_text(p)
    return f"{percent_text(p)} ({fraction_text(p)})"
