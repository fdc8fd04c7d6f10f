"""Dice: rolling with a supplied random source, and the exact distribution of each procedure.

Randomness always comes in as ``rng`` (``secrets.SystemRandom()`` in production, a seeded
``random.Random`` in tests), so a decided roll can be written into an event and replayed.
Malformed requests (no sides, a negative number of dice, an impossible target) raise
``RuleViolation`` so that a bad value from a form or an import becomes a 4xx, not a crash.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import reduce

from apps.systems.core.distributions import Distribution, add, p_at_least, point, shift, uniform
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
# die per natural 6 among the original dice, and the extra die never explodes again. Where an
# ability allows it, a 1 is rerolled once ("Wiederholungswürfel dürfen kein zweites Mal wiederholt
# werden"); a rerolled original die that shows a 6 explodes like any rolled 6.


@dataclass(frozen=True)
class ExplodingRoll:
    """A Grundregeln roll: ``dice`` as they finally show, ``extra`` one die per natural top face
    among them; ``rerolled`` the positions in ``all_dice`` whose 1 was rolled again."""

    dice: tuple[int, ...]
    extra: tuple[int, ...]
    rerolled: tuple[int, ...] = ()

    @property
    def all_dice(self) -> tuple[int, ...]:
        return self.dice + self.extra

    @property
    def total(self) -> int:
        """The sum of every die, for rolls that add up (movement, the round start roll)."""
        return sum(self.all_dice)

    def successes(self, target: int) -> int:
        """How many dice, extra dice included, show at least ``target``."""
        return sum(1 for value in self.all_dice if value >= target)


def _rolled_with_rerolls(
    rng: random.Random, count: int, sides: int, reroll_ones: bool, offset: int
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    dice = list(roll_dice(rng, count, sides))
    rerolled = []
    if reroll_ones:
        for position, value in enumerate(dice):
            if value == 1:
                dice[position] = roll_die(rng, sides)
                rerolled.append(offset + position)
    return tuple(dice), tuple(rerolled)


def roll_exploding_once(
    rng: random.Random, count: int, sides: int = 6, *, reroll_ones: bool = False
) -> ExplodingRoll:
    dice, rerolled = _rolled_with_rerolls(rng, count, sides, reroll_ones, 0)
    extra, extra_rerolled = _rolled_with_rerolls(
        rng, dice.count(sides), sides, reroll_ones, len(dice)
    )
    return ExplodingRoll(dice=dice, extra=extra, rerolled=rerolled + extra_rerolled)


def face(sides: int = 6, *, reroll_ones: bool = False) -> Distribution:
    """What one die finally shows; with ``reroll_ones`` a 1 is rolled once more."""
    plain = die(sides)
    if not reroll_ones:
        return plain
    # A 1 comes back as any face: P(1) = 1/s * 1/s, every other face 1/s + 1/s * 1/s.
    again = plain[1]
    return {value: p * again if value == 1 else p + again * p for value, p in plain.items()}


def exploding_once_successes(
    count: int, target: int, sides: int = 6, *, reroll_ones: bool = False
) -> Distribution:
    """Distribution of how many of all dice (original and extra) show ``target`` or more.

    ``target`` is 2..sides, the range the Grundregeln hit and damage tables use.
    """
    _check_count(count)
    _check_sides(sides)
    if not 2 <= target <= sides:
        raise RuleViolation(
            "dice_target_out_of_range", f"A d{sides} target must be 2 to {sides}, not {target}."
        )
    faces = face(sides, reroll_ones=reroll_ones)
    top = faces[sides]
    hit = p_at_least(faces, target)
    # Per original die: a top face is one success plus one more if its extra die succeeds.
    one_die = {
        0: 1 - hit,
        1: hit - top + top * (1 - hit),
        2: top * hit,
    }
    return reduce(add, [one_die] * count, point(0))


def exploding_once_die_sum(sides: int = 6, *, reroll_ones: bool = False) -> Distribution:
    """Sum shown by one die whose top face adds one extra, non-exploding die (1..5, 7..12)."""
    faces = face(sides, reroll_ones=reroll_ones)
    plain = {value: p for value, p in faces.items() if value != sides}
    exploded = shift({value: p * faces[sides] for value, p in faces.items()}, sides)
    return plain | exploded


def exploding_once_dice_sum(
    count: int, sides: int = 6, modifier: int = 0, *, reroll_ones: bool = False
) -> Distribution:
    """``count`` exploding dice added up, plus ``modifier`` (Grundregeln 2W6+B, W6+B)."""
    _check_count(count)
    one = exploding_once_die_sum(sides, reroll_ones=reroll_ones)
    return shift(reduce(add, [one] * count, point(0)), modifier)


# Stahlgewitter d10 procedures.


def roll_d10_ten_is_zero(rng: random.Random) -> int:
    """A d10 on which a rolled 10 counts 0 (morale tests): 0..9."""
    return roll_die(rng, 10) % 10


def d10_ten_is_zero() -> Distribution:
    return uniform(range(10))
