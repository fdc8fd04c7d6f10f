"""Game modes (SPEC §1.8): for every one of the 15 modes a scripted game that reaches its end
condition with the right winner, and the tie rules.

Plain fighters: Reflex 6, Resistance 3, 6 LP, Gewehr (weapon 0: FK 3, S 3). Anna's units are
0-2, Ben's 3-5, Cleo's 6-8; Anna begins every round. ``kill`` shoots with a hit (5) and a
wound of 9: a knock-out of any plain fighter."""

from __future__ import annotations

from typing import Any

import pytest

from apps.systems.core.match import Event
from apps.systems.deathmatch.match.modes import MODES, flag_rush_targets, mode_by_slug
from apps.systems.deathmatch.match.state import ObjectiveState, Phase, UnitKind
from tests.systems.deathmatch.match.helpers import (
    ENGINE,
    Game,
    default_team,
    of_type,
    one,
    profile,
    setup,
    target,
    weapon,
)


def start(mode: str, *, teams: Any = None, **round_one: Any) -> Game:
    g = Game(setup(mode, teams))
    g.to_round_one(**round_one)
    return g


def kill(g: Game, victim: int) -> list[Event]:
    """The activated unit knocks ``victim`` out with a ranged attack."""
    assert g.state.active is not None
    g.stack(g.unit(g.state.active).player, [5, 9])
    return g.do("ranged_attack", targets=[target(victim)], confirm_flips=False)


def play_until_over(g: Game, *, most: int = 10, **score: Any) -> None:
    for _ in range(most):
        if g.state.phase is Phase.OVER:
            return
        if g.state.awaiting == "initiative":
            g.start_round()
        g.next_round(**score)
    raise AssertionError(f"the game did not end by round {g.state.round}")


def result(g: Game) -> dict[str, Any] | None:
    return ENGINE.result(g.state)


def test_there_are_fifteen_modes() -> None:
    assert len(MODES) == 15
    assert sorted(m.number for m in MODES if m.number is not None) == list(range(10))


# --- 0 Last Man Standing ------------------------------------------------------------------------


def test_last_man_standing_ends_the_moment_a_team_has_no_model_left() -> None:
    g = start("last-man-standing")
    g.activate(0)
    kill(g, 3)
    kill(g, 4)
    assert g.unit(3).out and g.unit(4).out  # no respawns
    g.end()
    g.activate(5)
    g.end()
    g.activate(1)
    events = kill(g, 5)
    assert one(events, "player_eliminated") == {"player": 1}
    assert g.state.phase is Phase.OVER
    assert result(g) == {"winners": [0], "draw": False, "reason": "wiped_out", "vp": [0, 0]}
    g.refused("end_activation", "game_over")
    g.assert_replays()


def test_last_man_standing_has_no_round_limit() -> None:
    g = start("last-man-standing")
    for _ in range(7):
        g.next_round()
    assert g.state.round == 8 and g.state.phase is Phase.ACTIVATION


# --- 1 Deathmatch -------------------------------------------------------------------------------


def test_deathmatch_knock_outs_give_the_opponent_two_vp_with_unlimited_respawns() -> None:
    g = start("deathmatch")
    g.activate(0)
    kill(g, 5)
    kill(g, 5)
    assert g.unit(5).in_play and g.unit(5).respawns == 2
    g.do("adjust", unit=1, lp=0)
    # Every knock-out, even one nobody caused, gives the victim's opponent 2 VP.
    assert (g.vp(0), g.vp(1)) == (4, 2)


def test_deathmatch_reaching_the_target_finishes_the_round_then_the_most_vp_win() -> None:
    g = start("deathmatch")
    g.activate(0)
    kill(g, 3)
    kill(g, 3)
    g.end()
    g.activate(4)
    g.end()
    g.activate(1)
    kill(g, 5)
    kill(g, 5)
    g.end()
    # Ben has nothing left to activate: Anna goes on.
    g.activate(2)
    events = kill(g, 4)
    assert one(events, "target_reached") == {"player": 0, "target": 9, "together": False}
    assert g.state.game_ending and g.state.phase is Phase.ACTIVATION
    g.end()
    g.score(focal_points={"A": 1})
    assert result(g) == {"winners": [0], "draw": False, "reason": "vp_target", "vp": [10, 1]}
    g.assert_replays()


