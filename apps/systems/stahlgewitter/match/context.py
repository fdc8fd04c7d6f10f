"""The registries every topic module of the engine joins (command handlers, event appliers,
command specs, refusal messages), the decision in progress (``Ctx``) and the checks many
handlers share. A topic (setup, rounds, attacks, morale, ...) adds its commands without
touching the core: it registers with ``@command``, ``@event``, ``specs(...)`` and
``refusals(...)`` when ``handlers`` imports it."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import NoReturn

from apps.systems.core.engine import Decision, EventAppliers
from apps.systems.core.errors import RuleViolation
from apps.systems.core.match import CommandHandlers, CommandSpec
from apps.systems.stahlgewitter.match.state import MatchState, Model, Phase, Stage, Unit

APPLIERS: EventAppliers[MatchState] = EventAppliers()
event = APPLIERS.event
SPECS: list[CommandSpec] = []
REFUSALS: dict[str, str] = {}
REFUSAL_DETAILS: dict[str, str] = {}


def specs(*commands: CommandSpec) -> None:
    SPECS.extend(commands)


def refusals(messages: Mapping[str, str], details: Mapping[str, str] | None = None) -> None:
    REFUSALS.update(messages)
    REFUSAL_DETAILS.update(details or {})


class Ctx(Decision[MatchState]):
    """A Stahlgewitter command being decided."""

    def __init__(self, state: MatchState, rng: random.Random, *, probe: bool = False) -> None:
        super().__init__(APPLIERS.apply, state, rng, probe=probe)


COMMANDS: CommandHandlers[Ctx] = CommandHandlers()
command = COMMANDS.command


def refuse(code: str, message: str) -> NoReturn:
    raise RuleViolation(code, message)


def require_battle(state: MatchState) -> None:
    if state.stage is not Stage.BATTLE:
        refuse("not_in_battle", "That is done during the battle rounds.")


def require_phase(state: MatchState, *phases: Phase) -> None:
    require_battle(state)
    if state.active is None:
        refuse("no_active_unit", "No unit is taking its turn.")
    if state.phase not in phases:
        refuse("wrong_phase", "That is not done in this phase.")


def active_unit(state: MatchState) -> Unit:
    if state.active is None:
        refuse("no_active_unit", "No unit is taking its turn.")
    return state.units[state.active]


def require_shown(state: MatchState, unit_id: int) -> None:
    """A hidden unit acts as its marker: nothing about its models is done or said until its
    player sets it up ("Ein Spieler kann jederzeit entscheiden, statt einer Spielmarke die von
    ihr repräsentierte Einheit aufzubauen": ``reveal_marker`` with the reason ``choice``)."""
    unit = state.units[unit_id]
    marker = state.marker_of(unit_id)
    if not unit.revealed and marker is not None:
        refuse("unit_hidden", "The unit is still a hidden marker: set it up (reveal it) first.")


def own_model(state: MatchState, model_id: int) -> Model:
    """A living model of the unit taking its turn."""
    model = state.model(model_id)
    if state.active is None or model.unit != state.active:
        refuse("not_active_unit", "That model's unit is not taking its turn.")
    if model.dead:
        refuse("model_dead", "That model is out of the game.")
    return model
