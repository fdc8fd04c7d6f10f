"""Stahlgewitter: the tracker screen, the match log and the summary of whole games played by
the random-play policy; the secret marker assignment stays with its owner."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from apps.systems.core.match import Event
from apps.systems.stahlgewitter.match.context import APPLIERS
from apps.systems.stahlgewitter.match.state import MatchState, Phase
from apps.systems.stahlgewitter.match.timeline import LINES
from tests.systems.samples import stahlgewitter
from tests.systems.stahlgewitter.test_match_support import (
    ENGINE,
    activate,
    hide_all,
    run,
    start,
    to_battle,
    to_markers,
    to_phase,
)
from tests.systems.test_random_play import played_game


def _game(seed: int) -> tuple[list[Event], MatchState, list[MatchState]]:
    return played_game(ENGINE, stahlgewitter(seed), seed)


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
    assert summary.finished
    assert [p.total for p in summary.players] == [p.total_vp for p in state.players]
    lost = {u.id: 0 for u in state.units}
    for event in events:
        if event.type == "damaged":
            lost[event.data["unit"]] += event.data["tp"]
    assert {m.unit: m.taken for m in summary.models} == lost


class _Match:
    pk = 1
    seq = 1


@pytest.mark.parametrize("seed", [0, 1])
def test_the_board_renders_every_state_of_a_game(seed: int) -> None:
    _events, _state, states = _game(seed)
    for index, state in enumerate(states[:: max(1, len(states) // 30)] + [states[-1]]):
        for viewer in (None, 0):
            view = ENGINE.tracker(state, selected=None, params={}, viewer=viewer)
            html = render_to_string(
                "matches/stahlgewitter/_board.html",
                {
                    "view": view,
                    "match": _Match(),
                    "readonly": index % 5 == 4,
                    "urls": {},
                    "held_seats": [0, 1],
                },
            )
            assert "scoreboard" in html


def test_the_attack_wizard_renders_a_form_per_target_with_the_odds() -> None:
    state = to_phase(activate(to_battle(), "Kommando"), Phase.RANGED)
    officer = state.units[state.active or 0].models[0]
    params = {"wizard": "attack", "model": str(officer)}
    view = ENGINE.tracker(state, selected=None, params=params)
    assert view.wizard is not None
    first = view.wizard.targets[0].buttons[0]
    # open, soft, hard, fortified, then what the odds assume (standing, beyond 5 cm)
    assert first.enabled and len(first.odds) == 5
    assert "column" in first.odds[0].text
    html = render_to_string(
        "matches/stahlgewitter/_board.html",
        {"view": view, "match": _Match(), "readonly": False, "urls": {}, "held_seats": []},
    )
    assert 'name="args.cover"' in html and 'name="args.distance"' in html


def test_the_marker_assignment_is_private_and_shown_only_to_its_owner() -> None:
    """ "Auf seinem Armeeplan ordnet jeder Spieler jeder seiner Einheiten eine Nummer zu ... Das
    Ganze dient dazu, den Gegner ... im Unklaren zu lassen": ``hide_unit`` is a private
    command (``seat_arg``), and neither the state nor the event shows the mapping to others."""
    spec = next(s for s in ENGINE.commands() if s.type == "hide_unit")
    assert spec.seat_arg == "player"
    state = to_markers(start())
    state, events = run(state, "hide_unit", player=0, unit=0, marker=2)
    assert ENGINE.public_event(events[0], viewer=1)["unit"] is None
    assert ENGINE.public_event(events[0], viewer=1)["marker"] is None
    assert ENGINE.public_event(events[0], viewer=0)["marker"] == 2
    markers = {
        m["number"]: m for m in ENGINE.public_state(state, viewer=1)["markers"] if m["player"] == 0
    }
    assert markers[2]["unit"] is None
    mine = {
        m["number"]: m for m in ENGINE.public_state(state, viewer=0)["markers"] if m["player"] == 0
    }
    assert mine[2]["unit"] == 0
    line = ENGINE.timeline(state, events[0])
    assert line is not None and "Kommando" not in line.text and "2" not in line.text


def test_a_hidden_unit_acts_as_its_marker_for_the_opponent() -> None:
    """A hidden unit's activation names its marker, never the unit, for the other seat."""
    state = to_battle(start(), reveal=False)
    unit = next(u for u in state.side_units(state.turn_player or 0))
    state, events = run(state, "activate", unit=unit.id)
    marker = state.marker_of(unit.id)
    assert marker is not None and events[0].data["marker"] == marker.number
    other = 1 - unit.player
    assert ENGINE.public_event(events[0], viewer=other)["unit"] is None
    assert ENGINE.public_event(events[0], viewer=unit.player)["unit"] == unit.id
    assert ENGINE.public_state(state, viewer=other)["active"] is None
    line = ENGINE.timeline(state, events[0])
    assert line is not None and unit.name not in line.text


def test_hidden_units_are_not_listed_by_name_to_the_opponent() -> None:
    state = hide_all(to_markers(start()))
    view = ENGINE.tracker(state, selected=None, params={}, viewer=1)
    with translation.override("en"):
        html = render_to_string(
            "matches/stahlgewitter/_board.html",
            {"view": view, "match": _Match(), "readonly": False, "urls": {}, "held_seats": [1]},
        )
    assert "Kommando" not in html
    assert "Hidden unit" in html
