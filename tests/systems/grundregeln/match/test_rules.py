"""One named test per rule of the Grundregeln tracker (SPEC §2 and the app's decisions).

Dice are queued in the order the engine rolls them: a roll's original dice, their rerolled 1s,
then one extra die per 6, then the extra dice's rerolled 1s; an attack rolls hit dice, then one
damage die per hit, then (if any damage die succeeded) the defence dice.
"""

from __future__ import annotations

import random

import pytest

from apps.systems.core.errors import RuleViolation
from apps.systems.core.match import Command
from apps.systems.core.schema import SchemaError
from apps.systems.grundregeln.catalog import Size
from apps.systems.grundregeln.match.rolls import cancelled_dice
from apps.systems.grundregeln.match.rules import fleeing_refusal
from apps.systems.grundregeln.match.state import Phase
from apps.systems.grundregeln.scenario import scenario_from_data
from apps.systems.grundregeln.tables import damage_value, hit_value
from tests.systems.grundregeln.match.helpers import (
    CROSSBOW,
    ENGINE,
    PISTOL,
    SWORD,
    Game,
    model,
    npc,
    profile,
    scenario,
    setup,
)


def started(**kwargs: object) -> Game:
    return Game(setup(**kwargs)).begin()  # type: ignore[arg-type]


# --- Dice --------------------------------------------------------------------------------------


def test_a_six_explodes_once_into_one_extra_die() -> None:
    g = started()
    # Hit dice 6 2 2: the 6 adds one die (4); two hits roll damage 3 3: no damage.
    events = g.dice(6, 2, 2, 4, 3, 3).act("Anna 1", "strike", "Ben 1")
    attack = g.event(events, "attacked")
    assert attack["hit"] == {"dice": [6, 2, 2], "extra": [4], "rerolled": []}
    assert attack["hits"] == 2


def test_an_extra_die_showing_six_does_not_explode_again() -> None:
    g = started()
    events = g.dice(6, 1, 1, 6, 2, 2).act("Anna 1", "strike", "Ben 1")
    attack = g.event(events, "attacked")
    assert attack["hit"]["extra"] == [6]
    assert attack["hits"] == 2
    assert len(attack["damage"]["dice"]) == 2 and attack["damage"]["extra"] == []


def test_a_one_is_rerolled_once_only_where_an_ability_allows_it() -> None:
    lucky = profile("Glück", reroll_ones=["attack"])
    g = Game(setup([[model(lucky)], [model(profile("Ben"))]])).begin()
    # Both 1s are rolled again: the first shows 1 again and stays (a rerolled die is never
    # rerolled), the second shows 3.
    events = g.dice(1, 1, 2, 1, 3).act("Glück", "strike", "Ben")
    attack = g.event(events, "attacked")
    assert attack["hit"]["dice"] == [1, 3, 2]
    assert attack["hit"]["rerolled"] == [0, 1]


def test_without_the_ability_a_one_stays() -> None:
    g = started()
    attack = g.event(g.dice(1, 1, 1).act("Anna 1", "strike", "Ben 1"), "attacked")
    assert attack["hit"]["rerolled"] == [] and attack["hits"] == 0


# --- Round start -------------------------------------------------------------------------------


def test_round_start_adds_each_sides_highest_morale() -> None:
    brave = profile("Mutig", morale=5)
    g = Game(setup([[model(profile("Anna")), model(brave)], [model(profile("Ben"))]]))
    rolled = g.event(g.dice(1, 3).do("roll_round_start"), "round_start_rolled")
    assert rolled["morale"] == [5, 2]
    assert rolled["winner"] == 0  # 1 + 5 beats 3 + 2


def test_a_tied_round_start_roll_is_rolled_again() -> None:
    g = Game(setup())
    rolled = g.event(g.dice(3, 3, 2, 5).do("roll_round_start"), "round_start_rolled")
    assert len(rolled["rolls"]) == 2
    assert rolled["winner"] == 1


def test_the_round_start_winner_decides_who_begins() -> None:
    g = Game(setup())
    g.dice(6, 1, 1).do("roll_round_start")  # 6 explodes: 6 + 1 + 2 against 1 + 2
    assert g.state.roll_winner == 0 and g.phase is Phase.STARTER
    g.do("choose_starter", player=1)
    assert g.state.turn == 1 and g.state.starter == 1


def test_the_round_start_roll_records_its_odds() -> None:
    g = Game(setup())
    rolled = g.event(g.dice(4, 2).do("roll_round_start"), "round_start_rolled")
    assert rolled["odds"] == ["1/2", "1/2"]


def test_a_scenario_may_say_who_begins_every_round() -> None:
    g = Game(setup(data={**scenario(rounds=2), "starter": "second"}))
    assert g.phase is Phase.ACTIONS and g.state.starter == 1 and g.state.turn == 1
    assert g.log[-1].type == "starter_chosen" and g.log[-1].data["by"] == "scenario"
    g.refused("roll_round_start", "not_now")
    g.refused("choose_starter", "not_now", player=0)
    for unit in ("Ben 1", "Anna 1", "Ben 2", "Anna 2"):
        g.act(unit, "walk")
    assert g.state.round == 2 and g.phase is Phase.ACTIONS and g.state.turn == 1
    assert g.log[-1].type == "starter_chosen" and g.log[-1].data["by"] == "scenario"


def test_round_one_opens_like_later_rounds_under_the_match_start_number() -> None:
    g = Game(setup(data={**scenario(rounds=2), "starter": "first"}))
    assert [(e.type, e.data) for e in g.log[1:]] == [
        ("starter_chosen", {"player": 0, "by": "scenario", "n": 1})
    ]
    assert g.log[0].data["n"] == 1


def test_without_a_scenario_starter_the_round_start_roll_decides() -> None:
    g = Game(setup(data={**scenario(), "starter": "roll"}))
    assert g.phase is Phase.ROUND_START


