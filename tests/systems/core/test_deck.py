"""The Deathmatch RNG deck: composition, shuffling at the Wendepunkt, flips and rerolls."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable

import pytest

from apps.systems.core.deck import (
    CARDS_UNDER_TURN,
    DECK_SIZE,
    NUMBER_CARDS,
    Deck,
    Flip,
    FlipCard,
    draw,
    flip,
    net_modifier,
    reroll,
    shuffled_deck,
)
from apps.systems.core.errors import RuleViolation

# The ``stacked_deck`` fixture (conftest.py): a deck whose top cards are known.
StackDeck = Callable[..., Deck]

FULL = Counter(dict.fromkeys(range(10), 4))


def all_cards(deck: Deck) -> Counter[int]:
    return Counter(deck.above_turn + deck.below_turn + deck.drawn)


# Composition and shuffling


def test_deck_has_41_cards_four_of_each_number_and_the_wendepunkt_apart() -> None:
    deck = shuffled_deck(random.Random(1))
    assert DECK_SIZE == 41
    assert Counter(NUMBER_CARDS) == FULL
    assert len(deck.above_turn) == 35
    assert len(deck.below_turn) == CARDS_UNDER_TURN == 5
    assert deck.drawn == ()
    assert all_cards(deck) == FULL
    assert deck.unseen == FULL


def test_deck_refuses_a_composition_other_than_four_of_each_number() -> None:
    deck = shuffled_deck(random.Random(1))
    with pytest.raises(ValueError):
        Deck(above_turn=deck.above_turn[:1] + deck.above_turn, below_turn=deck.below_turn)
    with pytest.raises(ValueError):
        Deck(above_turn=deck.above_turn + deck.below_turn[:1], below_turn=deck.below_turn[1:])


def test_turn_card_appears_after_35_draws_from_fresh_shuffle() -> None:
    rng = random.Random(7)
    deck = shuffled_deck(rng)
    expected = deck.above_turn
    seen = []
    for _ in range(35):
        step = draw(deck, rng)
        assert not step.reshuffled
        seen.append(step.card)
        deck = step.deck
    assert tuple(seen) == expected
    assert deck.remaining_before_turn == 0
    assert deck.unseen == Counter(deck.below_turn)

    step = draw(deck, rng)
    assert step.reshuffled


def test_reshuffle_puts_all_40_number_cards_back_with_5_under_the_turn() -> None:
    rng = random.Random(8)
    deck = shuffled_deck(rng)
    for _ in range(36):
        step = draw(deck, rng)
        deck = step.deck
    assert step.reshuffled
    assert deck.drawn == (step.card,)
    assert len(deck.above_turn) == 34
    assert len(deck.below_turn) == 5
    assert all_cards(deck) == FULL


def test_draw_without_reshuffle_does_not_consume_randomness(stacked_deck: StackDeck) -> None:
    deck = stacked_deck([3, 1, 4])
    rng = random.Random(1)
    state = rng.getstate()
    step = draw(deck, rng)
    assert step.card == 3
    assert rng.getstate() == state
    assert step.deck.above_turn == (1, 4)
    assert step.deck.drawn[-1] == 3


def test_reshuffle_inside_a_boosted_flip_keeps_the_earlier_cards_values(
    stacked_deck: StackDeck,
) -> None:
    deck = stacked_deck([8])
    result = flip(deck, 2, random.Random(3))
    assert result.reshuffled
    assert result.values[0] == 8
    assert result.result == max(result.values) >= 8
    # The 8 went back into the new pile: the deck after the flip is whole again.
    assert result.deck.drawn == result.values[1:]
    assert len(result.deck.above_turn) == 33
    assert all_cards(result.deck) == FULL


# Flip modifiers


def test_boosts_and_hindrances_cancel_one_for_one() -> None:
    assert net_modifier(2, 1) == 1
    assert net_modifier(1, 1) == 0
    assert net_modifier(0, 2) == -2


def test_a_flip_never_reveals_more_than_three_cards(stacked_deck: StackDeck) -> None:
    assert net_modifier(3, 0) == 2
    assert net_modifier(0, 5) == -2
    assert len(flip(stacked_deck([5, 6, 7, 8]), net_modifier(3, 0), random.Random(1)).cards) == 3


def test_negative_boost_count_is_refused() -> None:
    with pytest.raises(RuleViolation) as error:
        net_modifier(-1, 0)
    assert error.value.code == "flip_modifier_count_negative"


@pytest.mark.parametrize("modifier", [-3, 3])
def test_flip_modifier_out_of_range_is_refused(stacked_deck: StackDeck, modifier: int) -> None:
    with pytest.raises(RuleViolation) as error:
        flip(stacked_deck([1, 2, 3, 4]), modifier, random.Random(1))
    assert error.value.code == "flip_modifier_out_of_range"


def test_normal_flip_reveals_one_card_and_keeps_it(stacked_deck: StackDeck) -> None:
    result = flip(stacked_deck([4, 9]), 0, random.Random(1))
    assert result.values == (4,)
    assert result.result == 4
    assert result.deck.above_turn == (9,)


def test_boosted_flip_keeps_the_highest_card(stacked_deck: StackDeck) -> None:
    result = flip(stacked_deck([2, 7, 5]), 2, random.Random(1))
    assert result.values == (2, 7, 5)
    assert result.result == 7


def test_hindered_flip_keeps_the_lowest_card(stacked_deck: StackDeck) -> None:
    result = flip(stacked_deck([6, 3, 8]), -2, random.Random(1))
    assert result.result == 3
    assert flip(stacked_deck([6, 3, 8]), -1, random.Random(1)).result == 3


def test_every_revealed_nine_and_zero_is_counted(stacked_deck: StackDeck) -> None:
    result = flip(stacked_deck([9, 0, 9]), -2, random.Random(1))
    assert result.result == 0
    assert result.nines == 2
    assert result.zeros == 1


# Rerolls


def test_reroll_replaces_the_card_and_the_new_card_binds_even_if_worse(
    stacked_deck: StackDeck,
) -> None:
    first = flip(stacked_deck([7, 2, 5]), 0, random.Random(1))
    second = reroll(first, [0], random.Random(1))
    assert second.cards == (FlipCard(value=2, rerolled=True, replaced=7),)
    assert second.result == 2
    assert second.deck.above_turn == (5,)


def test_rerolls_are_drawn_in_the_declared_order(stacked_deck: StackDeck) -> None:
    first = flip(stacked_deck([4, 5, 1, 8, 9]), 1, random.Random(1))
    second = reroll(first, [1, 0], random.Random(1))
    assert second.values == (8, 1)
    assert second.result == 8
    assert [card.replaced for card in second.cards] == [4, 5]


def test_boosted_reroll_recomputes_the_highest_card(stacked_deck: StackDeck) -> None:
    first = flip(stacked_deck([6, 3, 2, 0]), 1, random.Random(1))
    assert first.result == 6
    second = reroll(first, [0], random.Random(1))
    assert second.values == (2, 3)
    assert second.result == 3


def test_rerolled_card_may_come_up_zero(stacked_deck: StackDeck) -> None:
    first = flip(stacked_deck([5, 0]), 0, random.Random(1))
    assert reroll(first, [0], random.Random(1)).result == 0


@pytest.mark.parametrize(
    ("positions", "code"),
    [
        ([3], "reroll_position_invalid"),
        ([-1], "reroll_position_invalid"),
        ([1, 1], "reroll_duplicate"),
        ([1, 0], "reroll_zero"),
    ],
)
def test_illegal_reroll_is_refused_and_changes_nothing(
    stacked_deck: StackDeck, positions: list[int], code: str
) -> None:
    first = flip(stacked_deck([0, 6, 7, 8]), 2, random.Random(1))
    before = first.to_dict()
    with pytest.raises(RuleViolation) as error:
        reroll(first, positions, random.Random(1))
    assert error.value.code == code
    assert first.to_dict() == before


def test_each_card_can_be_rerolled_only_once_per_flip(stacked_deck: StackDeck) -> None:
    first = flip(stacked_deck([5, 6, 1, 2]), 1, random.Random(1))
    once = reroll(first, [0], random.Random(1))
    with pytest.raises(RuleViolation) as error:
        reroll(once, [0, 1], random.Random(1))
    assert error.value.code == "reroll_twice"
    # The other card is still free to be rerolled.
    assert reroll(once, [1], random.Random(1)).values == (1, 2)


def test_zero_can_never_be_rerolled(stacked_deck: StackDeck) -> None:
    first = flip(stacked_deck([0, 9]), 0, random.Random(1))
    with pytest.raises(RuleViolation) as error:
        reroll(first, [0], random.Random(1))
    assert error.value.code == "reroll_zero"


def test_reroll_that_crosses_the_wendepunkt_reshuffles(stacked_deck: StackDeck) -> None:
    first = flip(stacked_deck([4]), 0, random.Random(1))
    assert not first.reshuffled
    second = reroll(first, [0], random.Random(2))
    assert second.reshuffled
    assert second.cards[0].replaced == 4
    assert all_cards(second.deck) == FULL


# JSON snapshots


def test_deck_survives_a_json_round_trip() -> None:
    deck = draw(shuffled_deck(random.Random(5)), random.Random(5)).deck
    assert Deck.from_dict(json.loads(json.dumps(deck.to_dict()))) == deck


def test_flip_survives_a_json_round_trip(stacked_deck: StackDeck) -> None:
    rerolled = reroll(flip(stacked_deck([3, 0, 7, 1]), -2, random.Random(1)), [2], random.Random(1))
    data = json.loads(json.dumps(rerolled.to_dict()))
    assert Flip.from_dict(data) == rerolled
    assert data["cards"][2] == {"value": 1, "rerolled": True, "replaced": 7}


def test_corrupt_snapshot_is_rejected() -> None:
    data = shuffled_deck(random.Random(5)).to_dict()
    with pytest.raises(ValueError):
        Deck.from_dict({**data, "drawn": [True]})
    with pytest.raises(ValueError):
        Deck.from_dict({**data, "above_turn": data["above_turn"][1:]})
