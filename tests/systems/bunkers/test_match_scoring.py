"""Bunkers and Badasses: the missions' victory points, Maximaler Schaden, the hidden artifact
and the end of the game (bunkers-and-badasses.de.txt, "Missionen")."""

from __future__ import annotations

import pytest

from apps.systems.bunkers.match.state import MatchState
from apps.systems.bunkers.match.tables import Phase, Stage
from apps.systems.core.match import Event
from tests.systems.bunkers.test_match_support import (
    ENGINE,
    code,
    run,
    start,
    to_battle,
    to_phase,
)


def _to_scoring(state: MatchState) -> MatchState:
    """On to the next command phase that checks the markers."""
    state, _ = run(state, "next_phase", keep=[])
    while not state.scoring_due:
        state, _ = run(state, "next_phase", keep=[])
    return state


def _vp(state: MatchState) -> list[int]:
    return [p.total_vp for p in state.players]


@pytest.mark.parametrize("mission", ["erobern-und-sichern", "kampf-um-den-reaktor"])
def test_held_markers_score_from_round_two_and_taken_ones_score_two(mission: str) -> None:
    """ "Zu Beginn jeder Befehlsphase ab Schlachtrunde Nr. 2 wird geguckt, wer welches
    Missionsziel hält. Für jedes gehaltene Missionsziel gibt es 1 Siegespunkt. Für jedes
    Missionsziel, das in der vorigen Befehlsphase noch vom Gegner gehalten wurde, gibt es 2
    Siegespunkte." """
    state = to_battle(start(mission))
    assert not state.scoring_due and len(state.markers) == (6 if mission[0] == "e" else 4)
    state = _to_scoring(state)
    assert (state.round, state.active) == (2, 0)
    assert code(state, "next_phase") == "score_first"
    assert code(state, "buy_option", player=0, option="aufklaerungsdrohne") == "score_first"
    holders = [0, 0, 1, None] + [None] * (len(state.markers) - 4)
    state, _ = run(state, "score_objectives", holders=holders)
    assert _vp(state) == [2, 1]
    assert code(state, "score_objectives", holders=holders) == "no_scoring"
    state = _to_scoring(state)
    assert (state.round, state.active) == (2, 1)
    holders = [1, 0, 1, 0] + [None] * (len(state.markers) - 4)
    state, _ = run(state, "score_objectives", holders=holders)
    # Anna: marker 2 held again (1), marker 4 new (1); Ben: marker 1 taken (2), 3 held (1).
    assert _vp(state) == [2 + 2, 1 + 3]
    assert state.players[1].vp[-1].round == 2


def test_artifact_mission_scores_reveals_finding_carrying_and_capturing() -> None:
    """ "Für jeden aufgedeckten Missionszielmarker gibt es 1 Siegespunkt. Für das Finden des
    Artefaktes, gibt es 2 Siegespunkte. Zu Beginn jeder Befehlsphase, wird geguckt, wer das
    Artefakt trägt, der Träger bekommt 1 Siegespunkt. Für das Erobern des Artefaktes vom
    Gegner, gibt es 3 Siegespunkte. Wer sich am Ende des Spiels mit dem Artefakt in einer
    seiner Aufstellungszone befindet, bekommt 2 Siegespunkte." """
    state = to_battle(start("sichert-das-artefakt", rounds=2))
    hidden = state.artifact
    assert hidden is not None and not state.artifact_found
    empty = next(n for n in range(1, 7) if n != hidden)
    state = to_phase(state, Phase.MOVEMENT, player=0)
    assert code(state, "pick_up", unit=0) == "artifact_hidden"
    state, _ = run(state, "reveal_marker", marker=empty)
    assert _vp(state) == [1, 0] and not state.artifact_found
    assert code(state, "reveal_marker", marker=empty) == "marker_revealed"
    state, _ = run(state, "reveal_marker", marker=hidden)
    assert _vp(state) == [4, 0] and state.artifact_found
    state, _ = run(state, "pick_up", unit=1)
    state, _ = run(state, "hand_over", to=0)
    assert state.carrier == 0
    state = to_phase(state, Phase.COMMAND, player=1)
    assert _vp(state) == [5, 0]  # the carrier's player at Ben's command phase
    state, _ = run(state, "adjust", unit=0, change="destroyed")
    assert state.carrier is None
    state = to_phase(state, Phase.MOVEMENT, player=1)
    state, _ = run(state, "pick_up", unit=4)
    assert _vp(state) == [5, 3]
    state = to_phase(state, Phase.MORALE, player=1)
    state, _ = run(state, "next_phase", keep=[])
    state = to_phase(state, Phase.MORALE, player=1)
    assert state.round == 2
    state, _ = run(state, "next_phase", keep=[])
    assert state.stage is Stage.FINAL
    state, events = run(state, "score_end", home=True)
    assert state.stage is Stage.OVER
    # Ben: 3 + 1 (Anna's command phase in round 2) + 1 (his own) + 2 home + 2 (Captain
    # destroyed: Maximaler Schaden).
    assert _vp(state) == [5, 3 + 1 + 1 + 2 + 2]


