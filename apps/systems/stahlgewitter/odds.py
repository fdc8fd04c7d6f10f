"""Exact odds of Stahlgewitter's rolls, as integer weights over a common denominator.

Every roll here uses one or two d10 (or a d4), so counting the equally likely faces gives the
exact answer without ``Fraction`` arithmetic; the pages turn a pair (num, den) into text with
``apps.systems.core.distributions.chance_text(Fraction(num, den))``. Each function mirrors a roll
in ``combat.py`` or ``morale.py`` and is checked against enumerating the dice in the tests.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from apps.systems.core.errors import RuleViolation
from apps.systems.stahlgewitter.combat import row_of
from apps.systems.stahlgewitter.morale import (
    banner_result,
    extinguish_bonus,
    fire_result,
    morale_passes,
    rally_result,
)
from apps.systems.stahlgewitter.tables import COLUMNS, Letter, crt_letter, load

_ROLL = load().roll
# Two dice of equally likely faces: every row weight is a count out of die x extra die.
ROW_DENOMINATOR: Final = _ROLL.die * _ROLL.extra_die
MORALE_DENOMINATOR: Final = load().morale.die


def row_weights(bonus: int = 0) -> dict[int, int]:
    """The exact distribution of the final row, out of ``ROW_DENOMINATOR`` (100).

    Without a bonus rows 1..9 weigh 10 each, and rows 10 and 11..19 (10+1..10+9) 1 each: a first
    10 always rolls the extra die, whose 10 counts 0. Only a row bonus reaches row 10+10.
    """
    return dict(_row_weights(bonus))


@lru_cache(maxsize=8)
def _row_weights(bonus: int) -> tuple[tuple[int, int], ...]:
    if bonus < 0:
        raise RuleViolation("row_bonus_invalid", f"A row bonus of {bonus} is not allowed.")
    counts: dict[int, int] = {}
    for first in range(1, _ROLL.die + 1):
        if first == _ROLL.open_face:
            for extra in range(1, _ROLL.extra_die + 1):
                row = row_of((first, extra), bonus)
                counts[row] = counts.get(row, 0) + 1
        else:
            row = row_of((first,), bonus)
            counts[row] = counts.get(row, 0) + _ROLL.extra_die
    return tuple(sorted(counts.items()))


def letter_weights(column: int, row_bonus: int = 0) -> dict[Letter, int]:
    """The chance of each letter at ``column``, out of ``ROW_DENOMINATOR`` (100); letters that
    cannot come up are left out, the rest are in the printed order A..D, -, E..J."""
    return dict(_letter_weights(column, row_bonus))


@lru_cache(maxsize=len(COLUMNS) * 4)
def _letter_weights(column: int, row_bonus: int) -> tuple[tuple[Letter, int], ...]:
    counts = dict.fromkeys(Letter, 0)
    for row, weight in _row_weights(row_bonus):
        counts[crt_letter(column, row)] += weight
    return tuple((letter, weight) for letter, weight in counts.items() if weight)


def morale_pass_weight(wik: int, modifier: int = 0, *, reroll: bool = False) -> tuple[int, int]:
    """(passing faces, all faces) of a morale test: 1d10 + WIK + modifier ≥ 10, a rolled 10
    counting 0. With ``reroll`` (army commander or banner) a failed test is rolled once more, so
    the pair is out of 100: p + (1 − p)·p."""
    die = MORALE_DENOMINATOR
    passing = sum(1 for face in range(1, die + 1) if morale_passes(face, wik, modifier))
    if not reroll:
        return passing, die
    return passing * die + (die - passing) * passing, die * die


def rally_weights(value: int) -> tuple[int, int, int]:
    """(rallied, stays in panic, deserts) out of 10 for a Sammelprobe on morale value
    ``value``: a die of at most ``value`` rallies, a failing 10 deserts."""
    counts = {"rallied": 0, "panic": 0, "deserted": 0}
    for face in range(1, load().morale.rally_die + 1):
        counts[rally_result(face, value)] += 1
    return counts["rallied"], counts["panic"], counts["deserted"]


def extinguish_weight(helpers: int) -> tuple[int, int]:
    """(faces that put the flames out, all faces): 1d10 + 1 per helper (at most +3) ≥ 6."""
    rule = load().extinguish
    bonus = extinguish_bonus(helpers)
    return sum(1 for face in range(1, rule.die + 1) if face + bonus >= rule.target), rule.die


def execution_weights() -> tuple[int, int]:
    """(rallied, mutiny) out of 10 after a cruel leader's example: 1-9 rallied, 10 mutiny."""
    morale = load().morale
    mutiny = morale.execution_die - morale.mutiny_from + 1
    return morale.execution_die - mutiny, mutiny


def fire_weights() -> dict[str, int]:
    """("out", "burns", "spreads") weights out of 10 of the decided fire table."""
    counts: dict[str, int] = {}
    for face in range(1, load().fire_die + 1):
        result = fire_result(face)
        counts[result] = counts.get(result, 0) + 1
    return counts


def banner_weights(wik: int) -> dict[str, int]:
    """Weights out of 10 of "panic", "surrender", "extra_attack" and "extra_turn" when the
    banner falls (results that cannot happen are left out)."""
    counts: dict[str, int] = {}
    for face in range(1, MORALE_DENOMINATOR + 1):
        result = banner_result(face, wik)
        counts[result] = counts.get(result, 0) + 1
    return counts


def start_weights(bonus: tuple[int, int] = (0, 0)) -> tuple[int, int]:
    """(first player starts, second player starts) over a common denominator for the start roll:
    1d10 + bonus each, ties rolled again, so only the decided pairs count."""
    die = load().morale.start_die
    first = second = 0
    for a in range(1, die + 1):
        for b in range(1, die + 1):
            if a + bonus[0] > b + bonus[1]:
                first += 1
            elif a + bonus[0] < b + bonus[1]:
                second += 1
    return first, second