def test_the_scenario_starter_must_be_a_known_choice() -> None:
    with pytest.raises(SchemaError) as caught:
        scenario_from_data("s", "S", {**scenario(), "starter": "third"})
    assert [e.field for e in caught.value.errors] == ["starter"]


# --- Activations -------------------------------------------------------------------------------


def test_players_alternate_activations() -> None:
    g = started()
    g.act("Anna 1", "walk")
    assert g.state.turn == 1
    g.refused("declare", "not_your_turn", unit=g.unit("Anna 2"), action="walk")
    g.act("Ben 1", "walk")
    assert g.state.turn == 0


def test_a_model_takes_one_action_per_round() -> None:
    g = started()
    g.act("Anna 1", "walk")
    g.act("Ben 1", "walk")
    g.refused("declare", "already_activated", unit=g.unit("Anna 1"), action="walk")


def test_a_side_that_has_activated_everything_lets_the_other_go_on() -> None:
    g = Game(setup([[model(profile("Anna"))], [model(profile("Ben"))] * 3])).begin()
    g.act("Anna", "walk")
    g.act("Ben 1", "walk")
    assert g.state.turn == 1
    g.act("Ben 2", "walk")
    assert g.state.turn == 1


def test_round_end_removes_status_tokens() -> None:
    g = started()
    g.do("declare", unit=g.unit("Anna 1"), action="walk")
    g.do("react", unit=g.unit("Ben 1"), action="block")
    g.do("resolve")
    g.do("resolve")
    assert g.model("Ben 1").blocking and g.model("Ben 1").reacted
    for unit in ("Ben 2", "Anna 2"):
        g.act(unit, "walk")
    # No NPCs and no objectives: the next round starts at once.
    assert g.state.round == 2 and g.phase is Phase.ROUND_START
    ben = g.model("Ben 1")
    assert not ben.blocking and not ben.reacted and not ben.activated


# --- The action table --------------------------------------------------------------------------


def test_walk_moves_b_march_two_b_and_climb_half_b() -> None:
    g = started()
    assert g.event(g.act("Anna 1", "walk"), "moved")["distance"] == 4
    assert g.event(g.act("Ben 1", "march"), "moved")["distance"] == 8
    assert g.event(g.act("Anna 2", "climb"), "moved")["distance"] == 2


def test_a_sprint_rolls_2d6_plus_b() -> None:
    g = started()
    moved = g.event(g.dice(3, 5).act("Anna 1", "sprint"), "moved")
    assert moved["distance"] == 3 + 5 + 4
    assert moved["odds"][0][0] == "at_least"


def test_a_six_in_a_movement_roll_explodes_too() -> None:
    g = started()
    assert g.event(g.dice(6, 2, 3).act("Anna 1", "sprint"), "moved")["distance"] == 6 + 2 + 3 + 4


def test_a_flight_rolls_d6_plus_b_and_the_model_flees() -> None:
    g = started()
    assert g.event(g.dice(2).act("Anna 1", "flee"), "moved")["distance"] == 2 + 4
    assert g.model("Anna 1").fleeing


def test_complex_actions_cannot_be_reactions() -> None:
    g = started()
    g.do("declare", unit=g.unit("Anna 1"), action="walk")
    g.refused("react", "not_simple", unit=g.unit("Ben 1"), action="march")


def test_simple_actions_can_be_reactions() -> None:
    g = started()
    g.do("declare", unit=g.unit("Anna 1"), action="walk")
    g.do("react", unit=g.unit("Ben 1"), action="walk")
    assert len(g.state.pending.reactions) == 1


def test_change_weapon_readies_another_weapon() -> None:
    g = started()
    g.act("Anna 1", "switch_weapon", weapon=1)
    assert g.model("Anna 1").weapon.name == "Armbrust"


def test_striking_needs_a_ready_melee_weapon() -> None:
    g = started()
    g.act("Anna 1", "switch_weapon", weapon=1)
    g.act("Ben 1", "walk")
    g.refused(
        "declare", "wrong_weapon", unit=g.unit("Anna 2"), action="shoot", target=g.unit("Ben 1")
    )


def test_an_attack_without_the_weapon_ready_is_refused_for_that_whoever_it_aims_at() -> None:
    # The attacker's own problem comes before the target's: a friend, a foe, a passive NPC.
    data = scenario(npcs=[npc("Bürger", "passive")])
    g = Game(setup(data=data)).begin()
    for target in ("Anna 2", "Ben 1", "Bürger"):
        g.refused(
            "declare", "wrong_weapon", unit=g.unit("Anna 1"), action="shoot", target=g.unit(target)
        )
    g.refused(
        "declare", "not_an_enemy", unit=g.unit("Anna 1"), action="strike", target=g.unit("Anna 2")
    )


def test_a_model_without_a_weapon_attacks_with_the_dice_the_table_names() -> None:
    unarmed = profile("Faust", weapons=[])
    g = Game(setup([[model(unarmed)], [model(profile("Ben"))]])).begin()
    g.refused("declare", "attack_dice_required", unit=g.unit("Faust"), action="strike", target=1)
    g.refused("declare", "invalid_args", unit=g.unit("Faust"), action="strike", target=1, dice=0)
    g.do("declare", unit=g.unit("Faust"), action="strike", target=g.unit("Ben"), dice=2)
    attack = g.event(g.dice(5, 1, 1).do("resolve"), "attacked")
    assert attack["attack_dice"] == 2 and attack["weapon"] is None
    assert g.model("Faust").engaged == (g.unit("Ben"),)


def test_a_shot_needs_a_ranged_weapon_on_the_card() -> None:
    unarmed = profile("Faust", weapons=[])
    g = Game(setup([[model(unarmed)], [model(profile("Ben"))]])).begin()
    g.refused("declare", "no_ranged_weapon", unit=g.unit("Faust"), action="shoot", target=1, dice=2)