def _eight_all(g: Game) -> None:
    """Round 1: Anna and Ben each knock out four enemies (8 VP each)."""
    g.activate(0)
    kill(g, 5)
    kill(g, 5)
    g.end()
    g.activate(3)
    kill(g, 2)
    kill(g, 2)
    g.end()
    g.activate(1)
    kill(g, 5)
    kill(g, 5)
    g.end()
    g.activate(4)
    kill(g, 2)
    kill(g, 2)
    g.end()
    assert g.state.awaiting == "score"
    assert (g.vp(0), g.vp(1)) == (8, 8)


def test_deathmatch_tie_goes_to_who_reached_the_target_first() -> None:
    g = start("deathmatch")
    _eight_all(g)
    g.score()
    g.start_round()
    g.activate(0)
    kill(g, 5)
    g.end()
    g.activate(3)
    kill(g, 2)
    assert g.state.target_reached == (0, 1)
    g.end()
    g.finish_round()
    g.score()
    assert result(g) == {"winners": [0], "draw": False, "reason": "vp_target", "vp": [10, 10]}


def test_deathmatch_tie_is_a_draw_when_both_reach_the_target_at_round_end() -> None:
    g = start("deathmatch")
    _eight_all(g)
    events = g.score(focal_points={"A": 0, "B": 1})
    assert [e["together"] for e in of_type(events, "target_reached")] == [True, True]
    assert result(g) == {"winners": [0, 1], "draw": True, "reason": "vp_target", "vp": [9, 9]}


# --- 2 Conquest ---------------------------------------------------------------------------------


def test_conquest_ends_in_the_end_phase_of_the_round_with_thirteen_vp() -> None:
    g = start("conquest")
    assert g.unit(3).vip and g.unit(0).vip
    g.activate(0)
    g.do("activate_switch", objective="A")
    g.do("activate_switch", objective="B")
    g.end()
    g.activate(3)
    g.end()
    g.activate(1)
    g.do("activate_switch", objective="C")
    g.do("activate_switch", objective="D")
    g.end()
    g.activate(4)
    g.end()
    g.activate(2)
    # Ben's VIP, twice (it respawns once): 2 VP each time.
    kill(g, 3)
    kill(g, 3)
    assert g.unit(3).out and g.vp(0) == 4
    g.next_round()
    assert (g.vp(0), g.state.round) == (8, 2)
    g.next_round()
    assert g.vp(0) == 12 and g.state.phase is Phase.ACTIVATION
    g.next_round()
    assert result(g) == {"winners": [0], "draw": False, "reason": "vp_limit", "vp": [16, 0]}


def test_conquest_tie_is_a_draw() -> None:
    g = start("conquest")
    g.activate(0)
    g.do("activate_switch", objective="A")
    kill(g, 3)
    g.end()
    g.activate(4)
    g.do("activate_switch", objective="C")
    kill(g, 0)
    g.end()
    g.activate(1)
    g.do("activate_switch", objective="B")
    g.end()
    g.activate(5)
    g.do("activate_switch", objective="D")
    g.end()
    play_until_over(g)
    assert g.state.round == 6
    assert result(g) == {"winners": [0, 1], "draw": True, "reason": "vp_limit", "vp": [14, 14]}


def test_switch_must_be_neutralised_before_it_is_taken() -> None:
    g = start("conquest")
    g.activate(0)
    g.do("activate_switch", objective="A")
    g.refused("activate_switch", "switch_yours", objective="A")
    g.end()
    g.activate(3)
    g.refused("activate_switch", "switch_owned", objective="A")
    g.refused("neutralise_switch", "switch_not_enemy", objective="B")
    g.do("neutralise_switch", objective="A")
    g.do("activate_switch", objective="A")
    assert g.state.objective("A").owner == 1
    g.refused("activate_switch", "not_enough_ap", objective="B")


# --- 3 Flag Rush --------------------------------------------------------------------------------


def test_flag_rush_flag_into_the_enemy_zone_scores_three_and_returns_to_the_centre() -> None:
    g = start("flag-rush")
    g.activate(0)
    g.do("pick_up_flag", unit=0, objective="F")
    assert g.state.objective("F").carrier == 0 and g.unit(0).flags == ("F",)
    g.do("move")
    events = g.do("score_flag", unit=0)
    assert one(events, "vp_scored")["points"] == 3
    assert g.state.objective("F").state is ObjectiveState.HOME and g.unit(0).flags == ()
    g.end()
    g.activate(3)
    kill(g, 1)
    assert g.vp(1) == 1
    g.end()
    for _ in range(4):
        g.next_round()
    assert g.state.round == 5 and g.state.phase is Phase.ACTIVATION
    play_until_over(g)
    assert g.state.round == 6
    assert result(g) == {"winners": [0], "draw": False, "reason": "rounds", "vp": [3, 1]}


