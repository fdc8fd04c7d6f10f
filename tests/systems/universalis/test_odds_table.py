"""The wound roll's table of every die pair (issue 16) equals the recursion over single
states, and the wound odds equal plain enumeration of every die, rerolls included."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from apps.systems.universalis.match import odds

WHENS = (odds.NEVER, odds.BEHIND, odds.BEHIND_OR_TIE)
ALL_REROLLS = [odds.Rerolls(*whens) for whens in itertools.product(WHENS, repeat=3)]
FACES = range(1, odds.SIDES + 1)


def _enumerated(wound: int, armour: int, strength: int, protection: int, r: odds.Rerolls) -> list:
    """(damage, shock, nothing) probabilities by trying every face of every reroll."""
    name = odds.next_reroll(wound, armour, r)
    if not name:
        return [Fraction(wound > armour), Fraction(wound == armour), Fraction(wound < armour)]
    rest, total = odds.used(r, name), [Fraction(0)] * 3
    for face in FACES:
        if name == "robust":
            outcome = _enumerated(strength + face, armour, strength, protection, rest)
        else:
            outcome = _enumerated(wound, protection + face, strength, protection, rest)
        total = [t + o / odds.SIDES for t, o in zip(total, outcome, strict=True)]
    return total


@pytest.mark.parametrize("rerolls", ALL_REROLLS)
@pytest.mark.parametrize(("strength", "protection"), [(4, 4), (2, 7), (8, 1)])
def test_the_table_equals_the_recursion_and_enumeration(strength, protection, rerolls) -> None:
    table = odds._table(strength, protection, rerolls)
    cells = [(strength + a, protection + d) for a in FACES for d in FACES]
    assert list(table) == [
        odds._settle_counts(w, v, strength, protection, rerolls) for w, v in cells
    ]
    expected = [Fraction(0)] * 3
    for w, v in cells:
        outcome = _enumerated(w, v, strength, protection, rerolls)
        expected = [e + o / odds.SIDES**2 for e, o in zip(expected, outcome, strict=True)]
    got = odds.wound_odds(strength, protection, rerolls)
    assert [got.damage, got.shock, got.nothing] == expected
