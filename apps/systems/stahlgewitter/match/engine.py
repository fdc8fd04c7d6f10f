"""The Stahlgewitter match engine as the rest of the app sees it: the settings of a new match,
the teams from rosters, the opening event, the secrets each seat may see, the result."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Final

from apps.systems.core.engine import RuleEngine, Screen
from apps.systems.core.errors import RuleViolation
from apps.systems.core.i18n import gettext_noop
from apps.systems.core.match import Args, Command, Event, TimelineLine
from apps.systems.core.rosters import CatalogData, RosterInput
from apps.systems.core.schema import FieldSpec
from apps.systems.core.summary import Summary
from apps.systems.stahlgewitter.match.context import Ctx
from apps.systems.stahlgewitter.match.factions import FREE, MODES
from apps.systems.stahlgewitter.match.handlers import (
    APPLIERS,
    COMMAND_SPECS,
    COMMANDS,
    REFUSAL_DETAILS,
    REFUSALS,
)
from apps.systems.stahlgewitter.match.secrets import public_event, public_state
from apps.systems.stahlgewitter.match.serial import dump, load
from apps.systems.stahlgewitter.match.state import (
    Marker,
    MatchState,
    Model,
    PlayerState,
    Stage,
    Unit,
)
from apps.systems.stahlgewitter.match.summary import summary
from apps.systems.stahlgewitter.match.team import build, commander, team_setup
from apps.systems.stahlgewitter.match.timeline import timeline_line
from apps.systems.stahlgewitter.match.tracker.page import TrackerView, tracker_view
from apps.systems.stahlgewitter.match.victory import deciding_points

DEFAULT_ROUNDS: Final = 6
# What may be sent while a surrender waits for the enemy's answer.
ANSWERS: Final = frozenset({"answer_surrender", "concede", "end_on_time"})
MAX_ROUNDS: Final = 20
SETUP_FIELDS: Final = (
    FieldSpec(
        "rounds",
        gettext_noop("Rounds (the agreed number of a free game)"),
        "int",
        minimum=1,
        maximum=MAX_ROUNDS,
        default=DEFAULT_ROUNDS,
    ),
    FieldSpec(
        "start_wik",
        gettext_noop("Optional rule: the start roll adds the WIK of each side's best leader"),
        "bool",
        required=False,
        default=False,
    ),
)


class StahlgewitterEngine(RuleEngine[MatchState, Ctx]):
    system_name = "Stahlgewitter"
    schema_version = 1
    handlers = COMMANDS
    appliers = APPLIERS
    specs = COMMAND_SPECS
    refusals = REFUSALS
    refusal_details = REFUSAL_DETAILS
    # A hidden unit's buttons are shown to its owner only.
    seat_screens = True

    def setup_fields(self) -> tuple[FieldSpec, ...]:
        return SETUP_FIELDS

    def mode_choices(self) -> tuple[tuple[str, str], ...]:
        return MODES

    def context(self, state: MatchState, rng: random.Random, *, probe: bool) -> Ctx:
        return Ctx(state, rng, probe=probe)

    def before(self, ctx: Ctx, command: Command, args: Args) -> None:
        if not ctx.state.players:
            raise RuleViolation("not_started", "The match has not started.")
        if ctx.state.surrender is not None and command.type not in ANSWERS:
            raise RuleViolation("answer_surrender", "The enemy answers the surrender first.")

    def settle(self, ctx: Ctx) -> None:
        from apps.systems.stahlgewitter.match.victory import check_elimination

        check_elimination(ctx)

    def round_of(self, state: MatchState) -> int:
        return state.round

    def mode_of(self, state: MatchState) -> str:
        return state.mode

    def present(self, state: MatchState, screen: Screen) -> TrackerView:
        return tracker_view(state, screen)

    def team_setup(self, roster: RosterInput, catalog: CatalogData) -> dict[str, Any]:
        return team_setup(roster, catalog)

    def start(self, setup: Mapping[str, Any], rng: random.Random) -> list[Event]:
        """``setup``: ``mode`` (a free game or a scenario, ``MODES``), ``rounds``,
        ``start_wik`` and ``players`` as ``team_setup`` makes them (plus ``name``)."""
        args = Args(setup)
        mode = args.text("mode", FREE) or FREE
        if mode not in {value for value, _label in MODES}:
            raise RuleViolation("unknown_mode", f"There is no game mode {mode!r}.")
        rounds = args.integer("rounds", DEFAULT_ROUNDS, lo=1, hi=MAX_ROUNDS)
        start_wik = args.boolean("start_wik", False)
        players = args.objects("players", most=4)
        if len(players) != 2:
            raise RuleViolation("players", "A Stahlgewitter match has 2 players.")
        states: list[PlayerState] = []
        units: list[Unit] = []
        models: list[Model] = []
        markers: list[Marker] = []
        for index, player in enumerate(players):
            name = player.text("name", "")[:40] or f"Player {index + 1}"
            entries = player.objects("units", most=30)
            if not entries:
                raise RuleViolation("empty_team", f"{name} has no units.")
            own_units, own_models, own_markers = build(index, entries, len(units), len(models))
            units += own_units
            models += own_models
            markers += own_markers
            chief = commander(own_models)
            states.append(
                PlayerState(
                    index=index,
                    name=name,
                    faction=player.text("faction", "")[:60],
                    army_points=sum(m.points for m in own_models),
                    commander=chief.id if chief else None,
                )
            )
        started = Event(
            "match_started",
            {
                "mode": mode,
                "rounds": rounds,
                "start_wik": start_wik,
                "players": dump(tuple(states)),
                "units": dump(tuple(units)),
                "models": dump(tuple(models)),
                "markers": dump(tuple(markers)),
            },
        )
        return [started]

    def initial_state(self) -> MatchState:
        return MatchState()

    def dump_state(self, state: MatchState) -> dict[str, Any]:
        data: dict[str, Any] = dump(state)
        return data

    def load_state(self, data: Mapping[str, Any]) -> MatchState:
        return load(data, MatchState)

    def public_state(self, state: MatchState, *, viewer: int | None = None) -> dict[str, Any]:
        return public_state(self.dump_state(state), state, viewer)

    def public_event(self, event: Event, *, viewer: int | None = None) -> dict[str, Any]:
        return public_event(event, viewer)

    def finished(self, state: MatchState) -> bool:
        return state.stage is Stage.OVER

    def summary(self, events: Sequence[Event], state: MatchState) -> Summary:
        return summary(events, state)

    def result(self, state: MatchState) -> dict[str, Any] | None:
        if state.result is None:
            return None
        return {
            "winners": list(state.result.winners),
            "draw": state.result.draw,
            "reason": state.result.reason,
            "vp": [deciding_points(state, p.index) for p in state.players],
        }

    def timeline(self, state: MatchState, event: Event) -> TimelineLine | None:
        return timeline_line(state, event)
