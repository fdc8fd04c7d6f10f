"""Exact LP-lost counts of a Grundregeln attack, as integers over one common denominator.

The rules (SPEC §2): every damage die showing at least the damage value succeeds; each defence
die cancels one successful damage die showing no more than it; every die explodes once on a 6.
The LP lost are the successes no defence die cancels. The defender assigns the defence dice as
well as possible, so by Hall's theorem the LP lost are ``max(0, max over faces v of (damage
dice ≥ v - defence dice ≥ v))``, v running over the faces from the damage value to 6. Taken
upwards face by face this is one running excess: after the faces below 6 it is Y = s - m, where
s is the successful damage dice below 6 and m the most of them the defence dice below 6 can
cancel; the sixes then give ``LP = max(0, Y + damage sixes - defence sixes)``. With S all
successes (sixes included) and t the defence sixes, ``LP = max(0, S - t - m)``.

Given s, the successes below 6 show each face from the damage value to 5 alike, and so do the
defence dice there (a rerolled 1 changes only the weight of face 1, and the damage value is at
least 2): m depends only on s, on the number r of those defence dice and on the number q of
faces, not on the rerolls. ``_matching_terms`` gives the number of face assignments with each m
as a short sum of ``comb(s, K) * c**(s - K)`` terms, valid for every s at once.

The damage side is one polynomial: per attack die (padded to ``total**6``: its own weight, and
``total**2`` for each damage die it may hit with) ``rho(y, z)``, y marking every success and z
a success below 6 on one named face. An attack is ``rho**A``; its coefficients come from J.C.P.
Miller's recurrence for powers (``rho * d(rho**A) = A * rho**A * d(rho)``, here along y) with
each y-coefficient a polynomial in z packed into one integer, a fixed number of bits per
coefficient. The defence side is ``pool(t, r)`` over ``ftotal**(2F)``, small. The LP-lost
distribution is ``sum over s and j of kappa_s(j) * [z**s] rho**A`` shifted down by j = t + m,
with kappa small integers: a few hundred products of a packed polynomial by a small integer.
"""

from __future__ import annotations

from functools import lru_cache
from math import comb

SIDES = 6
CACHE_SIZE = 256

# (power of y, power of z) -> coefficient of a small polynomial.
Poly = dict[tuple[int, int], int]
# (defence dice r, of them cancelling m, unrestricted faces c, dice on exact faces K, weight).
Terms = tuple[tuple[int, int, int, int, int], ...]


def weights(reroll: bool) -> tuple[int, ...]:
    """The total weight of one die (index 0) and the weight of each face 1..6."""
    # A rerolled 1 comes back as any face: 1 of 36 ends on 1, 6 + 1 of 36 on every other face.
    return (36, 1, 7, 7, 7, 7, 7) if reroll else (6, 1, 1, 1, 1, 1, 1)


def _check_value(damage_value: int) -> None:
    # Below 2 the faces that succeed below 6 would not weigh alike with a rerolled 1.
    if not 2 <= damage_value <= SIDES:
        raise ValueError(f"damage value {damage_value} is outside 2..6")


def _multiply(a: Poly, b: Poly) -> Poly:
    product: Poly = {}
    for (ya, za), wa in a.items():
        for (yb, zb), wb in b.items():
            key = (ya + yb, za + zb)
            product[key] = product.get(key, 0) + wa * wb
    return product


def damage_die(damage_value: int, reroll: bool) -> Poly:
    """One damage die with its extra die, weighing ``total**2``: y per success, z per success
    below 6 with the weight of one of its faces (the faces are counted by the matching terms)."""
    w = weights(reroll)
    total, six = w[0], w[SIDES]
    fail, face = sum(w[1:damage_value]), (w[damage_value] if damage_value < SIDES else 0)
    # (total + six y) (fail + face y z) + six² y²: an original die, or a 6 and its extra die.
    die: Poly = {(0, 0): total * fail, (1, 0): six * fail, (2, 0): six * six}
    if face:
        die[(1, 1)] = total * face
        die[(2, 1)] = six * face
    return die


