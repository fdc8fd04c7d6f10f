"""Flips and rerolls in a match (SPEC §1.3): 1 CP per card, at most 3 per flip, each card once,
a 0 never, all of a player's rerolls on a flip declared at once, only one's own cards; free
flips for what the tracker does not model.

Anna's fighters give 1 CP each (3 per round) unless a test says otherwise; a flip she could
reroll waits for ``reroll`` or ``accept``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from apps.systems.core.flip_odds import hit_chance, p_result_at_least
from apps.systems.core.match import Event
from apps.systems.deathmatch.catalog import FighterProfile
from tests.systems.deathmatch.match.helpers import (
    BLADE,
    Game,
    Member,
    default_team,
    of_type,
    one,
    profile,
    setup,
    target,
    weapon,
)


def gunners(bonus: int, command: int = 1) -> list[Member]:
    """Anna's team: a gunner whose Gewehr has ``bonus`` cards, then the default fighters."""
    first = profile("Anna MG", weapons=(weapon("MG", bonus=bonus), BLADE))
    team = [first, *default_team(0)[1:]]
    return [replace(m, command=command) if isinstance(m, FighterProfile) else m for m in team]


def shooting(bonus: int = 0, command: int = 1, ben: Sequence[Member] | None = None) -> Game:
    g = Game(setup("last-man-standing", [gunners(bonus, command), ben or default_team(1)]))
    g.to_round_one()
    g.activate(0)
    return g


def shoot(g: Game, deck: Sequence[int], **args: Any) -> list[Event]:
    g.stack(0, deck)
    return g.do("ranged_attack", targets=[target(3)], **args)


def values(g: Game) -> list[int]:
    attack = g.state.attack
    assert attack is not None and attack.hit_flip is not None
    return list(attack.hit_flip.values)


def test_flip_waits_when_its_player_could_reroll() -> None:
    g = shooting()
    events = shoot(g, [2, 7, 1])
    assert [e.type for e in events][-1] == "hit_flipped"
    assert values(g) == [2]
    g.refused("move", "flip_pending")
    g.refused("end_activation", "flip_pending")


def test_flip_does_not_wait_when_the_command_says_so() -> None:
    g = shooting()
    events = shoot(g, [2, 7, 1], confirm_flips=False)
    assert [e.type for e in events][-1] == "attack_finished"


def test_reroll_costs_one_cp_per_card_and_the_new_card_binds() -> None:
    g = shooting()
    shoot(g, [5, 1, 4])
    events = g.do("reroll", positions=[0])
    assert one(events, "cp_spent") == {"player": 0, "cp": 1, "reason": "reroll"}
    rerolled = one(events, "flip_rerolled")
    assert rerolled["purpose"] == "hit" and rerolled["count"] == 1
    assert rerolled["flip"]["cards"] == [{"value": 1, "rerolled": True, "replaced": 5}]
    # The worse second card binds: 1 + 3 misses Reflex 6.
    assert one(events, "hit_resolved")["targets"][0]["outcome"] == "miss"
    assert g.cp(0) == 2


def test_reroll_of_a_zero_is_refused() -> None:
    g = shooting(bonus=1)
    shoot(g, [0, 5, 1])
    assert values(g) == [0, 5]
    g.refused("reroll", "reroll_zero", positions=[0])
    events = g.do("reroll", positions=[1])
    assert one(events, "hit_resolved")["targets"][0]["outcome"] == "miss"


def test_a_flip_showing_only_zeros_does_not_wait() -> None:
    g = shooting()
    events = shoot(g, [0])
    assert one(events, "hit_resolved")["targets"][0]["outcome"] == "fail"
    assert g.state.attack is None


def test_card_rerolled_twice_is_refused() -> None:
    g = shooting(bonus=1)
    shoot(g, [3, 2, 1])
    g.refused("reroll", "reroll_duplicate", positions=[0, 0])
    events = g.do("reroll", positions=[0])
    # The hit flip went on; a further reroll would be of the wound flip, a new flip.
    assert one(events, "flip_rerolled")["flip"]["cards"][0] == {
        "value": 1,
        "rerolled": True,
        "replaced": 3,
    }


def test_all_rerolls_of_a_flip_are_declared_at_once() -> None:
    g = shooting(bonus=1)
    shoot(g, [3, 2, 5, 4, 1])
    events = g.do("reroll", positions=[0])
    # 5 replaces the 3: the flip shows 5 and 2, a hit; the hit flip is over, and the next
    # decision is about the wound flip (4).
    assert one(events, "hit_resolved")["targets"][0]["card"] == 5
    assert one(events, "wound_flipped")["flip"]["cards"][0]["value"] == 4
    events = g.do("reroll", positions=[0])
    assert one(events, "flip_rerolled")["purpose"] == "wound"


