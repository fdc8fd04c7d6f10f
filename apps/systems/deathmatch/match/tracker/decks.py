"""The deck panel: for each player, the cards that can still come before the Wendepunkt.

A player knows which cards were drawn since the last shuffle, not the order of the rest, nor
which 5 lie under the Wendepunkt; so the panel shows, per value, the cards not drawn since the
last shuffle (any of them may come next, exactly what the odds count with:
``core.flip_odds``) and how many draws are left before the Wendepunkt. The real order of the
deck stays hidden: nothing here tells the 5 cards under the Wendepunkt apart.
"""

from __future__ import annotations

from dataclasses import dataclass

from apps.systems.core.deck import CARD_VALUES, CARDS_UNDER_TURN, COPIES_PER_VALUE
from apps.systems.deathmatch.match.state import MatchState


@dataclass(frozen=True)
class DeckCount:
    value: int
    left: int  # cards of this value not drawn since the last shuffle

    @property
    def percent(self) -> int:
        """The bar's length: the share of the value's copies still in the deck."""
        return self.left * 100 // COPIES_PER_VALUE


@dataclass(frozen=True)
class DeckView:
    player: int
    name: str
    counts: tuple[DeckCount, ...]  # values 0-9
    before_turn: int  # draws left before the Wendepunkt comes
    under_turn: int = CARDS_UNDER_TURN


def deck_views(state: MatchState) -> tuple[DeckView, ...]:
    """Every player's deck as the table may know it."""
    views = []
    for player in state.players:
        unseen = player.deck.unseen
        views.append(
            DeckView(
                player=player.index,
                name=player.name,
                counts=tuple(DeckCount(value, unseen[value]) for value in CARD_VALUES),
                before_turn=player.deck.remaining_before_turn,
            )
        )
    return tuple(views)
