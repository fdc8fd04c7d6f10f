"""The exact odds the tracker shows, checked against brute-force enumeration of every way the
dice can fall: each die a physical roll of 1-6, a 1 rolled once more where an ability allows
it, every 6 of the original dice adding one extra die that never explodes."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import product

import pytest

from apps.systems.grundregeln import odds


@cache
def pool(count: int, reroll: bool = False) -> dict[tuple[int, ...], Fraction]:
    """Every result of ``count`` exploding d6 as a sorted tuple of all dice, with its odds."""

    def die() -> list[tuple[int, Fraction]]:
        faces = []
        for first in range(1, 7):
            if reroll and first == 1:
                faces += [(second, Fraction(1, 36)) for second in range(1, 7)]
            else:
                faces.append((first, Fraction(1, 6)))
        return faces

    results: Counter[tuple[int, ...]] = Counter()
    for originals in product(die(), repeat=count):
        values = tuple(v for v, _p in originals)
        p = Fraction(1)
        for _v, q in originals:
            p *= q
        for extras in product(die(), repeat=values.count(6)):
            q = p
            for _v, r in extras:
                q *= r
            results[tuple(sorted(values + tuple(v for v, _p in extras)))] += q
    return dict(results)


def best_cancel(damage: tuple[int, ...], defence: tuple[int, ...]) -> int:
    """The most damage dice the defence dice can cancel, trying every assignment."""
    if not damage or not defence:
        return 0
    first, rest = damage[0], damage[1:]
    best = best_cancel(rest, defence)
    for i, shield in enumerate(defence):
        if shield >= first:
            best = max(best, 1 + best_cancel(rest, defence[:i] + defence[i + 1 :]))
    return best


def brute_attack(
    dice: int, hit: int, dmg: int, defence: int, attack_reroll: bool, defence_reroll: bool
) -> dict[int, Fraction]:
    # Every attack roll with the same number of hits goes on alike: enumerate the rest once.
    by_hits: Counter[int] = Counter()
    for attack_roll, p_attack in pool(dice, attack_reroll).items():
        by_hits[sum(1 for v in attack_roll if v >= hit)] += p_attack
    total: Counter[int] = Counter()
    for hits, p_hits in by_hits.items():
        successes_seen: Counter[tuple[int, ...]] = Counter()
        for damage_roll, p_damage in pool(hits, attack_reroll).items():
            successes_seen[tuple(v for v in damage_roll if v >= dmg)] += p_damage
        for successes, p_damage in successes_seen.items():
            for defence_roll, p_defence in pool(defence, defence_reroll).items():
                lost = len(successes) - best_cancel(successes, defence_roll)
                total[lost] += p_hits * p_damage * p_defence
    return {lost: total[lost] for lost in sorted(total) if total[lost]}


@pytest.mark.parametrize(
    ("dice", "hit", "dmg", "defence", "attack_reroll", "defence_reroll"),
    [
        (1, 4, 4, 1, False, False),
        (2, 4, 4, 1, False, False),
        (2, 3, 5, 2, False, False),
        (1, 5, 2, 1, True, False),
        (1, 2, 6, 2, False, True),
        (2, 2, 3, 0, False, False),
        (0, 4, 4, 2, False, False),
    ],
)
def test_attack_damage_equals_enumeration(
    dice: int, hit: int, dmg: int, defence: int, attack_reroll: bool, defence_reroll: bool
) -> None:
    expected = brute_attack(dice, hit, dmg, defence, attack_reroll, defence_reroll)
    assert (
        dict(odds.attack_damage(dice, hit, dmg, defence, attack_reroll, defence_reroll)) == expected
    )


@pytest.mark.parametrize(
    ("dice", "lost", "reroll"),
    [(1, 1, False), (3, 2, False), (3, 4, False), (2, 3, True), (0, 1, False)],
)
def test_morale_pass_equals_enumeration(dice: int, lost: int, reroll: bool) -> None:
    expected = sum(
        (p for roll, p in pool(dice, reroll).items() if sum(1 for v in roll if v >= 4) >= lost),
        Fraction(0),
    )
    assert odds.morale_pass(dice, lost, reroll) == expected


@pytest.mark.parametrize(("dice", "base", "reroll"), [(1, 4, False), (2, 5, False), (2, 3, True)])
def test_movement_equals_enumeration(dice: int, base: int, reroll: bool) -> None:
    expected: Counter[int] = Counter()
    for roll, p in pool(dice, reroll).items():
        expected[sum(roll) + base] += p
    assert odds.movement(dice, base, reroll) == {k: expected[k] for k in sorted(expected)}


def test_push_distance_equals_enumeration() -> None:
    expected: Counter[int] = Counter()
    for roll, p in pool(1).items():
        expected[sum(roll)] += p
    assert odds.push() == dict(expected)
    assert odds.at_least(odds.push(), 7) == Fraction(1, 6)
    assert odds.at_least(odds.push(), 8) == Fraction(5, 36)
    assert odds.mean(odds.push()) == Fraction(7, 2) + Fraction(1, 6) * Fraction(7, 2)


def test_round_start_win_equals_enumeration_with_ties_rolled_again() -> None:
    a_wins = b_wins = Fraction(0)
    for roll_a, p_a in pool(1).items():
        for roll_b, p_b in pool(1).items():
            if sum(roll_a) + 3 > sum(roll_b) + 1:
                a_wins += p_a * p_b
            elif sum(roll_a) + 3 < sum(roll_b) + 1:
                b_wins += p_a * p_b
    decided = a_wins + b_wins
    assert odds.round_start_win(3, 1) == (a_wins / decided, b_wins / decided)


def test_hits_equal_enumeration() -> None:
    expected: Counter[int] = Counter()
    for roll, p in pool(3).items():
        expected[sum(1 for v in roll if v >= 5)] += p
    assert odds.hits(3, 5) == {k: expected[k] for k in sorted(expected)}


def test_attack_odds_add_up_to_one() -> None:
    assert sum(odds.attack_damage(4, 3, 4, 3).values()) == 1
