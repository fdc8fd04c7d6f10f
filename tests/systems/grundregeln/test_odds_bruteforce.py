"""Every probability odds.py gives, against an independent enumeration over a grid of small cases.

The enumeration follows the rulebook (grundregeln.de.txt, "Würfel" and "Angriff und
Verteidigung") and SPEC §2 literally, die by die:

- a d6 shows 1..6, each 1/6; where an ability allows it a 1 is rolled once more, and that second
  roll stands ("Wiederholungswürfel dürfen kein zweites Mal wiederholt werden");
- every 6 explodes once: it adds one extra d6 to the roll, which does not explode again;
- an attack rolls its attack dice, each die (extra dice included) showing at least the hit value
  is a hit; one damage die per hit, each showing at least the damage value is a success; each
  defence die showing at least a successful damage die cancels it ("Jedes Wurfresultat
  größer/gleich einem Schadenswürfel negiert diesen"), the defender assigning them as well as
  possible (tried over every assignment); the LP lost are the successes not cancelled.

No formula of odds.py is reused: pools are multisets of die faces built from every roll of every
die, and cancellation is a search over every way to assign defence dice.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import product

import pytest

from apps.systems.grundregeln import odds

FACES = range(1, 7)
# The diagonal of both printed tables (Tabelle 0.1 and 0.2): a model against its own size.
SAME_SIZE = 4
# Tabelle 0.1 / 0.2 value pairs (hit, damage) that occur in the printed tables.
TABLE_PAIRS = [(4, 4), (3, 5), (2, 6), (5, 3), (6, 2)]

Pool = dict[tuple[int, ...], Fraction]


@cache
def d6(reroll: bool) -> dict[int, Fraction]:
    """What one physical die finally shows: two throws enumerated, the second used only when the
    first was a 1 and a reroll is allowed."""
    shows: Counter[int] = Counter()
    for first, second in product(FACES, FACES):
        shows[second if reroll and first == 1 else first] += Fraction(1, 36)
    return dict(shows)


@cache
def exploding_die(reroll: bool) -> Pool:
    """One die of a roll with its extra die: (value,) or (6, extra)."""
    outcomes: Counter[tuple[int, ...]] = Counter()
    for value, p in d6(reroll).items():
        if value == 6:
            for extra, q in d6(reroll).items():
                outcomes[(6, extra)] += p * q
        else:
            outcomes[(value,)] += p
    return dict(outcomes)


@cache
def pool(count: int, reroll: bool) -> Pool:
    """Every roll of ``count`` dice (extra dice included) as a sorted tuple of faces."""
    if count == 0:
        return {(): Fraction(1)}
    rolls: Counter[tuple[int, ...]] = Counter()
    for (rest, p), (die, q) in product(
        pool(count - 1, reroll).items(), exploding_die(reroll).items()
    ):
        rolls[tuple(sorted(rest + die))] += p * q
    return dict(rolls)


def test_pool_is_a_distribution_and_explodes_once() -> None:
    assert sum(pool(3, False).values()) == 1
    assert sum(pool(2, True).values()) == 1
    # Two dice: at most two extra dice, never a third.
    assert max(len(roll) for roll in pool(2, False)) == 4
    assert pool(1, False)[(6, 6)] == Fraction(1, 36)
    assert pool(1, True)[(1,)] == Fraction(1, 36)


@cache
def most_cancelled(damage: tuple[int, ...], defence: tuple[int, ...]) -> int:
    """The most damage dice the defence dice can cancel, over every assignment."""
    if not damage or not defence:
        return 0
    first, rest = damage[0], damage[1:]
    best = most_cancelled(rest, defence)  # leave the first damage die standing
    for i, shield in enumerate(defence):
        if shield >= first:
            best = max(best, 1 + most_cancelled(rest, defence[:i] + defence[i + 1 :]))
    return best


def cleaned(dist: Counter[int]) -> dict[int, Fraction]:
    return {value: dist[value] for value in sorted(dist) if dist[value]}


@cache
def brute_uncancelled(
    damage_dice: int,
    damage_value: int,
    defence_dice: int,
    damage_reroll: bool,
    defence_reroll: bool,
) -> dict[int, Fraction]:
    successes: Counter[tuple[int, ...]] = Counter()
    for roll, p in pool(damage_dice, damage_reroll).items():
        successes[tuple(v for v in roll if v >= damage_value)] += p
    lost: Counter[int] = Counter()
    for succeeded, p in successes.items():
        for shields, q in pool(defence_dice, defence_reroll).items():
            lost[len(succeeded) - most_cancelled(succeeded, shields)] += p * q
    return cleaned(lost)


def brute_hits(dice: int, hit_value: int, reroll: bool) -> dict[int, Fraction]:
    hits: Counter[int] = Counter()
    for roll, p in pool(dice, reroll).items():
        hits[sum(1 for v in roll if v >= hit_value)] += p
    return cleaned(hits)


def brute_attack(
    dice: int, hit: int, dmg: int, defence: int, attack_reroll: bool, defence_reroll: bool
) -> dict[int, Fraction]:
    lost: Counter[int] = Counter()
    for hits, p in brute_hits(dice, hit, attack_reroll).items():
        # One damage die per hit, rolled by the attacker (with the attacker's rerolls).
        for damage, q in brute_uncancelled(
            hits, dmg, defence, attack_reroll, defence_reroll
        ).items():
            lost[damage] += p * q
    return cleaned(lost)


# --- Attacks -------------------------------------------------------------------------------

GRID = [
    (dice, hit, dmg, defence)
    for dice in range(4)
    for hit in range(2, 7)
    for dmg in range(2, 7)
    for defence in range(4)
    if dice + defence <= 5
]


@pytest.mark.parametrize(("dice", "hit", "dmg", "defence"), GRID)
def test_attack_damage(dice: int, hit: int, dmg: int, defence: int) -> None:
    expected = brute_attack(dice, hit, dmg, defence, False, False)
    assert dict(odds.attack_damage(dice, hit, dmg, defence)) == expected


@pytest.mark.parametrize(("hit", "dmg"), TABLE_PAIRS)
@pytest.mark.parametrize(
    ("attack_reroll", "defence_reroll"), [(True, False), (False, True), (True, True)]
)
@pytest.mark.parametrize(("dice", "defence"), [(1, 1), (2, 2), (3, 1), (1, 3)])
def test_attack_damage_with_rerolled_ones(
    dice: int, hit: int, dmg: int, defence: int, attack_reroll: bool, defence_reroll: bool
) -> None:
    expected = brute_attack(dice, hit, dmg, defence, attack_reroll, defence_reroll)
    got = odds.attack_damage(dice, hit, dmg, defence, attack_reroll, defence_reroll)
    assert dict(got) == expected


@pytest.mark.parametrize(
    ("damage_dice", "damage_value", "defence_dice", "damage_reroll", "defence_reroll"),
    [
        (damage, value, defence, dr, fr)
        for damage in range(5)
        for value in range(2, 7)
        for defence in range(4)
        for dr, fr in [(False, False), (True, True)]
        if damage + defence <= 6
    ],
)
def test_uncancelled(
    damage_dice: int,
    damage_value: int,
    defence_dice: int,
    damage_reroll: bool,
    defence_reroll: bool,
) -> None:
    expected = brute_uncancelled(
        damage_dice, damage_value, defence_dice, damage_reroll, defence_reroll
    )
    got = odds.uncancelled(damage_dice, damage_value, defence_dice, damage_reroll, defence_reroll)
    assert dict(got) == expected


def test_uncancelled_by_hand() -> None:
    # One damage die succeeding on 2+, no defence: a 1 fails; 2..5 is one success; a 6 is one
    # success plus its extra die, which succeeds again on 2+.
    assert odds.uncancelled(1, 2, 0) == {
        0: Fraction(1, 6),
        1: Fraction(4, 6) + Fraction(1, 6) * Fraction(1, 6),
        2: Fraction(1, 6) * Fraction(5, 6),
    }


def test_a_defence_die_cancels_a_damage_die_it_equals() -> None:
    # "größer/gleich": a damage die succeeding only on 6 is cancelled by a defence 6 alone.
    # Damage 1..5 (5/6): nothing lost. Damage 6 and extra die below 6 (1/6 * 5/6): one LP,
    # unless the defence die shows 6 (1/6). Damage 6 and extra 6 (1/36): two LP; a defence 6
    # cancels one, and its own extra die cancels the other if it is a 6 too.
    six, other = Fraction(1, 6), Fraction(5, 6)
    one_success, two_successes = six * other, six * six
    assert odds.uncancelled(1, 6, 1) == {
        0: other + one_success * six + two_successes * six * six,
        1: one_success * other + two_successes * six * other,
        2: two_successes * other,
    }


@pytest.mark.parametrize(
    ("distance", "defence", "reroll"),
    [
        (distance, defence, reroll)
        for distance in range(1, 5)
        for defence in range(4)
        for reroll in (False, True)
        if distance + defence <= 6
    ],
)
def test_fall_damage(distance: int, defence: int, reroll: bool) -> None:
    # "Fallen: Distanz mal 1W6 Angriffswürfel (volle Rüstung)": one attack die per inch, as a
    # model of the faller's own size (4 to hit, 4 to damage), against all its defence dice.
    expected = brute_attack(distance, SAME_SIZE, SAME_SIZE, defence, False, reroll)
    assert dict(odds.fall_damage(distance, SAME_SIZE, defence, reroll)) == expected


@pytest.mark.parametrize("dice", range(5))
@pytest.mark.parametrize("hit_value", range(2, 7))
@pytest.mark.parametrize("reroll", [False, True])
def test_hits(dice: int, hit_value: int, reroll: bool) -> None:
    assert odds.hits(dice, hit_value, reroll) == brute_hits(dice, hit_value, reroll)


# --- Movement, morale, round start ---------------------------------------------------------


@pytest.mark.parametrize("dice", [0, 1, 2, 3])
@pytest.mark.parametrize("base", [0, 3, 4, 6])
@pytest.mark.parametrize("reroll", [False, True])
def test_movement(dice: int, base: int, reroll: bool) -> None:
    # Rennen / Sprinten 2W6+B, Flucht and Verfolgung W6+B: the dice (explosions included) plus B.
    distance: Counter[int] = Counter()
    for roll, p in pool(dice, reroll).items():
        distance[sum(roll) + base] += p
    assert odds.movement(dice, base, reroll) == cleaned(distance)


@pytest.mark.parametrize("dice", range(5))
@pytest.mark.parametrize("lost", range(0, 9))
@pytest.mark.parametrize("reroll", [False, True])
def test_morale_pass(dice: int, lost: int, reroll: bool) -> None:
    # "Bestehen: min. so viele Würfel ≥ 4 wie gesamter Lebenspunktverlust vorhanden".
    expected = sum(
        (p for roll, p in pool(dice, reroll).items() if sum(1 for v in roll if v >= 4) >= lost),
        Fraction(0),
    )
    assert odds.morale_pass(dice, lost, reroll) == expected


def test_morale_pass_with_nothing_lost_is_certain() -> None:
    assert odds.morale_pass(0, 0) == 1
    assert odds.morale_pass(3, 0) == 1


@pytest.mark.parametrize("morale_a", range(0, 7))
@pytest.mark.parametrize("morale_b", range(0, 7, 2))
def test_round_start_win(morale_a: int, morale_b: int) -> None:
    # "Rundenbeginn: 1W6 + höchsten Moralwert; der Sieger entscheidet": a tie decides nobody, so
    # the players roll again until one wins -- P(A wins) = P(A higher) / P(someone higher).
    higher = lower = Fraction(0)
    for (roll_a, p), (roll_b, q) in product(pool(1, False).items(), repeat=2):
        a, b = sum(roll_a) + morale_a, sum(roll_b) + morale_b
        if a > b:
            higher += p * q
        elif a < b:
            lower += p * q
    win_a, win_b = odds.round_start_win(morale_a, morale_b)
    assert (win_a, win_b) == (higher / (higher + lower), lower / (higher + lower))
    assert win_a + win_b == 1


# --- The helpers the tracker shows ---------------------------------------------------------


def test_at_least_and_mean_of_an_attack() -> None:
    dist = odds.attack_damage(2, 4, 4, 1)
    expected = brute_attack(2, 4, 4, 1, False, False)
    for k in range(-1, 6):
        assert odds.at_least(dist, k) == sum(
            (p for lost, p in expected.items() if lost >= k), Fraction(0)
        )
    assert odds.mean(dist) == sum((lost * p for lost, p in expected.items()), Fraction(0))


def test_at_least_and_mean_by_hand() -> None:
    dist = {0: Fraction(1, 2), 1: Fraction(1, 3), 3: Fraction(1, 6)}
    assert odds.at_least(dist, 0) == 1
    assert odds.at_least(dist, 1) == Fraction(1, 2)
    assert odds.at_least(dist, 2) == Fraction(1, 6)
    assert odds.at_least(dist, 4) == 0
    assert odds.mean(dist) == Fraction(1, 3) + Fraction(3, 6)


def test_sum_of_adds_independent_values() -> None:
    a = {1: Fraction(1, 2), 2: Fraction(1, 2)}
    b = {0: Fraction(1, 4), 10: Fraction(3, 4)}
    assert odds.sum_of(a, b) == {
        1: Fraction(1, 8),
        2: Fraction(1, 8),
        11: Fraction(3, 8),
        12: Fraction(3, 8),
    }