def attack_die(hit_value: int, damage_value: int, reroll: bool) -> Poly:
    """One attack die, weighing ``total**6``: no hit, one hit or two (a 6 and its extra die),
    each hit a damage die; a missing hit is padded with ``total**2``."""
    w = weights(reroll)
    total, six = w[0], w[SIDES]
    miss, hit = sum(w[1:hit_value]), sum(w[hit_value:SIDES])
    one = (total * miss, total * hit + six * miss, six * (hit + six))
    die = damage_die(damage_value, reroll)
    pad = total * total
    result: Poly = {(0, 0): one[0] * pad * pad}
    for key, weight in _multiply({(0, 0): one[1] * pad}, die).items():
        result[key] = result.get(key, 0) + weight
    for key, weight in _multiply(die, die).items():
        result[key] = result.get(key, 0) + one[2] * weight
    return result


def defence_pool(dice: int, damage_value: int, reroll: bool) -> list[list[int]]:
    """``pool[t][r]``: t defence sixes and r defence dice on one named face from the damage
    value to 5, over ``total**(2 * dice)``; dice below the damage value cancel nothing."""
    w = weights(reroll)
    total, six = w[0], w[SIDES]
    low, face = sum(w[1:damage_value]), (w[damage_value] if damage_value < SIDES else 0)
    # Here y marks a six, z a die on one named face below 6.
    die: Poly = {(0, 0): total * low, (1, 0): six * low, (2, 0): six * six}
    if face:
        die[(0, 1)] = total * face
        die[(1, 1)] = six * face
    pool: Poly = {(0, 0): 1}
    for _ in range(dice):
        pool = _multiply(pool, die)
    table = [[0] * (dice + 1) for _ in range(2 * dice + 1)]
    for (sixes, rest), weight in pool.items():
        table[sixes][rest] = weight
    return table


@lru_cache(maxsize=CACHE_SIZE)
def _matching_terms(faces: int, defence: int) -> Terms:
    """How many ways r defence dice and s damage dice, each on one of ``faces`` faces, leave m
    of the damage dice cancelled: the sum over terms (r, m, c, K, w) of
    ``w * comb(s, K) * c**(s - K)``, for every s.

    The faces are placed from the top: a face's defence dice join the free ones, then its
    damage dice take free ones. A face holds exactly a damage dice (a below the free count: K
    counts those dice, and ``comb`` their order among them) or at least the free count, which
    is "any number" (c counts those faces) less "exactly a, a below the free count"."""
    states: dict[tuple[int, int, int, int], int] = {(0, 0, 0, 0): 1}
    for _ in range(faces):
        placed: dict[tuple[int, int, int, int], int] = {}
        for (j, free, c, k), w in states.items():
            for b in range(defence - j + 1):
                key = (j + b, free + b, c, k)
                placed[key] = placed.get(key, 0) + w * comb(j + b, b)
        states = {}
        for (j, free, c, k), w in placed.items():
            key = (j, 0, c + 1, k)
            states[key] = states.get(key, 0) + w
            for a in range(free):
                exact = w * comb(k + a, a)
                key = (j, free - a, c, k + a)
                states[key] = states.get(key, 0) + exact
                key = (j, 0, c, k + a)
                states[key] = states.get(key, 0) - exact
    return tuple((j, j - free, c, k, w) for (j, free, c, k), w in states.items() if w)


