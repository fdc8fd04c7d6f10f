"""The decision in progress (``Ctx``), the registry every command handler joins, and the
checks many handlers share (the stage, the phase, whose turn it is)."""

from __future__ import annotations

import random
from typing import NoReturn

from apps.systems.bunkers.match.apply import APPLIERS
from apps.systems.bunkers.match.state import MatchState
from apps.systems.bunkers.match.tables import BOARD, LEVELS, Phase, Stage
from apps.systems.core.engine import Decision
from apps.systems.core.errors import RuleViolation
from apps.systems.core.match import CommandHandlers


class Ctx(Decision[MatchState]):
    """A Bunkers and Badasses command being decided."""

    def __init__(self, state: MatchState, rng: random.Random, *, probe: bool = False) -> None:
        super().__init__(APPLIERS.apply, state, rng, probe=probe)

    def vp(self, player: int, points: int, reason: str, detail: str = "") -> None:
        if points:
            self.emit("vp_scored", player=player, points=points, reason=reason, detail=detail)


COMMANDS: CommandHandlers[Ctx] = CommandHandlers()
command = COMMANDS.command


def refuse(code: str, message: str) -> NoReturn:
    raise RuleViolation(code, message)


def require_battle(state: MatchState) -> None:
    if state.stage is not Stage.BATTLE:
        raise RuleViolation("not_in_battle", "That is done during the battle rounds.")


def require_phase(state: MatchState, *phases: Phase) -> None:
    require_battle(state)
    if state.phase not in phases:
        raise RuleViolation("wrong_phase", "That is not done in this phase.")


def require_active(state: MatchState, player: int) -> None:
    if state.active != player:
        raise RuleViolation("not_your_turn", "It is not this player's turn.")


def require_scored(state: MatchState) -> None:
    if state.scoring_due:
        raise RuleViolation("score_first", "Record who holds the objective markers first.")


def require_levels(state: MatchState) -> None:
    """Ladders, elevators and "Eile ist geboten" need a board of two levels."""
    if state.levels < 2:
        raise RuleViolation("one_level", "The board has one level: no unit changes level.")


def require_place(state: MatchState, place: str) -> None:
    """``place`` exists on this board: "board" on one level, "upper" or "lower" on two
    (a reserve is no place on the table and is checked elsewhere)."""
    if place in LEVELS:
        require_levels(state)
    if place == BOARD and state.levels >= 2:
        raise RuleViolation("choose_level", "The board has two levels: choose upper or lower.")
