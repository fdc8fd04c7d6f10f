"""Gadgets and power-ups (SPEC §1.7): choosing and flipping options, the stations (healing,
shield, Durchschlag, Schimmer, Stim, Erlöser), drones and defence systems.

Plain fighters: Reflex 6, Resistance 3, 6 LP, Gewehr (weapon 0: FK 3, S 3), Klinge (weapon 1:
NK 3, S 3). Anna's units are 0-2, Ben's 3-5; drones and defence systems follow (Anna's pick
first: Anna's copy, then Ben's). Station ids: G1, G2, ... in the same order."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from apps.systems.core.match import Event
from apps.systems.deathmatch.catalog import ItemKind
from apps.systems.deathmatch.match.state import Phase, UnitKind
from tests.systems.deathmatch.match.helpers import (
    F,
    Game,
    Member,
    default_team,
    item,
    of_type,
    one,
    profile,
    setup,
    target,
    types,
)


def with_gadgets(
    anna: int,
    ben: int,
    *,
    teams: Sequence[Sequence[Member]] | None = None,
    mode: str = "flag-rush",
    command: int = 0,
) -> Game:
    if teams is None:
        teams = [default_team(p, command=command) for p in (0, 1)]
    g = Game(setup(mode, teams, gadgets=True))
    g.do("choose_gadget", player=0, option=anna)
    g.do("choose_gadget", player=1, option=ben)
    g.to_round_one()
    return g


def declared(events: Sequence[Event]) -> Mapping[str, Any]:
    attack: Mapping[str, Any] = one(events, "attack_declared")["attack"]
    return attack


# --- Choosing ---------------------------------------------------------------------------------


def test_each_player_receives_one_of_every_chosen_option() -> None:
    g = Game(setup("flag-rush", gadgets=True))
    assert g.state.awaiting == "gadgets"
    g.refused("deployment_flip", "not_now")
    g.do("choose_gadget", player=0, option=1)
    g.refused("choose_gadget", "gadget_chosen", player=0, option=4)
    events = g.do("choose_gadget", player=1, option=4)
    placed = one(events, "gadgets_placed")
    assert [(x["id"], x["option"], x["owner"]) for x in placed["gadgets"]] == [
        ("G1", 1, 0),
        ("G2", 1, 1),
        ("G3", 4, 0),
        ("G4", 4, 1),
    ]
    assert g.state.awaiting == "deployment_flip"


def test_a_gadget_can_be_flipped_at_random() -> None:
    g = Game(setup("flag-rush", gadgets=True))
    g.stack(0, [7])
    events = g.do("flip_gadget", player=0)
    assert one(events, "gadget_chosen")["option"] == 7
    assert g.state.players[0].gadget == 7


def test_the_players_may_play_without_gadgets() -> None:
    g = Game(setup("flag-rush", gadgets=True))
    g.do("skip_gadgets")
    assert g.state.gadgets == () and g.state.awaiting == "deployment_flip"


def test_teleport_and_jump_fields_need_no_bookkeeping() -> None:
    g = with_gadgets(0, 2)
    g.activate(0)
    g.refused("touch_gadget", "nothing_to_track", unit=0, gadget="G1")
    g.refused("touch_gadget", "nothing_to_track", unit=0, gadget="G2")


# --- Stations -----------------------------------------------------------------------------------


def test_healing_station_restores_1d5_lost_lp_to_the_first_model() -> None:
    g = with_gadgets(1, 4)
    g.do("adjust", unit=0, lp=1)
    g.do("adjust", unit=1, lp=5)
    g.activate(0)
    events = g.do("touch_gadget", unit=0, gadget="G1")
    roll = one(events, "gadget_used")["roll"]
    assert 1 <= roll <= 5 and g.unit(0).lp == 1 + roll
    g.refused("touch_gadget", "gadget_used", unit=1, gadget="G1")
    g.end()
    g.activate(3)
    g.end()
    g.activate(1)
    events = g.do("touch_gadget", unit=1, gadget="G2")
    # Never above the model's LP.
    assert g.unit(1).lp == 6


def test_healing_rolls_come_from_the_seeded_random_source() -> None:
    rolls = set()
    for seed in range(12):
        g = Game(setup("flag-rush", gadgets=True), seed=seed)
        g.do("choose_gadget", player=0, option=1)
        g.do("choose_gadget", player=1, option=1)
        g.to_round_one()
        g.do("adjust", unit=0, lp=1)
        g.activate(0)
        rolls.add(one(g.do("touch_gadget", unit=0, gadget="G1"), "gadget_used")["roll"])
    assert rolls == {1, 2, 3, 4, 5}


def test_energy_shield_adds_three_resistance_against_the_next_hit() -> None:
    g = with_gadgets(4, 1)
    g.activate(0)
    g.end()
    g.activate(3)
    g.do("touch_gadget", unit=3, gadget="G1")
    assert g.unit(3).shields == 1
    g.end()
    g.activate(1)
    g.stack(0, [5, 6, 5, 6])
    events = g.do("ranged_attack", targets=[target(3)])
    assert one(events, "wound_flipped")["resistance"] == 6
    assert one(events, "wounded")["shield_used"] is True and g.unit(3).shields == 0
    events = g.do("ranged_attack", targets=[target(3)])
    assert one(events, "wound_flipped")["resistance"] == 3


def test_durchschlag_adds_two_strength_to_the_next_attack() -> None:
    g = with_gadgets(5, 1)
    g.activate(0)
    g.do("touch_gadget", unit=0, gadget="G1")
    g.stack(0, [5, 1, 5, 1])
    events = g.do("melee_attack", weapon=1, targets=[target(3)])
    assert one(events, "penetration_used") == {"unit": 0, "melee": True}
    assert one(events, "wound_flipped")["strength"] == 5
    events = g.do("ranged_attack", targets=[target(3)])
    assert one(events, "wound_flipped")["strength"] == 3


def test_schimmer_adds_three_reflex_against_the_next_ranged_attack() -> None:
    g = with_gadgets(6, 1)
    g.activate(0)
    g.end()
    g.activate(3)
    g.do("touch_gadget", unit=3, gadget="G1")
    g.end()
    g.activate(1)
    g.stack(0, [1, 1, 1])
    events = g.do("melee_attack", weapon=1, targets=[target(3)])
    assert declared(events)["targets"][0]["reflex"] == 6
    assert g.unit(3).shimmer
    events = g.do("ranged_attack", targets=[target(3)])
    assert declared(events)["targets"][0]["reflex"] == 9
    assert "shimmer +3" in declared(events)["targets"][0]["reflex_notes"]
    assert not g.unit(3).shimmer


def test_schimmer_does_not_combine_with_a_tarnfeld() -> None:
    cloaked = F(profile("Anna Anführer"), (item("tarnfeld", kind=ItemKind.ARMOUR_UPGRADE),))
    g = with_gadgets(6, 1, teams=[[cloaked, *default_team(0)[1:]], default_team(1)])
    g.activate(0)
    g.refused("touch_gadget", "shimmer_tarnfeld", unit=0, gadget="G1")


def test_stim_terminal_gives_one_ap_at_once() -> None:
    g = with_gadgets(7, 1)
    g.activate(0)
    g.do("move")
    g.do("touch_gadget", unit=0, gadget="G1")
    assert g.unit(0).ap == 2
    g.do("move")
    g.do("move")
    g.refused("move", "not_enough_ap")


def test_a_wuchtschlag_before_a_charge_carries_into_its_melee_attack() -> None:
    # With the Stim-Terminal's extra AP a model can prepare a Wuchtschlag (1 AP) and charge
    # (2 AP): the charge's free attack is its next melee attack, +1 S and ⬠ from each (the
    # app's decision, reference "Where the app decides").
    g = with_gadgets(7, 1)
    g.activate(0)
    g.do("touch_gadget", unit=0, gadget="G1")
    g.do("power_strike")
    g.stack(0, [5, 1, 2, 3])
    events = g.do("charge", weapon=1, targets=[target(3)])
    assert declared(events)["power_strike"] is True
    wound = one(events, "wound_flipped")
    assert (wound["strength"], wound["flip"]["modifier"]) == (3 + 1, 2)
    assert one(events, "wounded")["damage"] == 3 + 4 - 3
    assert g.unit(0).ap == 0 and not g.unit(0).power_strike


def test_power_ups_are_lost_on_respawn() -> None:
    g = with_gadgets(4, 5)
    g.activate(0)
    g.do("touch_gadget", unit=0, gadget="G1")
    g.do("touch_gadget", unit=0, gadget="G3")
    assert g.unit(0).shields == 1 and g.unit(0).penetration
    g.do("adjust", unit=0, lp=0)
    assert g.unit(0).respawns == 1
    assert g.unit(0).shields == 0 and not g.unit(0).penetration


# --- Erlöser ------------------------------------------------------------------------------------


def test_erloeser_is_active_only_in_rounds_two_and_four() -> None:
    g = with_gadgets(8, 1)
    g.activate(0)
    g.refused("touch_gadget", "gadget_inactive", unit=0, gadget="G1")
    g.next_round()
    assert g.state.round == 2
    g.activate(0)
    events = g.do("touch_gadget", unit=0, gadget="G1")
    assert one(events, "gadget_used")["effect"] == "erloeser"
    assert g.unit(0).erloeser
    g.end()
    g.activate(3)
    g.refused("touch_gadget", "gadget_used", unit=3, gadget="G1")
    g.next_round()
    assert g.state.round == 3
    g.activate(0)
    g.refused("touch_gadget", "gadget_inactive", unit=1, gadget="G1")
    g.next_round()
    g.activate(1)
    g.do("touch_gadget", unit=1, gadget="G1")


def test_erloeser_shot_is_explosive_area_and_schwerfaellig() -> None:
    g = with_gadgets(8, 1)
    g.next_round()
    g.activate(0)
    g.do("touch_gadget", unit=0, gadget="G1")
    erloeser = len(g.unit(0).weapons)
    g.stack(0, [4, 1, 1])
    events = g.do("ranged_attack", weapon=erloeser, targets=[target(3), target(4)])
    assert one(events, "ap_spent") == {"unit": 0, "ap": 2}
    assert one(events, "erloeser_fired") == {"unit": 0}
    attack = declared(events)
    assert attack["weapon"]["name"] == "Erlöser" and attack["weapon_index"] == erloeser
    assert [t["attack_value"] for t in attack["targets"]] == [2, 2]
    assert [w["strength"] for w in of_type(events, "wound_flipped")] == [5, 5]
    assert not g.unit(0).erloeser
    g.end()
    g.activate(3)
    g.refused("ranged_attack", "invalid_args", weapon=erloeser, targets=[target(0)])


def test_erloeser_shot_is_not_allowed_in_readiness() -> None:
    g = with_gadgets(8, 1)
    g.next_round()
    g.activate(0)
    g.do("touch_gadget", unit=0, gadget="G1")
    g.do("readiness")
    g.end()
    g.activate(3)
    erloeser = len(g.unit(0).weapons)
    g.refused("react", "unwieldy_reaction", unit=0, action="ranged_attack", weapon=erloeser)


# --- Drones -------------------------------------------------------------------------------------


def test_drones_activate_first_in_initiative_order() -> None:
    """Drones go in initiative order (the initiative winner's first), whoever starts the
    round's activations."""
    g = Game(setup("flag-rush", gadgets=True))
    g.do("choose_gadget", player=0, option=9)
    g.do("choose_gadget", player=1, option=1)
    g.to_round_one(winner=1, starter=0)
    assert [u.kind for u in g.state.units[6:]] == [UnitKind.DRONE, UnitKind.DRONE]
    assert (g.unit(6).player, g.unit(7).player) == (0, 1)
    assert g.state.phase is Phase.DRONES and g.state.turn == 1
    g.refused("activate", "drones_first", unit=3)
    events = g.activate(7)
    assert one(events, "unit_activated") == {"unit": 7, "ap": 2}
    g.end()
    assert g.state.turn == 0
    g.refused("activate", "drones_first", unit=0)
    g.activate(6)
    events = g.end()
    assert types(events)[-2:] == ["phase_changed", "turn_changed"]
    assert g.state.phase is Phase.ACTIVATION and g.state.turn == 0


def test_drones_give_no_command_points_and_use_none() -> None:
    g = Game(setup("flag-rush", [default_team(p, command=1) for p in (0, 1)], gadgets=True))
    g.do("choose_gadget", player=0, option=9)
    g.do("choose_gadget", player=1, option=1)
    g.to_round_one()
    assert g.cp(0) == 3
    g.activate(6)
    g.refused("end_activation", "no_command_points", readiness=True)
    # Its shot never waits for a reroll with the team's command points.
    g.stack(0, [2, 4])
    events = g.do("ranged_attack", targets=[target(3)])
    assert types(events)[-1] == "attack_finished"
    assert g.cp(0) == 3
    g.end()
    g.activate(7)
    g.end()
    g.activate(0)
    g.end()
    g.activate(3)
    g.stack(1, [1])
    g.refused("ranged_attack", "warning_team_only", targets=[target(6, warning=True)])


def test_a_disengaging_drone_cannot_be_warned_with_command_points() -> None:
    # GADGETS, A-18 Drohne: it "profitiert nicht von Kommandopunkten": no Warnung for it,
    # neither against an attack nor against a disengage strike.
    g = Game(setup("flag-rush", [default_team(p, command=1) for p in (0, 1)], gadgets=True))
    g.do("choose_gadget", player=0, option=9)
    g.do("choose_gadget", player=1, option=1)
    g.to_round_one()
    g.activate(6)
    g.refused("disengage", "warning_team_only", strikes=[{"striker": 3, "warning": True}])
    assert g.cp(0) == 3


def test_drone_profile_and_weapon() -> None:
    g = with_gadgets(9, 9)
    drone = g.unit(6)
    assert (drone.profile.reflex, drone.profile.resistance, drone.lp) == (9, 4, 3)
    assert not drone.profile.respawner and drone.profile.move_inches == 6
    (pistol,) = drone.weapons
    assert (pistol.name, pistol.range_inches, pistol.combat_value, pistol.bonus_cards) == (
        "Markerpistole",
        10,
        2,
        1,
    )
    # Both chose the drone: one each (SPEC §6, test_rulings).
    assert [u.kind for u in g.state.units[6:]] == [UnitKind.DRONE] * 2


def test_destroyed_drone_does_not_respawn_and_gives_no_knock_out_vp() -> None:
    g = with_gadgets(9, 1)
    g.activate(6)
    g.end()
    g.activate(7)
    g.end()
    g.activate(0)
    events = g.do("adjust", unit=7, lp=0)
    assert one(events, "removed") == {"unit": 7}
    assert g.vp(0) == 0 and g.unit(7).out


# --- Defence systems ----------------------------------------------------------------------------


def test_defence_system_gets_readiness_every_start_phase_and_reacts_with_shots() -> None:
    g = with_gadgets(3, 1)
    defence = g.unit(6)
    assert defence.kind is UnitKind.DEFENCE and defence.stationary
    assert defence.readiness and g.unit(7).readiness
    g.refused("activate", "cannot_activate", unit=6)
    g.activate(0)
    g.end()
    g.activate(3)
    g.refused("react", "defence_ranged_only", unit=6, action="dodge")
    g.stack(0, [4, 1])
    events = g.do("react", unit=6, action="ranged_attack")
    attack = declared(events)
    assert attack["weapon"]["name"] == "Minigun" and attack["hit_modifier"] == 1
    assert not g.unit(6).readiness
    g.finish_round()
    g.score()
    g.start_round()
    assert g.unit(6).readiness


def test_defence_system_is_stationary_with_reflex_three_and_no_respawn() -> None:
    g = with_gadgets(3, 1)
    g.activate(0)
    g.stack(0, [1, 0, 9, 9])
    events = g.do("ranged_attack", targets=[target(7)])
    assert declared(events)["targets"][0]["reflex"] == 3
    events = g.do("melee_attack", weapon=1, targets=[target(7)])
    assert declared(events)["targets"][0]["auto_hit"] is True
    assert g.unit(7).out


@pytest.mark.parametrize("option", [1, 4, 5, 6, 7])
def test_stations_serve_the_first_model_per_turn(option: int) -> None:
    g = with_gadgets(option, 1)
    g.activate(0)
    g.do("touch_gadget", unit=0, gadget="G1")
    g.refused("touch_gadget", "gadget_used", unit=1, gadget="G1")
