"""Rounds, the secret picks, initiative, phases, missions and the end of the game (SPEC §3)."""

from __future__ import annotations

import pytest

from apps.systems.universalis.catalog import Movement
from apps.systems.universalis.match.state import Phase
from tests.systems.universalis.helpers import (
    ENGINE,
    Game,
    finish_round,
    model,
    one,
    setup,
    soldier,
    telematon,
)


def test_round_start_gives_every_model_6_ap(game: Game) -> None:
    assert [u.ap for u in game.state.units] == [6, 6, 6, 6]


def test_telematons_have_2_ap() -> None:
    teams = [
        [
            model(soldier("Chef", group_leader=True, operator=1)),
            model(telematon(), operator=0),
        ],
        [model(soldier("Ben", group_leader=True)), model(soldier("Ben 2"))],
    ]
    g = Game(setup(teams)).to_round_one()
    assert g.unit(1).ap == 2


def test_unspent_ap_are_halved_and_carried_over_up_to_12(game: Game) -> None:
    finish_round(game)
    game.do("end_round")
    assert [u.ap for u in game.state.units] == [9, 9, 9, 9]
    game.do("correct", unit=0, ap=12)
    finish_round(game)
    game.do("end_round")
    assert game.unit(0).ap == 12 and game.unit(1).ap == 10


def test_shock_tokens_cost_1_ap_each_at_round_start(game: Game) -> None:
    game.do("correct", unit=0, shock_tokens=2)
    finish_round(game)
    game.do("end_round")
    assert (game.unit(0).ap, game.unit(0).shock_tokens) == (7, 0)


def test_shock_tokens_stay_for_the_next_round_when_the_ap_run_out(game: Game) -> None:
    game.do("correct", unit=0, shock_tokens=12)
    finish_round(game)
    game.do("end_round")
    assert (game.unit(0).ap, game.unit(0).shock_tokens) == (0, 12 - 9)
    finish_round(game)
    game.do("end_round")
    assert (game.unit(0).ap, game.unit(0).shock_tokens) == (6 - 3, 0)


def test_picks_are_secret_until_both_picked(game: Game) -> None:
    events = game.do("pick", player=0, unit=1)
    assert ENGINE.public_event(events[0], viewer=1)["unit"] is None
    assert ENGINE.public_event(events[0], viewer=0)["unit"] == 1
    assert ENGINE.public_state(game.state, viewer=1)["players"][0]["pick"] is None
    assert game.state.active is None


def test_initiative_winner_acts_first_then_the_loser(game: Game) -> None:
    game.do("pick", player=0, unit=1)
    game.dice(2, 10).do("pick", player=1, unit=3)
    assert (game.state.active, game.state.follower) == (3, 1)
    game.do("end_phase")
    assert game.state.active == 1


def test_initiative_tie_goes_to_the_higher_agi() -> None:
    teams = [
        [model(soldier("A", group_leader=True, agi=5)), model(soldier("A2"))],
        [model(soldier("B", group_leader=True, agi=7)), model(soldier("B2"))],
    ]
    g = Game(setup(teams)).to_round_one()
    g.do("pick", player=0, unit=0)
    g.dice(7, 5).do("pick", player=1, unit=2)
    assert g.state.active == 2
    shown = g.state.last_rolls[-1]
    assert shown.label == "Tie: %(unit)s has the higher AGI" and dict(shown.params)["unit"] == "B"


def test_initiative_tie_with_equal_agi_is_left_to_chance(game: Game) -> None:
    game.do("pick", player=0, unit=0)
    events = game.dice(4, 4, 3, 8).do("pick", player=1, unit=2)
    assert len(one(events, "initiative_rolled")["rolls"]) == 2
    assert game.state.active == 2


def test_a_player_without_models_left_lets_the_other_activate_the_rest() -> None:
    teams = [
        [model(soldier("A", group_leader=True)), model(soldier("A2")), model(soldier("A3"))],
        [model(soldier("B", group_leader=True)), model(soldier("B2"))],
    ]
    g = Game(setup(teams)).to_round_one()
    g.phase_of(0, 3).do("end_phase")
    g.do("end_phase")
    g.phase_of(1, 4).do("end_phase")
    g.do("end_phase")
    g.refused("pick", "not_now", player=0, unit=2)
    g.do("activate", unit=2)
    g.do("end_phase")
    assert g.state.phase is Phase.ROUND_END


def test_an_activated_model_cannot_be_picked_again(game: Game) -> None:
    game.phase_of(0, 2).do("end_phase")
    game.do("end_phase")
    game.refused("pick", "not_eligible", player=0, unit=0)


def test_phase_start_removes_fast_defence_and_readiness_tokens(game: Game) -> None:
    game.phase_of(0, 2)
    for cm in (10, 10, 1):
        game.do("move", unit=0, cm=cm)
    game.do("fire_readiness", unit=0, weapon=0)
    assert game.unit(0).fast and game.unit(0).readiness == 0
    game.do("end_phase")
    game.do("end_phase")
    finish_round(game)
    game.do("end_round")
    game.phase_of(0, 2)
    assert not game.unit(0).fast and game.unit(0).readiness is None


def test_a_flying_model_moves_first_each_round() -> None:
    teams = [
        [model(soldier("A", group_leader=True, movement=Movement.FLIGHT)), model(soldier("A2"))],
        [model(soldier("B", group_leader=True)), model(soldier("B2"))],
    ]
    g = Game(setup(teams)).to_round_one().phase_of(0, 2)
    g.refused("shoot", "flight_moves_first", unit=0, targets=[{"unit": 2, "distance": 10}])
    g.do("move", unit=0)
    g.dice(12).do("shoot", unit=0, targets=[{"unit": 2, "distance": 10}])