def test_flag_rush_carrier_knocked_out_drops_the_flag_and_ties_are_draws() -> None:
    g = start("flag-rush")
    g.activate(0)
    g.do("pick_up_flag", unit=0, objective="F")
    g.refused("pick_up_flag", "flag_carried", unit=1, objective="F")
    g.do("hand_over_flag", unit=0, to=1)
    assert g.unit(1).flags == ("F",) and g.unit(0).flags == ()
    g.end()
    g.activate(3)
    kill(g, 1)
    assert g.state.objective("F").state is ObjectiveState.DROPPED
    assert g.unit(1).flags == ()
    # The flag lies where the carrier fell: the victor picks it up by touch.
    g.do("pick_up_flag", unit=3, objective="F")
    g.do("score_flag", unit=3)
    g.end()
    g.activate(2)
    kill(g, 4)
    g.end()
    assert (g.vp(0), g.vp(1)) == (1, 4)
    g.activate(5)
    g.end()
    g.score()
    g.start_round()
    g.activate(2)
    g.do("pick_up_flag", unit=2, objective="F")
    g.do("score_flag", unit=2)
    play_until_over(g)
    assert result(g) == {"winners": [0, 1], "draw": True, "reason": "rounds", "vp": [4, 4]}


def test_a_team_wiped_out_loses_at_once_whatever_the_vp() -> None:
    g = start("flag-rush", teams=[default_team(0), default_team(1, respawner=False)])
    g.do("adjust_vp", player=1, points=10)
    g.activate(0)
    kill(g, 3)
    kill(g, 4)
    g.end()
    g.activate(5)
    g.end()
    g.activate(1)
    events = kill(g, 5)
    assert one(events, "game_ended")["reason"] == "wiped_out"
    assert result(g) == {"winners": [0], "draw": False, "reason": "wiped_out", "vp": [3, 10]}


# --- 4 Onslaught --------------------------------------------------------------------------------

HAMMER = weapon("Hammer", "melee", strength=12)


def onslaught() -> Game:
    teams = [
        [profile(f"{name} Brecher", weapons=(weapon("Gewehr"), HAMMER)), *default_team(p)[1:]]
        for p, name in ((0, "Anna"), (1, "Ben"))
    ]
    g = start("onslaught", teams=teams)
    assert [u.kind for u in g.state.units[6:]] == [UnitKind.CORE, UnitKind.CORE]
    assert (g.unit(6).player, g.unit(7).player) == (0, 1)
    core = g.unit(7)
    assert (core.lp, core.profile.resistance, core.shields, core.stationary) == (12, 5, 3, True)
    return g


def smash(g: Game, core: int) -> list[Event]:
    assert g.state.active is not None
    g.stack(g.unit(g.state.active).player, [9, 9])
    return g.do("melee_attack", weapon=1, targets=[target(core)], confirm_flips=False)


def test_onslaught_destroying_the_enemy_core_scores_nine_and_ends_the_round() -> None:
    g = onslaught()
    g.activate(0)
    events = smash(g, 7)
    wound = one(events, "wound_flipped")
    # Melee against a stationary core: automatic hit, boosted wound, Resistance 5 + shield 3.
    assert wound["flip"]["modifier"] == 1 and wound["resistance"] == 8
    assert one(events, "knocked_out")["unit"] == 7
    assert one(events, "removed") == {"unit": 7}
    assert g.vp(0) == 9 and g.state.first_core_destroyer == 0 and g.state.game_ending
    g.end()
    g.finish_round()
    g.score()
    assert result(g) == {"winners": [0], "draw": False, "reason": "core_destroyed", "vp": [9, 0]}


def test_onslaught_tie_goes_to_who_destroyed_a_core_first() -> None:
    g = onslaught()
    g.activate(0)
    smash(g, 7)
    g.end()
    g.activate(3)
    smash(g, 6)
    assert g.state.first_core_destroyer == 0
    g.end()
    g.finish_round()
    g.score()
    assert result(g) == {"winners": [0], "draw": False, "reason": "core_destroyed", "vp": [9, 9]}


