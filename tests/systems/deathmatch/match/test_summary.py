"""The post-game summary of a Deathmatch match (``match/summary.py``) and the deck panel.

Plain fighters (helpers.py): Reflex 6, Resistance 3, 6 LP, Gewehr FK 3 S 3. A hit flip card c
hits for c >= 4 (and a 9 always), a wound flip card c deals c damage. Anna's units are 0-2."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from apps.systems.core.deck import CARDS_UNDER_TURN, Deck
from apps.systems.deathmatch.match.summary import HIT_LUCK, WOUND_LUCK
from tests.systems.deathmatch.match.helpers import ENGINE, Game, setup, target


def _p_hit(deck: Deck) -> Fraction:
    """By hand: the next card is uniform over the unseen cards; 4 or more hits."""
    unseen = deck.unseen
    return Fraction(sum(n for value, n in unseen.items() if value >= 4), unseen.total())


def _mean_after(deck: Deck, shown: int) -> Fraction:
    """By hand: the expected wound card once ``shown`` is drawn (damage = card + 3 - 3)."""
    rest = deck.unseen - Counter([shown])
    return Fraction(sum(value * n for value, n in rest.items()), rest.total())


def _played() -> tuple[Game, Fraction, Fraction]:
    """Anna's unit 0 shoots Ben's unit 3 twice: a 5 hits and a 7 wounds (7 damage, knocked
    out: 2 VP for Anna), then a 2 misses."""
    g = Game(setup("deathmatch"))
    g.to_round_one()
    g.activate(0)
    g.stack(0, [5, 7])
    first = g.state.players[0].deck
    expected_hits = _p_hit(first)
    expected_damage = _mean_after(first, 5)
    g.do("ranged_attack", targets=[target(3)])
    g.stack(0, [2])
    expected_hits += _p_hit(g.state.players[0].deck)
    g.do("ranged_attack", targets=[target(4)])
    return g, expected_hits, expected_damage


def test_summary_counts_damage_knock_outs_and_vp_by_round() -> None:
    g, _hits, _damage = _played()
    summary = ENGINE.summary(g.events, g.state)
    anna, ben = summary.players
    assert anna.points_by_round == (2,) and ben.points_by_round == (0,)
    shooter, victim = summary.model(0), summary.model(3)
    assert shooter is not None and victim is not None
    assert (shooter.dealt, shooter.taken, shooter.knock_outs) == (7, 0, 1)
    assert (victim.dealt, victim.taken, victim.knocked_out) == (0, 7, 1)
    assert summary.mvp == 0
    assert not summary.finished and summary.rounds == 1


def test_luck_compares_hits_and_damage_with_the_odds_each_flip_had() -> None:
    g, expected_hits, expected_damage = _played()
    luck = {line.label: line for line in ENGINE.summary(g.events, g.state).players[0].luck}
    hits, damage = luck[HIT_LUCK], luck[WOUND_LUCK]
    assert (hits.count, hits.observed, hits.expected) == (2, 1, expected_hits)
    assert (damage.count, damage.observed, damage.expected) == (1, 7, expected_damage)
    assert damage.difference == 7 - expected_damage
    ben = ENGINE.summary(g.events, g.state).players[1].luck
    assert all(line.count == 0 for line in ben)


def test_nobody_is_mvp_before_anything_was_hurt() -> None:
    g = Game(setup("deathmatch"))
    g.to_round_one()
    assert ENGINE.summary(g.events, g.state).mvp is None


def test_deck_panel_counts_the_cards_left_before_the_wendepunkt() -> None:
    g, _hits, _damage = _played()
    view = ENGINE.tracker(g.state, selected=None, params={})
    for deck_view in view.decks:
        deck = g.state.players[deck_view.player].deck
        assert {c.value: c.left for c in deck_view.counts} == {v: deck.unseen[v] for v in range(10)}
        assert deck_view.before_turn == deck.remaining_before_turn
        assert (
            sum(c.left for c in deck_view.counts) == deck.remaining_before_turn + CARDS_UNDER_TURN
        )
    anna = view.decks[0]
    assert anna.before_turn == 35 - 1  # the miss drew one card from the deck stacked last


def test_deck_panel_follows_a_few_flips() -> None:
    g = Game(setup("deathmatch"))
    g.to_round_one()
    before = {
        c.value: c.left for c in ENGINE.tracker(g.state, selected=None, params={}).decks[0].counts
    }
    g.activate(0)
    g.do("ranged_attack", targets=[target(3)])
    drawn = [
        card["value"]
        for event in g.events[-12:]
        if event.type in ("hit_flipped", "wound_flipped")
        for card in event.data["flip"]["cards"]
    ]
    after = {
        c.value: c.left for c in ENGINE.tracker(g.state, selected=None, params={}).decks[0].counts
    }
    assert drawn and sum(before.values()) - sum(after.values()) == len(drawn)
    for value in set(drawn):
        assert before[value] - after[value] == drawn.count(value)