def _kappa(terms: Terms, pool: list[list[int]], successes: int, width: int) -> list[list[int]]:
    """``kappa[j][s]``: the defence weight, times face assignments, of defence sixes plus
    cancelled successes below 6 being j, given s successes below 6."""
    # Each term as the packed sequence over s of comb(s, K) * c**(s - K), computed once.
    mask = (1 << width) - 1
    basis: dict[tuple[int, int], int] = {}
    by_pair: dict[tuple[int, int], int] = {}
    for r, m, c, k, w in terms:
        if (c, k) not in basis:
            basis[(c, k)] = sum(
                comb(s, k) * c ** (s - k) << (width * s) for s in range(k, successes + 1)
            )
        by_pair[(r, m)] = by_pair.get((r, m), 0) + w * basis[(c, k)]
    most = len(pool) - 1 + max((m for _r, m in by_pair), default=0)
    packed = [0] * (most + 1)
    for (r, m), counts in by_pair.items():
        for sixes, row in enumerate(pool):
            if r < len(row) and row[r]:
                packed[sixes + m] += row[r] * counts
    return [[(value >> (width * s)) & mask for s in range(successes + 1)] for value in packed]


def _powers(rho: Poly, count: int, width: int) -> list[int]:
    """``[y**n] rho**count`` for every n, each a polynomial in z packed ``width`` bits a
    coefficient, by Miller's recurrence: n f0 P_n = sum over i of ((count+1) i - n) f_i P_(n-i),
    f_i the y**i coefficient of rho. f0 is a number (no success, no z), so each step is a few
    products by small numbers and one exact division by a small number."""
    f0 = rho[(0, 0)]
    degree = max(y for y, _z in rho)
    by_z: dict[int, list[tuple[int, int]]] = {}
    for (y, z), weight in rho.items():
        if y:
            by_z.setdefault(z, []).append((y, weight))
    powers = [f0**count]
    for n in range(1, degree * count + 1):
        total = 0
        for z, row in by_z.items():
            part = sum(
                ((count + 1) * y - n) * weight * powers[n - y] for y, weight in row if y <= n
            )
            total += part << (width * z)
        powers.append(total // (n * f0))
    return powers


def _transpose(rows: list[int], columns: int, width: int) -> list[int]:
    """Packed rows (one per power of y, over z) to packed columns (one per power of z, over y);
    ``width`` is a whole number of bytes, so bytes slicing moves the coefficients."""
    size = width // 8
    cells = [row.to_bytes(size * columns, "little") for row in rows]
    return [
        int.from_bytes(b"".join(cell[size * z : size * (z + 1)] for cell in cells), "little")
        for z in range(columns)
    ]


def lost_counts(
    rho: Poly,
    count: int,
    damage_value: int,
    pool: list[list[int]],
    denominator: int,
) -> dict[int, int]:
    """LP lost -> weight over ``denominator`` of ``count`` dice of ``rho`` (attack dice, or
    damage dice) against the defence ``pool``."""
    _check_value(damage_value)
    width = -(-(denominator.bit_length() + 1) // 8) * 8
    successes = count * max(z for _y, z in rho)
    columns = _transpose(_powers(rho, count, width), successes + 1, width)
    faces = SIDES - damage_value
    defence = len(pool[0]) - 1
    small = (pool_total(pool) * max(faces, 1) ** (successes + defence)).bit_length() + 1
    kappa = _kappa(_matching_terms(faces, defence), pool, successes, small)
    most = len(kappa) - 1
    packed = 0
    for j, row in enumerate(kappa):
        part = sum(weight * column for weight, column in zip(row, columns, strict=True) if weight)
        packed += part << (width * (most - j))
    # Slot e holds S - j = e - most; every S - j at or below 0 is no LP lost.
    mask = (1 << width) - 1
    counts: dict[int, int] = {}
    zero = packed & ((1 << (width * (most + 1))) - 1)
    counts[0] = 0
    while zero:
        counts[0] += zero & mask
        zero >>= width
    packed >>= width * (most + 1)
    lost = 1
    while packed:
        if packed & mask:
            counts[lost] = packed & mask
        packed >>= width
        lost += 1
    return counts


def pool_total(pool: list[list[int]]) -> int:
    return sum(sum(row) for row in pool)


def clear_caches() -> None:
    _matching_terms.cache_clear()
