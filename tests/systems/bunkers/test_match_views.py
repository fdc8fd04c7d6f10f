"""Bunkers and Badasses: the tracker screen, the match log and the summary of whole games
played by the random-play policy."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string

from apps.systems.bunkers.match.apply import APPLIERS
from apps.systems.bunkers.match.state import MatchState
from apps.systems.bunkers.match.tables import DoorState, Phase
from apps.systems.bunkers.match.timeline import LINES
from apps.systems.core.match import Event
from tests.systems.bunkers.test_match_support import ENGINE, add_doors, run, start, to_battle
from tests.systems.samples import bunkers
from tests.systems.test_random_play import played_game


def _game(seed: int) -> tuple[list[Event], MatchState, list[MatchState]]:
    return played_game(ENGINE, bunkers(seed), seed)


def test_every_event_type_has_an_applier_and_a_log_line() -> None:
    assert set(APPLIERS) == set(LINES)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_whole_game_has_log_lines_and_a_summary(seed: int) -> None:
    events, state, _states = _game(seed)
    for event in events:
        line = ENGINE.timeline(state, event)
        if line is not None:
            assert line.text
    summary = ENGINE.summary(events, state)
    assert summary.finished and summary.rounds == 2
    assert [p.total for p in summary.players] == [p.total_vp for p in state.players]
    taken = {u.id: 0 for u in state.units}
    wounds = {u.id: u.wounds_start for u in state.units}
    for event in (e for e in events if e.type == "unit_changed"):
        unit, after = event.data["unit"], event.data["wounds"]
        taken[unit] += max(wounds[unit] - after, 0)  # corrections never count as healing
        wounds[unit] = after
    assert {m.unit: m.taken for m in summary.models} == taken
    assert summary.mvp is None


def test_the_screen_disables_what_the_engine_refuses_with_its_reason() -> None:
    state = add_doors(to_battle(start()), 1)
    state = state.with_door(0, state=DoorState.SEALED)
    while state.phase is not Phase.MOVEMENT:
        state, _ = run(state, "next_phase")
    view = ENGINE.tracker(state, selected=None, params={})
    open_button = next(b for b in view.doors[0].buttons if b.command == "open_door")
    assert open_button.code == "door_sealed" and "sealed" in open_button.reason
    lines = {line.key: line.button for line in view.options[1].lines}
    assert lines["sentry-gun"].code == "not_your_turn"
    assert lines["sentry-gun"].reason == ENGINE.refusals["not_your_turn"]
    assert lines["barrikaden"].enabled  # "beliebiger Zeitpunkt in der Bewegungsphase"


class _Match:
    pk = 1
    seq = 1


@pytest.mark.parametrize("seed", [0, 1])
def test_the_board_renders_every_state_of_a_game(seed: int) -> None:
    _events, _state, states = _game(seed)
    for index, state in enumerate(states[:: max(1, len(states) // 40)] + [states[-1]]):
        view = ENGINE.tracker(state, selected=None, params={})
        html = render_to_string(
            "matches/bunkers/_board.html",
            {"view": view, "match": _Match(), "readonly": index % 5 == 4, "urls": {}},
        )
        assert "scoreboard" in html