def test_onslaught_after_round_seven_three_vp_per_full_third_the_enemy_core_lost() -> None:
    g = onslaught()
    g.do("adjust", unit=7, lp=4)  # lost 8 of 12: two full thirds
    g.do("adjust", unit=6, lp=8)  # lost 4: one third
    g.activate(0)
    kill(g, 3)
    g.end()
    play_until_over(g)
    assert g.state.round == 7
    assert [(e.reason, e.points) for e in g.state.players[0].vp] == [
        ("knock_out", 1),
        ("core_damage", 6),
    ]
    assert [(e.reason, e.points) for e in g.state.players[1].vp] == [("core_damage", 3)]
    assert result(g) == {"winners": [0], "draw": False, "reason": "rounds", "vp": [7, 3]}


def test_onslaught_switches_add_resistance_to_the_controllers_core_and_repair() -> None:
    g = onslaught()
    g.activate(0)
    g.do("activate_switch", objective="A")
    g.end()
    g.activate(3)
    g.stack(1, [1, 1])
    events = g.do("melee_attack", weapon=1, targets=[target(6)], confirm_flips=False)
    assert one(events, "wound_flipped")["resistance"] == 5 + 3 + 1
    g.end()
    g.do("adjust", unit=6, lp=5)
    g.activate(1)
    g.refused("repair_core", "not_a_core", core=3)
    events = g.do("repair_core", core=6)
    assert one(events, "core_repaired") == {"unit": 1, "core": 6, "lp": 3}
    assert g.unit(6).lp == 8
    g.do("adjust", unit=6, lp=12)
    g.refused("repair_core", "core_intact", core=6)


# --- 5 King of the Hill -------------------------------------------------------------------------


def test_king_of_the_hill_the_starter_names_a_king_and_the_killer_takes_the_crown() -> None:
    g = Game(setup("king-of-the-hill"))
    g.stack(0, [9])
    g.stack(1, [1])
    g.do("deployment_flip")
    g.do("choose_first_deployer", player=0)
    g.do("start_game")
    g.stack(0, [9])
    g.stack(1, [1])
    g.do("flip_initiative")
    g.do("choose_starter", player=1)
    assert g.state.awaiting == "king" and g.state.awaiting_player == 1
    g.refused("activate", "not_now", unit=3)
    g.refused("name_king", "not_your_fighter", unit=0)
    g.do("name_king", unit=3)
    assert g.unit(3).king and g.state.turn == 1
    g.activate(3)
    g.end()
    g.activate(0)
    events = kill(g, 3)
    assert one(events, "king_named") == {"unit": 0, "player": 0}
    assert not g.unit(3).king and g.unit(0).king
    g.end()
    g.finish_round()
    g.score(king_in_zone=True, focal_points={"A": 1})
    assert (g.vp(0), g.vp(1)) == (3, 1)
    play_until_over(g)
    assert result(g) == {"winners": [0], "draw": False, "reason": "rounds", "vp": [3, 1]}


def test_king_of_the_hill_unclear_killer_lets_the_other_player_name_the_king() -> None:
    g = start("king-of-the-hill", king=0)
    assert g.unit(0).king
    g.activate(0)
    g.stack(1, [9])
    g.do("move", fall_height=6)
    assert g.state.awaiting == "king_unclear" and g.state.awaiting_player == 1
    g.refused("activate", "not_now", unit=3)
    g.refused("name_king", "not_your_fighter", unit=1)
    g.do("name_king", unit=4)
    assert g.unit(4).king and not g.unit(0).king
    assert g.state.turn == 1
    g.finish_round()
    g.score(king_in_zone=True)
    assert g.vp(1) == 3


# --- 6 Breakthrough -----------------------------------------------------------------------------


def test_breakthrough_flag_carriers_lock_enemy_switches_scored_after_the_last_round() -> None:
    g = start("breakthrough", flags={0: [0, 1, 2], 1: [3]})
    assert [g.unit(u).flags for u in (0, 1, 2, 3)] == [("M1.1",), ("M1.2",), ("M1.3",), ("M2.1",)]
    g.activate(0)
    g.refused("activate_switch", "own_switch", objective="A1")
    g.do("activate_switch", objective="B1")
    assert g.state.objective("B1").locked and g.state.objective("B1").owner == 0
    assert g.unit(0).flags == () and "M1.1" not in [o.id for o in g.state.objectives]
    g.refused("activate_switch", "needs_flag", objective="B2")
    g.end()
    g.activate(3)
    g.refused("neutralise_switch", "switch_locked", objective="B1")
    kill(g, 1)
    # The carrier's marker goes back to its owner's zone.
    assert g.state.objective("M1.2").state is ObjectiveState.IN_ZONE
    g.end()
    g.activate(2)
    g.do("activate_switch", objective="B2")
    g.end()
    g.finish_round()
    g.score()
    g.start_round()
    g.activate(0)
    g.refused("pick_up_flag", "not_your_marker", unit=4, objective="M1.2")
    g.do("pick_up_flag", unit=0, objective="M1.2")
    g.do("activate_switch", objective="B3")
    g.end()
    for _ in range(4):
        g.next_round()
    # Switches score only at the end of the last round.
    assert (g.vp(0), g.vp(1)) == (0, 1) and g.state.round == 6
    play_until_over(g)
    assert result(g) == {"winners": [0], "draw": False, "reason": "rounds", "vp": [9, 1]}


