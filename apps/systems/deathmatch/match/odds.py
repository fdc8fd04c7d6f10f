"""Exact odds of Deathmatch flips as the tracker shows them, from the flipping player's deck as
it stands (core.flip_odds enumerates the cards; this module applies the attack rules to them).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from apps.systems.core.deck import Deck, kept_value
from apps.systems.core.flip_odds import flip_outcomes


@dataclass(frozen=True)
class AttackOdds:
    """``hit`` counts a revealed 9 that turns a graze or miss into a hit (the attacker's
    choice); ``graze`` is a graze/flesh wound with no 9 to upgrade it; ``fail`` a kept 0."""

    hit: Fraction
    graze: Fraction
    miss: Fraction
    fail: Fraction
    critical: Fraction


def attack_odds(deck: Deck, modifier: int, attack_value: int, reflex: int) -> AttackOdds:
    hit = graze = miss = fail = critical = Fraction(0)
    for values, p in flip_outcomes(deck, modifier).items():
        kept = kept_value(values, modifier)
        nine = 9 in values
        if nine:
            critical += p
        if kept == 0:
            fail += p
        elif kept + attack_value > reflex or nine:
            hit += p
        elif kept + attack_value == reflex:
            graze += p
        else:
            miss += p
    return AttackOdds(hit=hit, graze=graze, miss=miss, fail=fail, critical=critical)


@dataclass(frozen=True)
class WoundOdds:
    damage: dict[int, Fraction]
    knock_out: Fraction
    expected: Fraction


def wound_odds(deck: Deck, modifier: int, strength: int, resistance: int, lp: int) -> WoundOdds:
    damage: dict[int, Fraction] = {}
    for values, p in flip_outcomes(deck, modifier).items():
        dealt = max(0, kept_value(values, modifier) + strength - resistance)
        damage[dealt] = damage.get(dealt, Fraction(0)) + p
    ordered = dict(sorted(damage.items()))
    return WoundOdds(
        damage=ordered,
        knock_out=sum((p for d, p in ordered.items() if d >= lp), Fraction(0)),
        expected=sum((d * p for d, p in ordered.items()), Fraction(0)),
    )


def at_least(deck: Deck, modifier: int, k: int) -> Fraction:
    """P(kept card >= k)."""
    return sum(
        (
            p
            for values, p in flip_outcomes(deck, modifier).items()
            if kept_value(values, modifier) >= k
        ),
        Fraction(0),
    )