def test_a_reaction_without_a_weapon_names_its_attack_dice_too() -> None:
    unarmed = profile("Faust", weapons=[])
    g = Game(setup([[model(profile("Anna"))], [model(unarmed)]])).begin()
    g.do("declare", unit=g.unit("Anna"), action="walk")
    g.refused("react", "attack_dice_required", unit=g.unit("Faust"), action="strike")
    g.do("react", unit=g.unit("Faust"), action="strike", dice=1, modifier=1)
    attack = g.event(g.dice(1, 1).do("resolve"), "attacked")
    assert attack["attack_dice"] == 2


def test_a_model_with_a_weapon_of_the_kind_readies_it_instead_of_naming_dice() -> None:
    g = started()
    g.act("Anna 1", "switch_weapon", weapon=1)
    g.act("Ben 1", "walk")
    # With the weapon ready, its card gives the dice; named dice do not count.
    g.do("declare", unit=g.unit("Anna 2"), action="strike", target=g.unit("Ben 1"), dice=6)
    assert g.event(g.dice(1, 1, 1).do("resolve"), "attacked")["attack_dice"] == 3
    g.act("Ben 2", "walk")
    g.begin()
    g.refused(
        "declare",
        "wrong_weapon",
        unit=g.unit("Anna 1"),
        action="strike",
        target=g.unit("Ben 2"),
        dice=4,
    )


def test_a_slow_reload_weapon_must_be_reloaded_with_a_complex_action() -> None:
    shooter = profile("Schütze", weapons=[CROSSBOW])
    g = Game(setup([[model(shooter)], [model(profile("Ben"))]])).begin()
    g.dice(1, 1).act("Schütze", "shoot", "Ben")
    assert g.model("Schütze").unloaded == (0,)
    g.act("Ben", "walk")
    g.begin()
    g.refused("declare", "not_loaded", unit=g.unit("Schütze"), action="shoot", target=g.unit("Ben"))
    g.refused("declare", "wrong_reload", unit=g.unit("Schütze"), action="reload_fast", weapon=0)
    g.act("Schütze", "reload_slow")
    assert g.model("Schütze").unloaded == ()


def test_a_fast_reload_is_simple_and_may_be_a_reaction() -> None:
    gunner = profile("Pistolero", weapons=[PISTOL])
    g = Game(setup([[model(profile("Anna"))], [model(gunner)] * 2])).begin(starter=1)
    g.dice(1, 1).act("Pistolero 1", "shoot", "Anna")
    g.act("Anna", "walk")
    g.act("Pistolero 2", "walk")
    g.begin()  # round 2: Pistolero 1's marker is gone, its pistol still empty
    g.do("declare", unit=g.unit("Anna"), action="walk")
    g.do("react", unit=g.unit("Pistolero 1"), action="reload_fast")
    g.do("resolve")
    assert g.model("Pistolero 1").unloaded == ()


def test_shooting_into_a_melee_is_refused() -> None:
    archer = profile("Ben", weapons=[CROSSBOW, SWORD])
    g = Game(setup([[model(profile("Anna"))] * 2, [model(archer)] * 2])).begin()
    g.dice(1, 1, 1).act("Anna 1", "strike", "Ben 1")
    g.refused(
        "declare", "target_in_melee", unit=g.unit("Ben 2"), action="shoot", target=g.unit("Anna 1")
    )


def test_a_strike_puts_both_models_in_melee_and_moving_out_needs_disengage() -> None:
    g = started()
    g.dice(1, 1, 1).act("Anna 1", "strike", "Ben 1")
    assert g.model("Anna 1").engaged == (g.unit("Ben 1"),)
    g.refused("declare", "in_melee", unit=g.unit("Ben 1"), action="walk")
    g.act("Ben 1", "disengage")
    assert g.model("Anna 1").engaged == () and g.model("Ben 1").engaged == ()


def test_disengaging_is_only_for_models_in_melee() -> None:
    g = started()
    g.refused("declare", "not_in_melee", unit=g.unit("Anna 1"), action="disengage")


def test_a_charge_moves_two_b_then_strikes() -> None:
    g = started()
    types = g.types(g.dice(1, 1, 1).act("Anna 1", "charge", "Ben 1"))
    assert types.index("moved") < types.index("attacked")
    events = g.log
    assert g.event(events, "moved")["distance"] == 8
    assert g.model("Ben 1").engaged == (g.unit("Anna 1"),)


def test_a_push_rolls_d6_and_ends_the_melee() -> None:
    g = started()
    g.dice(1, 1, 1).act("Anna 1", "strike", "Ben 1")
    pushed = g.event(g.dice(4).act("Ben 1", "push", "Anna 1"), "pushed")
    assert pushed["distance"] == 4
    assert g.model("Ben 1").engaged == ()


def test_a_push_roll_records_its_exact_odds() -> None:
    g = started()
    pushed = g.event(g.dice(6, 2).act("Anna 1", "push", "Ben 1"), "pushed")
    assert pushed["distance"] == 8
    # 8" or more: a 6 and then 2 or more on the extra die.
    assert pushed["odds"] == [["at_least", "5/36"]]
    record = g.state.rolls[-1]
    assert record.kind == "push" and record.odds == (("at_least", "5/36"),)


def test_block_adds_one_defence_die_until_the_round_end() -> None:
    g = started()
    g.do("declare", unit=g.unit("Anna 1"), action="strike", target=g.unit("Ben 1"))
    g.do("react", unit=g.unit("Ben 1"), action="block")
    g.do("resolve")
    assert g.model("Ben 1").defence == 2
    # hits 5 5 5, damage 4 4 4, two defence dice 4 4 cancel two of them.
    attack = g.event(g.dice(5, 5, 5, 4, 4, 4, 4, 4).do("resolve"), "attacked")
    assert attack["defence"]["dice"] == [4, 4] and attack["lost"] == 1


def test_a_block_in_the_npc_phase_lasts_until_the_next_round_starts() -> None:
    g = npc_game()
    finish_actions(g)
    g.do("declare", unit=g.unit("Hund"), action="strike", target=g.unit("Anna 1"))
    g.do("react", unit=g.unit("Anna 1"), action="block")
    g.do("resolve")
    g.dice(1, 1, 1).do("resolve")
    assert g.phase is Phase.NPC_MOVES and g.model("Anna 1").blocking
    g.do("end_npc_moves", player=0)
    g.do("end_npc_moves", player=1)
    assert g.state.round == 2 and g.phase is Phase.ROUND_START
    assert not g.model("Anna 1").blocking


