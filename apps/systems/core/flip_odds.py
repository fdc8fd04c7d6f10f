"""Exact odds of a flip from the player's point of view.

The player knows which cards were drawn since the last shuffle, not the order of the rest, so
the next card is uniform over ``deck.unseen`` (the 5 under the Wendepunkt are a uniformly
random subset of them). A flip needing m cards draws the first min(m, remaining_before_turn)
cards without replacement from the unseen cards; if it needs more, the Wendepunkt comes, all 41
cards are reshuffled (SPEC §1.3 Decision: including the cards just shown) and the rest are drawn
without replacement from a fresh set of 40 number cards.

Outcomes are enumerated over card values with their multiplicities (multivariate
hypergeometric), never over card identities, so even a 3-card flip has at most 220 outcomes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations_with_replacement
from math import comb, prod

from apps.systems.core.deck import CARD_VALUES, NUMBER_CARDS, Deck, flip_size, kept_value
from apps.systems.core.distributions import Distribution, p_at_least

Outcome = tuple[int, ...]

_FRESH_DECK = Counter(NUMBER_CARDS)


def _hypergeometric(pool: Counter[int], count: int) -> tuple[dict[Outcome, int], int]:
    """Ways to draw each sorted value tuple of ``count`` cards from ``pool``, and the total."""
    ways: dict[Outcome, int] = {}
    for values in combinations_with_replacement(sorted(pool), count):
        w = prod(comb(pool[value], values.count(value)) for value in set(values))
        if w:
            ways[values] = w
    return ways, comb(pool.total(), count)


@dataclass(frozen=True)
class _Ways:
    """Outcome counts over one common denominator, so that tallies add integers; summing
    ``Fraction``s would renormalise at every step and be several times slower."""

    outcomes: dict[Outcome, int]
    total: int


def _ways(deck: Deck, modifier: int) -> _Ways:
    size = flip_size(modifier)
    before_turn = min(size, deck.remaining_before_turn)
    first, first_total = _hypergeometric(deck.unseen, before_turn)
    second, second_total = _hypergeometric(_FRESH_DECK, size - before_turn)
    outcomes: dict[Outcome, int] = {}
    for a, wa in first.items():
        for b, wb in second.items():
            values = tuple(sorted(a + b))
            outcomes[values] = outcomes.get(values, 0) + wa * wb
    return _Ways(outcomes=outcomes, total=first_total * second_total)


def _tally(ways: _Ways, key: Callable[[Outcome], int]) -> Distribution:
    counts: dict[int, int] = {}
    for values, w in ways.outcomes.items():
        counts[key(values)] = counts.get(key(values), 0) + w
    return {value: Fraction(counts[value], ways.total) for value in sorted(counts)}


def _kept(ways: _Ways, modifier: int) -> Distribution:
    return _tally(ways, lambda values: kept_value(values, modifier))


def _nines(ways: _Ways) -> Distribution:
    return _tally(ways, lambda values: values.count(9))


def flip_outcomes(deck: Deck, modifier: int) -> dict[Outcome, Fraction]:
    """Probability of each sorted tuple of revealed card values."""
    ways = _ways(deck, modifier)
    return {values: Fraction(w, ways.total) for values, w in sorted(ways.outcomes.items())}


def result_distribution(deck: Deck, modifier: int) -> Distribution:
    """Distribution of the value the flip keeps."""
    return _kept(_ways(deck, modifier), modifier)


def p_result_at_least(deck: Deck, modifier: int, k: int) -> Fraction:
    return p_at_least(result_distribution(deck, modifier), k)


def criticals_distribution(deck: Deck, modifier: int) -> Distribution:
    """Distribution of the number of 9s revealed."""
    return _nines(_ways(deck, modifier))


@dataclass(frozen=True)
class FlipOdds:
    """What the "what are my odds" view shows before a flip.

    ``at_least[k]`` is P(result >= k) for k = 0..9.
    """

    result: Distribution
    at_least: tuple[Fraction, ...]
    any_nine: Fraction
    zero: Fraction


def flip_odds(deck: Deck, modifier: int) -> FlipOdds:
    ways = _ways(deck, modifier)
    result = _kept(ways, modifier)
    return FlipOdds(
        result=result,
        at_least=tuple(p_at_least(result, k) for k in CARD_VALUES),
        any_nine=1 - _nines(ways).get(0, Fraction(0)),
        zero=result.get(0, Fraction(0)),
    )


@dataclass(frozen=True)
class HitOdds:
    hit: Fraction
    graze: Fraction
    miss: Fraction
    critical: Fraction


def hit_chance(deck: Deck, modifier: int, attack_value: int, target_reflex: int) -> HitOdds:
    """Odds of a hit flip: kept card + ``attack_value`` against ``target_reflex``.

    Greater is a hit, equal a graze (flesh wound in melee), lower a miss; a kept 0 fails
    regardless of the total. ``critical`` is P(at least one 9 revealed), since every revealed 9
    is a critical even when it is not the kept card. How criticals and a 0 interact (a critical
    may turn a miss into a hit) is applied by the Deathmatch engine, not here.
    """
    ways = _ways(deck, modifier)
    result = _kept(ways, modifier)
    hit = sum(
        (p for value, p in result.items() if value != 0 and value + attack_value > target_reflex),
        Fraction(0),
    )
    graze = sum(
        (p for value, p in result.items() if value != 0 and value + attack_value == target_reflex),
        Fraction(0),
    )
    return HitOdds(
        hit=hit,
        graze=graze,
        miss=1 - hit - graze,
        critical=1 - _nines(ways).get(0, Fraction(0)),
    )
