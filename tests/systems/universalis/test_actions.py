"""Each action and its AP cost (SPEC §3 Actions), and what every action ends."""

from __future__ import annotations

from dataclasses import replace

import pytest

from apps.systems.universalis.catalog import Equipment, Movement, Trait, Weapon
from tests.systems.universalis.helpers import (
    RIFLE,
    Game,
    colossus,
    model,
    one,
    setup,
    shown_chance,
    soldier,
    there,
    tracker,
)

FAR = [{"unit": 2, "distance": 10}]


def acting(*cards: object) -> Game:
    """Anna's first model (unit 0, built from ``cards`` if given) in its phase; Ben follows."""
    anna = list(cards) or [soldier("Anna Chefin", group_leader=True)]
    teams = [
        [model(anna[0]), model(soldier("Anna Soldat"))],
        [model(soldier("Ben Chef", group_leader=True)), model(soldier("Ben Soldat"))],
    ]
    return Game(setup(teams)).to_round_one().phase_of(0, 2)


def ap(g: Game, unit: int = 0) -> int:
    return g.unit(unit).ap


def in_melee(g: Game, unit: int = 0, other: int = 2) -> Game:
    """The table says ``unit`` and ``other`` are in base contact: in melee."""
    g.do("contact", unit=unit, other=other, touching=True)
    return g


def test_turn_costs_nothing(game: Game) -> None:
    game.phase_of(0, 2).do("turn", unit=0)
    assert ap(game) == 6


def test_move_costs_1_ap() -> None:
    g = acting()
    g.do("move", unit=0)
    assert ap(g) == 5


def test_move_while_prone_costs_2_ap() -> None:
    g = acting()
    g.do("prone", unit=0)
    g.do("move", unit=0)
    assert ap(g) == 3


def test_go_prone_and_stand_up_cost_1_ap_each() -> None:
    g = acting()
    g.do("prone", unit=0)
    g.do("stand_up", unit=0)
    assert ap(g) == 4 and not g.unit(0).prone


def test_moving_more_than_20_cm_in_a_phase_is_a_fast_move() -> None:
    g = acting()
    g.do("move", unit=0, cm=10)
    g.do("move", unit=0, cm=10)
    assert not g.unit(0).fast
    g.do("move", unit=0, cm=1)
    assert g.unit(0).fast


def test_a_move_goes_at_most_the_models_speed() -> None:
    g = acting()
    g.refused("move", "too_far", unit=0, cm=11)
    g.do("move", unit=0, cm=10)
    g.refused("melee", "too_far", unit=0, target=2, weapon=1, charge=True, cm=11)
    g.refused("melee", "too_far", unit=0, weapon=1, charge=True, reached=False, cm=11)
    in_melee(g).refused("disengage", "too_far", unit=0, cm=11)


def test_the_speed_limit_counts_overload_and_the_critical_state() -> None:
    heavy = soldier("Anna", group_leader=True, equipment=(Equipment("Kiste", weight=20),))
    g = acting(heavy)
    g.refused("move", "too_far", unit=0, cm=10)
    g.do("move", unit=0, cm=9)
    g.dice(12, 1).do("auto_hit", unit=0, strength=5, damage=6)
    assert g.unit(0).critical
    g.refused("move", "too_far", unit=0, cm=6)
    g.do("move", unit=0, cm=5)


def test_a_wheeled_model_may_move_2_cm_more_for_a_road() -> None:
    g = acting(soldier("Anna", group_leader=True, movement=Movement.WHEELS))
    g.refused("move", "too_far", unit=0, cm=13)
    g.do("move", unit=0, cm=12)


def offered_move(g: Game, unit: int) -> int:
    view = tracker(g, selected=None, params={})
    return next(there(m.move).max_move for m in view.members if m.unit.id == unit)


