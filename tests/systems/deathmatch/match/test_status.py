"""Fighter status (SPEC §1.6): fire, shock, acid and poison markers, knock-outs and who gets the
credit, respawns and respawn shock.

Plain fighters: Reflex 6, Resistance 3, 6 LP, Gewehr (weapon 0: FK 3, S 3), Klinge (weapon 1:
NK 3, S 3). Anna's units are 0-2, Ben's 3-5; Anna begins. A wound flip card c deals c damage."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from apps.systems.core.match import Event
from tests.systems.deathmatch.match.helpers import (
    BLADE,
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
    weapon,
)


def armed(rule: str, *, strength: int = 3) -> list[Member]:
    gun = weapon(rule, rules=[rule], strength=strength)
    return [profile(f"Anna {rule}", weapons=(gun, BLADE)), *default_team(0)[1:]]


def match(
    anna: Sequence[Member] | None = None,
    ben: Sequence[Member] | None = None,
    mode: str = "flag-rush",
) -> Game:
    g = Game(setup(mode, [anna or default_team(0), ben or default_team(1)]))
    g.to_round_one()
    return g


def shoot(g: Game, shooter: int, deck: Sequence[int], victim: int, **args: Any) -> list[Event]:
    if g.state.active is None:
        g.activate(shooter)
    g.stack(g.unit(shooter).player, deck)
    return g.do("ranged_attack", targets=[target(victim)], **args)


def reflex_against(events: Sequence[Event]) -> int:
    attack: Mapping[str, Any] = one(events, "attack_declared")["attack"]
    reflex: int = attack["targets"][0]["reflex"]
    return reflex


# --- Fire ---------------------------------------------------------------------------------------


def test_fire_marker_burns_at_the_end_of_the_next_activation_and_is_removed() -> None:
    g = match(armed("Feuer", strength=0))
    events = shoot(g, 0, [5, 0], 3)
    assert one(events, "wounded")["damage"] == 0
    assert one(events, "marker_added") == {"unit": 3, "marker": "fire", "by": 0}
    g.end()
    g.activate(3)
    g.stack(0, [4])
    events = g.end()
    # A hit of S = 1 (one marker), flipped by the team that set it: 4 + 1 - 3 = 2 damage.
    assert one(events, "markers_cleared") == {"unit": 3, "markers": ["fire"]}
    attack = one(events, "attack_declared")["attack"]
    assert (attack["cause"], attack["player"], attack["targets"][0]["strength"]) == ("fire", 0, 1)
    assert one(events, "wounded")["damage"] == 2
    assert g.unit(3).markers.fire == 0 and g.unit(3).lp == 4
    assert events[-1].type == "turn_changed"


def test_a_marker_taken_in_the_models_own_activation_acts_after_its_next_one() -> None:
    # "Am Ende seiner nächsten Aktivierung": a fire marker set by a readiness reaction while the
    # model is activated burns at the end of its next activation, not of this one (the app's
    # decision, reference "Where the app decides").
    burner = weapon("Flammer", rules=["Feuer"], strength=0)
    ben = [profile("Ben Feuer", weapons=(burner, BLADE)), *default_team(1)[1:]]
    g = match(ben=ben)
    g.activate(0)
    g.end()
    g.activate(3)
    g.do("readiness")
    g.end()
    g.activate(1)
    g.stack(1, [5, 0])
    g.do("react", unit=3, action="ranged_attack", targets=[target(1)])
    assert g.unit(1).markers.fire == 1
    events = g.end()
    assert of_type(events, "attack_declared") == [] and g.unit(1).markers.fire == 1
    g.next_round()
    g.activate(1)
    g.stack(1, [4])
    events = g.end()
    attack = one(events, "attack_declared")["attack"]
    assert (attack["cause"], attack["player"], attack["targets"][0]["strength"]) == ("fire", 1, 1)
    assert g.unit(1).markers.fire == 0 and g.unit(1).lp == 6 - (4 + 1 - 3)


def test_markers_are_capped_at_three() -> None:
    g = match(armed("Feuer", strength=0))
    g.do("adjust", unit=3, fire=3)
    events = shoot(g, 0, [5, 0], 3)
    assert of_type(events, "marker_added") == []
    assert g.unit(3).markers.fire == 3


def test_fire_knock_out_is_credited_to_the_team_that_set_the_fire() -> None:
    g = match(armed("Feuer", strength=0))
    shoot(g, 0, [5, 0], 3)
    g.end()
    g.activate(3)
    g.do("adjust", unit=3, lp=1)
    g.stack(0, [9])
    events = g.end()
    assert one(events, "knocked_out") == {"unit": 3, "credit": [0], "cause": "fire", "by": None}
    assert g.vp(0) == 1


def test_fire_set_by_two_teams_is_an_unclear_knock_out() -> None:
    flamer = profile(
        "Ben Flammenwerfer",
        weapons=(weapon("Flamme", rules=["Feuer", "Sprühangriff"], strength=0), BLADE),
    )
    g = match(armed("Feuer", strength=0), [flamer, *default_team(1)[1:]])
    shoot(g, 0, [5, 0], 4)
    g.end()
    g.activate(3)
    g.stack(1, [5, 0, 0])
    # Ben's spray catches his own trooper too.
    g.do("ranged_attack", targets=[target(0), target(4)])
    assert g.unit(4).markers.fire_by == (0, 1)
    g.end()
    g.activate(1)
    g.end()
    g.activate(4)
    g.do("adjust", unit=4, lp=1)
    g.stack(0, [9])
    g.stack(1, [9])
    events = g.end()
    assert one(events, "knocked_out")["credit"] == []
    assert (g.vp(0), g.vp(1)) == (0, 0)


# --- Shock --------------------------------------------------------------------------------------


def test_shock_lowers_reflex_and_combat_values_until_the_end_of_the_next_activation() -> None:
    g = match(armed("Schock", strength=0))
    shoot(g, 0, [5, 0], 3)
    g.end()
    g.activate(3)
    assert g.unit(3).markers.shock == 1
    g.stack(1, [1])
    events = g.do("ranged_attack", targets=[target(0)])
    assert one(events, "attack_declared")["attack"]["targets"][0]["attack_value"] == 2
    events = g.end()
    assert one(events, "markers_cleared") == {"unit": 3, "markers": ["shock"]}
    g.activate(1)
    events = shoot(g, 1, [1], 3)
    assert reflex_against(events) == 6


def test_shock_lowers_the_target_reflex() -> None:
    g = match(armed("Schock", strength=0))
    g.do("adjust", unit=3, shock=2)
    events = shoot(g, 0, [1], 3)
    assert reflex_against(events) == 4
    assert "shock -2" in one(events, "attack_declared")["attack"]["targets"][0]["reflex_notes"]


def test_shock_lowers_no_value_below_zero() -> None:
    weak = profile("Ben Schwach", reflex=2, weapons=(weapon("Pistole", value=1), BLADE))
    g = match(ben=[weak, *default_team(1)[1:]])
    g.do("adjust", unit=3, shock=3)
    events = shoot(g, 0, [1], 3)
    assert reflex_against(events) == 0
    g.end()
    g.activate(3)
    g.stack(1, [1])
    events = g.do("ranged_attack", targets=[target(0)])
    assert one(events, "attack_declared")["attack"]["targets"][0]["attack_value"] == 0


# --- Acid ---------------------------------------------------------------------------------------


def test_acid_lowers_resistance_for_the_rest_of_the_game_but_not_below_one() -> None:
    g = match(armed("Säure", strength=0))
    events = shoot(g, 0, [5, 1], 3)
    assert one(events, "marker_added")["marker"] == "acid"
    g.end()
    g.activate(3)
    g.end()
    assert g.unit(3).markers.acid == 1
    g.activate(1)
    events = shoot(g, 1, [5, 1], 3)
    assert one(events, "wound_flipped")["resistance"] == 2
    g.do("adjust", unit=3, acid=3)
    g.end()
    g.activate(4)
    g.end()
    g.activate(2)
    events = shoot(g, 2, [5, 1], 3)
    assert one(events, "wound_flipped")["resistance"] == 1


# --- Poison -------------------------------------------------------------------------------------


def test_poison_marker_only_when_the_poisoned_weapon_deals_damage() -> None:
    g = match(armed("Gift", strength=0))
    events = shoot(g, 0, [5, 2], 3)
    assert one(events, "wounded")["damage"] == 0
    assert of_type(events, "marker_added") == []
    events = shoot(g, 0, [5, 5], 3)
    assert one(events, "wounded")["damage"] == 2
    assert one(events, "marker_added") == {"unit": 3, "marker": "poison", "by": 0}


def test_poison_costs_one_lp_per_marker_then_one_marker_goes() -> None:
    g = match()
    g.do("adjust", unit=3, poison=2)
    g.activate(0)
    g.end()
    g.activate(3)
    events = g.end()
    assert one(events, "poison_resolved") == {"unit": 3, "lp": 2}
    assert g.unit(3).lp == 4 and g.unit(3).markers.poison == 1


def test_life_points_lost_to_poison_end_aim_and_wuchtschlag() -> None:
    # Zielen / Wuchtschlag are lost "sobald das Modell Schaden erleidet"; a poison marker's lost
    # LP is damage too (reference "Where the app decides").
    g = match()
    g.do("adjust", unit=3, poison=1)
    g.activate(0)
    g.end()
    g.activate(3)
    g.do("aim")
    events = g.end()
    assert one(events, "bonus_lost") == {"unit": 3, "bonuses": ["aim"]}
    assert not g.unit(3).aim and g.unit(3).lp == 5


def test_poison_knock_out_is_credited_to_the_poisoner() -> None:
    g = match(armed("Gift", strength=3))
    shoot(g, 0, [5, 5], 3)
    assert g.unit(3).lp == 1 and g.unit(3).markers.poison == 1
    g.end()
    g.activate(3)
    events = g.end()
    assert one(events, "knocked_out") == {"unit": 3, "credit": [0], "cause": "poison", "by": None}
    assert g.vp(0) == 1


# --- Knock-out credit ---------------------------------------------------------------------------


def test_knock_out_by_an_attack_is_credited_to_the_attacker() -> None:
    g = match()
    events = shoot(g, 0, [5, 9], 3)
    assert one(events, "knocked_out") == {"unit": 3, "credit": [0], "cause": "attack", "by": 0}
    assert one(events, "vp_scored") == {
        "player": 0,
        "points": 1,
        "reason": "knock_out",
        "detail": "Ben Anführer",
    }


def test_knock_out_by_a_reaction_is_credited_to_the_reactor() -> None:
    g = match()
    g.activate(0)
    g.do("readiness")
    g.end()
    g.activate(3)
    g.stack(0, [5, 9])
    events = g.do("react", unit=0, action="ranged_attack")
    assert one(events, "knocked_out")["credit"] == [0]


def test_self_inflicted_knock_out_by_a_fall_is_credited_to_the_opponent() -> None:
    g = match()
    g.activate(0)
    g.stack(1, [9])
    events = g.do("move", fall_height=5)
    assert one(events, "knocked_out") == {"unit": 0, "credit": [1], "cause": "fall", "by": None}
    assert (g.vp(0), g.vp(1)) == (0, 1)


def test_self_inflicted_knock_out_with_more_players_is_credited_to_every_opponent() -> None:
    g = Game(setup("mp-deathmatch"))
    g.to_round_one()
    g.activate(0)
    g.stack(1, [9])
    events = g.do("move", fall_height=5)
    assert one(events, "knocked_out")["credit"] == [1, 2]
    assert [g.vp(p) for p in range(3)] == [0, 2, 2]


def test_unclear_knock_out_is_credited_to_nobody() -> None:
    g = match()
    events = g.do("adjust", unit=3, lp=0)
    assert one(events, "knocked_out") == {"unit": 3, "credit": [], "cause": "adjusted", "by": None}
    assert (g.vp(0), g.vp(1)) == (0, 0)


# --- Respawn ------------------------------------------------------------------------------------


def test_respawn_removes_markers_keeps_equipment_and_loses_ap() -> None:
    ben = [F(profile("Ben Anführer"), (item("panzerplatten"),)), *default_team(1)[1:]]
    g = match(ben=ben)
    g.do("adjust", unit=3, fire=2, acid=1, shock=1, poison=1)
    events = shoot(g, 0, [5, 9], 3)
    assert one(events, "respawned") == {"unit": 3}
    ben_leader = g.unit(3)
    assert ben_leader.lp == 6 and not ben_leader.markers.any
    assert [i.slug for i in ben_leader.items] == ["panzerplatten"]
    assert ben_leader.respawns == 1 and ben_leader.ap == 0 and ben_leader.in_play


def test_a_model_knocked_out_in_its_own_activation_loses_its_remaining_ap() -> None:
    g = match()
    g.activate(0)
    g.end()
    g.activate(3)
    g.stack(0, [9])
    events = g.do("move", fall_height=6)
    assert one(events, "activation_ended") == {"unit": 3, "reason": "knocked_out"}
    assert g.unit(3).ap == 0 and g.state.turn == 0


def test_respawn_shock_lowers_reflex_and_the_red_combat_values() -> None:
    red = profile("Ben Rot", red=("weapon:0",))
    g = match(ben=[red, *default_team(1)[1:]])
    shoot(g, 0, [5, 9], 3)
    g.end()
    g.activate(4)
    g.end()
    g.activate(1)
    events = shoot(g, 1, [1], 3)
    assert reflex_against(events) == 5
    assert (
        "respawn_shock -1" in one(events, "attack_declared")["attack"]["targets"][0]["reflex_notes"]
    )
    g.end()
    g.finish_round()
    g.score()
    g.start_round(starter=1)
    g.activate(3)
    g.stack(1, [1])
    events = g.do("ranged_attack", targets=[target(0)])
    assert one(events, "attack_declared")["attack"]["targets"][0]["attack_value"] == 2
    g.stack(1, [1])
    events = g.do("melee_attack", weapon=1, targets=[target(0)])
    assert one(events, "attack_declared")["attack"]["targets"][0]["attack_value"] == 3


def test_mech_ignores_respawn_shock() -> None:
    mech = profile("Ben Mech", abilities=("Mech",), red=("weapon:0",))
    g = match(ben=[mech, *default_team(1)[1:]])
    shoot(g, 0, [5, 9], 3)
    assert g.unit(3).respawns == 1
    g.end()
    g.activate(4)
    g.end()
    g.activate(1)
    events = shoot(g, 1, [1], 3)
    assert reflex_against(events) == 6


@pytest.mark.parametrize(
    ("mode", "respawner", "knock_outs", "in_play"),
    [
        ("flag-rush", True, 1, True),
        ("flag-rush", True, 2, False),
        ("flag-rush", False, 1, False),
        ("last-man-standing", True, 1, False),
        ("deathmatch", False, 3, True),
    ],
)
def test_respawns_by_mode_and_respawner(
    mode: str, respawner: bool, knock_outs: int, in_play: bool
) -> None:
    ben = [profile("Ben Anführer", respawner=respawner), *default_team(1)[1:]]
    g = match(ben=ben, mode=mode)
    g.activate(0)
    for _ in range(knock_outs):
        g.do("adjust", unit=3, lp=0)
    assert g.unit(3).in_play is in_play
    assert g.unit(3).out is not in_play