# --- 7 Domination and 8 Double Domination -------------------------------------------------------


def test_domination_two_switches_score_three_each_round_and_vips_two() -> None:
    g = start("domination")
    g.activate(0)
    g.do("activate_switch", objective="A")
    g.do("activate_switch", objective="B")
    g.end()
    g.activate(3)
    g.do("activate_switch", objective="C")
    kill(g, 0)  # Anna's VIP
    g.end()
    play_until_over(g)
    assert result(g) == {"winners": [0], "draw": False, "reason": "rounds", "vp": [18, 2]}


def test_double_domination_scores_five_for_both_switches_and_three_per_vip() -> None:
    g = start("double-domination")
    g.activate(0)
    g.do("activate_switch", objective="A")
    g.do("activate_switch", objective="B")
    g.end()
    g.next_round()
    assert g.vp(0) == 5
    g.activate(0)
    g.end()
    g.activate(3)
    g.do("neutralise_switch", objective="B")
    kill(g, 0)
    g.end()
    play_until_over(g)
    assert result(g) == {"winners": [0], "draw": False, "reason": "rounds", "vp": [5, 3]}


# --- 9 Capture the Flag -------------------------------------------------------------------------


def test_capture_the_flag_home_flag_enemy_flag_return_and_vip() -> None:
    g = start("capture-the-flag")
    g.activate(0)
    g.refused("pick_up_flag", "flag_home", unit=0, objective="F1")
    g.do("pick_up_flag", unit=0, objective="F2")
    events = g.do("score_flag", unit=0)
    assert one(events, "vp_scored")["points"] == 4
    assert g.state.objective("F2").state is ObjectiveState.HOME
    g.end()
    g.activate(3)
    g.do("pick_up_flag", unit=3, objective="F1")
    g.end()
    g.activate(1)
    kill(g, 3)  # Ben's VIP, carrying Anna's flag
    assert g.vp(0) == 4 + 2
    assert g.state.objective("F1").state is ObjectiveState.DROPPED
    events = g.do("pick_up_flag", unit=1, objective="F1")
    assert one(events, "vp_scored")["reason"] == "flag_returned"
    assert g.state.objective("F1").state is ObjectiveState.HOME
    g.end()
    g.finish_round()
    events = g.score()
    assert [(v["player"], v["reason"]) for v in of_type(events, "vp_scored")] == [
        (0, "flag_home"),
        (1, "flag_home"),
    ]
    play_until_over(g)
    assert result(g) == {"winners": [0], "draw": False, "reason": "rounds", "vp": [13, 6]}


def test_capture_the_flag_scores_only_the_enemy_flag() -> None:
    g = start("capture-the-flag")
    g.activate(0)
    g.refused("score_flag", "no_flag", unit=0)
    g.end()
    g.activate(3)
    g.do("pick_up_flag", unit=3, objective="F1")
    g.refused("pick_up_flag", "one_flag", unit=3, objective="F2")
    g.end()
    g.activate(1)
    g.refused("pick_up_flag", "flag_carried", unit=1, objective="F1")


# --- Three and four players ---------------------------------------------------------------------


def test_mp_deathmatch_credited_knock_outs_score_two_and_the_target_ends_the_round() -> None:
    g = start("mp-deathmatch")
    assert [o.id for o in g.state.objectives] == ["I1", "I2", "I3"]
    g.activate(0)
    kill(g, 3)
    kill(g, 6)
    g.end()
    g.activate(4)
    g.end()
    g.activate(7)
    g.end()
    g.activate(1)
    kill(g, 5)
    kill(g, 8)
    assert [g.vp(p) for p in range(3)] == [8, 0, 0]
    g.end()
    g.finish_round()
    events = g.score(focal_points={"I1": 0, "I2": 1})
    assert one(events, "target_reached")["player"] == 0
    assert result(g) == {"winners": [0], "draw": False, "reason": "vp_target", "vp": [9, 1, 0]}


