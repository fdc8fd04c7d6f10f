"""Exact odds of every Universalis roll, checked against brute-force enumeration of the dice,
and the odds the tracker records with each roll: the chance of the outcome that roll decided."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import pytest

from apps.systems.universalis.catalog import Armour, Effect
from apps.systems.universalis.match.odds import (
    BEHIND,
    BEHIND_OR_TIE,
    NEVER,
    Rerolls,
    attribute_odds,
    comparative_odds,
    decided_odds,
    next_reroll,
    used,
    wound_odds,
)
from tests.systems.universalis.helpers import Game, colossus, model, one, setup, soldier

FACES = range(1, 13)


@pytest.mark.parametrize("target", range(-3, 16))
def test_attribute_roll_odds_match_enumeration(target: int) -> None:
    wins = sum(1 for face in FACES if target > 0 and face <= target)
    assert attribute_odds(target) == Fraction(wins, 12)


def test_attribute_roll_at_zero_or_less_never_succeeds() -> None:
    assert attribute_odds(0) == 0 and attribute_odds(-4) == 0


@pytest.mark.parametrize(("a", "b"), [(0, 0), (5, 3), (3, 5), (-2, 4), (11, 0), (4, 4)])
def test_comparative_roll_odds_match_enumeration(a: int, b: int) -> None:
    pairs = list(itertools.product(FACES, FACES))
    odds = comparative_odds(a, b)
    assert odds.win == Fraction(sum(1 for x, y in pairs if x + a > y + b), 144)
    assert odds.tie == Fraction(sum(1 for x, y in pairs if x + a == y + b), 144)
    assert odds.loss == Fraction(sum(1 for x, y in pairs if x + a < y + b), 144)


@pytest.mark.parametrize(("a", "b"), [(0, 0), (5, 3), (2, 7)])
def test_ties_rolled_again_until_decided_match_enumeration(a: int, b: int) -> None:
    # Enumerate up to 6 rounds of rolls; what is left undecided is below 1e-6.
    win, undecided = Fraction(0), Fraction(1)
    for _round in range(6):
        pairs = list(itertools.product(FACES, FACES))
        win += undecided * Fraction(sum(1 for x, y in pairs if x + a > y + b), 144)
        undecided *= Fraction(sum(1 for x, y in pairs if x + a == y + b), 144)
    assert abs(float(decided_odds(a, b)) - float(win)) <= float(undecided)


def _brute_wound(strength: int, protection: int, rerolls: Rerolls) -> tuple[Fraction, ...]:
    """Every sequence of dice the wound roll and its rerolls can show, equally likely per die."""
    totals = [Fraction(0)] * 3

    def walk(wound: int, armour: int, left: Rerolls, p: Fraction) -> None:
        name = next_reroll(wound, armour, left)
        if not name:
            index = 0 if wound > armour else 1 if wound == armour else 2
            totals[index] += p
            return
        for face in FACES:
            if name == "robust":
                walk(strength + face, armour, used(left, name), p / 12)
            else:
                walk(wound, protection + face, used(left, name), p / 12)

    for a, d in itertools.product(FACES, FACES):
        walk(strength + a, protection + d, rerolls, Fraction(1, 144))
    return tuple(totals)


@pytest.mark.parametrize(
    "rerolls",
    [
        Rerolls(),
        Rerolls(erschuetterung=BEHIND),
        Rerolls(adaptiv=BEHIND),
        Rerolls(robust=BEHIND),
        Rerolls(erschuetterung=BEHIND, adaptiv=BEHIND, robust=BEHIND),
        Rerolls(erschuetterung=BEHIND_OR_TIE, adaptiv=BEHIND_OR_TIE),
        Rerolls(erschuetterung=BEHIND, adaptiv=BEHIND_OR_TIE, robust=BEHIND_OR_TIE),
    ],
)
@pytest.mark.parametrize(("strength", "protection"), [(5, 5), (8, 4), (3, 9)])
def test_wound_against_armour_odds_match_enumeration(
    strength: int, protection: int, rerolls: Rerolls
) -> None:
    odds = wound_odds(strength, protection, rerolls)
    assert (odds.damage, odds.shock, odds.nothing) == _brute_wound(strength, protection, rerolls)
    assert odds.damage + odds.shock + odds.nothing == 1


def test_a_tie_is_rerolled_only_by_an_owner_who_chose_so() -> None:
    assert next_reroll(7, 7, Rerolls(BEHIND, BEHIND, BEHIND)) == ""
    assert next_reroll(7, 7, Rerolls(NEVER, BEHIND_OR_TIE, BEHIND)) == "adaptiv"
    assert next_reroll(7, 7, Rerolls(BEHIND_OR_TIE, BEHIND_OR_TIE, BEHIND)) == "erschuetterung"


def test_no_reroll_is_used_unless_its_owner_chose_it() -> None:
    assert next_reroll(5, 9, Rerolls()) == next_reroll(9, 5, Rerolls()) == ""


def test_the_side_behind_rerolls_the_attacker_first() -> None:
    everything = Rerolls(BEHIND, BEHIND, BEHIND)
    assert next_reroll(5, 9, everything) == "erschuetterung"
    assert next_reroll(9, 5, everything) == "adaptiv"
    assert next_reroll(9, 5, used(everything, "adaptiv")) == "robust"


# --- The odds a roll records ---------------------------------------------------------------------


def acting(ben: object = None) -> Game:
    teams = [
        [model(soldier("Anna Chefin", group_leader=True)), model(soldier("Anna Soldat"))],
        [model(ben or soldier("Ben Chef", group_leader=True)), model(soldier("Ben Soldat"))],
    ]
    return Game(setup(teams)).to_round_one().phase_of(0, 2)


def test_the_wound_roll_records_the_chance_of_damage_after_its_rerolls() -> None:
    adaptiv = Armour("A", 5, effects=(Effect.ADAPTIV,))
    g = acting(soldier("Ben", group_leader=True, armour=adaptiv))
    events = g.dice(9, 1, 12).do("auto_hit", unit=2, strength=5, damage=2, adaptiv="behind")
    first, reroll = one(events, "wound_rolled")["rolls"]
    assert (first["odds"], first["tie_odds"]) == ("253/864", "35/288")
    # Before the reroll it stood 14 against 6 + reroll: damage on 1-8, a shock on 9.
    assert (reroll["totals"], reroll["outcome"]) == ([14, 17], "loss")
    assert (reroll["odds"], reroll["tie_odds"]) == ("2/3", "1/12")


def shown(roll: Any) -> tuple[str, str]:
    """What the roll panel shows of a roll: the outcome and its chance."""
    return roll["outcome"], roll["odds"]


def burning(helpers: int, *dice: int) -> tuple[str, str]:
    g = acting()
    g.dice(9, 1).do("auto_hit", unit=2, strength=5, damage=1, effects=["brand"])
    g.do("end_phase")
    events = g.dice(*dice).do("burning_test", unit=2, helpers=helpers)
    return shown(one(events, "burning_tested")["roll"])


def test_the_burning_test_records_the_chance_of_the_outcome_it_decided() -> None:
    assert burning(0, 3, 12, 1, 2, 5, 7) == ("burns", "2/3")
    assert burning(0, 10) == ("fire_out_shock", "1/4")
    assert burning(2, 8) == ("fire_out", "5/12")


def colossus_game() -> Game:
    anna = [model(soldier("Anna", group_leader=True)), model(soldier("Anna 2"))]
    ben = [model(colossus("Koloss", group_leader=True)), model(soldier("Ben 2"))]
    return Game(setup([anna, ben])).to_round_one().phase_of(0, 2)


def test_the_hit_zone_roll_records_the_chance_of_the_zone_hit() -> None:
    g = colossus_game()
    events = g.dice(7, 12, 1).do("auto_hit", unit=2, strength=5, damage=8)
    assert shown(one(events, "zone_rolled")["roll"]) == ("left", "1/6")
    # The left side is destroyed: its faces hit the torso too.
    events = g.dice(8, 1, 12).do("auto_hit", unit=2, strength=5, damage=1)
    assert shown(one(events, "zone_rolled")["roll"]) == ("torso", "2/3")


def test_a_destroyed_movement_zone_records_the_chance_of_what_is_left() -> None:
    g = colossus_game()
    events = g.dice(11, 12, 1, 3).do("auto_hit", unit=2, strength=5, damage=8)
    assert shown(one(events, "immobilised")["roll"]) == ("can_turn", "1/2")


def test_wound_odds_with_three_rerolls_are_exact_counts_over_twelve_to_the_fifth() -> None:
    # Integer counts (issue 16): two dice and three rerolls, a denominator of 12**5 at most;
    # checked against the recursion written out with Fractions.
    from fractions import Fraction as F

    from apps.systems.universalis.match.odds import (
        BEHIND_OR_TIE,
        SIDES,
        Rerolls,
        next_reroll,
        used,
        wound_odds,
    )

    def settle(w: int, a: int, s: int, p: int, r: Rerolls) -> tuple[F, F, F]:
        name = next_reroll(w, a, r)
        if not name:
            return (F(int(w > a)), F(int(w == a)), F(int(w < a)))
        parts = [
            settle(s + f, a, s, p, used(r, name))
            if name == "robust"
            else settle(w, p + f, s, p, used(r, name))
            for f in range(1, SIDES + 1)
        ]
        return tuple(sum((x[i] for x in parts), F(0)) / SIDES for i in range(3))  # type: ignore[return-value]

    rerolls = Rerolls(BEHIND_OR_TIE, BEHIND_OR_TIE, BEHIND_OR_TIE)
    for strength, protection in [(3, 3), (5, 2), (1, 6)]:
        expected = [F(0)] * 3
        for a in range(1, SIDES + 1):
            for d in range(1, SIDES + 1):
                for i, p in enumerate(
                    settle(strength + a, protection + d, strength, protection, rerolls)
                ):
                    expected[i] += p / SIDES**2
        got = wound_odds(strength, protection, rerolls)
        assert (got.damage, got.shock, got.nothing) == tuple(expected)
