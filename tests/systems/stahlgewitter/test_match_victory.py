"""Stahlgewitter victory: VP for enemy models taken out, the agreed rounds of a free game,
scenario mission points, immediate defeat of a side with no unit left, conceding and ending on
time (stahlgewitter.de.txt "Spielablauf", "Begriffe: Szenario"); the summary's luck."""

from __future__ import annotations

from fractions import Fraction

import pytest

from apps.systems.core.errors import RuleViolation
from apps.systems.stahlgewitter.match.state import MatchState, Phase, Stage
from tests.systems.stahlgewitter.test_match_support import (
    ENGINE,
    activate,
    model_named,
    run,
    start,
    to_battle,
    to_phase,
    types,
    unit_named,
)


def test_a_model_taken_out_scores_its_army_points_for_the_enemy() -> None:
    """Design: "Victory points of a free game: the army points of enemy models taken out"."""
    state = to_phase(activate(to_battle(), "Kommando"), Phase.RANGED)
    kultist = model_named(state, "Kultist 1")
    state, events = run(
        state,
        "attack",
        [6],
        attacker=model_named(state, "Soldat 2").id,
        weapon=0,
        target=kultist.id,
    )
    scored = next(e.data for e in events if e.type == "vp_scored")
    assert scored == {
        "player": 0,
        "points": kultist.points,
        "reason": "taken_out",
        "detail": "Kultist 1",
    }
    assert state.players[0].total_vp == kultist.points and state.players[0].vp[0].round == 1


def _play_rounds(state: MatchState) -> tuple[MatchState, list[str]]:
    seen: list[str] = []
    while state.stage is Stage.BATTLE:
        if state.active is None:
            unit = next(
                u
                for u in state.side_units(state.turn_player or 0)
                if not u.out
                and state.round not in (u.activated_round, u.ready_round, u.blitzed_round)
                and (u.id != state.last_unit or state.turn_player is None)
            )
            state, events = run(state, "activate", unit=unit.id)
        else:
            state, events = run(state, "end_turn")
        seen += types(events)
    return state, seen


def test_a_free_game_ends_after_the_agreed_rounds() -> None:
    """ "Es wird so lange gespielt, bis ... in einem freien Spiel – die vereinbarte Anzahl von
    Runden gespielt worden ist." """
    state, seen = _play_rounds(to_battle())
    assert state.stage is Stage.OVER and state.round == 2
    assert seen.count("round_started") == 1 and seen[-1] == "game_ended"
    assert state.result is not None and state.result.reason == "last_round"
    assert state.result.draw  # nobody scored


def test_a_side_whose_every_unit_is_out_loses_at_once() -> None:
    """ "Das Spiel endet vorher, falls alle Einheiten einer Seite ausgelöscht worden sind oder
    sich ergeben haben." """
    state = to_battle()
    for unit in state.side_units(1)[1:]:
        for model in unit.models:
            state = state.with_model(model, dead=True, tp=0)
        state = state.with_unit(unit.id, out="wiped")
    state = to_phase(activate(state, "Kommando"), Phase.RANGED)
    officer = unit_named(state, "Offizier").models[0]
    state, events = run(
        state,
        "attack",
        [10, 9],
        attacker=model_named(state, "Soldat 2").id,
        weapon=0,
        target=officer,
    )
    assert types(events)[-2:] == ["unit_out", "game_ended"]
    assert state.result is not None and state.result.winners == (0,)
    assert state.result.reason == "eliminated"


def test_mission_points_only_in_a_scenario() -> None:
    """ "Das Erreichen der Missionsziele in einem Szenario wird mit Missionspunkten vergütet." """
    free = to_battle(start(0))
    assert free.mode == "free"
    with pytest.raises(RuleViolation) as refused:
        run(free, "mission_points", player=0, points=5)
    assert refused.value.code == "free_game"
    scenario = to_battle(start(1))
    scenario, _ = run(scenario, "mission_points", player=1, points=5)
    assert scenario.players[1].total_vp == 5


def test_conceding_ends_the_game_for_the_other_player() -> None:
    state, events = run(to_battle(), "concede", player=0)
    assert types(events) == ["conceded", "game_ended"]
    assert ENGINE.result(state) == {
        "winners": [1],
        "draw": False,
        "reason": "conceded",
        "vp": [0, 0],
    }


def test_ending_on_time_decides_by_victory_points() -> None:
    state = to_battle(start(1))
    state, _ = run(state, "mission_points", player=0, points=3)
    state, _ = run(state, "end_on_time")
    assert state.result is not None and state.result.winners == (0,)
    assert state.result.reason == "time"


def test_the_summary_counts_luck_against_the_recorded_odds() -> None:
    """After the roll: the dice and the odds they had; the summary compares hits with them."""
    state = to_phase(activate(to_battle(), "Kommando"), Phase.RANGED)
    events = []
    for shooter, target, face in (("Soldat 2", "Kultist 1", 6), ("Soldat 3", "Kultist 2", 1)):
        state, new = run(
            state,
            "attack",
            [face],
            attacker=model_named(state, shooter).id,
            weapon=0,
            target=model_named(state, target).id,
        )
        events += new
    summary = ENGINE.summary(events, state)
    luck = {line.label: line for line in summary.players[0].luck}
    hits = luck["Attacks that hit (E to J)"]
    assert hits.count == 2 and hits.observed == 1
    assert hits.expected == Fraction(9, 5)
    kommando = summary.model(unit_named(state, "Kommando").id)
    assert kommando is not None and kommando.dealt == 1 and kommando.knock_outs == 1