def test_pursuit_needs_a_fleeing_enemy() -> None:
    g = started()
    g.refused(
        "declare",
        "target_not_fleeing",
        unit=g.unit("Anna 1"),
        action="pursue",
        target=g.unit("Ben 1"),
    )
    g.dice(1).act("Anna 1", "flee")
    assert g.event(g.dice(2).act("Ben 1", "pursue", "Anna 1"), "moved")["distance"] == 6


# --- Reactions ---------------------------------------------------------------------------------


def test_reactions_resolve_before_the_action_in_the_declared_order() -> None:
    g = started()
    g.do("declare", unit=g.unit("Anna 1"), action="walk")
    g.do("react", unit=g.unit("Ben 1"), action="block")
    g.do("react", unit=g.unit("Ben 2"), action="walk")
    first = g.do("resolve")
    assert g.types(first) == ["reaction_resolved", "blocked"]
    assert g.types(g.do("resolve")) == ["reaction_resolved", "moved"]
    assert g.types(g.do("resolve"))[:2] == ["action_resolved", "moved"]


def test_the_reacting_player_may_reorder_the_reactions() -> None:
    g = started()
    g.do("declare", unit=g.unit("Anna 1"), action="walk")
    g.do("react", unit=g.unit("Ben 1"), action="block")
    g.do("react", unit=g.unit("Ben 2"), action="walk")
    g.do("reorder_reaction", index=1)
    assert g.types(g.do("resolve")) == ["reaction_resolved", "moved"]
    g.refused("reorder_reaction", "reactions_closed", index=1)


def test_only_the_passive_side_reacts() -> None:
    g = started()
    g.do("declare", unit=g.unit("Anna 1"), action="walk")
    g.refused("react", "not_reacting_side", unit=g.unit("Anna 2"), action="block")
    g.refused("react", "own_action", unit=g.unit("Anna 1"), action="block")


def test_fleeing_models_cannot_react() -> None:
    g = started()
    g.act("Anna 1", "walk")
    g.dice(1).act("Ben 1", "flee")
    g.do("declare", unit=g.unit("Anna 2"), action="walk")
    g.refused("react", "fleeing_no_reaction", unit=g.unit("Ben 1"), action="block")


def test_a_model_reacts_once_per_round() -> None:
    g = started()
    g.do("declare", unit=g.unit("Anna 1"), action="walk")
    g.do("react", unit=g.unit("Ben 1"), action="block")
    g.refused("react", "already_reacted", unit=g.unit("Ben 1"), action="walk")


def test_a_model_that_reacted_cannot_activate_later_in_the_round() -> None:
    g = started()
    g.do("declare", unit=g.unit("Anna 1"), action="walk")
    g.do("react", unit=g.unit("Ben 1"), action="block")
    g.do("resolve")
    g.do("resolve")
    assert g.state.turn == 1
    g.refused("declare", "already_activated", unit=g.unit("Ben 1"), action="walk")


def test_a_side_whose_models_all_reacted_has_nothing_left_to_activate() -> None:
    g = started()
    g.do("declare", unit=g.unit("Anna 1"), action="walk")
    g.do("react", unit=g.unit("Ben 1"), action="block")
    g.do("react", unit=g.unit("Ben 2"), action="block")
    for _ in range(3):
        g.do("resolve")
    assert g.state.turn == 0
    g.act("Anna 2", "walk")
    assert g.state.round == 2 and g.phase is Phase.ROUND_START


def test_no_reaction_is_declared_once_resolution_began() -> None:
    g = started()
    g.do("declare", unit=g.unit("Anna 1"), action="walk")
    g.do("react", unit=g.unit("Ben 1"), action="block")
    g.do("resolve")
    g.refused("react", "reactions_closed", unit=g.unit("Ben 2"), action="block")


def test_an_action_the_table_finds_impossible_lapses() -> None:
    g = started()
    g.do("declare", unit=g.unit("Anna 1"), action="strike", target=g.unit("Ben 1"))
    events = g.do("resolve", possible=False)
    assert "attacked" not in g.types(events)
    assert g.model("Anna 1").activated and g.state.turn == 1


def test_the_action_is_carried_out_even_when_a_reaction_took_the_actors_last_lp() -> None:
    frail = profile("Zart", lp=1, defence_dice=0)
    g = Game(setup([[model(frail)], [model(profile("Ben"))] * 2])).begin()
    g.do("declare", unit=g.unit("Zart"), action="strike", target=g.unit("Ben 1"))
    g.do("react", unit=g.unit("Ben 1"), action="strike")
    g.dice(5, 1, 1, 5).do("resolve")  # the reaction takes Zart's only LP
    assert g.model("Zart").lp == 0 and not g.model("Zart").out
    events = g.dice(5, 5, 5, 5, 5, 5, 1).do("resolve")
    assert g.event(events, "attacked")["attacker"] == g.unit("Zart")
    assert g.event(events, "casualties_removed")["units"] == [g.unit("Zart")]
    assert g.phase is Phase.OVER  # Anna has no model left


# --- Attacks -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("attacker", "defender", "hit", "damage"),
    [
        (Size.XS, Size.XL, 2, 6),
        (Size.XL, Size.XS, 6, 2),
        (Size.M, Size.M, 4, 4),
        (Size.S, Size.L, 2, 6),
        (Size.L, Size.S, 6, 2),
        (Size.M, Size.L, 3, 5),
    ],
)
def test_hit_and_damage_values_come_from_the_size_tables(
    attacker: Size, defender: Size, hit: int, damage: int
) -> None:
    assert (hit_value(attacker, defender), damage_value(attacker, defender)) == (hit, damage)


