"""Exact odds of every Universalis roll (d12 only, 4.8): the attribute roll, the comparative
roll, and the wound against armour roll with the rerolls its effects allow."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from apps.systems.core.dice import die
from apps.systems.core.distributions import Comparison, compare, shift

SIDES = 12


def attribute_odds(target: int) -> Fraction:
    """P(1d12 ≤ target); a target of 0 or less fails without a roll."""
    return Fraction(min(max(target, 0), SIDES), SIDES)


@lru_cache(maxsize=4096)
def comparative_odds(a: int, b: int) -> Comparison:
    """1d12 + a against 1d12 + b, from A's side (cached: the values are small whole numbers,
    and every roll, every odds preview and every legality probe asks for them)."""
    return compare(shift(die(SIDES), a), shift(die(SIDES), b))


def decided_odds(a: int, b: int) -> Fraction:
    """P(A wins) when ties are rolled again until decided (melee's AGI tie-break)."""
    odds = comparative_odds(a, b)
    return odds.win / (odds.win + odds.loss)


# When the owner of a reroll uses it (its choice, SPEC §6: "darf", l. 911, l. 929-930): never,
# when its side is behind, or also at a tie.
NEVER, BEHIND, BEHIND_OR_TIE = 0, 1, 2


@dataclass(frozen=True)
class Rerolls:
    """When a wound roll's rerolls are used (each at most once; ``NEVER``, ``BEHIND`` or
    ``BEHIND_OR_TIE``): Erschütterung (the attacker forces an armour reroll), Adaptiv (the
    defender rerolls its armour), Robust (the defender forces a wound reroll). Only a reroll
    the effects allow and its owner chose is ever used."""

    erschuetterung: int = NEVER
    adaptiv: int = NEVER
    robust: int = NEVER


def _wants(when: int, own: int, other: int) -> bool:
    return (when >= BEHIND and own < other) or (when >= BEHIND_OR_TIE and own == other)


def next_reroll(wound: int, armour: int, rerolls: Rerolls) -> str:
    """The reroll used now ("" for none): each owner's as it chose for the standing totals,
    the attacker's first (see the reference)."""
    if _wants(rerolls.erschuetterung, wound, armour):
        return "erschuetterung"
    if _wants(rerolls.adaptiv, armour, wound):
        return "adaptiv"
    if _wants(rerolls.robust, armour, wound):
        return "robust"
    return ""


def used(rerolls: Rerolls, name: str) -> Rerolls:
    return Rerolls(
        erschuetterung=NEVER if name == "erschuetterung" else rerolls.erschuetterung,
        adaptiv=NEVER if name == "adaptiv" else rerolls.adaptiv,
        robust=NEVER if name == "robust" else rerolls.robust,
    )


@dataclass(frozen=True)
class WoundOdds:
    """P(the attacker's total is higher: damage), P(tie: one shock), P(defender higher)."""

    damage: Fraction
    shock: Fraction
    nothing: Fraction


def wound_odds(strength: int, protection: int, rerolls: Rerolls = Rerolls()) -> WoundOdds:
    damage, shock, nothing = _wound(strength, protection, rerolls)
    return WoundOdds(damage=damage, shock=shock, nothing=nothing)


def wound_odds_from(
    wound: int, armour: int, strength: int, protection: int, rerolls: Rerolls
) -> WoundOdds:
    """The same odds once the dice stand at ``wound`` against ``armour`` with ``rerolls``
    still unused (before the next reroll, if any)."""
    damage, shock, nothing = _settle(wound, armour, strength, protection, rerolls)
    return WoundOdds(damage=damage, shock=shock, nothing=nothing)


# Bounded caches: the inputs are small whole numbers, so this holds a whole evening's cases.
CACHE_SIZE = 4096


def _allowed(rerolls: Rerolls) -> int:
    """How many rerolls may still come: every weight below is a count over SIDES**(that)."""
    return sum(when != NEVER for when in (rerolls.erschuetterung, rerolls.adaptiv, rerolls.robust))


@lru_cache(maxsize=CACHE_SIZE)
def _wound(strength: int, protection: int, rerolls: Rerolls) -> tuple[Fraction, Fraction, Fraction]:
    totals = [0, 0, 0]
    for counts in _table(strength, protection, rerolls):
        for index, count in enumerate(counts):
            totals[index] += count
    denominator = SIDES ** (_allowed(rerolls) + 2)
    return (
        Fraction(totals[0], denominator),
        Fraction(totals[1], denominator),
        Fraction(totals[2], denominator),
    )


Counts = tuple[int, int, int]


def _sum(rows: list[Counts]) -> Counts:
    return (sum(r[0] for r in rows), sum(r[1] for r in rows), sum(r[2] for r in rows))


@lru_cache(maxsize=CACHE_SIZE)
def _table(strength: int, protection: int, rerolls: Rerolls) -> tuple[Counts, ...]:
    """``_settle_counts`` for every wound die a and armour die d at once (index
    ``(a - 1) * SIDES + d - 1``). A reroll replaces one die by any face, so its share is a row
    or column sum of the table with that reroll used: one sum per row and column instead of
    one recursion per cell, which keeps a cold wound roll with three rerolls within a few
    hundred additions per table (issue 16: exact odds within 5 ms)."""
    whole = SIDES ** _allowed(rerolls)
    faces = range(SIDES)
    # The tables with one reroll used, and their sums over the rerolled die, made on demand.
    rests: dict[str, tuple[Counts, ...]] = {}
    by_armour: dict[str, list[Counts]] = {}  # armour die d -> sum over the wound die
    by_wound: dict[str, list[Counts]] = {}  # wound die a -> sum over the armour die
    cells: list[Counts] = []
    for a in faces:
        for d in faces:
            wound, armour = strength + a + 1, protection + d + 1
            name = next_reroll(wound, armour, rerolls)
            if not name:
                cells.append(
                    (whole, 0, 0)
                    if wound > armour
                    else (0, whole, 0)
                    if wound == armour
                    else (0, 0, whole)
                )
                continue
            if name not in rests:
                rests[name] = rest = _table(strength, protection, used(rerolls, name))
                by_armour[name] = [_sum([rest[i * SIDES + j] for i in faces]) for j in faces]
                by_wound[name] = [_sum(list(rest[i * SIDES : (i + 1) * SIDES])) for i in faces]
            # Robust rerolls the wound die (a sum over it); the others the armour die.
            cells.append(by_armour[name][d] if name == "robust" else by_wound[name][a])
    return tuple(cells)


@lru_cache(maxsize=CACHE_SIZE)
def _settle(
    wound: int, armour: int, strength: int, protection: int, rerolls: Rerolls
) -> tuple[Fraction, Fraction, Fraction]:
    denominator = SIDES ** _allowed(rerolls)
    damage, shock, nothing = _settle_counts(wound, armour, strength, protection, rerolls)
    return (
        Fraction(damage, denominator),
        Fraction(shock, denominator),
        Fraction(nothing, denominator),
    )


@lru_cache(maxsize=CACHE_SIZE)
def _settle_counts(
    wound: int, armour: int, strength: int, protection: int, rerolls: Rerolls
) -> tuple[int, int, int]:
    """(damage, shock, nothing) as counts over ``SIDES ** _allowed(rerolls)``: integers add
    without the renormalising every Fraction sum does. A reroll left unused pads its share."""
    name = next_reroll(wound, armour, rerolls)
    if not name:
        whole = SIDES ** _allowed(rerolls)
        if wound > armour:
            return whole, 0, 0
        if wound == armour:
            return 0, whole, 0
        return 0, 0, whole
    rest = used(rerolls, name)
    # Using one reroll removes one allowed reroll: each face's counts are over one SIDES less.
    totals = [0, 0, 0]
    for face in range(1, SIDES + 1):
        if name == "robust":
            outcome = _settle_counts(strength + face, armour, strength, protection, rest)
        else:
            outcome = _settle_counts(wound, protection + face, strength, protection, rest)
        for index, count in enumerate(outcome):
            totals[index] += count
    return totals[0], totals[1], totals[2]