@pytest.mark.parametrize(
    "card",
    [
        soldier("Anna", group_leader=True),
        soldier("Anna", group_leader=True, movement=Movement.WHEELS),
        soldier("Anna", group_leader=True, equipment=(Equipment("Kiste", weight=20),)),
    ],
)
def test_the_move_input_offers_exactly_the_moves_the_engine_allows(card: object) -> None:
    g = acting(card)
    most = offered_move(g, 0)
    g.refused("move", "too_far", unit=0, cm=most + 1)
    g.do("move", unit=0, cm=most)
    g.dice(12, 1).do("auto_hit", unit=0, strength=5, damage=6)
    assert g.unit(0).critical
    most = offered_move(g, 0)
    g.refused("move", "too_far", unit=0, cm=most + 1)
    g.do("move", unit=0, cm=most)


def test_tracks_repeat_a_failed_movement_test_once() -> None:
    tracked = soldier("Anna", group_leader=True, movement=Movement.TRACKS)
    g = acting(tracked)
    events = g.dice(12, 1).do("move", unit=0, movement_test=True)
    assert one(events, "movement_tested")["passed"] is True and not g.unit(0).prone
    g.dice(12, 12).do("move", unit=0, movement_test=True)
    assert g.unit(0).prone
    legs = acting()
    legs.dice(12).do("move", unit=0, movement_test=True)
    assert legs.unit(0).prone


def test_failed_disengage_spends_nothing() -> None:
    g = in_melee(acting())
    g.dice(12).do("disengage", unit=0)
    assert ap(g) == 6


def test_disengage_costs_2_ap_and_3_when_prone() -> None:
    g = in_melee(acting())
    g.dice(1).do("disengage", unit=0)
    assert ap(g) == 4
    g.do("prone", unit=0)
    in_melee(g).do("disengage", unit=0)
    assert ap(g) == 0


def test_disengage_is_impossible_after_the_phases_direct_threat_test_failed() -> None:
    g = in_melee(acting())
    g.dice(12).do("disengage", unit=0)
    # Failed, it must attack one of the enemies in base contact first (4.5.1) ...
    g.refused("disengage", "attack_threat", unit=0)
    g.refused("threat_test", "threat_tested", unit=0, threat=2)
    g.dice(1, 12).do("melee", unit=0, target=2, weapon=1)
    # ... and it does not disengage again this phase.
    g.refused("disengage", "threat_failed", unit=0)
    g2 = in_melee(acting())
    g2.dice(12).do("threat_test", unit=0, threat=2)
    g2.dice(1, 12).do("melee", unit=0, target=2, weapon=1)
    g2.refused("disengage", "threat_failed", unit=0)
    assert ap(g2) == 5


def test_a_passed_direct_threat_test_lets_the_model_disengage_without_a_new_roll() -> None:
    g = in_melee(acting())
    g.dice(1).do("threat_test", unit=0, threat=2)
    events = g.do("disengage", unit=0)
    assert not [e for e in events if e.type == "disengage_tested"]
    assert ap(g) == 4


def test_use_object_costs_1_ap_with_an_optional_roll() -> None:
    g = acting()
    events = g.dice(3).do("use_object", unit=0, attribute="ko", modifier=-2)
    assert ap(g) == 5
    assert one(events, "object_used")["roll"]["target"] == 2


def test_use_object_without_an_attribute_makes_no_roll() -> None:
    g = acting()
    for args in ({}, {"attribute": ""}):
        events = g.do("use_object", unit=0, **args)
        used = one(events, "object_used")
        assert used["passed"] is True and "roll" not in used
    assert ap(g) == 4
    g.refused("use_object", "invalid_args", unit=0, attribute="luck")


def test_the_use_object_preview_is_the_recorded_chance() -> None:
    g = acting()
    (plain,) = there(tracker(g, selected=None, params={}).members[0].use_object).preview
    assert plain.template == "No roll: the object simply works."
    form = {
        "command": "use_object",
        "args.unit:int": "0",
        "args.attribute": "wn",
        "args.modifier:int": "-2",
    }
    (shown,) = there(tracker(g, selected=None, params=form).members[0].use_object).preview
    events = g.dice(1).do("use_object", unit=0, attribute="wn", modifier=-2)
    assert one(events, "object_used")["roll"]["odds"] == "1/6"
    assert shown.params["p"] == shown_chance("1/6") == "17 % (1/6)"


