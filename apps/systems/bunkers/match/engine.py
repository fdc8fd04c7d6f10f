"""The Bunkers and Badasses match engine as the rest of the app sees it."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Final

from apps.systems.bunkers.army import starting_cp
from apps.systems.bunkers.match.apply import APPLIERS
from apps.systems.bunkers.match.commands import COMMAND_SPECS
from apps.systems.bunkers.match.context import Ctx
from apps.systems.bunkers.match.handlers import COMMANDS
from apps.systems.bunkers.match.refusals import REFUSAL_DETAILS, REFUSALS
from apps.systems.bunkers.match.serial import dump, load
from apps.systems.bunkers.match.state import MatchState, PlayerState, Unit
from apps.systems.bunkers.match.summary import summary
from apps.systems.bunkers.match.tables import (
    DEFAULT_LEVELS,
    DEFAULT_ROUNDS,
    LEVEL_COUNTS,
    MAX_ROUNDS,
    MISSION_LABELS,
    Mission,
    Stage,
)
from apps.systems.bunkers.match.timeline import timeline_line
from apps.systems.bunkers.match.tracker.page import TrackerView, tracker_view
from apps.systems.bunkers.roster import army_totals
from apps.systems.core.engine import RuleEngine, Screen
from apps.systems.core.errors import RuleViolation
from apps.systems.core.i18n import gettext_noop
from apps.systems.core.match import Args, Command, Event, TimelineLine
from apps.systems.core.rosters import CatalogData, RosterInput
from apps.systems.core.schema import FieldSpec
from apps.systems.core.summary import Summary

MAX_UNITS: Final = 60  # an army holds up to 60 units: none is left out
SETUP_FIELDS: Final = (
    FieldSpec(
        "rounds",
        gettext_noop("Battle rounds (the 40K 9th edition standard is 5)"),
        "int",
        minimum=1,
        maximum=MAX_ROUNDS,
        default=DEFAULT_ROUNDS,
    ),
    # "Die Platte kann dabei in zwei Ebenen aufgeteilt werden."
    FieldSpec(
        "levels",
        gettext_noop("Levels of the board"),
        "choice",
        choices=(
            ("1", gettext_noop("One level")),
            ("2", gettext_noop("Two levels (upper and lower, ladders and elevators)")),
        ),
        default=str(DEFAULT_LEVELS),
        help=gettext_noop("On two levels every player deploys their units 50:50 over both levels."),
    ),
)
# Events that carry the hidden artifact, and their keys that name it.
SECRET_EVENTS: Final = {"artifact_hidden": ("marker", "die")}


def team_units(roster: RosterInput) -> list[dict[str, Any]]:
    return [
        {
            "name": unit.name[:60] or "?",
            "models": max(unit.models, 1),
            "wounds": max(unit.wounds, 1),
            "points": max(unit.points, 0),
            "power": max(unit.power, 0),
            "keywords": list(unit.keywords)[:20],
            "base": unit.base,
            "deep_strike": unit.deep_strike,
            "reserve": unit.reserve,
        }
        for unit in roster.units[:MAX_UNITS]
    ]


def _units(player: int, first_id: int, entries: Sequence[Args]) -> list[Unit]:
    units = []
    for offset, entry in enumerate(entries):
        models = entry.integer("models", 1, lo=1, hi=200)
        wounds = entry.integer("wounds", 1, lo=1, hi=99)
        units.append(
            Unit(
                id=first_id + offset,
                player=player,
                name=entry.text("name")[:60],
                models_start=models,
                wounds_per_model=wounds,
                models=models,
                wounds=models * wounds,
                points=entry.integer("points", 0, lo=0, hi=10_000),
                power=entry.integer("power", 0, lo=0, hi=1_000),
                base=entry.text("base", ""),
                deep_strike=entry.boolean("deep_strike", False),
                keywords=entry.strs("keywords", most=20),
            )
        )
    return units


def _starting_cp(scale: str, points: int, power: int) -> int:
    return starting_cp(None, power) if scale == "power" else starting_cp(points, None)


class BunkersEngine(RuleEngine[MatchState, Ctx]):
    system_name = "Bunkers and Badasses"
    schema_version = 1
    handlers = COMMANDS
    appliers = APPLIERS
    specs = COMMAND_SPECS
    refusals = REFUSALS
    refusal_details = REFUSAL_DETAILS

    def setup_fields(self) -> tuple[FieldSpec, ...]:
        return SETUP_FIELDS

    def mode_choices(self) -> tuple[tuple[str, str], ...]:
        return tuple((mission.value, MISSION_LABELS[mission]) for mission in Mission)

    def context(self, state: MatchState, rng: random.Random, *, probe: bool) -> Ctx:
        return Ctx(state, rng, probe=probe)

    def before(self, ctx: Ctx, command: Command, args: Args) -> None:
        if not ctx.state.players:
            raise RuleViolation("not_started", "The match has not started.")

    def round_of(self, state: MatchState) -> int:
        return state.round

    def mode_of(self, state: MatchState) -> str:
        return state.mission

    def present(self, state: MatchState, screen: Screen) -> TrackerView:
        """Nothing on the screen depends on the viewer: the artifact stays hidden from all."""
        return tracker_view(state, screen)

    def team_setup(self, roster: RosterInput, catalog: CatalogData) -> dict[str, Any]:
        """The army's units with their starting strength, its points and power totals, the
        scale it was built in and its starting CP (``roster.army_totals``: by the agreed
        limit, else the army's total; 1 PL counts as 20 points)."""
        totals = army_totals(roster.units[:MAX_UNITS], roster.settings)
        units = team_units(roster)
        return {
            "faction": roster.faction,
            "scale": str(totals["scale"]),
            "points": sum(u["points"] for u in units),
            "power": sum(u["power"] for u in units),
            "cp": totals["starting_cp"],
            "units": units,
        }

    def start(self, setup: Mapping[str, Any], rng: random.Random) -> list[Event]:
        """``setup``: ``mode`` (the mission), ``rounds``, ``levels`` (1 or 2, default 1) and
        ``players`` as ``team_setup`` makes them (plus ``name``)."""
        args = Args(setup)
        mission = args.text("mode", Mission.EROBERN.value)
        if mission not in {m.value for m in Mission}:
            raise RuleViolation("unknown_mission", f"There is no mission {mission!r}.")
        rounds = args.integer("rounds", DEFAULT_ROUNDS, lo=1, hi=MAX_ROUNDS)
        levels = args.integer("levels", DEFAULT_LEVELS, lo=min(LEVEL_COUNTS), hi=max(LEVEL_COUNTS))
        players = args.objects("players", most=4)
        if len(players) != 2:
            raise RuleViolation("players", "A Bunkers and Badasses match has 2 players.")
        player_states: list[PlayerState] = []
        units: list[Unit] = []
        for index, player in enumerate(players):
            name = player.text("name", "")[:40] or f"Player {index + 1}"
            entries = player.objects("units", most=MAX_UNITS)
            if not entries:
                raise RuleViolation("empty_team", f"{name} has no units.")
            units += _units(index, len(units), entries)
            scale = player.text("scale", "points", choices=("points", "power"))
            points = player.integer("points", 0, lo=0, hi=100_000)
            power = player.integer("power", 0, lo=0, hi=10_000)
            cp = player.integer("cp", _starting_cp(scale, points, power), lo=0, hi=99)
            player_states.append(
                PlayerState(
                    index=index,
                    name=name,
                    faction=player.text("faction", "")[:60],
                    army_points=points,
                    army_power=power,
                    scale=scale,
                    cp=cp,
                )
            )
        started = Event(
            "match_started",
            {
                "mission": mission,
                "rounds": rounds,
                "levels": levels,
                "players": dump(tuple(player_states)),
                "units": dump(tuple(units)),
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
        """The state without the artifact's marker while nobody has found it."""
        data = self.dump_state(state)
        if not state.artifact_found:
            data["artifact"] = None
        return data

    def public_event(self, event: Event, *, viewer: int | None = None) -> dict[str, Any]:
        """An event without the hidden artifact's marker (a revealed marker says itself
        whether the artifact was under it)."""
        data = dict(event.data)
        for key in SECRET_EVENTS.get(event.type, ()):
            data[key] = None
        return data

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
            "vp": [p.total_vp for p in state.players],
        }

    def timeline(self, state: MatchState, event: Event) -> TimelineLine | None:
        return timeline_line(state, event)