def test_the_artifact_stays_hidden_until_its_marker_is_revealed() -> None:
    """ "Markiere vor dem Aufstellen der Missionsziele jedes von unten mit einer Zahl und mische
    sie ordentlich durch. Im Anschluss würfelt aus, bei welchem das Artefakt versteckt ist." """
    state = start("sichert-das-artefakt")
    state, _ = run(state, "roll_off")
    state, _ = run(state, "choose_zones", player=state.roll_winner, side="defender")
    state, events = run(state, "roll_off")
    hidden = next(e for e in events if e.type == "artifact_hidden")
    assert 1 <= hidden.data["marker"] <= 6 and state.artifact == hidden.data["marker"]
    assert ENGINE.public_event(hidden)["marker"] is None
    assert ENGINE.public_event(hidden, viewer=0)["die"] is None
    assert ENGINE.public_state(state)["artifact"] is None
    assert ENGINE.public_state(state, viewer=1)["artifact"] is None
    line = ENGINE.timeline(state, hidden)
    assert line is not None and str(hidden.data["marker"]) not in line.text
    view = ENGINE.tracker(state, selected=None, params={})
    assert not any(m.artifact for m in view.markers)
    state = to_battle_from_deploy(state)
    state, _ = run(state, "reveal_marker", marker=state.artifact)
    assert ENGINE.public_state(state)["artifact"] == state.artifact


def to_battle_from_deploy(state: MatchState) -> MatchState:
    while state.stage is Stage.DEPLOY:
        unit = next(u for u in state.units if u.place == "" and u.player == state.deployer)
        place = "upper" if unit.id % 2 else "lower"  # 50:50 over the two levels
        state, _ = run(state, "deploy", unit=unit.id, place=place)
    state, _ = run(state, "roll_off")
    return state


def test_maximaler_schaden_destroyed_two_below_half_one_single_models_by_wounds() -> None:
    """ "Am Ende des Spiels gibt es für jede vollständig vernichtete Einheit 2 Siegespunkte und
    für jede Einheit, die mindestens unter 50% ihrer ursprünglichen Trupp Größe ist, 1
    Siegespunkt. Bei Einheiten ... die nur aus einem Modell bestehen, werden stattdessen die
    Lebenspunkte gezählt" """
    state = to_battle(start())
    state, _ = run(state, "adjust", unit=5, change="destroyed")  # Ben's Boyz: 2 for Anna
    for _ in range(3):  # Ben's Warboss (W6): 3 left is not below half
        state, _ = run(state, "adjust", unit=4, change="wound_lost")
    for _ in range(3):  # Anna's Intercessors: 2 of 5 models left is below half
        state, _ = run(state, "adjust", unit=1, change="model_lost")
    for _ in range(3):  # Anna's Captain (W5): 2 left is below half
        state, _ = run(state, "adjust", unit=0, change="wound_lost")
    state, events = run(state, "end_on_time")
    damage = [e.data for e in events if e.type == "vp_scored"]
    assert [(d["player"], d["points"]) for d in damage] == [(0, 2), (1, 2)]
    assert ENGINE.result(state) == {"winners": [0, 1], "draw": True, "reason": "time", "vp": [2, 2]}


def test_the_game_ends_after_the_last_turn_of_the_set_rounds() -> None:
    """SPEC §5 decision: 5 battle rounds (the 40K 9th edition standard), editable."""
    state = to_battle(start(rounds=1))
    state = to_phase(state, Phase.MORALE, player=1)
    assert not ENGINE.finished(state)
    state, events = run(state, "next_phase", keep=[])
    assert ENGINE.finished(state) and events[-1].type == "game_ended"
    assert events[-1].data["reason"] == "last_round"
    assert code(state, "next_phase") == "game_over"


def test_concede_ends_the_game_for_the_other_player() -> None:
    state = to_battle(start())
    state, _ = run(state, "adjust_vp", player=0, points=5)
    state, events = run(state, "concede", player=0)
    assert [e.type for e in events] == ["conceded", "game_ended"]
    assert ENGINE.result(state) == {
        "winners": [1],
        "draw": False,
        "reason": "conceded",
        "vp": [5, 0],
    }
    concede = next(s for s in ENGINE.commands() if s.type == "concede")
    assert concede.own_seat_arg == "player"


def test_end_on_time_is_decided_by_the_vp_with_maximaler_schaden() -> None:
    state = to_battle(start())
    state, _ = run(state, "adjust", unit=6, change="destroyed")
    state, events = run(state, "end_on_time")
    assert ENGINE.result(state) == {"winners": [0], "draw": False, "reason": "time", "vp": [2, 0]}
    assert isinstance(events[-1], Event) and events[-1].type == "game_ended"
