"""Exact odds of every Grundregeln roll, as fractions built from integer counts.

An attack rolls its attack dice against the hit table; every hit rolls one damage die against
the damage table; the defender's defence dice then cancel damage dice, each defence die one
damage die that shows no more than it. All dice explode once on a 6 (SPEC §2).

The LP-lost distributions are counted in integers over one common denominator by
``attack_counts`` (how, and why it is fast: see there); fractions are made once, at the end.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache

from apps.systems.core.dice import exploding_once_dice_sum, exploding_once_successes
from apps.systems.core.distributions import (
    Distribution,
    add,
    compare,
    p_at_least,
    point,
    shift,
)
from apps.systems.grundregeln import attack_counts
from apps.systems.grundregeln.attack_counts import Poly, weights

SIDES = 6

# Bounded caches: the inputs are small whole numbers (dice, table values, two flags), so these
# hold every case a club night asks for without growing for ever in a long-lived worker.
CACHE_SIZE = 4096


def _lost(
    dice: Poly,
    die_total: int,
    count: int,
    damage_value: int,
    defence_dice: int,
    defence_reroll: bool,
) -> tuple[dict[int, int], int]:
    """LP lost -> weight, and the denominator: ``count`` dice of ``dice`` (attack dice with their
    damage dice, or damage dice), each weighing ``die_total``, against ``defence_dice`` defence
    dice."""
    pool = attack_counts.defence_pool(defence_dice, damage_value, defence_reroll)
    # Each defence die and its possible extra die weigh total**2.
    denominator = die_total**count * weights(defence_reroll)[0] ** (2 * defence_dice)
    counts = attack_counts.lost_counts(dice, count, damage_value, pool, denominator)
    return counts, denominator


def _fractions(counts: Mapping[int, int], denominator: int) -> dict[int, Fraction]:
    return {k: Fraction(counts[k], denominator) for k in sorted(counts) if counts[k]}


@lru_cache(maxsize=CACHE_SIZE)
def uncancelled(
    damage_dice: int,
    damage_value: int,
    defence_dice: int,
    damage_reroll: bool = False,
    defence_reroll: bool = False,
) -> Mapping[int, Fraction]:
    """How many of ``damage_dice`` damage dice succeed (≥ ``damage_value``) and are not cancelled
    by ``defence_dice`` defence dice: the LP the defender loses."""
    die = attack_counts.damage_die(damage_value, damage_reroll)
    # A damage die and its possible extra die weigh total**2 (SIDES faces each).
    total = weights(damage_reroll)[0] ** 2
    return _fractions(*_lost(die, total, damage_dice, damage_value, defence_dice, defence_reroll))


@lru_cache(maxsize=CACHE_SIZE)
def attack_damage(
    attack_dice: int,
    hit_value: int,
    damage_value: int,
    defence_dice: int,
    attack_reroll: bool = False,
    defence_reroll: bool = False,
) -> Mapping[int, Fraction]:
    """The LP an attack takes off: hits, one damage die per hit, defence cancelling."""
    die = attack_counts.attack_die(hit_value, damage_value, attack_reroll)
    # An attack die, its extra die and their two damage dice with theirs: total**6.
    total = weights(attack_reroll)[0] ** 6
    return _fractions(*_lost(die, total, attack_dice, damage_value, defence_dice, defence_reroll))


def clear_caches() -> None:
    """Empty every odds cache: what a cold call costs (bench/dice_odds.py)."""
    attack_damage.cache_clear()
    uncancelled.cache_clear()
    attack_counts.clear_caches()


def hits(attack_dice: int, hit_value: int, reroll: bool = False) -> Distribution:
    return exploding_once_successes(attack_dice, hit_value, SIDES, reroll_ones=reroll)


def morale_pass(morale_dice: int, lp_lost: int, reroll: bool = False) -> Fraction:
    """P(at least ``lp_lost`` of the morale dice, extras included, show 4 or more)."""
    return p_at_least(exploding_once_successes(morale_dice, 4, SIDES, reroll_ones=reroll), lp_lost)


def movement(dice: int, base: int, reroll: bool = False) -> Distribution:
    """The distance of a d6 move: ``dice`` exploding d6 plus B."""
    if dice == 0:
        return point(base)
    return exploding_once_dice_sum(dice, SIDES, base, reroll_ones=reroll)


def push() -> Distribution:
    """The distance of a push (Schubsen): one exploding d6, in inches."""
    return exploding_once_dice_sum(1, SIDES)


def round_start_win(morale_a: int, morale_b: int) -> tuple[Fraction, Fraction]:
    """P(A wins), P(B wins) of the round start roll (1d6 + highest morale each, exploding),
    with ties rolled again until someone wins."""
    one = exploding_once_dice_sum(1)
    odds = compare(shift(one, morale_a), shift(one, morale_b))
    decided = odds.win + odds.loss
    return odds.win / decided, odds.loss / decided


def at_least(dist: Mapping[int, Fraction], k: int) -> Fraction:
    return sum((p for value, p in dist.items() if value >= k), Fraction(0))


def mean(dist: Mapping[int, Fraction]) -> Fraction:
    return sum((value * p for value, p in dist.items()), Fraction(0))


def fall_damage(
    distance: int, size_value: int, defence_dice: int, defence_reroll: bool
) -> Mapping[int, Fraction]:
    """A fall: ``distance`` attack dice, hit and damage both on ``size_value`` (a model against
    its own size: the tables' diagonal)."""
    return attack_damage(distance, size_value, size_value, defence_dice, False, defence_reroll)


def sum_of(a: Distribution, b: Distribution) -> Distribution:
    return add(a, b)