@pytest.mark.parametrize(("mode", "cost"), [("normal", 3), ("aimed", 4), ("snap", 2)])
def test_shot_costs_wk_plus_1_aimed_wk_plus_2_snap_wk(mode: str, cost: int) -> None:
    g = acting()
    g.dice(12).do("shoot", unit=0, mode=mode, targets=FAR)
    assert ap(g) == 6 - cost


def test_a_colossus_pays_1_ap_less_with_a_wk_4_or_5_weapon() -> None:
    cannon = Weapon(name="Kanone", wk=4, range="40/4", strength=8, damage=4)
    g = acting(colossus("Koloss", group_leader=True, weapons=(cannon,)))
    g.dice(12).do("shoot", unit=0, targets=FAR)
    assert ap(g) == 2


def test_fire_readiness_costs_2_ap_with_a_wk_1_to_3_firearm() -> None:
    g = acting()
    g.do("fire_readiness", unit=0, weapon=0)
    assert ap(g) == 4 and g.unit(0).readiness == 0
    g.refused("fire_readiness", "wrong_weapon", unit=0, weapon=1)


def test_fire_readiness_needs_wk_3_or_less() -> None:
    big = Weapon(name="Panzerfaust", wk=4, range="30/2", strength=8, damage=4)
    g = acting(soldier("Anna", group_leader=True, weapons=(big,)))
    g.refused("fire_readiness", "readiness_wk", unit=0, weapon=0)


def test_a_weapon_that_reloads_needs_the_reload_action_costing_wk() -> None:
    g = acting(soldier("Anna", group_leader=True, weapons=(replace(RIFLE, reload=True),)))
    g.dice(12).do("shoot", unit=0, targets=FAR)
    assert g.unit(0).reload == (0,)
    g.refused("shoot", "weapon_reload", unit=0, targets=FAR)
    g.do("reload", unit=0, weapon=0)
    assert g.unit(0).reload == () and ap(g) == 1


def test_single_use_markers_are_struck_until_none_is_left() -> None:
    grenade = replace(RIFLE, name="Granate", uses=1)
    g = acting(soldier("Anna", group_leader=True, weapons=(grenade,)))
    g.dice(12).do("shoot", unit=0, targets=FAR)
    assert g.unit(0).weapon_uses == (0,)
    g.refused("shoot", "weapon_used_up", unit=0, targets=FAR)


def test_melee_costs_wk_and_reckless_wk_plus_2() -> None:
    g = acting()
    g.dice(1, 12).do("melee", unit=0, target=2, weapon=1)
    assert ap(g) == 5
    g.dice(1, 12).do("melee", unit=0, target=2, weapon=1, reckless=True)
    assert ap(g) == 2


def test_defence_costs_2_ap_and_any_later_action_ends_it() -> None:
    g = acting()
    g.do("defence", unit=0)
    assert g.unit(0).defence and ap(g) == 4
    g.do("turn", unit=0)
    assert not g.unit(0).defence


def test_any_action_ends_fire_readiness() -> None:
    g = acting()
    g.do("fire_readiness", unit=0, weapon=0)
    g.do("move", unit=0)
    assert g.unit(0).readiness is None


def test_traits_and_equipment_cost_their_ap_and_strike_their_markers() -> None:
    card = soldier(
        "Anna",
        group_leader=True,
        traits=(Trait(name="Sprint", ap=1, uses=1), Trait(name="Zäh")),
        equipment=(Equipment(name="Spray", ap=2, uses=2),),
    )
    g = acting(card)
    g.do("use_trait", unit=0, trait=0)
    g.refused("use_trait", "used_up", unit=0, trait=0)
    g.refused("use_trait", "no_action", unit=0, trait=1)
    g.do("use_equipment", unit=0, equipment=0)
    assert ap(g) == 3 and g.unit(0).equipment_uses == (1,)


def test_not_enough_ap_is_refused_and_changes_nothing() -> None:
    g = acting()
    g.do("correct", unit=0, ap=2)
    g.refused("shoot", "not_enough_ap", unit=0, targets=FAR)
