"""Actions (SPEC §1.4): dodge, readiness and reactions, aim, Wuchtschlag, charge, moves with
falls and dangerous terrain, and disengaging (SPEC §1.5 Lösen).

Plain fighters: Reflex 6, Resistance 3, 6 LP, Gewehr (weapon 0: FK 3, S 3), Klinge (weapon 1:
NK 3, S 3). Anna's units are 0-2, Ben's 3-5; Anna begins."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import pytest

from apps.systems.core.match import Event
from apps.systems.deathmatch.catalog import FighterProfile, Movement
from tests.systems.deathmatch.match.helpers import (
    ENGINE,
    Game,
    default_team,
    of_type,
    one,
    profile,
    setup,
    target,
    types,
    weapon,
)


def declared(events: Sequence[Event]) -> Mapping[str, Any]:
    attack: Mapping[str, Any] = one(events, "attack_declared")["attack"]
    return attack


def with_command(team: list[Any], command: int) -> list[Any]:
    return [replace(p, command=command) if isinstance(p, FighterProfile) else p for p in team]


# --- Ausweichen ---------------------------------------------------------------------------------


def test_dodge_adds_two_reflex_per_action_cumulatively(game: Game) -> None:
    game.activate(0)
    game.end()
    game.activate(3)
    game.do("dodge")
    game.do("dodge")
    assert game.unit(3).dodges == 2
    game.end()
    game.activate(1)
    game.stack(0, [5])
    events = game.do("ranged_attack", targets=[target(3)])
    (aimed_at,) = declared(events)["targets"]
    assert aimed_at["reflex"] == 6 + 4
    assert "dodge +4" in aimed_at["reflex_notes"]
    assert one(events, "hit_resolved")["targets"][0]["outcome"] == "miss"


def test_dodge_lasts_until_the_models_next_activation(game: Game) -> None:
    game.activate(0)
    game.end()
    game.activate(3)
    game.do("dodge")
    game.end()
    game.finish_round()
    game.score()
    game.start_round(starter=1)
    # Still dodging in the next round until it activates again.
    assert game.unit(3).dodges == 1
    game.activate(3)
    assert game.unit(3).dodges == 0


def test_a_stationary_model_cannot_dodge() -> None:
    turret = profile("Anna Turm", abilities=("Stationär",))
    g = Game(setup("last-man-standing", [[turret, *default_team(0)[1:]], default_team(1)]))
    g.to_round_one()
    g.activate(0)
    g.refused("dodge", "stationary")
    g.refused("move", "stationary")
    g.refused("charge", "stationary", weapon=1, targets=[target(3)])
    g.refused("disengage", "stationary", strikes=[])


# --- Bereitschaft and reactions -----------------------------------------------------------------


def test_readiness_is_once_per_activation(game: Game) -> None:
    game.activate(0)
    events = game.do("readiness")
    assert one(events, "readiness_taken") == {"unit": 0, "action": True}
    assert game.unit(0).readiness
    game.refused("readiness", "readiness_once")


def test_readiness_for_a_command_point_at_the_end_of_an_activation() -> None:
    g = Game(setup("last-man-standing", [with_command(default_team(0), 1), default_team(1)]))
    g.to_round_one()
    g.activate(0)
    events = g.end(readiness=True)
    assert one(events, "cp_spent") == {"player": 0, "cp": 1, "reason": "readiness"}
    assert g.unit(0).readiness
    g.activate(3)
    g.end()
    g.activate(1)
    g.do("readiness")
    g.refused("end_activation", "already_ready", readiness=True)


def test_reaction_is_against_the_active_enemy_and_ends_readiness(game: Game) -> None:
    game.activate(0)
    game.do("readiness")
    game.end()
    game.activate(3)
    game.refused("react", "react_target", unit=0, action="ranged_attack", targets=[target(4)])
    game.refused("react", "react_enemy", unit=4, action="dodge")
    game.refused("react", "not_ready", unit=1, action="dodge")
    game.stack(0, [6, 4])
    events = game.do("react", unit=0, action="ranged_attack")
    assert types(events)[:2] == ["readiness_used", "attack_declared"]
    assert declared(events)["reaction"] is True
    assert one(events, "wounded")["damage"] == 4
    assert not game.unit(0).readiness
    # The reaction costs no AP and the activated enemy carries on.
    assert game.state.active == 3 and game.unit(3).ap == 2
    game.refused("react", "not_ready", unit=0, action="dodge")


def test_reaction_dodge_adds_two_reflex(game: Game) -> None:
    game.activate(0)
    game.do("readiness")
    game.end()
    game.activate(3)
    game.do("react", unit=0, action="dodge")
    assert game.unit(0).dodges == 1
    game.stack(1, [5])
    events = game.do("ranged_attack", targets=[target(0)])
    assert declared(events)["targets"][0]["reflex"] == 8


def test_reaction_melee_attack_uses_a_melee_weapon(game: Game) -> None:
    game.activate(0)
    game.do("readiness")
    game.end()
    game.activate(3)
    game.refused("react", "wrong_weapon", unit=0, action="melee_attack", weapon=0)
    game.stack(0, [1])
    events = game.do("react", unit=0, action="melee_attack", weapon=1)
    assert declared(events)["kind"] == "melee"


def test_readiness_ends_in_the_end_phase(game: Game) -> None:
    game.activate(0)
    game.do("readiness")
    game.finish_round()
    assert not game.unit(0).readiness


# --- Zielen -------------------------------------------------------------------------------------


def test_aim_boosts_the_next_ranged_hit_flip_and_lowers_reflex_by_one(game: Game) -> None:
    game.activate(0)
    game.do("aim")
    game.stack(0, [2, 3, 1])
    events = game.do("ranged_attack", targets=[target(3)])
    attack = declared(events)
    assert attack["hit_modifier"] == 1
    assert attack["targets"][0]["reflex"] == 5
    assert "aim -1" in attack["targets"][0]["reflex_notes"]
    # Two cards, the higher counts: 3 + 3 against Reflex 5 hits.
    resolved_target = dict(one(events, "hit_resolved")["targets"][0])
    assert resolved_target.pop("chance") == one(events, "hit_flipped")["odds"][0]["hit"]
    assert resolved_target == {
        "unit": 3,
        "outcome": "hit",
        "crits_auto_hit": 0,
        "crits_boost": 0,
        "card": 3,
        "attack_value": 3,
        "reflex": 5,
    }


def test_aim_is_used_up_by_the_ranged_attack() -> None:
    g = Game(setup("last-man-standing", [default_team(0, lp=20), default_team(1, lp=20)]))
    g.to_round_one()
    g.activate(0)
    g.do("aim")
    g.stack(0, [1, 1])
    g.do("ranged_attack", targets=[target(3)])
    assert not g.unit(0).aim
    g.end()
    g.finish_round()
    g.score()
    g.start_round()
    g.activate(0)
    g.stack(0, [1])
    events = g.do("ranged_attack", targets=[target(3)])
    assert declared(events)["hit_modifier"] == 0
    assert declared(events)["targets"][0]["reflex"] == 6


def test_aim_is_lost_by_any_other_action(game: Game) -> None:
    game.activate(0)
    game.do("aim")
    events = game.do("move")
    assert one(events, "bonus_lost") == {"unit": 0, "bonuses": ["aim"]}
    assert not game.unit(0).aim


def test_aim_is_lost_by_a_melee_attack(game: Game) -> None:
    game.activate(0)
    game.do("aim")
    game.stack(0, [1])
    game.do("melee_attack", weapon=1, targets=[target(3)])
    assert not game.unit(0).aim


def test_aim_survives_readiness_and_boosts_the_reaction_shot(game: Game) -> None:
    game.activate(0)
    game.do("aim")
    game.do("readiness")
    assert game.unit(0).aim
    game.end()
    game.activate(3)
    game.stack(0, [1, 1])
    events = game.do("react", unit=0, action="ranged_attack")
    assert declared(events)["hit_modifier"] == 1
    assert declared(events)["targets"][0]["reflex"] == 5


def test_a_reaction_dodge_loses_aim_and_wuchtschlag(game: Game) -> None:
    # AKTIONEN, Zielen / Wuchtschlag: the bonus is lost as soon as the model "eine andere
    # Aktion außer Fernkampfattacke [Nahkampfattacke] oder Bereitschaft durchführt"; dodging
    # from readiness is such an action.
    game.activate(0)
    game.do("aim")
    game.do("readiness")
    game.end()
    game.activate(3)
    events = game.do("react", unit=0, action="dodge")
    assert one(events, "bonus_lost") == {"unit": 0, "bonuses": ["aim"]}
    assert not game.unit(0).aim and game.unit(0).dodges == 1


def test_aim_is_lost_when_the_model_takes_damage(game: Game) -> None:
    game.activate(0)
    game.do("aim")
    game.end()
    game.activate(3)
    game.stack(1, [5, 1])
    events = game.do("ranged_attack", targets=[target(0)])
    assert one(events, "wounded")["damage"] == 1
    assert one(events, "bonus_lost") == {"unit": 0, "bonuses": ["aim"]}
    assert not game.unit(0).aim


def test_aim_is_kept_when_a_hit_deals_no_damage(game: Game) -> None:
    game.activate(0)
    game.do("aim")
    game.end()
    game.activate(3)
    game.stack(1, [5, 0])
    events = game.do("ranged_attack", targets=[target(0)])
    assert one(events, "wounded")["damage"] == 0
    assert game.unit(0).aim


# --- Wuchtschlag --------------------------------------------------------------------------------


def test_power_strike_adds_one_strength_and_boosts_the_wound_flip(game: Game) -> None:
    game.activate(0)
    game.do("power_strike")
    game.stack(0, [5, 1, 2])
    events = game.do("melee_attack", weapon=1, targets=[target(3)])
    assert declared(events)["power_strike"] is True
    wound = one(events, "wound_flipped")
    assert wound["strength"] == 4
    assert [c["value"] for c in wound["flip"]["cards"]] == [1, 2]
    assert wound["flip"]["modifier"] == 1
    assert one(events, "wounded")["damage"] == 2 + 4 - 3
    assert not game.unit(0).power_strike


def test_power_strike_is_lost_by_a_ranged_attack(game: Game) -> None:
    game.activate(0)
    game.do("power_strike")
    game.stack(0, [1])
    events = game.do("ranged_attack", targets=[target(3)])
    assert one(events, "bonus_lost") == {"unit": 0, "bonuses": ["power_strike"]}
    assert declared(events)["power_strike"] is False


def test_power_strike_is_lost_when_the_model_takes_damage(game: Game) -> None:
    game.activate(0)
    game.do("power_strike")
    game.end()
    game.activate(3)
    game.stack(1, [5, 2])
    game.do("ranged_attack", targets=[target(0)])
    assert not game.unit(0).power_strike


# --- Sturmangriff -------------------------------------------------------------------------------


def test_charge_costs_two_ap_and_boosts_the_wound_flip_on_a_hit(game: Game) -> None:
    game.activate(0)
    game.stack(0, [5, 1, 2])
    events = game.do("charge", weapon=1, targets=[target(3)])
    assert one(events, "ap_spent") == {"unit": 0, "ap": 2}
    assert declared(events)["charge"] is True
    wound = one(events, "wound_flipped")
    assert wound["flip"]["modifier"] == 1
    assert one(events, "wounded")["damage"] == 2


def test_charge_flesh_wound_gets_no_charge_boost(game: Game) -> None:
    # SPEC §6: the charge's ⬠ only "im Falle eines erfolgreichen Treffers" (test_rulings).
    game.activate(0)
    game.stack(0, [3, 4, 1])
    events = game.do("charge", weapon=1, targets=[target(3)])
    assert one(events, "hit_resolved")["targets"][0]["outcome"] == "graze"
    assert one(events, "wound_flipped")["flip"]["modifier"] == -1


def test_charge_attacks_with_a_melee_weapon(game: Game) -> None:
    game.activate(0)
    game.refused("charge", "wrong_weapon", weapon=0, targets=[target(3)])


def test_a_charge_move_falls_and_touches_dangerous_terrain_before_its_attack(game: Game) -> None:
    # AKTIONEN, Sturmangriff: the model "bewegt sich darauf zu" and attacks "im Anschluss an die
    # Bewegung"; BEWEGUNG, Fallen ("jederzeit") and GEFÄHRLICHES GELÄNDE ("am Ende jeder
    # Bewegungsaktion") hurt the mover first (reference: Where the app decides).
    game.activate(0)
    game.stack(1, [2, 2])  # Ben flips the automatic hits: S 3 fall, S 2 terrain
    game.stack(0, [5, 1, 2])
    events = game.do("charge", weapon=1, targets=[target(3)], fall_height=3, dangerous_terrain=True)
    assert one(events, "ap_spent") == {"unit": 0, "ap": 2}
    hits = [e["attack"] for e in of_type(events, "attack_declared")]
    assert [(h["cause"], h["attacker"]) for h in hits] == [
        ("fall", None),
        ("dangerous_terrain", None),
        ("", 0),
    ]
    assert hits[2]["charge"] is True
    assert game.unit(0).lp == 6 - 2 - 1
    assert game.unit(3).lp == 6 - 2 and game.state.attack is None


def test_a_safe_drop_in_a_charge_does_not_hurt(game: Game) -> None:
    game.activate(0)
    game.stack(0, [5, 1, 2])
    events = game.do("charge", weapon=1, targets=[target(3)], fall_height=3, jumped_down=True)
    assert [e["attack"]["cause"] for e in of_type(events, "attack_declared")] == [""]


def test_a_charger_knocked_out_by_its_fall_does_not_attack(game: Game) -> None:
    game.activate(0)
    game.stack(1, [9])
    events = game.do("charge", weapon=1, targets=[target(3)], fall_height=9)
    assert [e["attack"]["cause"] for e in of_type(events, "attack_declared")] == ["fall"]
    assert one(events, "knocked_out")["unit"] == 0
    assert one(events, "charge_dropped") == {"unit": 0}
    assert game.state.attack is None and game.state.charge is None and game.unit(3).lp == 6


def test_a_fall_that_hurts_the_charger_costs_its_wuchtschlag(game: Game) -> None:
    # Wuchtschlag lapses "sobald das Modell Schaden erleidet": the fall comes before the attack.
    game.activate(0)
    game.do("power_strike")
    game.next_round()
    game.activate(0)
    game.stack(1, [2])
    game.stack(0, [5, 1])
    events = game.do("charge", weapon=1, targets=[target(3)], fall_height=3)
    (fall, charge) = [e["attack"] for e in of_type(events, "attack_declared")]
    assert fall["cause"] == "fall" and charge["power_strike"] is False
    assert [w["strength"] for w in of_type(events, "wound_flipped")] == [3, 3]  # fall, Klinge


# --- Bewegung: falls and dangerous terrain ------------------------------------------------------


@pytest.mark.parametrize(
    ("movement", "inches"), [(Movement.NORMAL, 5), (Movement.SLOW, 4), (Movement.FAST, 6)]
)
def test_move_costs_one_ap_and_covers_the_movement_class(movement: Movement, inches: int) -> None:
    anna = [profile("Anna Läufer", movement=movement), *default_team(0)[1:]]
    g = Game(setup("last-man-standing", [anna, default_team(1)]))
    g.to_round_one()
    g.activate(0)
    events = g.do("move")
    assert one(events, "moved") == {"unit": 0, "inches": inches}
    assert g.unit(0).ap == 1


@pytest.mark.parametrize(
    ("fall", "jumped", "hit"),
    [(2, False, False), (3, False, True), (3, True, False), (4, True, True), (6, False, True)],
)
def test_falling_more_than_two_inches_or_jumping_more_than_three_is_an_automatic_hit(
    game: Game, fall: int, jumped: bool, hit: bool
) -> None:
    game.activate(0)
    game.stack(1, [1])
    events = game.do("move", fall_height=fall, jumped_down=jumped)
    if not hit:
        assert of_type(events, "attack_declared") == []
        return
    attack = declared(events)
    assert attack["kind"] == "auto" and attack["cause"] == "fall"
    assert attack["targets"][0]["strength"] == fall
    # No hit flip; the wound flip is the card + S (the fall height) − Resistance.
    assert of_type(events, "hit_flipped") == []
    assert one(events, "wounded")["damage"] == max(0, 1 + fall - 3)


def test_dangerous_terrain_is_an_automatic_hit_of_strength_two(game: Game) -> None:
    game.activate(0)
    game.stack(1, [4])
    events = game.do("move", dangerous_terrain=True)
    assert declared(events)["cause"] == "dangerous_terrain"
    assert dict(one(events, "wounded")) == {
        "unit": 0,
        "target": 0,
        "damage": 4 + 2 - 3,
        "card": 4,
        "strength": 2,
        "resistance": 3,
        "lp": 6 - 3,
        "lp_before": 6,
        "shield_used": False,
    }


def test_a_fall_into_dangerous_terrain_is_two_automatic_hits(game: Game) -> None:
    game.activate(0)
    game.stack(1, [3, 2])
    events = game.do("move", fall_height=4, dangerous_terrain=True)
    assert [d["attack"]["cause"] for d in of_type(events, "attack_declared")] == [
        "fall",
        "dangerous_terrain",
    ]
    assert [d["damage"] for d in of_type(events, "wounded")] == [3 + 4 - 3, 2 + 2 - 3]
    assert game.unit(0).lp == 6 - 4 - 1
    assert game.state.attack is None and game.state.active == 0


# --- Lösen --------------------------------------------------------------------------------------


def test_disengage_strike_is_one_card_never_boosted_and_a_hit_stops_the_move() -> None:
    fencer = profile("Ben Fechter", weapons=(weapon("Rapier", "melee", bonus=2),))
    g = Game(setup("last-man-standing", [default_team(0), [fencer, *default_team(1)[1:]]]))
    g.to_round_one()
    g.activate(0)
    g.stack(1, [3])
    events = g.do("disengage", strikes=[{"striker": 3}])
    assert one(events, "ap_spent") == {"unit": 0, "ap": 1}
    strike = one(events, "strike_flipped")
    assert [c["value"] for c in strike["flip"]["cards"]] == [3]
    assert strike["flip"]["modifier"] == 0
    # 3 + NK 3 equals Reflex 6: a flesh wound counts as a hit and stops the move, no damage.
    assert strike["hits"] is True
    assert one(events, "disengage_resolved") == {"unit": 0, "stopped": True, "by": [3]}
    assert of_type(events, "wounded") == []
    assert g.unit(0).lp == 6


def test_disengage_strike_that_misses_lets_the_model_move_on(game: Game) -> None:
    game.activate(0)
    game.stack(1, [2])
    events = game.do("disengage", strikes=[{"striker": 3}])
    assert one(events, "disengage_resolved") == {"unit": 0, "stopped": False, "by": []}


def test_a_disengage_move_that_goes_on_may_fall_and_touch_dangerous_terrain(game: Game) -> None:
    # NAHKAMPF, Lösen: disengaging is "eine Bewegungsaktion"; GEFÄHRLICHES GELÄNDE hits "am Ende
    # jeder Bewegungsaktion", and a fall from more than 2" is an automatic hit (FALLEN).
    game.activate(0)
    game.stack(1, [2, 2, 3])
    events = game.do("disengage", strikes=[{"striker": 3}], fall_height=3, dangerous_terrain=True)
    assert one(events, "disengage_resolved")["stopped"] is False
    hits = [e["attack"] for e in of_type(events, "attack_declared")]
    assert [(h["cause"], h["targets"][0]["strength"]) for h in hits] == [
        ("fall", 3),
        ("dangerous_terrain", 2),
    ]
    assert game.unit(0).lp == 6 - (2 + 3 - 3) - (3 + 2 - 3)


def test_a_stopped_disengage_move_neither_falls_nor_touches_terrain(game: Game) -> None:
    game.activate(0)
    game.stack(1, [5])
    events = game.do("disengage", strikes=[{"striker": 3}], fall_height=4, dangerous_terrain=True)
    assert one(events, "disengage_resolved")["stopped"] is True
    assert of_type(events, "attack_declared") == [] and game.unit(0).lp == 6


def test_disengage_strike_zero_misses_and_nine_hits(game: Game) -> None:
    game.activate(0)
    game.stack(1, [0, 9])
    events = game.do(
        "disengage",
        strikes=[
            {"striker": 3, "obstacle": True, "friends_engaged": True},
            {"striker": 4, "obstacle": True, "friends_engaged": True},
        ],
    )
    strikes = of_type(events, "strike_flipped")
    assert [s["hits"] for s in strikes] == [False, True]
    assert one(events, "disengage_resolved")["by"] == [4]


def test_disengage_modifiers_raise_the_movers_reflex(game: Game) -> None:
    game.activate(0)
    game.do("dodge")
    game.stack(1, [1])
    events = game.do(
        "disengage",
        strikes=[
            {
                "striker": 3,
                "friends_engaged": True,
                "not_in_contact": True,
                "obstacle": True,
                "several_enemies": True,
                "rear": True,
                "target_elevated": True,
            }
        ],
    )
    (strike,) = one(events, "disengage_declared")["disengage"]["strikes"]
    assert strike["reflex"] == 6 + 2 + 1 + 2 + 2 - 1 - 2 + 1


def test_disengage_warning_costs_the_mover_one_cp() -> None:
    g = Game(setup("last-man-standing", [with_command(default_team(0), 1), default_team(1)]))
    g.to_round_one()
    g.activate(0)
    g.stack(1, [1])
    events = g.do("disengage", strikes=[{"striker": 3, "warning": True}], confirm_flips=False)
    assert one(events, "cp_spent") == {"player": 0, "cp": 1, "reason": "warning"}
    assert one(events, "disengage_declared")["disengage"]["strikes"][0]["reflex"] == 7


def test_disengage_strikers_are_enemies_with_a_control_zone() -> None:
    turret = profile("Ben Turm", abilities=("Stationär",))
    g = Game(setup("last-man-standing", [default_team(0), [turret, *default_team(1)[1:]]]))
    g.to_round_one()
    g.activate(0)
    g.refused("disengage", "bad_striker", strikes=[{"striker": 1}])
    g.refused("disengage", "bad_striker", strikes=[{"striker": 3}])
    g.refused("disengage", "bad_striker", strikes=[{"striker": 4}, {"striker": 4}])
    g.refused("disengage", "wrong_weapon", strikes=[{"striker": 4, "weapon": 0}])


def test_disengage_strike_waits_for_the_strikers_reroll() -> None:
    g = Game(setup("last-man-standing", [default_team(0), with_command(default_team(1), 1)]))
    g.to_round_one()
    g.activate(0)
    g.stack(1, [5, 1])
    g.do("disengage", strikes=[{"striker": 3}])
    assert g.state.disengage is not None
    g.refused("move", "flip_pending")
    events = g.do("reroll", positions=[0])
    assert one(events, "flip_rerolled")["player"] == 1
    assert one(events, "disengage_resolved")["stopped"] is False
    assert g.cp(1) == 2


def test_a_version_1_snapshot_with_the_old_queued_hit_encoding_goes_on() -> None:
    # Before Attack.queued_hits (schema version 1) the next automatic hit was encoded in
    # ``then`` ("auto:<cause>:<strength>[:<then>]"); a snapshot stored so still continues
    # once upgraded.
    teams = [default_team(0), default_team(1, command=1)]  # Ben's flip waits for his decision
    game = Game(setup("last-man-standing", teams))
    game.to_round_one()
    game.activate(0)
    game.stack(1, [3, 2])
    game.do("move", fall_height=4, dangerous_terrain=True)
    attack = game.state.attack
    assert attack is not None and attack.queued_hits == (("dangerous_terrain", 2),)
    data = ENGINE.dump_state(game.state)
    del data["attack"]["queued_hits"]
    data["attack"]["then"] = "auto:dangerous_terrain:2"
    game.state = game.replica = ENGINE.load_state(ENGINE.upgrade_state(data, 1))
    events: list[Event] = []
    while game.state.attack is not None:
        events += game.do("accept")
    assert [d["attack"]["cause"] for d in of_type(events, "attack_declared")] == [
        "dangerous_terrain"
    ]
    assert game.unit(0).lp == 6 - 4 - 1