def test_an_attack_uses_the_tables_for_the_two_sizes() -> None:
    small = profile("Klein", size="XS")
    big = profile("Riese", size="XL")
    g = Game(setup([[model(small)], [model(big)]])).begin()
    attack = g.event(g.dice(2, 2, 2, 6, 6, 5, 1, 1).act("Klein", "strike", "Riese"), "attacked")
    assert (attack["hit_value"], attack["damage_value"]) == (2, 6)
    assert attack["hits"] == 3
    assert attack["successes"] == 2  # 6 6 (their extra dice 1 1 fail) and not the 5


def test_each_hit_rolls_one_damage_die() -> None:
    g = started()
    attack = g.event(g.dice(4, 5, 1, 2, 3).act("Anna 1", "strike", "Ben 1"), "attacked")
    assert attack["hits"] == 2 and attack["damage"]["dice"] == [2, 3]
    assert attack["lost"] == 0


def test_a_defence_die_cancels_a_damage_die_it_equals_or_beats() -> None:
    g = started()
    attack = g.event(g.dice(5, 5, 1, 5, 4, 4).act("Anna 1", "strike", "Ben 1"), "attacked")
    # Damage 5 and 4; the defence die 4 cannot cancel the 5 but cancels the 4.
    assert attack["cancelled"] == [1] and attack["lost"] == 1
    assert g.model("Ben 1").lp == 3


@pytest.mark.parametrize(
    ("damage", "defence", "cancelled"),
    [
        ([5, 4], [4], [1]),
        ([5, 4], [5], [0]),
        ([6, 6], [6, 1], [0]),
        ([4, 5, 6], [6, 5, 4], [0, 1, 2]),
        ([4, 6], [5, 5], [0]),
        ([3, 3, 3], [2, 2], []),
    ],
)
def test_defence_dice_cancel_as_many_damage_dice_as_any_matching_can(
    damage: list[int], defence: list[int], cancelled: list[int]
) -> None:
    from itertools import permutations

    best = max(
        sum(1 for d, s in zip(damage, order, strict=False) if s >= d)
        for order in permutations([*defence, *[0] * len(damage)], len(damage))
    )
    assert len(cancelled_dice(damage, defence)) == best
    assert cancelled_dice(damage, defence) == cancelled


def test_the_attack_dice_modifier_adds_or_takes_dice() -> None:
    g = started()
    g.do("declare", unit=g.unit("Anna 1"), action="strike", target=g.unit("Ben 1"), modifier=2)
    attack = g.event(g.dice(1, 1, 1, 1, 1).do("resolve"), "attacked")
    assert attack["attack_dice"] == 5


def test_an_attack_records_its_exact_odds() -> None:
    g = started()
    attack = g.event(g.dice(1, 1, 1).act("Anna 1", "strike", "Ben 1"), "attacked")
    assert [code for code, _value in attack["odds"]] == ["damage", "kill", "expected"]


def test_a_fall_rolls_one_attack_die_per_inch_with_full_armour() -> None:
    g = started()
    attack = g.event(
        g.dice(4, 4, 4, 4, 6, 1).do("fall", unit=g.unit("Ben 1"), distance=2), "attacked"
    )
    assert attack["attack_dice"] == 2 and (attack["hit_value"], attack["damage_value"]) == (4, 4)
    assert attack["defence"]["dice"] == [6] and attack["lost"] == 1


# --- Morale ------------------------------------------------------------------------------------


def test_losing_exactly_half_the_lp_needs_no_test() -> None:
    g = started()
    events = g.dice(5, 5, 1, 5, 5, 1).act("Anna 1", "strike", "Ben 1")
    assert g.model("Ben 1").lost == 2 and "morale_tested" not in g.types(events)


def test_losing_more_than_half_the_lp_tests_at_once() -> None:
    g = started()
    events = g.dice(5, 5, 5, 5, 5, 5, 1, 4, 4, 4).act("Anna 1", "strike", "Ben 1")
    tested = g.event(events, "morale_tested")
    assert tested["lost"] == 3 and tested["successes"] == 3 and tested["passed"]


def test_every_further_lp_loss_tests_again() -> None:
    tough = profile("Zäh", lp=6)
    g = Game(setup([[model(profile("Anna"))] * 2, [model(tough)] * 2])).begin()
    g.do("declare", unit=g.unit("Anna 1"), action="strike", target=g.unit("Zäh 1"), modifier=1)
    # 4 hits, 4 damage, the defence die fails: 4 of 6 LP lost; morale 6 (+4) 4 4 passes.
    first = g.dice(5, 5, 5, 5, 5, 5, 5, 5, 1, 6, 4, 4, 4).do("resolve")
    assert g.event(first, "morale_tested")["passed"]
    g.act("Zäh 1", "block")
    # One more LP (two defence dice now, both fail): test again and fail: flee 2 + B.
    second = g.dice(5, 1, 1, 5, 1, 1, 1, 1, 1, 2).act("Anna 2", "strike", "Zäh 1")
    tested = g.event(second, "morale_tested")
    assert tested["lost"] == 5 and not tested["passed"]
    assert g.model("Zäh 1").fleeing


def test_an_attack_that_costs_no_lp_tests_no_morale() -> None:
    g = started()
    g.do("adjust", unit=g.unit("Ben 1"), lp=1)
    # Three hit dice miss: Ben 1 has lost 3 of 4 LP, but this attack cost none.
    events = g.dice(1, 1, 1).act("Anna 1", "strike", "Ben 1")
    assert g.event(events, "attacked")["lost"] == 0
    assert "morale_tested" not in g.types(events)


def test_a_fall_that_costs_no_lp_tests_no_morale() -> None:
    g = started()
    g.do("adjust", unit=g.unit("Ben 1"), lp=1)
    events = g.dice(1, 1).do("fall", unit=g.unit("Ben 1"), distance=2)
    assert g.event(events, "attacked")["lost"] == 0
    assert "morale_tested" not in g.types(events)


