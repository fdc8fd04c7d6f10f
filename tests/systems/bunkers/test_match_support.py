"""Helpers for the Bunkers and Badasses match tests (no tests here): a started match, a
command decided and applied, a refusal's code, and the walk to a battle round's phase."""

from __future__ import annotations

import random
from typing import Any

from apps.systems.bunkers.match.engine import BunkersEngine
from apps.systems.bunkers.match.state import MatchState
from apps.systems.bunkers.match.tables import Phase, Stage
from apps.systems.core.errors import RuleViolation
from apps.systems.core.match import Command, Event, replay
from apps.systems.core.rosters import CatalogData, RosterInput, UnitInput

ENGINE = BunkersEngine()
ARMY_A = (
    UnitInput("Sample Captain", 1, 100, 5, ("character",), 5, "round:40"),
    UnitInput("Sample Intercessors", 5, 100, 5, ("infantry",), 2, "round:32"),
    UnitInput("Sample Assault Squad", 5, 90, 5, ("infantry",), 2, "round:32", False, True, True),
    UnitInput("Sample Terminators", 5, 200, 10, ("infantry",), 3, "round:40", False, True, True),
)
ARMY_B = (
    UnitInput("Sample Warboss", 1, 90, 5, ("character",), 6, "round:40"),
    UnitInput("Sample Boyz", 10, 90, 5, ("infantry",), 1, "round:32"),
    UnitInput("Sample Stormboyz", 5, 70, 4, ("infantry",), 1, "round:32", False, True, True),
)


class Dice(random.Random):
    """Dice that show the given faces in order (then 1s)."""

    def __init__(self, *faces: int) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        return self.faces.pop(0) if self.faces else a


def team(units: tuple[UnitInput, ...], scale: str = "points") -> dict[str, Any]:
    roster = RosterInput(
        faction="", settings={"power_level": scale == "power"}, entries=(), units=units
    )
    return ENGINE.team_setup(roster, CatalogData({}, {}, {}))


def start(mission: str = "erobern-und-sichern", rounds: int = 5, levels: int = 2) -> MatchState:
    """A match on two levels unless told (most rules here concern the levels)."""
    setup = {
        "mode": mission,
        "rounds": rounds,
        "levels": levels,
        "players": [{"name": "Anna", **team(ARMY_A)}, {"name": "Ben", **team(ARMY_B)}],
    }
    return replay(ENGINE, ENGINE.start(setup, random.Random(1)))


def run(
    state: MatchState, command: str, rng: random.Random | None = None, **args: Any
) -> tuple[MatchState, list[Event]]:
    events = ENGINE.decide(state, Command(command, args), rng or random.Random(3))
    for event in events:
        state = ENGINE.apply(state, event)
    return state, events


def code(state: MatchState, command: str, **args: Any) -> str:
    """The refusal's code (the real decision and the screen's probe agree)."""
    probe = ENGINE.check(state, Command(command, args))
    try:
        ENGINE.decide(state, Command(command, args), random.Random(5))
    except RuleViolation as error:
        assert probe is not None and probe.code == error.code
        return error.code
    raise AssertionError(f"{command} {args} was accepted")


def to_battle(state: MatchState, *, first_zone_winner: int = 0) -> MatchState:
    """Anna (0) wins every roll-off and takes the attacker; every unit is deployed on a level
    (odd ids upper, even ids lower), or on a board of one level on the board."""
    state, _ = run(state, "roll_off", Dice(6, 1))
    state, _ = run(state, "choose_zones", player=0, side="attacker")
    state, _ = run(state, "roll_off", Dice(6, 1, 3))
    while state.stage is Stage.DEPLOY:
        unit = next(u for u in state.units if u.place == "" and u.player == state.deployer)
        place = ("upper" if unit.id % 2 else "lower") if state.levels == 2 else "board"
        state, _ = run(state, "deploy", unit=unit.id, place=place)
    state, _ = run(state, "roll_off", Dice(5, 2))
    return state


def to_phase(state: MatchState, phase: Phase, *, player: int | None = None) -> MatchState:
    """Walk the checklist to ``phase`` (of ``player``'s turn when given); markers scored as
    held by nobody."""
    for _ in range(200):
        if state.scoring_due:
            state, _ = run(state, "score_objectives", holders=[None] * len(state.markers))
        if state.phase is phase and (player is None or state.active == player):
            return state
        state, _ = run(state, "next_phase", keep=[])
    raise AssertionError("phase not reached")


def add_doors(state: MatchState, count: int = 2) -> MatchState:
    for index in range(count):
        state, _ = run(state, "add_door", name=f"D{index}")
    return state
