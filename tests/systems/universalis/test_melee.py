"""Melee (SPEC §3 Melee): the comparative NK roll with every modifier, ties by AGI, the winner's
choice, push back, counter-attacks and opportunity attacks."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from apps.systems.universalis.catalog import Camouflage, Equipment, Size, Weapon
from tests.systems.universalis.helpers import (
    KNIFE,
    Game,
    ben_waits_ready,
    colossus,
    model,
    one,
    setup,
    soldier,
)


def acting(anna: Any = None, ben: Any = None) -> Game:
    teams = [
        [model(anna or soldier("Anna Chefin", group_leader=True)), model(soldier("Anna Soldat"))],
        [model(ben or soldier("Ben Chef", group_leader=True)), model(soldier("Ben Soldat"))],
    ]
    return Game(setup(teams)).to_round_one().phase_of(0, 2)


def totals(g: Game, dice: tuple[int, ...] = (1, 12), **args: Any) -> list[int]:
    """The NK totals of Anna's leader attacking Ben's leader with its knife (it loses); a
    charge moves first, then attacks."""
    if args.pop("charge", False):
        g.do("melee", unit=0, target=2, weapon=1, charge=True, **args)
        events = g.dice(*dice).do("charge_attack", unit=0)
    else:
        events = g.dice(*dice).do("melee", unit=0, target=2, weapon=1, **args)
    return list(one(events, "melee_fought")["rolls"][0]["totals"])


def test_melee_is_a_comparative_nk_roll() -> None:
    assert totals(acting()) == [1 + 4, 12 + 4]


def test_a_charge_gives_plus_2() -> None:
    assert totals(acting(), charge=True)[0] == 7


def test_no_charge_bonus_against_a_model_in_defence() -> None:
    g = acting()
    g.do("end_phase")
    g.do("defence", unit=2)
    g.do("end_phase")
    g.do("pick", player=0, unit=1)
    g.dice(9, 1).do("pick", player=1, unit=3)
    g.do("melee", unit=1, target=2, weapon=1, charge=True)
    events = g.dice(1, 12).do("charge_attack", unit=1)
    assert one(events, "melee_fought")["rolls"][0]["totals"][0] == 5
    assert not g.unit(2).defence


def test_each_other_friend_touching_the_enemy_gives_plus_2() -> None:
    assert totals(acting(), friends=2, enemy_friends=1) == [9, 18]


def test_a_larger_model_gets_plus_2_per_size_step() -> None:
    big = soldier("Ben", group_leader=True, size=Size.LARGE)
    assert totals(acting(ben=big)) == [5, 18]


def test_a_model_two_sizes_larger_gets_plus_4() -> None:
    huge = soldier("Ben", group_leader=True, size=Size.HUGE)
    assert totals(acting(ben=huge)) == [1 + 4, 12 + 4 + 4]
    small = soldier("Ben", group_leader=True, size=Size.SMALL)
    giant = soldier("Anna", group_leader=True, size=Size.HUGE)
    assert totals(acting(anna=giant, ben=small)) == [1 + 4 + 6, 12 + 4]


def test_carrying_anything_unwieldy_gives_minus_3() -> None:
    anna = soldier("Anna", group_leader=True, equipment=(Equipment("Kiste", unwieldy=True),))
    assert totals(acting(anna=anna))[0] == 2


def test_a_reckless_attack_gives_plus_3() -> None:
    assert totals(acting(), reckless=True)[0] == 8


def test_a_lost_reckless_attack_defends_with_nk_0_against_the_counter_attack() -> None:
    g = acting()
    g.dice(1, 12).do("melee", unit=0, target=2, weapon=1, reckless=True)
    events = g.dice(1, 1).do("counter_attack", unit=2, weapon=1)
    assert one(events, "melee_fought")["rolls"][0]["totals"] == [5, 1]


def test_only_the_defender_counter_attacks() -> None:
    g = acting()
    g.dice(1, 12).do("melee", unit=0, target=2, weapon=1)
    g.refused("counter_attack", "no_melee", unit=3, weapon=1)


def test_a_counter_attack_answers_only_the_melee_just_fought() -> None:
    g = acting()
    g.dice(1, 12).do("melee", unit=0, target=2, weapon=1)
    g.dice(1, 12).do("melee", unit=0, target=3, weapon=1)
    g.refused("counter_attack", "no_melee", unit=2, weapon=1)


def test_a_melee_tie_is_decided_by_a_comparative_agi_roll() -> None:
    g = acting()
    events = g.dice(6, 6, 9, 2, 12, 1).do("melee", unit=0, target=2, weapon=1)
    fought = one(events, "melee_fought")
    assert len(fought["rolls"]) == 2 and fought["won"] is True
    assert g.unit(2).hp == 7


def test_the_winner_may_push_back_instead_of_hitting() -> None:
    g = acting()
    events = g.dice(12, 1).do("melee", unit=0, target=2, weapon=1, on_win="push")
    assert one(events, "melee_fought")["on_win"] == "push"
    assert g.unit(2).hp == 8


def test_only_models_of_equal_or_smaller_size_are_pushed_back() -> None:
    big = soldier("Ben", group_leader=True, size=Size.LARGE)
    acting(ben=big).refused("melee", "push_too_big", unit=0, target=2, weapon=1, on_win="push")


def test_unarmed_melee_uses_ko_as_strength() -> None:
    g = acting()
    events = g.dice(12, 1, 12, 1).do("melee", unit=0, target=2, weapon=-1)
    assert one(events, "wound_rolled")["wound"] == 12 + 4
    assert g.unit(2).hp == 8 - 2


def test_a_disengaging_model_fights_an_opportunity_attack_with_nk_0() -> None:
    g = acting()
    g.do("contact", unit=0, other=2, touching=True)
    g.dice(1).do("disengage", unit=0)
    events = g.dice(1, 1).do("opportunity_attack", unit=2, weapon=1)
    assert one(events, "melee_fought")["rolls"][0]["totals"] == [5, 1]


def test_opportunity_attacks_answer_a_disengage_only() -> None:
    g = acting()
    g.refused("opportunity_attack", "no_disengage", unit=2, weapon=1)


def test_a_camouflaged_attacker_gets_plus_2_and_is_revealed() -> None:
    anna = soldier("Anna", group_leader=True, camouflage=Camouflage(active=False, level=1))
    g = acting(anna=anna)
    assert totals(g)[0] == 7
    assert not g.unit(0).camouflaged


def test_active_camouflage_gives_one_more() -> None:
    anna = soldier("Anna", group_leader=True, camouflage=Camouflage(active=True, level=1))
    assert totals(acting(anna=anna))[0] == 8


def test_a_charge_that_misses_contact_is_a_move_costing_wk() -> None:
    g = acting()
    g.do("melee", unit=0, target=2, weapon=1, charge=True, reached=False)
    assert g.unit(0).ap == 5 and g.state.last_action is not None
    assert g.state.last_action.kind == "move"


def test_a_melee_weapon_is_needed_for_melee() -> None:
    g = acting(anna=soldier("Anna", group_leader=True, weapons=(replace(KNIFE, range="10/2"),)))
    g.refused("melee", "wrong_weapon", unit=0, target=2, weapon=0)


def test_fire_readiness_is_tested_when_the_model_loses_a_melee() -> None:
    g = ben_waits_ready(acting())
    events = g.dice(12, 1, 12, 1, 12).do("melee", unit=1, target=2, weapon=1)
    assert one(events, "readiness_tested")["passed"] is False
    assert g.unit(2).readiness is None


def test_a_colossus_pays_1_ap_less_with_a_wk_4_or_5_weapon_in_melee_and_reactions() -> None:
    hammer = Weapon("Hammer", 4, "NK", 8, 3)
    anna = colossus("Koloss", group_leader=True, weapons=(hammer,))
    ben = colossus("Riese", group_leader=True, weapons=(replace(hammer, wk=5),))
    g = acting(anna=anna, ben=ben)
    g.dice(1, 12).do("melee", unit=0, target=2, weapon=0)
    assert g.unit(0).ap == 6 - 3
    g.dice(1, 12).do("counter_attack", unit=2, weapon=0)
    assert g.unit(2).ap == 6 - 4
