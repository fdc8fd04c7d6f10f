"""The Deathmatch RNG deck: 40 number cards (0-9 four times) and the Wendepunkt (turn card).

Shuffling (SPEC §1.3): the Wendepunkt is put aside, the 40 number cards are shuffled, 5 go face
down under the Wendepunkt and the other 35 on top of it. From a fresh shuffle exactly 35 number
cards are drawn; the 36th draw reveals the Wendepunkt. Then all 41 cards are shuffled again the
same way -- SPEC's Decision: every card, including those drawn since the last shuffle, the 5
under the turn card and cards already revealed in the flip in progress (their values still count
for that flip) -- and the draw continues from the new pile. The Wendepunkt is never a result.

A ``Deck`` does not hold the Wendepunkt as a card: it sits between ``above_turn`` and
``below_turn``, and drawing it is the reshuffle that ``draw`` performs when ``above_turn`` is
empty. The random source is consumed only by shuffles, so replaying draws from a stored deck is
deterministic.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from apps.systems.core.errors import RuleViolation

CARD_VALUES: Final = tuple(range(10))
COPIES_PER_VALUE: Final = 4
NUMBER_CARDS: Final = tuple(value for value in CARD_VALUES for _ in range(COPIES_PER_VALUE))
CARDS_UNDER_TURN: Final = 5
DECK_SIZE: Final = len(NUMBER_CARDS) + 1  # the Wendepunkt is the 41st card
# The rulebook allows at most ⬠⬠ or ⬡⬡, so a flip never reveals more than 3 cards.
MAX_MODIFIER: Final = 2

_SORTED_CARDS: Final = sorted(NUMBER_CARDS)


@dataclass(frozen=True)
class Deck:
    """One player's deck as it lies: ``above_turn`` top card first, ``below_turn`` the 5 cards
    hidden under the Wendepunkt, ``drawn`` the number cards drawn since the last shuffle."""

    above_turn: tuple[int, ...]
    below_turn: tuple[int, ...]
    drawn: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if len(self.below_turn) != CARDS_UNDER_TURN:
            raise ValueError(f"{CARDS_UNDER_TURN} cards lie under the Wendepunkt")
        # Sorting is the cheap multiset comparison; every draw builds and checks a Deck.
        if sorted(self.above_turn + self.below_turn + self.drawn) != _SORTED_CARDS:
            raise ValueError("a deck holds the number cards 0-9 four times each")

    @property
    def remaining_before_turn(self) -> int:
        """Cards that can still be drawn before the Wendepunkt comes."""
        return len(self.above_turn)

    @property
    def unseen(self) -> Counter[int]:
        """The cards not drawn since the last shuffle, as a player can know them."""
        return Counter(self.above_turn + self.below_turn)

    def to_dict(self) -> dict[str, list[int]]:
        return {
            "above_turn": list(self.above_turn),
            "below_turn": list(self.below_turn),
            "drawn": list(self.drawn),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Deck:
        return cls(
            above_turn=_ints(data, "above_turn"),
            below_turn=_ints(data, "below_turn"),
            drawn=_ints(data, "drawn"),
        )


@dataclass(frozen=True)
class Draw:
    card: int
    deck: Deck
    reshuffled: bool


def shuffled_deck(rng: random.Random) -> Deck:
    cards = list(NUMBER_CARDS)
    rng.shuffle(cards)
    return Deck(
        above_turn=tuple(cards[CARDS_UNDER_TURN:]),
        below_turn=tuple(cards[:CARDS_UNDER_TURN]),
    )


def draw(deck: Deck, rng: random.Random) -> Draw:
    """Draw the top number card, reshuffling first if the next card is the Wendepunkt."""
    reshuffled = not deck.above_turn
    if reshuffled:
        deck = shuffled_deck(rng)
    card = deck.above_turn[0]
    after = Deck(
        above_turn=deck.above_turn[1:],
        below_turn=deck.below_turn,
        drawn=(*deck.drawn, card),
    )
    return Draw(card=card, deck=after, reshuffled=reshuffled)


def _draw_many(deck: Deck, count: int, rng: random.Random) -> tuple[tuple[int, ...], Deck, bool]:
    cards: list[int] = []
    reshuffled = False
    for _ in range(count):
        step = draw(deck, rng)
        cards.append(step.card)
        deck = step.deck
        reshuffled = reshuffled or step.reshuffled
    return tuple(cards), deck, reshuffled


def net_modifier(boosts: int, hindrances: int) -> int:
    """Net flip modifier from boosts (⬠) and hindrances (⬡).

    They cancel one for one; the net is clamped to -2..+2 because a flip never reveals more than
    3 cards (so ⬠⬠⬠ is a flip of 3 cards, and ⬠⬠⬠ with ⬡ is still ⬠⬠).
    """
    if boosts < 0 or hindrances < 0:
        raise RuleViolation(
            "flip_modifier_count_negative",
            "Boosts and hindrances of a flip cannot be negative.",
        )
    return max(-MAX_MODIFIER, min(MAX_MODIFIER, boosts - hindrances))


def flip_size(modifier: int) -> int:
    """How many cards a flip with this net modifier reveals."""
    if not -MAX_MODIFIER <= modifier <= MAX_MODIFIER:
        raise RuleViolation(
            "flip_modifier_out_of_range",
            f"A flip can be boosted or hindered at most twice, not {modifier:+d}.",
        )
    return 1 + abs(modifier)


def kept_value(values: Sequence[int], modifier: int) -> int:
    """The card a flip keeps: the highest when boosted, the lowest when hindered."""
    if modifier > 0:
        return max(values)
    if modifier < 0:
        return min(values)
    (value,) = values
    return value


@dataclass(frozen=True)
class FlipCard:
    """A revealed card; after a reroll, ``replaced`` is the value it replaced."""

    value: int
    rerolled: bool = False
    replaced: int | None = None

    def __post_init__(self) -> None:
        if self.value not in CARD_VALUES:
            raise ValueError(f"no number card shows {self.value}")
        if self.rerolled != (self.replaced is not None):
            raise ValueError("a rerolled card records the value it replaced, and only then")
        if self.replaced is not None and self.replaced not in CARD_VALUES[1:]:
            raise ValueError(f"a card showing {self.replaced} cannot have been replaced")

    def to_dict(self) -> dict[str, int | bool | None]:
        return {"value": self.value, "rerolled": self.rerolled, "replaced": self.replaced}

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> FlipCard:
        replaced = data.get("replaced")
        return cls(
            value=_int(data, "value"),
            rerolled=_bool(data, "rerolled"),
            replaced=None if replaced is None else _int(data, "replaced"),
        )


@dataclass(frozen=True)
class Flip:
    """A flip as it stands: ``cards`` in reveal order and the ``deck`` after it."""

    cards: tuple[FlipCard, ...]
    modifier: int
    reshuffled: bool
    deck: Deck

    def __post_init__(self) -> None:
        if abs(self.modifier) > MAX_MODIFIER or len(self.cards) != 1 + abs(self.modifier):
            raise ValueError(f"a flip modified by {self.modifier:+d} cannot show {self.values}")

    @property
    def values(self) -> tuple[int, ...]:
        return tuple(card.value for card in self.cards)

    @property
    def result(self) -> int:
        return kept_value(self.values, self.modifier)

    @property
    def nines(self) -> int:
        """Revealed 9s: in a hit flip every one is a critical, kept or not."""
        return self.values.count(9)

    @property
    def zeros(self) -> int:
        return self.values.count(0)

    def to_dict(self) -> dict[str, object]:
        return {
            "cards": [card.to_dict() for card in self.cards],
            "modifier": self.modifier,
            "reshuffled": self.reshuffled,
            "deck": self.deck.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Flip:
        cards = data.get("cards")
        deck = data.get("deck")
        if not isinstance(cards, list) or not isinstance(deck, Mapping):
            raise ValueError("a flip needs a list of cards and a deck")
        return cls(
            cards=tuple(FlipCard.from_dict(_mapping(card)) for card in cards),
            modifier=_int(data, "modifier"),
            reshuffled=_bool(data, "reshuffled"),
            deck=Deck.from_dict(deck),
        )


def flip(deck: Deck, modifier: int, rng: random.Random) -> Flip:
    """Reveal 1 + |modifier| cards from the top, reshuffling when the Wendepunkt comes."""
    values, deck, reshuffled = _draw_many(deck, flip_size(modifier), rng)
    return Flip(
        cards=tuple(FlipCard(value) for value in values),
        modifier=modifier,
        reshuffled=reshuffled,
        deck=deck,
    )


def reroll(flip: Flip, positions: Sequence[int], rng: random.Random) -> Flip:
    """Replace the cards at ``positions`` with new cards from the deck, drawn in that order.

    All rerolls of one player are declared at once. Each card may be rerolled once per flip, a 0
    never, and the new card binds whatever it shows (a 0 included). Paying for rerolls is the
    match engine's business. A refused request raises before anything is drawn.
    """
    for position in positions:
        if not 0 <= position < len(flip.cards):
            raise RuleViolation(
                "reroll_position_invalid",
                f"This flip has no card at position {position}.",
            )
    if len(set(positions)) != len(positions):
        raise RuleViolation("reroll_duplicate", "A card can be named only once in a reroll.")
    for position in positions:
        card = flip.cards[position]
        if card.rerolled:
            raise RuleViolation("reroll_twice", "Each card can be rerolled only once per flip.")
        if card.value == 0:
            raise RuleViolation("reroll_zero", "A card showing 0 can never be replaced.")
    values, deck, reshuffled = _draw_many(flip.deck, len(positions), rng)
    cards = list(flip.cards)
    for position, value in zip(positions, values, strict=True):
        cards[position] = FlipCard(value=value, rerolled=True, replaced=cards[position].value)
    return Flip(
        cards=tuple(cards),
        modifier=flip.modifier,
        reshuffled=flip.reshuffled or reshuffled,
        deck=deck,
    )


def _mapping(value: object) -> Mapping[str, object]:
    if not isinstance(value, Mapping):
        raise ValueError(f"expected an object, got {value!r}")
    return value


def _int(data: Mapping[str, object], key: str) -> int:
    value = data.get(key)
    # bool is an int subclass; a stored true/false where a number belongs is corrupt data.
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{key} must be an integer, got {value!r}")
    return value


def _bool(data: Mapping[str, object], key: str) -> bool:
    value = data.get(key)
    if not isinstance(value, bool):
        raise ValueError(f"{key} must be true or false, got {value!r}")
    return value


def _ints(data: Mapping[str, object], key: str) -> tuple[int, ...]:
    values = data.get(key)
    if not isinstance(values, list):
        raise ValueError(f"{key} must be a list of integers, got {values!r}")
    return tuple(_int({key: value}, key) for value in values)