def test_mp_conquest_two_vp_per_switch_and_one_per_knock_out() -> None:
    g = start("mp-conquest")
    g.activate(0)
    g.do("activate_switch", objective="I1")
    g.do("activate_switch", objective="I2")
    g.end()
    g.activate(3)
    kill(g, 6)
    g.end()
    play_until_over(g)
    assert result(g) == {"winners": [0], "draw": False, "reason": "rounds", "vp": [24, 1, 0]}


def test_mp_domination_every_team_with_two_switches_scores_and_ties_are_draws() -> None:
    g = start("mp-domination")
    assert [o.id for o in g.state.objectives] == ["I1", "I2", "I3", "II"]
    g.activate(0)
    g.do("activate_switch", objective="I1")
    g.do("activate_switch", objective="I2")
    g.end()
    g.activate(3)
    g.do("activate_switch", objective="I3")
    g.do("activate_switch", objective="II")
    g.end()
    g.activate(6)
    kill(g, 4)  # not Ben's VIP: no VP
    g.end()
    play_until_over(g)
    assert result(g) == {
        "winners": [0, 1],
        "draw": True,
        "reason": "rounds",
        "vp": [18, 18, 0],
    }


def test_mp_flag_rush_own_flag_at_the_farthest_switch_scores_four() -> None:
    g = start("mp-flag-rush")
    layout = mode_by_slug("mp-flag-rush").layout(3, 3)
    assert len(flag_rush_targets(layout, 0)) == 1
    assert len(flag_rush_targets(mode_by_slug("mp-flag-rush").layout(4, 3), 0)) == 2
    g.activate(0)
    g.do("pick_up_flag", unit=0, objective="F2")
    g.refused("score_flag", "not_own_flag", unit=0)
    g.end()
    g.activate(3)
    kill(g, 0)
    assert g.state.objective("F2").state is ObjectiveState.DROPPED
    g.end()
    g.activate(6)
    g.end()
    g.activate(1)
    g.do("pick_up_flag", unit=1, objective="F1")
    events = g.do("score_flag", unit=1)
    assert one(events, "vp_scored") == {"player": 0, "points": 4, "reason": "flag", "detail": "F1"}
    assert g.state.objective("F1").state is ObjectiveState.HOME
    play_until_over(g)
    assert result(g) == {"winners": [0], "draw": False, "reason": "rounds", "vp": [4, 1, 0]}


def test_mp_king_of_the_hill_unclear_killer_the_player_to_the_right_names_the_king() -> None:
    g = start("mp-king-of-the-hill", king=0)
    g.activate(0)
    g.stack(1, [9])
    events = g.do("move", fall_height=6)
    # A fall: every opponent gets the knock-out (1 VP each); the next seat names a king.
    assert one(events, "knocked_out")["credit"] == [1, 2]
    assert g.state.awaiting == "king_unclear" and g.state.awaiting_player == 1
    g.do("name_king", unit=4)
    g.finish_round()
    g.score(king_in_zone=True)
    play_until_over(g)
    assert result(g) == {"winners": [1], "draw": False, "reason": "rounds", "vp": [0, 4, 1]}


def test_mp_team_wiped_out_ends_the_game_and_the_most_vp_among_the_rest_win() -> None:
    teams = [default_team(0), default_team(1, respawner=False), default_team(2)]
    g = start("mp-conquest", teams=teams)
    g.activate(0)
    kill(g, 3)
    kill(g, 4)
    g.end()
    g.activate(5)
    g.end()
    g.activate(6)
    events = kill(g, 5)
    assert one(events, "player_eliminated") == {"player": 1}
    assert result(g) == {"winners": [0], "draw": False, "reason": "wiped_out", "vp": [2, 0, 1]}


@pytest.mark.parametrize("mode", [m.slug for m in MODES])
def test_every_mode_sets_up_its_objectives(mode: str) -> None:
    m = mode_by_slug(mode)
    g = start(mode)
    spots = m.layout(m.min_players, 3).spots
    tracked = [s.id for s in spots if s.kind.value not in ("core", "king_zone")]
    assert [o.id for o in g.state.objectives] == tracked
    assert g.state.phase is Phase.ACTIVATION
    assert all(u.vip for u in g.state.units if u.id in {0, 3}) is m.vip
