"""Fixtures for the shared rule-system tests: decks stacked in a known order."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

import pytest

from apps.systems.core.deck import NUMBER_CARDS, Deck


@pytest.fixture
def stacked_deck() -> Callable[..., Deck]:
    """Build a valid deck whose ``above_turn`` is exactly ``above`` (top card first).

    ``below`` defaults to the five lowest cards left over; every other card counts as drawn
    since the last shuffle, so a short ``above`` gives a deck close to its Wendepunkt.
    """

    def build(above: Sequence[int], below: Sequence[int] | None = None) -> Deck:
        left = Counter(NUMBER_CARDS)
        left.subtract(above)
        if below is None:
            below = sorted(left.elements())[:5]
        left.subtract(below)
        return Deck(above_turn=tuple(above), below_turn=tuple(below), drawn=tuple(left.elements()))

    return build