def test_at_most_three_rerolls_per_flip() -> None:
    g = shooting(bonus=2, command=2)
    shoot(g, [1, 2, 3, 7, 8, 9, 5])
    g.refused("reroll", "invalid_args", positions=[0, 1, 2, 2])
    events = g.do("reroll", positions=[0, 1, 2])
    assert one(events, "cp_spent")["cp"] == 3
    assert [c["value"] for c in one(events, "flip_rerolled")["flip"]["cards"]] == [7, 8, 9]
    assert g.cp(0) == 6 - 3


def test_rerolls_need_a_command_point_per_card() -> None:
    g = shooting(bonus=1, command=0)
    g.do("adjust_cp", player=0, cp=1)
    shoot(g, [1, 2, 7])
    g.refused("reroll", "not_enough_cp", positions=[0, 1])
    g.do("reroll", positions=[0])
    assert g.cp(0) == 0


def test_a_player_rerolls_only_their_own_flip() -> None:
    ben = [replace(m, command=1) if isinstance(m, FighterProfile) else m for m in default_team(1)]
    g = shooting(ben=ben)
    shoot(g, [2, 7, 1])
    g.refused("reroll", "not_your_flip", positions=[0], player=1)
    g.refused("accept", "not_your_flip", player=1)
    g.do("reroll", positions=[0], player=0)
    assert g.cp(1) == 3


def test_reroll_needs_a_waiting_flip(game: Game) -> None:
    game.refused("reroll", "nothing_to_reroll", positions=[0])
    game.refused("reroll", "reroll_nothing", positions=[])
    game.refused("accept", "nothing_to_accept")


def test_reroll_position_must_show_a_card() -> None:
    g = shooting()
    shoot(g, [2, 7, 1])
    g.refused("reroll", "reroll_position_invalid", positions=[1])


def test_wound_flip_waits_and_can_be_rerolled() -> None:
    g = shooting()
    shoot(g, [5, 1, 6])
    g.do("accept")
    attack = g.state.attack
    assert attack is not None and attack.targets[0].wound_flip is not None
    events = g.do("reroll", positions=[0])
    assert one(events, "wounded")["damage"] == 6
    assert g.unit(3).lp == 0


# --- Free flips ---------------------------------------------------------------------------------


def test_free_flip_shows_cards_result_and_odds(game: Game) -> None:
    game.stack(1, [3, 8])
    events = game.do("flip", player=1, boost=1, label="Sprungmodul")
    flipped = one(events, "free_flipped")
    assert [c["value"] for c in flipped["flip"]["cards"]] == [3, 8]
    assert flipped["label"] == "Sprungmodul"
    assert set(flipped["odds"]) == {str(k) for k in range(1, 10)}
    assert game.state.open_free_flip == 1


def test_free_flip_reroll_is_by_its_player_once_and_costs_a_cp() -> None:
    g = Game(setup("last-man-standing", [gunners(0, command=1), default_team(1)]))
    g.to_round_one()
    g.stack(0, [3, 8, 6])
    g.do("flip", player=0, boost=1)
    g.refused("reroll", "not_your_flip", positions=[0], player=1)
    events = g.do("reroll", positions=[0], player=0)
    assert [c["value"] for c in one(events, "flip_rerolled")["flip"]["cards"]] == [6, 8]
    assert g.cp(0) == 2
    assert g.state.open_free_flip is None
    g.refused("reroll", "nothing_to_reroll", positions=[1], player=0)


def test_any_other_command_closes_the_free_flip(game: Game) -> None:
    game.do("flip", player=0)
    events = game.activate(0)
    assert [e.type for e in events][0] == "free_flip_closed"
    assert of_type(events, "unit_activated")


def test_free_flip_odds_equal_the_core_enumeration(game: Game) -> None:
    game.stack(0, [3, 8], before_turn=2)
    deck = game.state.players[0].deck
    events = game.do("flip", player=0, boost=2)
    odds = one(events, "free_flipped")["odds"]
    for k in range(1, 10):
        p = p_result_at_least(deck, 2, k)
        assert odds[str(k)] == f"{p.numerator}/{p.denominator}"
    # Two cards before the Wendepunkt, the third from the reshuffled deck.
    assert one(events, "free_flipped")["flip"]["reshuffled"] is True


def test_hit_flip_critical_odds_equal_the_core_enumeration() -> None:
    g = shooting(bonus=2, command=0)
    g.stack(0, [1, 2, 3, 9, 9], before_turn=20)
    deck = g.state.players[0].deck
    events = g.do("ranged_attack", targets=[target(3)])
    (row,) = one(events, "hit_flipped")["odds"]
    core = hit_chance(deck, 2, 3, 6)
    assert row["critical"] == f"{core.critical.numerator}/{core.critical.denominator}"
