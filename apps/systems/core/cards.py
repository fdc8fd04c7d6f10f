"""What a rule system's printed cards look like to the rest of the app.

A system describes what goes on each card as plain data (its own frozen dataclasses, the
``face`` of a ``Card``); the Django layer renders every face with the system's template of the
same name (``templates/cards/<system>/<template>.html``) and lays the cards out on paper. The
system never sees HTML, paper sizes or fonts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from apps.systems.core.rosters import CatalogData, RosterInput


@dataclass(frozen=True)
class Card:
    """One printed card.

    ``template`` names the system's card template ("profile", "equipment", "blank"), ``name``
    is what the card is called (progress messages, tests, the PDF's text), ``face`` is the
    system's own view model that the template reads. A card too full to print in one piece is
    split by the system into ``parts`` cards; ``part`` counts from 1.
    """

    template: str
    name: str
    face: object
    part: int = 1
    parts: int = 1


@dataclass(frozen=True)
class RosterPrint:
    """Everything printed for one roster: its cards in print order and its one-page sheet
    (the system's view model for its ``sheet`` template)."""

    cards: tuple[Card, ...]
    sheet: object


class CardLayouts(Protocol):
    """The printed cards a system provides (see ``GameSystemInfo.cards``)."""

    def roster_print(self, roster: RosterInput, catalog: CatalogData) -> RosterPrint:
        """The cards and the roster sheet of a roster, from the catalogue it was built with."""

    def blank_cards(self) -> tuple[Card, ...]:
        """Empty cards for organisers to fill in by hand (one of each card type)."""

    def split(self, card: Card) -> tuple[Card, Card] | None:
        """The card in two parts when its text does not fit even in the smallest type, the
        second continuing the first; None when it cannot be split any further."""