def test_a_fall_that_costs_lp_past_half_tests_morale() -> None:
    g = started()
    g.do("adjust", unit=g.unit("Ben 1"), lp=2)
    # One hit, damage 5, the defence die 1 does not cancel it: 3 of 4 LP lost.
    events = g.dice(5, 1, 5, 1, 4, 4, 4).do("fall", unit=g.unit("Ben 1"), distance=2)
    tested = g.event(events, "morale_tested")
    assert tested["lost"] == 3 and tested["passed"]


def test_a_test_needs_as_many_fours_as_lp_lost_and_a_failure_flees_at_once() -> None:
    g = started()
    events = g.dice(5, 5, 5, 5, 5, 5, 1, 4, 4, 1, 3).act("Anna 1", "strike", "Ben 1")
    assert not g.event(events, "morale_tested")["passed"]
    fled = g.event(events, "fled")
    assert fled["distance"] == 3 + 4
    assert g.model("Ben 1").fleeing and g.model("Ben 1").engaged == ()


def test_the_flight_after_a_failed_test_is_free() -> None:
    g = started()
    g.dice(5, 5, 5, 5, 5, 5, 1, 1, 1, 1, 3).act("Anna 1", "strike", "Ben 1")
    assert not g.model("Ben 1").activated


def test_a_fleeing_model_tests_at_its_activation_and_flees_again_on_a_failure() -> None:
    g = started()
    g.dice(5, 5, 5, 5, 5, 5, 1, 1, 1, 1, 3).act("Anna 1", "strike", "Ben 1")
    g.refused("declare", "morale_test_first", unit=g.unit("Ben 1"), action="walk")
    events = g.dice(1, 1, 1, 2).do("test_morale", unit=g.unit("Ben 1"))
    assert g.types(events)[:2] == ["morale_tested", "fled"]
    assert g.model("Ben 1").activated and g.state.turn == 0


def test_a_rallied_model_may_only_restore_its_morale_or_move() -> None:
    g = started()
    g.dice(5, 5, 5, 5, 5, 5, 1, 1, 1, 1, 3).act("Anna 1", "strike", "Ben 1")
    g.dice(4, 4, 4).do("test_morale", unit=g.unit("Ben 1"))
    assert g.state.rallied == g.unit("Ben 1")
    g.refused(
        "declare",
        "fleeing_restricted",
        unit=g.unit("Ben 1"),
        action="strike",
        target=g.unit("Anna 1"),
    )
    g.act("Ben 1", "restore_morale")
    assert not g.model("Ben 1").fleeing


def test_restoring_morale_is_only_for_fleeing_models() -> None:
    g = started()
    g.refused("declare", "not_fleeing", unit=g.unit("Anna 1"), action="restore_morale")


# --- NPC phase ---------------------------------------------------------------------------------


def npc_game(**kwargs: object) -> Game:
    data = scenario(
        npcs=[npc("Hund", "active", size="S"), npc("Bürger", "passive", count=3)],
        vp_npc=2,
        **kwargs,  # type: ignore[arg-type]
    )
    return Game(setup(data=data)).begin()


def finish_actions(g: Game) -> None:
    for unit in ("Anna 1", "Ben 1", "Anna 2", "Ben 2"):
        g.act(unit, "walk")


def test_the_npc_phase_follows_the_round_end() -> None:
    g = npc_game()
    finish_actions(g)
    assert g.phase is Phase.NPC_ACTIONS


def test_active_npcs_act_in_the_npc_phase_and_models_may_react() -> None:
    g = npc_game()
    finish_actions(g)
    g.do("declare", unit=g.unit("Hund"), action="strike", target=g.unit("Anna 1"))
    g.do("react", unit=g.unit("Anna 1"), action="block")
    g.do("react", unit=g.unit("Ben 1"), action="walk")
    g.do("resolve")
    g.do("resolve")
    g.dice(1, 1, 1).do("resolve")
    assert g.phase is Phase.NPC_MOVES


def test_the_round_end_frees_the_reactions_for_the_npc_phase() -> None:
    """The app's decision: the NPC phase follows the round end, which removes the markers
    (Spielablauf 4-5), so a model that reacted in the action phase may react once more in the
    NPC phase, and an active NPC that reacted still acts."""
    g = npc_game()
    g.do("declare", unit=g.unit("Anna 1"), action="walk")
    g.do("react", unit=g.unit("Ben 1"), action="block")
    g.do("react", unit=g.unit("Hund"), action="block")
    for _ in range(3):
        g.do("resolve")
    for unit in ("Ben 2", "Anna 2"):
        g.act(unit, "walk")
    assert g.phase is Phase.NPC_ACTIONS and not g.model("Ben 1").reacted
    g.do("declare", unit=g.unit("Hund"), action="walk")
    g.do("react", unit=g.unit("Ben 1"), action="block")
    g.refused("react", "already_reacted", unit=g.unit("Ben 1"), action="walk")


def test_an_active_npc_may_do_nothing() -> None:
    g = npc_game()
    finish_actions(g)
    g.do("skip_npc", unit=g.unit("Hund"))
    assert g.phase is Phase.NPC_MOVES


def fleeing_hound() -> Game:
    """The NPC phase begins with the active NPC Hund fleeing, 2 of its 4 LP lost."""
    g = npc_game()
    g.do("adjust", unit=g.unit("Hund"), lp=2, fleeing=True)
    finish_actions(g)
    assert g.phase is Phase.NPC_ACTIONS
    return g


def test_an_active_npc_that_is_not_fleeing_does_not_flee_or_rally() -> None:
    g = npc_game()
    finish_actions(g)
    g.refused("declare", "npc_action_invalid", unit=g.unit("Hund"), action="flee")
    g.refused("declare", "npc_action_invalid", unit=g.unit("Hund"), action="restore_morale")