def test_a_stationary_model_cannot_move() -> None:
    teams = [
        [
            model(soldier("A", group_leader=True, movement=Movement.STATIONARY)),
            model(soldier("A2")),
        ],
        [model(soldier("B", group_leader=True)), model(soldier("B2"))],
    ]
    g = Game(setup(teams)).to_round_one().phase_of(0, 2)
    g.refused("move", "cannot_move", unit=0)


def test_deployment_roll_off_goes_to_the_higher_eh_on_a_tie() -> None:
    teams = [
        [model(soldier("A", group_leader=True, eh=5)), model(soldier("A2"))],
        [model(soldier("B", group_leader=True, eh=7)), model(soldier("B2"))],
    ]
    g = Game(setup(teams))
    g.do("choose_mission", player=0, mission="vernichtung")
    g.do("choose_mission", player=1, mission="vernichtung")
    g.dice(6, 4).do("roll_deployment")
    assert g.state.deployment_winner == 1


def test_deployment_roll_off_with_equal_eh_is_left_to_chance() -> None:
    g = Game()
    g.do("choose_mission", player=0, mission="vernichtung")
    g.do("choose_mission", player=1, mission="vernichtung")
    g.dice(5, 5, 2, 9).do("roll_deployment")
    assert g.state.deployment_winner == 1


def test_deployment_waits_for_both_missions() -> None:
    g = Game()
    g.do("choose_mission", player=0, mission="kopfjagd")
    g.refused("roll_deployment", "missions_first")
    g.refused("choose_mission", "mission_chosen", player=0, mission="vernichtung")


def test_missions_are_secret_until_both_are_chosen() -> None:
    g = Game()
    events = g.do("choose_mission", player=0, mission="kopfjagd")
    assert ENGINE.public_event(events[0], viewer=1)["mission"] is None
    assert ENGINE.public_event(events[0], viewer=None)["mission"] is None
    assert ENGINE.public_event(events[0], viewer=0)["mission"] == "kopfjagd"
    assert ENGINE.public_state(g.state, viewer=None)["players"][0]["mission"] is None
    assert ENGINE.public_state(g.state, viewer=1)["players"][0]["mission"] is None
    assert ENGINE.public_state(g.state, viewer=0)["players"][0]["mission"] == "kopfjagd"
    assert "kopfjagd" not in ENGINE.timeline(g.state, events[0]).text.casefold()
    g.do("choose_mission", player=1, mission="vernichtung")
    assert ENGINE.public_state(g.state, viewer=None)["players"][0]["mission"] == "kopfjagd"


def test_an_agreed_mission_needs_no_secret_choice() -> None:
    g = Game(setup(mode="kopfjagd"))
    assert g.state.missions_revealed
    assert [p.mission for p in g.state.players] == ["kopfjagd", "kopfjagd"]


def test_surrender_only_at_the_end_of_a_round(game: Game) -> None:
    game.refused("surrender", "surrender_at_round_end", player=1)
    finish_round(game)
    game.do("surrender", player=1)
    assert game.state.result is not None and game.state.result.winners == (0,)
    assert ENGINE.result(game.state)["reason"] == "surrender"


def test_annihilation_is_accomplished_when_no_enemy_is_left(game: Game) -> None:
    game.phase_of(0, 2)
    for unit in (2, 3):
        game.dice(12, 1).do("auto_hit", unit=unit, strength=20, damage=20)
        while game.state.panic_due:
            game.do("skip_panic_test", unit=game.state.panic_due[0].unit)
    finish_round(game)
    game.do("end_round")
    assert game.state.result is not None and game.state.result.reason == "group_gone"
    assert ENGINE.result(game.state)["vp"] == [60, 0]


def test_headhunt_is_accomplished_when_the_enemy_leader_is_gone() -> None:
    g = Game(setup(mode="kopfjagd")).to_round_one().phase_of(0, 2)
    g.dice(12, 1).do("auto_hit", unit=2, strength=20, damage=20)
    g.do("skip_panic_test", unit=3)
    finish_round(g)
    g.do("end_round")
    assert g.state.result is not None
    assert (g.state.result.winners, g.state.result.reason) == ((0,), "mission")


def test_a_declared_mission_counts_the_rounds_the_players_confirm() -> None:
    g = Game(setup(mode="durchbruch")).to_round_one()
    finish_round(g)
    g.do("end_round", held=[1])
    assert g.state.result is not None and g.state.result.winners == (1,)


def test_the_round_limit_ends_in_a_draw() -> None:
    g = Game(setup(mode="stellung-halten", max_rounds=1)).to_round_one()
    finish_round(g)
    g.do("end_round")
    assert g.state.result is not None and g.state.result.draw
    assert g.state.result.reason == "round_limit"


def test_nothing_happens_after_the_game(game: Game) -> None:
    finish_round(game)
    game.do("surrender", player=0)
    game.refused("end_round", "game_over")


@pytest.mark.parametrize("command", ["move", "shoot", "defence"])
def test_actions_only_in_the_models_phase(game: Game, command: str) -> None:
    game.phase_of(0, 2)
    game.refused(command, "not_active", unit=2, targets=[{"unit": 0, "distance": 5}])
