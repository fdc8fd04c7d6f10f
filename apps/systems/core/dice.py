"""Dice: rolling with a supplied random source, and the exact distribution of each procedure.

Randomness always comes in as ``rng`` (``secrets.SystemRandom()`` in production, a seeded
``random.Random`` in tests), so a decided roll can be written into an event and replayed.
Malformed requests (no sides, a negative number of dice, an impossible target) raise
``RuleViolation`` so that a bad value from a form or an import becomes a 4xx, not a crash.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from functools import reduce

from apps.systems.core.distributions import Distribution, add, from_weights, point, shift, uniform
from apps.systems.core.errors import RuleViolation


def _check_sides(sides: int) -> None:
    if sides < 2:
        raise RuleViolation("die_sides_invalid", f"A die needs at least 2 sides, not {sides}.")


def _check_count(count: int) -> None:
    if count < 0:
        raise RuleViolation("dice_count_invalid", f"Cannot roll {count} dice.")


def roll_die(rng: random.Random, sides: int) -> int:
    """One die showing 1..sides."""
    _check_sides(sides)
    return rng.randint(1, sides)


def roll_dice(rng: random.Random, count: int, sides: int) -> tuple[int, ...]:
    _check_count(count)
    return tuple(roll_die(rng, sides) for _ in range(count))


def die(sides: int) -> Distribution:
    """One fair die, 1..sides."""
    _check_sides(sides)
    return uniform(range(1, sides + 1))


def sum_of_dice(count: int, sides: int, modifier: int = 0) -> Distribution:
    """``count``d``sides`` + ``modifier``, e.g. the Grundregeln sprint 2d6+B."""
    _check_count(count)
    return shift(reduce(add, [die(sides)] * count, point(0)), modifier)


# Grundregeln: "Jede geworfene 6 explodiert einmal" -- SPEC §2 decides that this means one extra
# die per natural 6 among the original dice, and the extra die never explodes again.


@dataclass(frozen=True)
class ExplodingRoll:
    """A Grundregeln roll: ``dice`` as first rolled, ``extra`` one die per natural top face."""

    dice: tuple[int, ...]
    extra: tuple[int, ...]

    @property
    def all_dice(self) -> tuple[int, ...]:
        return self.dice + self.extra

    def successes(self, target: int) -> int:
        """How many dice, extra dice included, show at least ``target``."""
        return sum(1 for value in self.all_dice if value >= target)


def roll_exploding_once(rng: random.Random, count: int, sides: int = 6) -> ExplodingRoll:
    dice = roll_dice(rng, count, sides)
    return ExplodingRoll(dice=dice, extra=roll_dice(rng, dice.count(sides), sides))


def exploding_once_successes(count: int, target: int, sides: int = 6) -> Distribution:
    """Distribution of how many of all dice (original and extra) show ``target`` or more.

    ``target`` is 2..sides, the range the Grundregeln hit and damage tables use.
    """
    _check_count(count)
    _check_sides(sides)
    if not 2 <= target <= sides:
        raise RuleViolation(
            "dice_target_out_of_range", f"A d{sides} target must be 2 to {sides}, not {target}."
        )
    # Per original die, counted over the sides * sides equally likely (die, extra die) pairs:
    # a top face is one success plus one more if its extra die also reaches the target.
    fails = target - 1
    one_die = from_weights(
        {
            0: fails * sides,
            1: (sides - target) * sides + fails,
            2: sides - fails,
        }
    )
    return reduce(add, [one_die] * count, point(0))


def exploding_once_die_sum(sides: int = 6) -> Distribution:
    """Sum shown by one die whose top face adds one extra, non-exploding die (1..5, 7..12)."""
    plain = {value: Fraction(1, sides) for value in range(1, sides)}
    exploded = shift({value: p / sides for value, p in die(sides).items()}, sides)
    return plain | exploded


# Stahlgewitter d10 procedures.


def roll_d10_ten_is_zero(rng: random.Random) -> int:
    """A d10 on which a rolled 10 counts 0 (morale tests): 0..9."""
    return roll_die(rng, 10) % 10


def d10_ten_is_zero() -> Distribution:
    return uniform(range(10))


@dataclass(frozen=True)
class CrtRoll:
    """A roll for the combat result table: ``first`` d10 and, after a 10, the ``extra`` d10.

    ``extra`` holds the face as rolled (1..10); ``total`` counts an extra 10 as 0.
    """

    first: int
    extra: int | None

    @property
    def total(self) -> int:
        return self.first + (0 if self.extra is None else self.extra % 10)


def roll_d10_crt(rng: random.Random) -> CrtRoll:
    """Roll the row of the Stahlgewitter combat result table (Kampf-Ergebnistabelle).

    Roll 1d10; on a 10 one extra d10 is added, on which a 10 counts 0, so totals run 1..9 and
    10..19, and the extra die never explodes further. The rulebook says the extra die *may* be
    rolled; it is always rolled because a higher row never harms the attacker.

    The rulebook's table prints rows "10+1" to "10+10" while its text says the extra 10 counts 0,
    so row "10+10" is unreachable and a 10 followed by a 10 lands on row 10. That is the literal
    rule and what this implements; the Stahlgewitter rules issue may revisit it.
    """
    first = roll_die(rng, 10)
    return CrtRoll(first=first, extra=roll_die(rng, 10) if first == 10 else None)


def d10_crt() -> Distribution:
    after_ten = shift(d10_ten_is_zero(), 10)
    return {value: Fraction(1, 10) for value in range(1, 10)} | {
        value: p / 10 for value, p in after_ten.items()
    }