def test_a_fleeing_active_npc_tests_its_morale_before_it_acts() -> None:
    g = fleeing_hound()
    g.refused("declare", "morale_test_first", unit=g.unit("Hund"), action="walk")
    g.refused("skip_npc", "morale_test_first", unit=g.unit("Hund"))
    events = g.dice(4, 1, 1, 2).do("test_morale", unit=g.unit("Hund"))
    assert g.types(events)[:2] == ["morale_tested", "fled"]
    assert g.model("Hund").activated and g.phase is Phase.NPC_MOVES


def test_a_rallied_active_npc_may_only_restore_its_morale_or_move() -> None:
    g = fleeing_hound()
    g.dice(4, 4, 1).do("test_morale", unit=g.unit("Hund"))
    assert g.state.rallied == g.unit("Hund")
    g.refused("test_morale", "already_tested", unit=g.unit("Hund"))
    g.refused(
        "declare",
        "fleeing_restricted",
        unit=g.unit("Hund"),
        action="strike",
        target=g.unit("Anna 1"),
    )
    g.refused("declare", "fleeing_restricted", unit=g.unit("Hund"), action="npc_action")
    g.act("Hund", "restore_morale")
    assert not g.model("Hund").fleeing and g.phase is Phase.NPC_MOVES


def test_fleeing_npcs_are_refused_alike_whether_they_act_or_pass() -> None:
    g = Game(setup(data=scenario(npcs=[npc("Hund", "active", size="S", count=2)]))).begin()
    for hound in ("Hund 1", "Hund 2"):
        g.do("adjust", unit=g.unit(hound), lp=2, fleeing=True)
    finish_actions(g)
    for command, args in (("declare", {"action": "walk"}), ("skip_npc", {})):
        g.refused(command, "morale_test_first", unit=g.unit("Hund 2"), **args)
    g.dice(4, 4, 1).do("test_morale", unit=g.unit("Hund 1"))
    for command, args in (("declare", {"action": "walk"}), ("skip_npc", {})):
        g.refused(command, "action_pending", unit=g.unit("Hund 2"), **args)
    assert fleeing_refusal(g.state, g.model("Hund 2"), "walk") == "action_pending"
    assert fleeing_refusal(g.state, g.model("Hund 1")) == ""
    assert fleeing_refusal(g.state, g.model("Hund 1"), "strike") == "fleeing_restricted"


def move_npc(g: Game, name: str, action: str = "walk") -> None:
    """A player moves a passive NPC; nobody reacts."""
    g.do("move_npc", unit=g.unit(name), action=action)
    g.do("resolve")


def test_passive_npcs_are_moved_alternately_starting_with_the_start_player() -> None:
    g = npc_game()
    finish_actions(g)
    g.do("skip_npc", unit=g.unit("Hund"))
    assert g.state.turn == 0
    move_npc(g, "Bürger 1")
    assert g.state.turn == 1
    g.refused("move_npc", "not_your_turn", unit=g.unit("Bürger 2"), player=0)


def test_each_passive_npc_moves_at_most_once_per_npc_phase() -> None:
    g = npc_game()
    finish_actions(g)
    g.do("skip_npc", unit=g.unit("Hund"))
    move_npc(g, "Bürger 1")
    g.refused("move_npc", "npc_already_moved", unit=g.unit("Bürger 1"))
    move_npc(g, "Bürger 2")
    g.refused("move_npc", "npc_already_moved", unit=g.unit("Bürger 1"))
    g.refused("move_npc", "npc_already_moved", unit=g.unit("Bürger 2"))


def test_each_player_moves_at_most_two_different_passive_npcs() -> None:
    data = scenario(npcs=[npc("Bürger", "passive", count=5)])
    g = Game(setup(data=data)).begin()
    finish_actions(g)
    assert g.phase is Phase.NPC_MOVES
    for name, mover in (("Bürger 1", 0), ("Bürger 2", 1), ("Bürger 3", 0), ("Bürger 4", 1)):
        assert g.state.turn == mover
        move_npc(g, name)
    # Both players have moved two: Bürger 5 stays where it is.
    assert g.state.round == 2 and g.phase is Phase.ROUND_START


def test_the_npc_moves_end_when_every_passive_npc_has_moved() -> None:
    g = npc_game()
    finish_actions(g)
    g.do("skip_npc", unit=g.unit("Hund"))
    for name in ("Bürger 1", "Bürger 2", "Bürger 3"):
        move_npc(g, name)
    assert g.state.round == 2 and g.phase is Phase.ROUND_START


def test_models_may_react_to_a_passive_npc_move() -> None:
    g = npc_game()
    finish_actions(g)
    g.do("skip_npc", unit=g.unit("Hund"))
    g.do("move_npc", unit=g.unit("Bürger 1"), action="walk")
    g.refused("move_npc", "action_pending", unit=g.unit("Bürger 2"))
    g.refused("end_npc_moves", "action_pending", player=0)
    g.refused("react", "npc_passive", unit=g.unit("Ben 1"), action="strike")
    g.do("react", unit=g.unit("Ben 1"), action="push")
    g.do("react", unit=g.unit("Ben 2"), action="block")
    pushed = g.dice(3).do("resolve")
    assert g.event(pushed, "pushed")["target"] == g.unit("Bürger 1")
    g.do("resolve")
    moved = g.do("resolve")
    assert g.types(moved)[:3] == ["action_resolved", "moved", "npc_moved"]
    assert g.state.turn == 1 and g.state.pending is None
    assert g.model("Ben 1").reacted and g.model("Ben 2").blocking


def test_a_player_may_stop_moving_npcs() -> None:
    g = npc_game()
    finish_actions(g)
    g.do("skip_npc", unit=g.unit("Hund"))
    g.do("end_npc_moves", player=0)
    move_npc(g, "Bürger 1", "sprint")
    assert g.state.turn == 1
    move_npc(g, "Bürger 2")
    assert g.state.round == 2


def test_passive_npcs_cannot_be_attacked() -> None:
    g = npc_game()
    g.refused(
        "declare", "npc_passive", unit=g.unit("Anna 1"), action="strike", target=g.unit("Bürger 1")
    )


