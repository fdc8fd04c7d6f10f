"""Exact odds of every Grundregeln roll, as fractions.

An attack rolls its attack dice against the hit table; every hit rolls one damage die against
the damage table; the defender's defence dice then cancel damage dice, each defence die one
damage die that shows no more than it. All dice explode once on a 6 (SPEC §2).

The damage distribution is computed face by face from 6 down: a pool of n dice shows k sixes
with binomial odds, and given that, its other dice are independent and alike on the faces below.
Exploding fits the same scheme: an original die's extra die is an ordinary die, so a pool's
sixes are its originals' sixes plus their extra dice's sixes, and every other die of the pool
(originals and extras alike) is a die that did not show 6. Defence dice are matched greedily
from the highest damage die down, which cancels as many as any matching can: a defence die high
enough for a damage die is high enough for every lower one.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import cache
from math import comb

from apps.systems.core.dice import exploding_once_dice_sum, exploding_once_successes, face
from apps.systems.core.distributions import (
    Distribution,
    add,
    compare,
    p_at_least,
    point,
    shift,
)

SIDES = 6


def _binomial(n: int, p: Fraction) -> dict[int, Fraction]:
    return {k: comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)}


def _pool_sixes(count: int, reroll: bool) -> dict[tuple[int, int], Fraction]:
    """(sixes, other dice) of ``count`` exploding dice: the originals' sixes c, their c extra
    dice's sixes e; every die that is not a six is alike on 1..5."""
    six = face(SIDES, reroll_ones=reroll)[SIDES]
    result: dict[tuple[int, int], Fraction] = {}
    for originals, p_c in _binomial(count, six).items():
        for extras, p_e in _binomial(originals, six).items():
            key = (originals + extras, count - extras)
            result[key] = result.get(key, Fraction(0)) + p_c * p_e
    return result


def _below(reroll: bool, value: int) -> Fraction:
    """P(a die that is below ``value + 1`` shows exactly ``value``)."""
    faces = face(SIDES, reroll_ones=reroll)
    return faces[value] / sum((faces[v] for v in range(1, value + 1)), Fraction(0))


@cache
def uncancelled(
    damage_dice: int,
    damage_value: int,
    defence_dice: int,
    damage_reroll: bool = False,
    defence_reroll: bool = False,
) -> Mapping[int, Fraction]:
    """How many of ``damage_dice`` damage dice succeed (≥ ``damage_value``) and are not cancelled
    by ``defence_dice`` defence dice: the LP the defender loses."""
    states: dict[tuple[int, int, int, int], Fraction] = {}
    for (dmg_six, dmg_rest), p_dmg in _pool_sixes(damage_dice, damage_reroll).items():
        for (def_six, def_rest), p_def in _pool_sixes(defence_dice, defence_reroll).items():
            cancelled = min(def_six, dmg_six)
            key = (dmg_rest, def_rest, def_six - cancelled, dmg_six - cancelled)
            states[key] = states.get(key, Fraction(0)) + p_dmg * p_def
    for value in range(SIDES - 1, damage_value - 1, -1):
        following: dict[tuple[int, int, int, int], Fraction] = {}
        q_dmg, q_def = _below(damage_reroll, value), _below(defence_reroll, value)
        for (dmg_rest, def_rest, free, lost), p in states.items():
            for dmg, p_d in _binomial(dmg_rest, q_dmg).items():
                for dfc, p_f in _binomial(def_rest, q_def).items():
                    available = free + dfc
                    cancelled = min(available, dmg)
                    key = (
                        dmg_rest - dmg,
                        def_rest - dfc,
                        available - cancelled,
                        lost + dmg - cancelled,
                    )
                    following[key] = following.get(key, Fraction(0)) + p * p_d * p_f
        states = following
    result: dict[int, Fraction] = {}
    for (_dmg_rest, _def_rest, _free, lost), p in states.items():
        result[lost] = result.get(lost, Fraction(0)) + p
    return {lost: result[lost] for lost in sorted(result) if result[lost]}


@cache
def attack_damage(
    attack_dice: int,
    hit_value: int,
    damage_value: int,
    defence_dice: int,
    attack_reroll: bool = False,
    defence_reroll: bool = False,
) -> Mapping[int, Fraction]:
    """The LP an attack takes off: hits, one damage die per hit, defence cancelling."""
    total: dict[int, Fraction] = {}
    hits = exploding_once_successes(attack_dice, hit_value, SIDES, reroll_ones=attack_reroll)
    for count, p_hits in hits.items():
        for lost, p_lost in uncancelled(
            count, damage_value, defence_dice, attack_reroll, defence_reroll
        ).items():
            total[lost] = total.get(lost, Fraction(0)) + p_hits * p_lost
    return {lost: total[lost] for lost in sorted(total)}


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
