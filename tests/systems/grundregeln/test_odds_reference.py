"""attack_counts.py (through odds.py) against the packed-integer engine it replaced, kept in
packed_reference.py: identical fractions on every small input and on the large named cases of
issue 16. The brute-force checks stay in test_odds_bruteforce.py."""

from __future__ import annotations

from itertools import product
from math import comb

import pytest

from apps.systems.grundregeln import attack_counts, odds
from tests.systems.grundregeln import packed_reference as reference

FLAGS = [(False, False), (True, False), (False, True), (True, True)]


@pytest.mark.parametrize(("dice", "defence"), [(d, f) for d in range(5) for f in range(4)])
def test_small_attacks_match_the_old_engine(dice: int, defence: int) -> None:
    for hit, dmg, (ar, fr) in product(range(2, 7), range(2, 7), FLAGS):
        expected = reference.attack_damage(dice, hit, dmg, defence, ar, fr)
        assert dict(odds.attack_damage(dice, hit, dmg, defence, ar, fr)) == dict(expected)


@pytest.mark.parametrize(("damage", "defence"), [(d, f) for d in range(8) for f in range(5)])
def test_small_uncancelled_match_the_old_engine(damage: int, defence: int) -> None:
    for value, (dr, fr) in product(range(2, 7), FLAGS):
        expected = reference.uncancelled(damage, value, defence, dr, fr)
        assert dict(odds.uncancelled(damage, value, defence, dr, fr)) == dict(expected)


@pytest.mark.parametrize(
    ("dice", "hit", "dmg", "defence", "ar", "fr"),
    [
        (12, 4, 4, 3, False, False),  # a 12-inch fall (own size: the tables' diagonal)
        (12, 4, 4, 5, True, True),  # 12 dice against 5 defence, rerolls both sides
        (12, 2, 6, 5, False, True),
        (12, 6, 2, 5, True, False),
        (8, 3, 5, 4, True, True),
        (4, 3, 3, 2, False, False),  # the Oger attack of the bench
    ],
)
def test_large_named_cases_match_the_old_engine(
    dice: int, hit: int, dmg: int, defence: int, ar: bool, fr: bool
) -> None:
    expected = reference.attack_damage(dice, hit, dmg, defence, ar, fr)
    assert dict(odds.attack_damage(dice, hit, dmg, defence, ar, fr)) == dict(expected)


def test_matching_terms_count_every_face_assignment() -> None:
    # Summed over m, the terms count all q**(s + r) assignments of s damage and r defence dice.
    for faces, defence in product(range(1, 5), range(4)):
        terms = attack_counts._matching_terms(faces, defence)
        for s, r in product(range(7), range(defence + 1)):
            total = sum(
                w * comb(s, k) * c ** (s - k) for tr, _m, c, k, w in terms if tr == r and k <= s
            )
            assert total == faces ** (s + r)


def test_a_damage_value_below_two_is_refused() -> None:
    with pytest.raises(ValueError, match="outside 2..6"):
        odds.attack_damage(2, 4, 1, 1)


def test_new_caches_are_bounded() -> None:
    assert attack_counts._matching_terms.cache_info().maxsize is not None