def test_killing_an_active_npc_scores_its_vp() -> None:
    g = npc_game()
    g.dice(6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6).act("Anna 1", "strike", "Hund")
    assert g.model("Hund").out
    assert g.state.players[0].total_vp == 2


def test_scenario_npcs_may_react_in_the_players_phase() -> None:
    g = npc_game()
    g.do("declare", unit=g.unit("Anna 1"), action="walk")
    g.do("react", unit=g.unit("Hund"), action="strike")
    assert g.state.pending.reactions[0].target == g.unit("Anna 1")


# --- Victory -----------------------------------------------------------------------------------


def test_a_side_with_no_model_left_loses_at_once() -> None:
    frail = profile("Zart", lp=1, defence_dice=0)
    g = Game(setup([[model(profile("Anna"))], [model(frail)]])).begin()
    g.dice(5, 1, 1, 5).act("Anna", "strike", "Zart")
    assert g.phase is Phase.OVER
    assert g.state.result.winners == (0,) and g.state.result.reason == "wiped_out"
    g.refused("declare", "game_over", unit=g.unit("Anna"), action="walk")


def test_most_kills_scores_vp_per_eliminated_enemy_and_decides_after_the_last_round() -> None:
    frail = profile("Zart", lp=1, defence_dice=0)
    g = Game(
        setup(
            [[model(profile("Anna"))], [model(frail), model(profile("Ben"))]],
            data=scenario(rounds=1, vp_kill=3),
        )
    ).begin()
    g.dice(5, 1, 1, 5).act("Anna", "strike", "Zart")
    assert g.state.players[0].total_vp == 3
    g.act("Ben", "walk")
    assert g.phase is Phase.OVER and g.state.result.winners == (0,)


def test_equal_vp_after_the_last_round_is_a_draw() -> None:
    g = Game(setup(data=scenario(rounds=1))).begin()
    finish_actions(g)
    assert g.phase is Phase.OVER and g.state.result.draw


def test_last_side_standing_after_a_round_limit_counts_the_models_left() -> None:
    frail = profile("Zart", lp=1, defence_dice=0)
    teams = [[model(profile("Anna"))] * 2, [model(frail), model(profile("Ben"))]]
    g = Game(setup(teams, data=scenario("last_standing", rounds=1))).begin()
    g.dice(5, 1, 1, 5).act("Anna 1", "strike", "Zart")
    g.act("Ben", "walk")
    g.act("Anna 2", "walk")
    assert g.state.result.winners == (0,) and g.state.result.reason == "last_round"


def test_objectives_score_for_their_holder_at_every_round_end() -> None:
    data = scenario("objectives", rounds=2, objectives=2, vp_kill=0, vp_objective=2)
    g = Game(setup(data=data)).begin()
    finish_actions(g)
    assert g.phase is Phase.SCORING
    g.refused("score_round", "invalid_args", holders=[0])
    g.do("score_round", holders=[0, None])
    assert g.state.players[0].total_vp == 2 and g.state.round == 2
    g.begin()
    finish_actions(g)
    g.do("score_round", holders=[1, 1])
    assert g.state.result.winners == (1,)


def test_a_random_scenario_is_drawn_and_recorded() -> None:
    other = {"slug": "other", "name": "Other", "data": scenario("last_standing", rounds=0)}
    g = Game(setup(mode="random", extra_missions=[other]), seed=3)
    started_event = g.log[0].data
    assert started_event["random"] is True
    assert g.state.mode in ("test", "other")


def test_a_player_may_concede() -> None:
    g = started()
    g.do("concede", player=0)
    assert g.state.result.winners == (1,) and g.state.result.reason == "conceded"


def test_a_hand_correction_to_zero_lp_removes_the_model() -> None:
    g = started()
    g.do("adjust", unit=g.unit("Ben 1"), lp=0, note="fell off the table")
    assert g.model("Ben 1").out and g.state.players[0].total_vp == 0


def test_free_rolls_count_successes_with_their_odds() -> None:
    g = started()
    rolled = g.event(g.dice(6, 3, 5).do("roll", dice=2, need=5, label="Tür"), "free_rolled")
    assert rolled["total"] == 2 and rolled["odds"][0][0] == "at_least"


def test_unknown_commands_and_bad_args_are_refused() -> None:
    g = started()
    g.refused("fly", "unknown_command")
    g.refused("declare", "unknown_action", unit=0, action="teleport")
    g.refused("declare", "invalid_args", unit="x", action="walk")
    g.refused("declare", "invalid_args", unit=0, action="walk", modifier=9)


def test_a_command_before_the_match_started_is_refused() -> None:
    with pytest.raises(RuleViolation) as refused:
        ENGINE.decide(ENGINE.initial_state(), Command("roll_round_start"), random.Random(1))
    assert refused.value.code == "not_started"


def test_a_probe_decides_alike_but_writes_no_odds() -> None:
    g = started()
    g.do("declare", unit=g.unit("Anna 1"), action="strike", target=g.unit("Ben 1"))
    real = ENGINE.decide(g.state, Command("resolve"), random.Random(3))
    probe = ENGINE.decide(g.state, Command("resolve"), random.Random(3), probe=True)
    assert [e.type for e in probe] == [e.type for e in real]
    attacked = next(e for e in probe if e.type == "attacked")
    assert (
        attacked.data["odds"] == [] and next(e for e in real if e.type == "attacked").data["odds"]
    )
    assert ENGINE.check(g.state, Command("resolve")) is None


def test_weapon_items_and_armour_items_join_the_model() -> None:
    g = Game(
        setup(
            [
                [model(profile("Anna"), weapons=[PISTOL], defence=2, items=["Seil"])],
                [model(profile("Ben"))],
            ]
        )
    )
    anna = g.model("Anna")
    assert [w.name for w in anna.weapons] == ["Schwert", "Armbrust", "Pistole"]
    assert anna.defence == 3 and anna.items == ("Seil",)


def test_sword_is_the_first_weapon_ready() -> None:
    g = started()
    assert g.model("Anna 1").weapon.name == SWORD["name"]
