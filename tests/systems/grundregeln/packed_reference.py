"""The packed-integer odds engine odds.py used before attack_counts.py (issue 16), kept verbatim
as a reference for test_odds_reference.py: the new counts must give identical fractions."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from fractions import Fraction
from functools import lru_cache
from math import comb

SIDES = 6

# (pool size, dice not yet placed below the sixes) of a damage or defence pool, with its weight.
Pool = dict[tuple[int, int], int]
# (damage dice not yet placed, defence dice not yet placed, free defence dice) -> the weights
# of LP lost so far, packed into one integer: the weight of l LP lost at bit ``width * l``.
Packed = dict[tuple[int, int, int], int]

# Bounded caches: the inputs are small whole numbers (dice, table values, two flags), so these
# hold every case a club night asks for without growing for ever in a long-lived worker.
CACHE_SIZE = 4096


def _weights(reroll: bool) -> tuple[int, ...]:
    """The total weight of one die (index 0) and the weight of each face 1..6."""
    # A rerolled 1 comes back as any face: 1 of 36 ends on 1, 6 + 1 of 36 on every other face.
    return (36, 1, 7, 7, 7, 7, 7) if reroll else (6, 1, 1, 1, 1, 1, 1)


@lru_cache(maxsize=CACHE_SIZE)
def _row(n: int, a: int, b: int) -> tuple[int, ...]:
    """``comb(n, k) * a**k * b**(n - k)`` for k = 0..n: k of n dice weighing a, the rest b."""
    return tuple(comb(n, k) * a**k * b ** (n - k) for k in range(n + 1))


@lru_cache(maxsize=CACHE_SIZE)
def _sixes(count: int, reroll: bool) -> tuple[tuple[tuple[int, int], int], ...]:
    """((sixes, other dice), weight) of ``count`` exploding dice over ``total**(2 * count)``:
    the originals' sixes c, their c extra dice's sixes e. The other dice's own weights are left
    out, to be multiplied in as the faces below 6 place them."""
    weights = _weights(reroll)
    total, six = weights[0], weights[SIDES]
    result: dict[tuple[int, int], int] = {}
    for originals in range(count + 1):
        base = comb(count, originals) * six**originals * total ** (count - originals)
        for extras in range(originals + 1):
            key = (originals + extras, count - extras)
            result[key] = result.get(key, 0) + base * comb(originals, extras) * six**extras
    return tuple(result.items())


def _cancel(
    frees: Mapping[int, int], row: tuple[int, ...], width: int
) -> Iterator[tuple[int, int, int]]:
    """k damage dice, weighing ``row[k]``, against the free defence dice of each packed weight in
    ``frees``: (k, free dice left, packed weight with the uncancelled dice added to LP lost)."""
    for free, packed in frees.items():
        for k in range(min(free, len(row) - 1) + 1):
            yield k, free - k, packed * row[k]
    # Every state with fewer free dice than k loses the rest: k - free LP. Carried up one k at a
    # time, all of them take one shift, not one each.
    carried = 0
    for k in range(1, len(row)):
        carried = (carried + frees.get(k - 1, 0)) << width
        if carried:
            yield k, 0, carried * row[k]


def _place_defence(
    states: Packed, value: int, defence: tuple[int, ...], last: bool
) -> tuple[Packed, int]:
    """Place the defence dice that show ``value``; they cancel damage dice showing ``value`` or
    less, so they join the free ones before this face's damage dice are placed. States without
    damage dice left are settled: their defence dice may show anything up to ``value``. At the
    last face the dice not showing it are below the damage value and cancel nothing: they are
    weighed in at once, leaving no defence dice to place."""
    shield_all = sum(defence[1 : value + 1])
    below = sum(defence[1:value]) if last else 1
    following: Packed = {}
    get = following.get
    settled = 0
    for (dmg, dfc, free), packed in states.items():
        if dmg == 0:
            settled += packed * shield_all**dfc
            continue
        for j, w in enumerate(_row(dfc, defence[value], below)):
            key = (dmg, 0 if last else dfc - j, free + j)
            following[key] = get(key, 0) + packed * w
    return following, settled


def _place_damage(
    states: Packed, value: int, damage_value: int, damage: tuple[int, ...], width: int
) -> tuple[Packed, int]:
    """Place the damage dice that show ``value``, each cancelled by a free defence die while
    there is one. States without defence dice left to place are settled at once: each of their
    remaining damage dice succeeds or not, and the free dice cancel that many successes."""
    hit, miss = sum(damage[damage_value : value + 1]), sum(damage[1:damage_value])
    # The states by (damage dice, defence dice): free dice -> packed weight.
    groups: dict[tuple[int, int], dict[int, int]] = {}
    for (dmg, dfc, free), packed in states.items():
        groups.setdefault((dmg, dfc), {})[free] = packed
    following: Packed = {}
    get = following.get
    settled = 0
    for (dmg, dfc), frees in groups.items():
        if dfc == 0:
            settled += sum(w for _k, _free, w in _cancel(frees, _row(dmg, hit, miss), width))
            continue
        for k, free, weight in _cancel(frees, _row(dmg, damage[value], 1), width):
            key = (dmg - k, dfc, free)
            following[key] = get(key, 0) + weight
    return following, settled


def _start(damage_pool: Pool, defence_dice: int, defence_reroll: bool, width: int) -> Packed:
    """The states once the sixes are placed: each defence six cancels one damage six."""
    # The damage pool packed by its other dice: sixes -> weight.
    by_rest: dict[int, int] = {}
    for (sixes, rest), weight in damage_pool.items():
        by_rest[rest] = by_rest.get(rest, 0) + (weight << (width * sixes))
    mask = (1 << width) - 1
    states: Packed = {}
    get = states.get
    for (shield_sixes, shield_rest), w_def in _sixes(defence_dice, defence_reroll):
        for rest, packed in by_rest.items():
            # s <= shield sixes: all cancelled, shield_sixes - s defence sixes stay free.
            for sixes in range(min(shield_sixes, packed.bit_length() // width) + 1):
                weight = (packed >> (width * sixes)) & mask
                if weight:
                    key = (rest, shield_rest, shield_sixes - sixes)
                    states[key] = get(key, 0) + weight * w_def
            # s > shield sixes: s - shield_sixes LP lost, no defence die free.
            high = packed >> (width * shield_sixes)
            if high > mask:
                key = (rest, shield_rest, 0)
                states[key] = get(key, 0) + ((high >> width) << width) * w_def
    return states


def _lost(
    damage_pool: Pool,
    damage_value: int,
    defence_dice: int,
    damage_reroll: bool,
    defence_reroll: bool,
    denominator: int,
) -> dict[int, int]:
    """LP lost -> weight, over the damage pool's denominator times the defence pool's."""
    damage, defence = _weights(damage_reroll), _weights(defence_reroll)
    # No weight, and no partial sum of weights, exceeds the denominator: that many bits per LP
    # keep the packed weights apart, so one integer product shifts and adds them all at once.
    width = denominator.bit_length() + 1
    states = _start(damage_pool, defence_dice, defence_reroll, width)
    done = 0
    for value in range(SIDES - 1, damage_value - 1, -1):
        states, settled = _place_defence(states, value, defence, value == damage_value)
        done += settled
        states, settled = _place_damage(states, value, damage_value, damage, width)
        done += settled
    # Only when the damage value is 6: the dice still unplaced all show less.
    miss, shield_miss = sum(damage[1:damage_value]), sum(defence[1:damage_value])
    for (dmg, dfc, _free), packed in states.items():
        done += packed * miss**dmg * shield_miss**dfc
    mask = (1 << width) - 1
    counts: dict[int, int] = {}
    lost = 0
    while done:
        if done & mask:
            counts[lost] = done & mask
        done >>= width
        lost += 1
    return counts


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
    denominator = _weights(damage_reroll)[0] ** (2 * damage_dice) * _weights(defence_reroll)[0] ** (
        2 * defence_dice
    )
    counts = _lost(
        dict(_sixes(damage_dice, damage_reroll)),
        damage_value,
        defence_dice,
        damage_reroll,
        defence_reroll,
        denominator,
    )
    return _fractions(counts, denominator)


def _hit_counts(dice: int, hit_value: int, reroll: bool) -> list[int]:
    """Hits -> weight of ``dice`` exploding attack dice, over ``total**(2 * dice)``."""
    weights = _weights(reroll)
    total, six = weights[0], weights[SIDES]
    miss, hit = sum(weights[1:hit_value]), sum(weights[hit_value:SIDES])
    # One original die: a miss, a hit below 6, or a 6 whose extra die misses or hits.
    one = (total * miss, total * hit + six * miss, six * (hit + six))
    counts = [1]
    for _ in range(dice):
        following = [0] * (len(counts) + 2)
        for hits_so_far, weight in enumerate(counts):
            for more, w in enumerate(one):
                following[hits_so_far + more] += weight * w
        counts = following
    return counts


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
    total = _weights(attack_reroll)[0]
    hit_counts = _hit_counts(attack_dice, hit_value, attack_reroll)
    most = len(hit_counts) - 1
    pool: Pool = {}
    for hits_rolled, w_hits in enumerate(hit_counts):
        # h damage dice weigh total**(2h) in all; pad every hit count to the most hits.
        padded = w_hits * total ** (2 * (most - hits_rolled))
        for key, weight in _sixes(hits_rolled, attack_reroll):
            pool[key] = pool.get(key, 0) + padded * weight
    denominator = total ** (2 * (attack_dice + most)) * _weights(defence_reroll)[0] ** (
        2 * defence_dice
    )
    counts = _lost(pool, damage_value, defence_dice, attack_reroll, defence_reroll, denominator)
    return _fractions(counts, denominator)
