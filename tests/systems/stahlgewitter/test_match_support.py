"""Stahlgewitter match tests: the helpers every test_match_* file uses (a sample match, scripted
dice, running commands, skipping the setup) and the engine's registration."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from apps.systems.core.match import Command, Event, replay
from apps.systems.core.registry import registry
from apps.systems.stahlgewitter.match.engine import StahlgewitterEngine
from apps.systems.stahlgewitter.match.state import MatchState, Model, Phase, Stage, Unit
from tests.systems.samples import stahlgewitter

ENGINE = StahlgewitterEngine()


class Dice(random.Random):
    """Scripted dice: each ``randint`` answers the next face (then falls back to seed 0)."""

    def __init__(self, faces: Iterable[int] = ()) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        if self.faces:
            face = self.faces.pop(0)
            assert a <= face <= b, (face, a, b)
            return face
        return super().randint(a, b)


def start(seed: int = 1, **setup: Any) -> MatchState:
    """The sample match just opened (SEK, player 0, against Legion 666, player 1)."""
    events = ENGINE.start({**stahlgewitter(seed), **setup}, random.Random(seed))
    state: MatchState = replay(ENGINE, events)
    return state


def run(
    state: MatchState, command: str, faces: Iterable[int] = (), **args: Any
) -> tuple[MatchState, list[Event]]:
    events = ENGINE.decide(state, Command(command, args), Dice(faces))
    for event in events:
        state = ENGINE.apply(state, event)
    return state, events


def to_markers(state: MatchState) -> MatchState:
    state, _ = run(state, "choose_terrain", [7, 3], method="quarters")
    state, _ = run(state, "choose_zone", player=0, edge="south")
    state, _ = run(state, "roll_deployment", [8, 2])
    return state


def hide_all(state: MatchState) -> MatchState:
    for unit in state.units:
        free = [m.number for m in state.player_markers(unit.player) if m.unit is None]
        state, _ = run(state, "hide_unit", player=unit.player, unit=unit.id, marker=free[0])
    return state


def place_all(state: MatchState) -> MatchState:
    while state.stage is Stage.MARKERS:
        assert state.placer is not None
        marker = next(m for m in state.player_markers(state.placer) if not m.placed)
        state, _ = run(state, "place_marker", player=state.placer, marker=marker.number)
    return state


def to_battle(
    state: MatchState | None = None, *, first: int = 0, reveal: bool = True
) -> MatchState:
    """Setup done, round 1 begun with ``first`` as the start player; every unit revealed
    (``reveal``) so that attacks can target it."""
    state = place_all(hide_all(to_markers(state or start())))
    state, _ = run(state, "roll_start", [9, 2] if first == 0 else [2, 9])
    if reveal:
        for unit in state.units:
            marker = state.marker_of(unit.id)
            assert marker is not None
            state, _ = run(
                state, "reveal_marker", player=unit.player, marker=marker.number, reason="seen"
            )
    return state


def unit_named(state: MatchState, name: str) -> Unit:
    return next(u for u in state.units if u.name == name)


def model_named(state: MatchState, name: str) -> Model:
    return next(m for m in state.models if m.name == name)


def activate(state: MatchState, name: str) -> MatchState:
    state, _ = run(state, "activate", unit=unit_named(state, name).id)
    return state


def to_phase(state: MatchState, phase: Phase) -> MatchState:
    while state.phase is not phase:
        state, _ = run(state, "next_phase")
    return state


def types(events: Iterable[Event]) -> list[str]:
    return [event.type for event in events]


def test_the_engine_is_registered_for_stahlgewitter() -> None:
    engine = registry().get("stahlgewitter").matches
    assert isinstance(engine, StahlgewitterEngine)
    assert {spec.type for spec in engine.commands()} >= {"concede", "end_on_time", "attack"}


def test_team_setup_makes_units_of_a_head_entry_and_its_attached_entries() -> None:
    """ "Einheit: Mehrere Modelle, die im Spielverlauf als Gruppe miteinander agieren": a unit
    is the head entry and the entries attached to it; ``count`` identical models each."""
    state = start()
    kommando = unit_named(state, "Kommando")
    names = [state.models[m].name for m in kommando.models]
    assert names == ["Kommando", "Soldat 1", "Soldat 2", "Soldat 3"]
    assert [u.name for u in state.side_units(1)] == ["Offizier", "Kultisten", "Trupp"]
    assert len(state.unit_models(unit_named(state, "Kultisten").id)) == 4


def test_a_model_keeps_its_printed_values_with_its_standard_armour() -> None:
    """With its standard armour a model shows the printed line (SEK Offizier: B 8, PW 4)."""
    officer = model_named(start(), "Kommando")
    assert (officer.b, officer.pw, officer.ges, officer.wik, officer.tp) == (8, 4, 1, 9, 1)
    assert officer.armour_pw == 3  # Rockwell-Kampfpanzerung under the printed PW
    assert officer.points > 0 and officer.leader
