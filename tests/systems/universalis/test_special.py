"""Colossi, telematons, camouflage and powers (SPEC §3)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from apps.systems.universalis.catalog import (
    Camouflage,
    Movement,
    PowerDuration,
    PowerRange,
    Weapon,
)
from apps.systems.universalis.match.state import ZoneName
from tests.systems.universalis.helpers import (
    MAGE_DISCIPLINE,
    RIFLE,
    Game,
    ben_waits_ready,
    colossus,
    finish_round,
    model,
    one,
    power,
    setup,
    shown_chance,
    soldier,
    telematon,
    tracker,
)


def game_of(anna: list[dict[str, Any]], ben: list[dict[str, Any]], mode: str = "secret") -> Game:
    return Game(setup([anna, ben], mode=mode)).to_round_one()


def bens() -> list[dict[str, Any]]:
    return [model(soldier("Ben Chef", group_leader=True)), model(soldier("Ben Soldat"))]


# --- Colossi ---------------------------------------------------------------------------------


def colossus_game(**changes: Any) -> Game:
    anna = [model(soldier("Anna", group_leader=True)), model(soldier("Anna 2"))]
    ben = [model(colossus("Koloss", group_leader=True, **changes)), model(soldier("Ben 2"))]
    return game_of(anna, ben).phase_of(0, 2)


def hit_colossus(g: Game, zone_face: int, damage: int, *more: int) -> Any:
    return g.dice(zone_face, 12, 1, *more).do("auto_hit", unit=2, strength=5, damage=damage)


def test_a_colossus_hit_zone_is_rolled_on_1d12() -> None:
    g = colossus_game()
    events = hit_colossus(g, 7, 2)
    assert one(events, "zone_rolled")["zone"] == "left"
    left = next(z for z in g.unit(2).zones if z.name is ZoneName.LEFT)
    assert (left.hp, left.hp_max) == (6, 8) and g.unit(2).hp == 12


def test_a_critical_side_gives_minus_1_on_ranged_and_melee_rolls() -> None:
    g = colossus_game(weapons=(RIFLE,))
    hit_colossus(g, 9, 6)
    g.do("end_phase")
    events = g.dice(12).do("shoot", unit=2, targets=[{"unit": 0, "distance": 10}])
    assert one(events, "shot")["roll"]["target"] == 5


def test_a_destroyed_side_loses_its_weapons_and_1_agi_and_nk() -> None:
    gun = replace(RIFLE, mount="left")
    g = colossus_game(weapons=(gun,))
    hit_colossus(g, 7, 8)
    g.do("end_phase")
    g.refused("shoot", "weapon_side_destroyed", unit=2, targets=[{"unit": 0, "distance": 10}])
    from apps.systems.universalis.match import rules

    assert rules.attribute(g.state, g.unit(2), "agi") == 4
    assert rules.attribute(g.state, g.unit(2), "nk") == 3


def test_hits_on_a_destroyed_zone_go_to_the_torso() -> None:
    g = colossus_game()
    hit_colossus(g, 7, 8)
    events = hit_colossus(g, 8, 1)
    assert one(events, "zone_rolled")["zone"] == "torso"


def test_a_critical_movement_zone_needs_a_ko_roll_for_every_move() -> None:
    g = colossus_game()
    hit_colossus(g, 11, 6)
    g.do("end_phase")
    g.dice(12).do("move", unit=2)
    assert g.unit(2).ap == 4 and g.unit(2).moved_cm == 0
    g.dice(1).do("move", unit=2)
    assert g.unit(2).moved_cm == 10


def test_a_critical_movement_zone_needs_a_ko_roll_to_charge_too() -> None:
    g = colossus_game()
    hit_colossus(g, 11, 6)
    g.do("end_phase")
    events = g.dice(12).do("melee", unit=2, target=0, weapon=1, charge=True)
    assert one(events, "move_tested")["passed"] is False
    assert not [e for e in events if e.type == "melee_fought"]
    assert (g.unit(2).ap, g.unit(2).moved_cm) == (4, 0)
    events = g.dice(12).do("melee", unit=2, weapon=1, charge=True, reached=False)
    assert one(events, "move_tested")["passed"] is False and g.unit(2).moved_cm == 0
    g.dice(1).do("melee", unit=2, target=0, weapon=1, charge=True)
    assert g.unit(2).moved_cm == 10
    g.dice(12, 1).do("charge_attack", unit=2)


def test_a_destroyed_movement_zone_rolls_what_is_left() -> None:
    g = colossus_game()
    hit_colossus(g, 11, 8, 3)
    assert g.unit(2).immobile == "turn"
    g2 = colossus_game()
    hit_colossus(g2, 12, 8, 9)
    assert g2.unit(2).immobile == "fixed"
    g3 = colossus_game()
    hit_colossus(g3, 12, 8, 12)
    assert g3.unit(2).eliminated


def test_an_immobilised_colossus_cannot_move() -> None:
    g = colossus_game()
    hit_colossus(g, 11, 8, 9)
    g.do("end_phase")
    g.refused("move", "cannot_move", unit=2)
    g.refused("turn", "cannot_turn", unit=2)


def test_the_torso_is_the_colossus_own_hit_points() -> None:
    g = colossus_game()
    hit_colossus(g, 1, 20)
    assert g.unit(2).eliminated


# --- Telematons ------------------------------------------------------------------------------


def drone_game(mode: str = "secret", **operator: Any) -> Game:
    anna = [
        model(soldier("Anna Technikerin", group_leader=True, operator=1, **operator)),
        model(telematon("Drohne", weapons=(RIFLE,)), operator=0),
        model(soldier("Anna Soldat")),
    ]
    return game_of(anna, bens(), mode)


def test_a_telematon_acts_in_its_operators_phase() -> None:
    g = drone_game().phase_of(0, 3)
    g.do("move", unit=1)
    assert g.unit(1).ap == 1
    g.refused("pick", "not_now", player=0, unit=1)


def test_a_telematon_is_never_picked_on_its_own() -> None:
    g = drone_game()
    g.refused("pick", "not_eligible", player=0, unit=1)


def test_a_telematon_spends_its_operators_ap_when_its_own_run_out() -> None:
    g = drone_game().phase_of(0, 3)
    g.dice(12).do("shoot", unit=1, targets=[{"unit": 3, "distance": 10}])
    assert (g.unit(1).ap, g.unit(0).ap) == (0, 5)


def test_the_operator_may_pay_more_than_needed() -> None:
    g = drone_game().phase_of(0, 3)
    g.do("move", unit=1, operator_ap=1)
    assert (g.unit(1).ap, g.unit(0).ap) == (2, 5)


def test_a_telematon_rolls_with_its_operators_fk() -> None:
    g = drone_game(fk=9).phase_of(0, 3)
    events = g.dice(12).do("shoot", unit=1, targets=[{"unit": 3, "distance": 10}])
    assert one(events, "shot")["roll"]["target"] == 9


def test_a_lost_telematon_feeds_back_on_its_operator() -> None:
    g = drone_game().phase_of(0, 3)
    g.do("end_phase")
    events = g.dice(12, 1, 12).do("auto_hit", unit=1, strength=9, damage=9)
    assert one(events, "feedback")["passed"] is False
    assert g.unit(0).hp == 8 - 1


def test_telematons_of_an_eliminated_operator_panic_and_act_last() -> None:
    g = drone_game("stellung-halten").phase_of(0, 3)
    g.dice(12, 1).do("auto_hit", unit=0, strength=20, damage=20)
    assert g.unit(1).panic
    assert [d.unit for d in g.state.panic_due] == [2]
    g.do("skip_panic_test", unit=2)
    assert g.unit(1).activated  # it acted in its operator's phase this round
    from tests.systems.universalis.test_rounds import finish_round

    finish_round(g)
    g.do("end_round")
    g.do("panic_move", unit=1)
    g.phase_of(2, 3).do("end_phase")
    g.do("end_phase")
    g.refused("activate", "not_eligible", unit=1)
    g.do("activate", unit=4)
    g.do("end_phase")
    g.do("activate", unit=1)
    assert g.state.active == 1


def test_a_telematon_without_its_operator_keeps_its_panic() -> None:
    g = drone_game("stellung-halten").phase_of(0, 3)
    g.dice(12, 1).do("auto_hit", unit=0, strength=20, damage=20)
    g.do("skip_panic_test", unit=2)
    from tests.systems.universalis.test_rounds import finish_round

    finish_round(g)
    g.do("end_round")
    g.do("panic_move", unit=1)
    g.phase_of(2, 3).do("end_phase")
    g.do("end_phase")
    g.do("activate", unit=4)
    g.do("end_phase")
    g.do("activate", unit=1)
    g.refused("end_phase", "orphan_panic", panic_retests=[{"unit": 1, "friends": 3}])
    g.do("end_phase")
    assert g.unit(1).panic


def test_telematons_of_an_operator_that_left_the_table_panic() -> None:
    g = drone_game().phase_of(0, 3)
    g.dice(12, 1).do("auto_hit", unit=2, strength=20, damage=20)
    g.dice(12).do("panic_test", unit=0)
    g.do("skip_panic_test", unit=1)
    g.do("flee", unit=0)
    assert g.unit(0).panic and not g.unit(1).panic
    events = g.do("flee", unit=0, left_table=True)
    assert one(events, "panicked")["unit"] == 1
    assert g.unit(1).panic and g.unit(1).in_play


def test_an_operator_pays_its_telematons_shock_tokens_at_round_start() -> None:
    g = drone_game()
    g.do("correct", unit=1, shock_tokens=1)
    from tests.systems.universalis.test_rounds import finish_round

    finish_round(g)
    g.do("end_round")
    assert (g.unit(1).ap, g.unit(1).shock_paid) == (2 + 1 - 1, 1)
    g.do("operator_takes_shock", unit=1)
    assert (g.unit(1).ap, g.unit(0).ap) == (3, 8)


def test_an_operator_removes_its_telematons_shock_tokens_left_at_round_start() -> None:
    g = drone_game()
    g.do("correct", unit=1, shock_tokens=5)
    from tests.systems.universalis.test_rounds import finish_round

    finish_round(g)
    g.do("end_round")
    assert (g.unit(1).ap, g.unit(1).shock_tokens, g.unit(1).shock_paid) == (0, 2, 3)
    g.do("operator_takes_shock", unit=1)
    g.do("operator_takes_shock", unit=1)
    assert (g.unit(1).ap, g.unit(1).shock_tokens, g.unit(0).ap) == (0, 0, 7)
    g.do("operator_takes_shock", unit=1)
    assert (g.unit(1).ap, g.unit(1).shock_paid, g.unit(0).ap) == (1, 2, 6)


# --- Camouflage ------------------------------------------------------------------------------


def camouflage_game(level: int = 2, active: bool = False) -> Game:
    ben = [
        model(soldier("Ben", group_leader=True, camouflage=Camouflage(active, level))),
        model(soldier("Ben 2")),
    ]
    anna = [model(soldier("Anna", group_leader=True)), model(soldier("Anna 2"))]
    return game_of(anna, ben).phase_of(0, 2)


def test_camouflaged_models_start_camouflaged() -> None:
    assert camouflage_game().unit(2).camouflaged


def test_reveal_is_a_wn_roll_harder_by_the_level_easier_per_extra_ap_and_support() -> None:
    g = camouflage_game(level=3)
    events = g.dice(3).do("reveal", unit=0, target=2, extra_ap=1, supporters=[1])
    assert one(events, "reveal_rolled")["roll"]["target"] == 4 - 3 + 1 + 1
    assert not g.unit(2).camouflaged
    assert (g.unit(0).ap, g.unit(1).ap) == (3, 4)


def test_only_a_camouflaged_enemy_is_revealed() -> None:
    hidden_friend = soldier("Anna 2", camouflage=Camouflage(False, 1))
    anna = [model(soldier("Anna", group_leader=True)), model(hidden_friend)]
    g = game_of(anna, bens()).phase_of(0, 2)
    g.refused("reveal", "reveal_friend", unit=0, target=1)


def test_a_revealed_model_is_camouflaged_again_after_two_full_moves() -> None:
    g = camouflage_game()
    g.dice(1).do("reveal", unit=0, target=2)
    g.do("end_phase")
    g.do("move", unit=2)
    assert not g.unit(2).camouflaged
    g.do("move", unit=2)
    assert g.unit(2).camouflaged


def test_a_partial_move_does_not_count_toward_camouflage() -> None:
    g = camouflage_game()
    g.dice(1).do("reveal", unit=0, target=2)
    g.do("end_phase")
    g.do("move", unit=2, cm=9)
    g.do("move", unit=2, cm=9)
    assert not g.unit(2).camouflaged and g.unit(2).revealed_moves == 0
    g.do("move", unit=2)
    g.do("move", unit=2, cm=5)
    g.do("move", unit=2)
    assert g.unit(2).camouflaged


def test_firing_reveals_a_camouflaged_model() -> None:
    g = camouflage_game()
    g.do("end_phase")
    g.dice(12).do("shoot", unit=2, targets=[{"unit": 0, "distance": 10}])
    assert not g.unit(2).camouflaged


def ben_ready(anna_2: Any, ben: Any = None) -> Game:
    """Ben's leader (unit 2) ends its phase in fire readiness; then Anna's second model
    (unit 1, from ``anna_2``) acts."""
    anna = [model(soldier("Anna", group_leader=True)), anna_2]
    return ben_waits_ready(game_of(anna, [ben or bens()[0], bens()[1]]).phase_of(0, 2))


def test_fire_readiness_is_tested_when_the_model_is_revealed() -> None:
    sneaky = model(soldier("Ben", group_leader=True, camouflage=Camouflage(False, 1)))
    g = ben_ready(model(soldier("Anna 2")), sneaky)
    events = g.dice(1, 12).do("reveal", unit=1, target=2)
    assert one(events, "readiness_tested")["passed"] is False
    assert g.unit(2).readiness is None


def test_the_table_sets_camouflage_on_or_off() -> None:
    g = camouflage_game()
    g.do("camouflage", unit=2, hidden=False)
    assert not g.unit(2).camouflaged
    g.refused("camouflage", "no_camouflage", unit=0, hidden=True)


# --- Powers ----------------------------------------------------------------------------------


def mage_game(*powers: Any, ben_mage: bool = False) -> Game:
    anna = [
        model(soldier("Anna", group_leader=True, disciplines=MAGE_DISCIPLINE), powers=powers),
        model(soldier("Anna 2")),
    ]
    ben_card = soldier("Ben", group_leader=True, disciplines=MAGE_DISCIPLINE if ben_mage else ())
    return game_of(anna, [model(ben_card, powers=powers), model(soldier("Ben 2"))]).phase_of(0, 2)


def test_a_power_costs_its_ap_and_rolls_its_attribute_with_the_difficulty() -> None:
    g = mage_game(power(ap=2, difficulty=-1))
    events = g.dice(3).do("use_power", unit=0, power=0, target=2)
    assert one(events, "power_rolled")["roll"]["target"] == 3
    assert one(events, "power_used")["target"] == 2 and g.unit(0).ap == 4


def test_hit_points_are_lost_on_a_failed_power_roll() -> None:
    g = mage_game(power(hp_loss=2))
    g.dice(12).do("use_power", unit=0, power=0)
    assert g.unit(0).hp == 6


def test_some_powers_always_cost_hit_points() -> None:
    g = mage_game(power(hp_loss=1, always=True))
    g.dice(1).do("use_power", unit=0, power=0)
    assert g.unit(0).hp == 7


def test_a_lasting_power_stays_in_play_until_ended() -> None:
    g = mage_game(power(duration=PowerDuration.LASTING))
    g.dice(1).do("use_power", unit=0, power=0)
    assert g.unit(0).powers_in_play == (0,)
    g.refused("use_power", "power_in_play", unit=0, power=0)
    g.do("end_power", unit=0, power=0)
    assert g.unit(0).powers_in_play == () and g.unit(0).ap == 3


def test_a_model_of_a_discipline_may_block_a_power_as_a_reaction() -> None:
    g = mage_game(power(), ben_mage=True)
    events = g.dice(1, 2).do("use_power", unit=0, power=0, target=3, blockers=[2])
    assert one(events, "power_blocked")["by"] == 2
    assert g.unit(2).ap == 3


def test_only_models_of_a_discipline_block_powers() -> None:
    g = mage_game(power())
    g.refused("use_power", "cannot_block", unit=0, power=0, blockers=[3])


def test_a_lasting_power_in_play_is_blocked_as_an_action() -> None:
    g = mage_game(power(duration=PowerDuration.LASTING), ben_mage=True)
    g.dice(1).do("use_power", unit=0, power=0)
    g.do("end_phase")
    g.dice(1).do("block_power", unit=2, owner=0, power=0)
    assert g.unit(0).powers_in_play == () and g.unit(2).ap == 4


def test_a_failed_block_leaves_the_power_in_play_and_costs_its_hit_points() -> None:
    g = mage_game(power(duration=PowerDuration.LASTING, hp_loss=1), ben_mage=True)
    g.dice(1).do("use_power", unit=0, power=0)
    g.do("end_phase")
    events = g.dice(12).do("block_power", unit=2, owner=0, power=0)
    assert not [e for e in events if e.type == "power_ended"]
    assert g.unit(0).powers_in_play == (0,) and g.unit(2).ap == 4 and g.unit(2).hp == 7


def test_block_power_refuses_an_own_power_a_model_without_discipline_and_too_few_ap() -> None:
    lasting = power(duration=PowerDuration.LASTING)
    g = mage_game(lasting, ben_mage=True)
    g.refused("block_power", "power_not_in_play", unit=0, owner=2, power=0)
    g.dice(1).do("use_power", unit=0, power=0)
    g.refused("block_power", "block_own_power", unit=0, owner=0, power=0)
    g.do("end_phase")
    g.do("correct", unit=2, ap=1)
    g.refused("block_power", "not_enough_ap", unit=2, owner=0, power=0)
    plain = mage_game(lasting)
    plain.dice(1).do("use_power", unit=0, power=0)
    plain.do("end_phase")
    plain.refused("block_power", "cannot_block", unit=2, owner=0, power=0)


def test_a_flying_model_moves_before_it_blocks_a_power() -> None:
    anna = [
        model(
            soldier("Anna", group_leader=True, disciplines=MAGE_DISCIPLINE),
            powers=[power(duration=PowerDuration.LASTING)],
        ),
        model(soldier("Anna 2")),
    ]
    flyer = soldier("Ben", group_leader=True, disciplines=MAGE_DISCIPLINE, movement=Movement.FLIGHT)
    g = game_of(anna, [model(flyer), model(soldier("Ben 2"))]).phase_of(0, 2)
    g.dice(1).do("use_power", unit=0, power=0)
    g.do("end_phase")
    g.refused("block_power", "flight_moves_first", unit=2, owner=0, power=0)
    g.do("move", unit=2)
    g.dice(1).do("block_power", unit=2, owner=0, power=0)
    assert g.unit(0).powers_in_play == ()


def test_the_tracker_offers_a_discipline_model_a_block_of_each_enemy_power_in_play() -> None:
    """Kraft blockieren is a button per lasting enemy power in play, with the chance the roll
    then records; a model without discipline is offered none, nor is one without enough AP
    offered a block it can send."""
    lasting = power("Nebel", duration=PowerDuration.LASTING, difficulty=-2, hp_loss=1)
    g = mage_game(lasting, ben_mage=True)
    assert not tracker(g, selected=None, params={}).members[0].block_powers
    g.dice(1).do("use_power", unit=0, power=0)
    g.do("end_phase")
    (block,) = tracker(g, selected=None, params={}).members[0].block_powers
    assert block.command == "block_power" and block.enabled and block.cost == "2 AP"
    assert block.label.params == {"power": "Nebel", "owner": "Anna"}
    assert [(f.name, f.value) for f in block.fields] == [
        ("args.unit:int", "2"),
        ("args.owner:int", "0"),
        ("args.power:int", "0"),
    ]
    assert block.odds[1].params == {"hp": 1}
    events = g.dice(2).do("block_power", unit=2, owner=0, power=0)
    assert one(events, "power_rolled")["roll"]["odds"] == "1/6"
    assert block.odds[0].params["p"] == shown_chance("1/6")
    assert one(events, "power_ended")["by"] == 2

    g = mage_game(lasting, ben_mage=True)
    g.dice(1).do("use_power", unit=0, power=0)
    g.do("end_phase")
    g.do("correct", unit=2, ap=1)
    (block,) = tracker(g, selected=None, params={}).members[0].block_powers
    assert not block.enabled and block.reason

    g = mage_game(lasting)
    g.dice(1).do("use_power", unit=0, power=0)
    g.do("end_phase")
    assert tracker(g, selected=None, params={}).members[0].block_powers == ()


def test_fire_readiness_is_tested_when_a_power_succeeds_on_the_model() -> None:
    mage = model(soldier("Anna 2", disciplines=MAGE_DISCIPLINE), powers=(power(),))
    g = ben_ready(mage)
    events = g.dice(12).do("use_power", unit=1, power=0, target=2)
    assert not [e for e in events if e.type == "readiness_tested"]
    events = g.dice(1, 12).do("use_power", unit=1, power=0, target=2)
    assert one(events, "readiness_tested")["passed"] is False
    assert g.unit(2).readiness is None


def test_a_touch_power_on_an_enemy_needs_a_won_melee_first() -> None:
    touch = power("Griff", range_=PowerRange.TOUCH)
    g = mage_game(touch)
    g.refused("use_power", "touch_needs_melee", unit=0, power=0, target=2)
    events = g.dice(12, 1, 1).do("melee", unit=0, target=2, weapon=1, on_win="power", power=0)
    assert one(events, "power_used")["target"] == 2


def test_unknown_weapons_and_powers_are_refused() -> None:
    g = mage_game(power())
    g.refused("use_power", "unknown_power", unit=0, power=5)
    g.refused("shoot", "unknown_weapon", unit=0, weapon=9, targets=[{"unit": 2, "distance": 5}])


def test_fall_damage_by_height() -> None:
    g = mage_game()
    g.do("fall", unit=0, height="size")
    assert g.unit(0).hp == 8
    g.dice(1).do("fall", unit=0, height="double")
    assert g.unit(0).hp == 8
    g.dice(12, 12, 1).do("fall", unit=0, height="double")
    assert g.unit(0).hp == 6
    g.dice(12, 1).do("fall", unit=0, height="higher")
    assert g.unit(0).hp == 2


def test_a_weapon_with_strength_added_to_ko() -> None:
    axe = Weapon(name="Axt", wk=3, range="NK", strength=2, damage=2, additive=True)
    anna = [model(soldier("Anna", group_leader=True, weapons=(axe,))), model(soldier("A2"))]
    g = game_of(anna, bens()).phase_of(0, 2)
    events = g.dice(12, 1, 1, 12).do("melee", unit=0, target=2, weapon=0)
    assert one(events, "wound_rolled")["wound"] == 1 + 4 + 2


def panicking_drone() -> Game:
    """Anna's operator (0) acts; her soldier (2) falls, the operator keeps its nerve and its
    drone (1) panics."""
    g = drone_game().phase_of(0, 3)
    g.dice(12, 1).do("auto_hit", unit=2, strength=20, damage=20)
    form = {
        "command": "panic_test",
        "args.unit:int": "0",
        "args.enemies:int": "2",
        "args.friends_in_contact:int": "1",
    }
    shown = tracker(g, selected=None, params=form).panic_due
    assert [t.unit.id for t in shown] == [0, 1]
    events = g.dice(1).do("panic_test", unit=0, enemies=2, friends_in_contact=1)
    recorded = one(events, "panic_tested")["roll"]["odds"]
    assert shown[0].preview[0].params["p"] == shown_chance(recorded)
    g.dice(12).do("panic_test", unit=1)
    assert g.unit(1).panic and not g.unit(0).panic
    return g


def test_a_telematon_whose_operator_lives_retests_its_panic_at_the_phase_end() -> None:
    g = panicking_drone()
    form = {
        "command": "end_phase",
        "args.panic_retests.0._on:bool": "true",
        "args.panic_retests.0.unit:int": "1",
        "args.panic_retests.0.friends:int": "1",
    }
    (retest,) = tracker(g, selected=None, params=form).retests
    events = g.dice(1).do("end_phase", panic_retests=[{"unit": 1, "friends": 1}])
    # The operator's EH 6 + 1 friend, with the chance the form showed.
    assert one(events, "panic_tested")["roll"]["target"] == 7
    recorded = one(events, "panic_tested")["roll"]["odds"]
    assert retest.preview[0].params["p"] == shown_chance(recorded)
    assert not g.unit(1).panic


def test_only_a_panicking_model_of_the_phase_retests_and_only_once() -> None:
    g = panicking_drone()
    g.refused("end_phase", "not_active", panic_retests=[{"unit": 3}])
    g.refused("end_phase", "not_panicking", panic_retests=[{"unit": 0}])
    g.refused("end_phase", "retest_twice", panic_retests=[{"unit": 1}, {"unit": 1}])


def test_the_view_offers_the_retest_exactly_when_the_rules_allow_it() -> None:
    g = panicking_drone()
    assert [t.unit.id for t in tracker(g, selected=None, params={}).retests] == [1]
    g.dice(12).do("end_phase", panic_retests=[{"unit": 1}])
    # Ben's phase: Anna's panicking drone does not act, so it does not retest.
    assert g.unit(1).panic and g.state.active == 3
    assert tracker(g, selected=None, params={}).retests == ()


def test_a_telematon_without_its_operator_is_never_offered_the_retest() -> None:
    g = drone_game("stellung-halten").phase_of(0, 3)
    g.dice(12, 1).do("auto_hit", unit=0, strength=20, damage=20)
    g.do("skip_panic_test", unit=2)
    from tests.systems.universalis.test_rounds import finish_round

    finish_round(g)
    g.do("end_round")
    g.do("panic_move", unit=1)
    g.phase_of(2, 3).do("end_phase")
    g.do("end_phase")
    g.do("activate", unit=4)
    g.do("end_phase")
    g.do("activate", unit=1)
    assert g.unit(1).panic
    assert tracker(g, selected=None, params={}).retests == ()
    g.refused("end_phase", "orphan_panic", panic_retests=[{"unit": 1}])


def test_a_flying_model_moves_before_it_ends_its_own_power_in_a_later_round() -> None:
    """Flug (rulebook, movement kinds): every round's first action is a full move, and ending a
    power (1 AP) is an action too."""
    flyer = soldier(
        "Anna", group_leader=True, disciplines=MAGE_DISCIPLINE, movement=Movement.FLIGHT
    )
    anna = [model(flyer, powers=[power(duration=PowerDuration.LASTING)]), model(soldier("Anna 2"))]
    g = game_of(anna, [model(soldier("Ben", group_leader=True)), model(soldier("Ben 2"))])
    g.phase_of(0, 2).do("move", unit=0)
    g.dice(1).do("use_power", unit=0, power=0)
    finish_round(g)
    g.do("end_round")
    assert g.state.round == 2
    g.phase_of(0, 2)
    g.refused("end_power", "flight_moves_first", unit=0, power=0)
    g.do("move", unit=0)
    g.do("end_power", unit=0, power=0)
    assert g.unit(0).powers_in_play == ()
