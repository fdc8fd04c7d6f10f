"""The integer-count odds (odds.py) against the Fraction implementation they replaced, kept here
verbatim as the reference, over mid-size attacks too large for brute force; the brute-force
comparisons for small pools are in test_odds_bruteforce.py."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import cache
from math import comb

import pytest

from apps.systems.core.dice import exploding_once_successes, face
from apps.systems.grundregeln import odds

SIDES = 6


def _binomial(n: int, p: Fraction) -> dict[int, Fraction]:
    return {k: comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)}


def _pool_sixes(count: int, reroll: bool) -> dict[tuple[int, int], Fraction]:
    six = face(SIDES, reroll_ones=reroll)[SIDES]
    result: dict[tuple[int, int], Fraction] = {}
    for originals, p_c in _binomial(count, six).items():
        for extras, p_e in _binomial(originals, six).items():
            key = (originals + extras, count - extras)
            result[key] = result.get(key, Fraction(0)) + p_c * p_e
    return result


def _below(reroll: bool, value: int) -> Fraction:
    faces = face(SIDES, reroll_ones=reroll)
    return faces[value] / sum((faces[v] for v in range(1, value + 1)), Fraction(0))


@cache
def reference_uncancelled(
    damage_dice: int, damage_value: int, defence_dice: int, dr: bool, fr: bool
) -> Mapping[int, Fraction]:
    states: dict[tuple[int, int, int, int], Fraction] = {}
    for (dmg_six, dmg_rest), p_dmg in _pool_sixes(damage_dice, dr).items():
        for (def_six, def_rest), p_def in _pool_sixes(defence_dice, fr).items():
            cancelled = min(def_six, dmg_six)
            key = (dmg_rest, def_rest, def_six - cancelled, dmg_six - cancelled)
            states[key] = states.get(key, Fraction(0)) + p_dmg * p_def
    for value in range(SIDES - 1, damage_value - 1, -1):
        following: dict[tuple[int, int, int, int], Fraction] = {}
        q_dmg, q_def = _below(dr, value), _below(fr, value)
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


def reference_attack(
    dice: int, hit: int, dmg: int, defence: int, ar: bool, fr: bool
) -> dict[int, Fraction]:
    total: dict[int, Fraction] = {}
    hits = exploding_once_successes(dice, hit, SIDES, reroll_ones=ar)
    for count, p_hits in hits.items():
        for lost, p_lost in reference_uncancelled(count, dmg, defence, ar, fr).items():
            total[lost] = total.get(lost, Fraction(0)) + p_hits * p_lost
    return {lost: total[lost] for lost in sorted(total)}


MID_GRID = [
    (dice, hit, dmg, defence, ar, fr)
    for dice, defence in [(3, 2), (4, 2), (5, 1)]
    for hit, dmg in [(4, 4), (3, 5), (2, 6), (6, 2)]
    for ar, fr in [(False, False), (True, True)]
    # The Fraction reference needs most of a second for 5 dice with damage on 2 (five faces to
    # place): that one runs with rerolls only, to keep the module quick.
    if (dice, dmg, ar) != (5, 2, False)
]


@pytest.mark.parametrize(("dice", "hit", "dmg", "defence", "ar", "fr"), MID_GRID)
def test_attack_damage_matches_the_fraction_reference(
    dice: int, hit: int, dmg: int, defence: int, ar: bool, fr: bool
) -> None:
    assert dict(odds.attack_damage(dice, hit, dmg, defence, ar, fr)) == reference_attack(
        dice, hit, dmg, defence, ar, fr
    )


@pytest.mark.parametrize(
    ("damage", "value", "defence", "dr", "fr"),
    [
        (8, 4, 3, False, True),
        (10, 2, 2, True, False),
        (6, 6, 4, True, True),
        (7, 3, 0, False, False),
    ],
)
def test_uncancelled_matches_the_fraction_reference(
    damage: int, value: int, defence: int, dr: bool, fr: bool
) -> None:
    assert dict(odds.uncancelled(damage, value, defence, dr, fr)) == reference_uncancelled(
        damage, value, defence, dr, fr
    )


def test_twelve_dice_against_five_defence_with_rerolls_is_computed() -> None:
    # The worst case of issue 16: a 12-inch fall (own size, the tables' diagonal 4) on a model
    # with 5 defence dice, both sides rerolling ones. Exact: the odds sum to one, and the
    # most LP lost is every die exploding and succeeding (12 * 2 hits, 24 * 2 damage dice).
    dist = odds.fall_damage(12, 4, 5, True)
    assert sum(dist.values()) == 1
    assert max(dist) == 48
    assert all(p > 0 for p in dist.values())
    assert odds.attack_damage(12, 4, 4, 5, True, True) is not None


def test_caches_are_bounded() -> None:
    for cached in (odds.attack_damage, odds.uncancelled):
        assert cached.cache_info().maxsize is not None
