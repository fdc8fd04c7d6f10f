"""The rules of the probe system, written against the engine contract only: a catalogue of
models with points and a strike value, armies up to a points limit, a match of alternating
strikes (a d6 against the model's strike value takes an enemy model out), and a card per model.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

import cattrs
from cattrs.preconf.json import make_converter

from apps.systems.core.buttons import Button
from apps.systems.core.cards import Card, RosterPrint
from apps.systems.core.engine import Decision, EventAppliers, RuleEngine, Screen
from apps.systems.core.errors import RuleViolation
from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import (
    Args,
    CommandHandlers,
    CommandSpec,
    Event,
    TimelineLine,
)
from apps.systems.core.rosters import (
    CatalogData,
    RosterInput,
    RosterIssue,
    RosterOption,
    RosterReport,
    points_limit_settings,
)
from apps.systems.core.schema import FieldErrors, FieldSpec, read_int

ROUNDS: Final = 3
_json = make_converter(forbid_extra_keys=True)

# --- Catalogue -----------------------------------------------------------------------------


class ProbeSchema:
    profile_fields = (
        FieldSpec("points", _("Points"), "int", minimum=1, maximum=500),
        FieldSpec("strike", _("Strike (d6 at least)"), "int", minimum=2, maximum=6),
    )
    item_fields: tuple[FieldSpec, ...] = ()
    item_kinds: tuple[tuple[str, str], ...] = ()

    def check_profile(
        self, *, slug: str, name: str, factions: Sequence[str], stats: Mapping[str, object]
    ) -> None:
        errors = FieldErrors()
        read_int(errors, stats.get("points"), "points", 1, 500)
        read_int(errors, stats.get("strike"), "strike", 2, 6)
        errors.raise_if_any()

    def check_item(
        self, *, slug: str, name: str, kind: str, cost: int, stats: Mapping[str, object]
    ) -> None:
        raise RuleViolation("invalid_stats", "The probe system has no items.")

    def profile_summary(self, stats: Mapping[str, object]) -> dict[str, object]:
        return {"points": stats.get("points")}

    def item_summary(self, *, kind: str, stats: Mapping[str, object]) -> dict[str, object]:
        return {}

    def format_field(self, spec: FieldSpec, value: object) -> object:
        return value

    def parse_field(self, spec: FieldSpec, value: object) -> object:
        return value


# --- Rosters -------------------------------------------------------------------------------


@dataclass(frozen=True)
class EntryView:
    name: str
    points: int
    count: int
    items: tuple[str, ...] = ()


@dataclass(frozen=True)
class ArmyView:
    entries: tuple[EntryView, ...]
    options: tuple[tuple[str, str, int], ...]  # profile slug, name, points
    points: int
    points_limit: int | None
    issues: tuple[RosterIssue, ...]

    @property
    def panel(self) -> object:
        return self.options


def _points(roster: RosterInput, catalog: CatalogData) -> int:
    total = 0
    for entry in roster.entries:
        profile = catalog.profiles.get(entry.profile)
        if profile is not None:
            points = profile.stats.get("points", 0)
            total += (points if isinstance(points, int) else 0) * entry.count
    return total


class ProbeRosters:
    options: tuple[RosterOption, ...] = ()
    max_count: int = 1

    def normalise_settings(self, settings: Mapping[str, object]) -> dict[str, object]:
        return points_limit_settings(settings)

    def report(self, roster: RosterInput, catalog: CatalogData) -> RosterReport:
        issues = []
        for index, entry in enumerate(roster.entries):
            profile = catalog.profiles.get(entry.profile)
            if profile is None:
                issues.append(
                    RosterIssue(
                        "unknown_profile",
                        _("There is no model %(slug)s."),
                        {"slug": entry.profile},
                        index,
                    )
                )
            elif roster.faction not in profile.factions:
                issues.append(
                    RosterIssue(
                        "faction_mismatch",
                        _("%(name)s fights for another army."),
                        {"name": profile.name},
                        index,
                    )
                )
        if not roster.entries:
            issues.append(RosterIssue("no_models", _("The army has no models.")))
        points = _points(roster, catalog)
        limit = roster.settings.get("points_limit")
        if isinstance(limit, int) and points > limit:
            issues.append(
                RosterIssue(
                    "points_over",
                    _("The army costs %(points)s points, %(over)s more than the limit."),
                    {"points": points, "over": points - limit},
                )
            )
        return RosterReport(tuple(issues), {"points": points, "points_limit": limit})

    def builder(self, roster: RosterInput, catalog: CatalogData) -> ArmyView:
        entries = []
        for entry in roster.entries:
            profile = catalog.profiles.get(entry.profile)
            name = entry.name or (profile.name if profile else entry.profile)
            points = profile.stats.get("points", 0) if profile else 0
            entries.append(EntryView(name, points if isinstance(points, int) else 0, entry.count))
        limit = roster.settings.get("points_limit")
        return ArmyView(
            entries=tuple(entries),
            options=tuple(
                (slug, p.name, int(str(p.stats.get("points", 0))))
                for slug, p in catalog.profiles.items()
                if roster.faction in p.factions
            ),
            points=_points(roster, catalog),
            points_limit=limit if isinstance(limit, int) else None,
            issues=self.report(roster, catalog).issues,
        )


# --- Matches -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Model:
    id: int
    player: int
    name: str
    strike: int
    out: bool = False


@dataclass(frozen=True)
class State:
    players: tuple[str, ...] = ()
    models: tuple[Model, ...] = ()
    round: int = 0
    turn: int = 0
    passed: tuple[bool, ...] = ()
    winner: int | None = None
    over: bool = False


class Ctx(Decision[State]):
    pass


HANDLERS: CommandHandlers[Ctx] = CommandHandlers()
APPLIERS: EventAppliers[State] = EventAppliers()


def _left(state: State, player: int) -> list[Model]:
    return [m for m in state.models if m.player == player and not m.out]


@HANDLERS.command("strike")
def _strike(ctx: Ctx, args: Args) -> None:
    model = ctx.state.models[args.integer("unit", lo=0, hi=len(ctx.state.models) - 1)]
    if model.out:
        raise RuleViolation("model_out", f"{model.name} is out.")
    if model.player != ctx.state.turn:
        raise RuleViolation("not_your_turn", f"It is not {ctx.state.players[model.player]}'s turn.")
    target = ctx.state.models[args.integer("target", lo=0, hi=len(ctx.state.models) - 1)]
    if target.out or target.player == model.player:
        raise RuleViolation("bad_target", f"{target.name} cannot be struck.")
    roll = ctx.rng.randint(1, 6)
    ctx.emit("struck", unit=model.id, target=target.id, roll=roll, hit=roll >= model.strike)
    _next(ctx)


@HANDLERS.command("pass")
def _pass(ctx: Ctx, args: Args) -> None:
    ctx.emit("passed", player=ctx.state.turn)
    _next(ctx)


@HANDLERS.command("concede")
def _concede(ctx: Ctx, args: Args) -> None:
    player = args.integer("player", lo=0, hi=len(ctx.state.players) - 1)
    ctx.emit("game_ended", winner=1 - player)


def _next(ctx: Ctx) -> None:
    state = ctx.state
    for player in (0, 1):
        if not _left(state, player):
            ctx.emit("game_ended", winner=1 - player)
            return
    if all(state.passed) or state.turn == 1:
        if state.round >= ROUNDS:
            ctx.emit("game_ended", winner=None)
            return
        ctx.emit("round_started", round=state.round + 1)
        return
    ctx.emit("turn_changed", turn=1)


@APPLIERS.event("match_started")
def _started(state: State, data: Mapping[str, Any]) -> State:
    return State(
        players=tuple(data["players"]),
        models=_json.structure(data["models"], tuple[Model, ...]),
        round=1,
        passed=(False, False),
    )


@APPLIERS.event("struck")
def _struck(state: State, data: Mapping[str, Any]) -> State:
    if not data["hit"]:
        return state
    models = list(state.models)
    models[data["target"]] = replace(models[data["target"]], out=True)
    return replace(state, models=tuple(models))


@APPLIERS.event("passed")
def _passed(state: State, data: Mapping[str, Any]) -> State:
    passed = list(state.passed)
    passed[data["player"]] = True
    return replace(state, passed=tuple(passed))


@APPLIERS.event("turn_changed")
def _turn(state: State, data: Mapping[str, Any]) -> State:
    return replace(state, turn=data["turn"])


@APPLIERS.event("round_started")
def _round(state: State, data: Mapping[str, Any]) -> State:
    return replace(state, round=data["round"], turn=0, passed=(False, False))


@APPLIERS.event("game_ended")
def _ended(state: State, data: Mapping[str, Any]) -> State:
    return replace(state, over=True, winner=data["winner"])


@dataclass(frozen=True)
class Board:
    """The probe's tracker screen (``core.match.TrackerView``)."""

    heading: tuple[TimelineLine, ...]
    over: bool
    players: tuple[str, ...]
    models: tuple[Model, ...]
    strikes: tuple[Button, ...]
    pass_button: Button
    concede: tuple[Button, ...]

    def command_buttons(self) -> Iterable[Button]:
        return (*self.strikes, self.pass_button, *self.concede)

    def screens(self) -> Iterable[Mapping[str, str]]:
        return ()


class ProbeEngine(RuleEngine[State, Ctx]):
    system_name = "Probe"
    handlers = HANDLERS
    appliers = APPLIERS
    specs = (
        CommandSpec("strike", _("A model strikes an enemy model.")),
        CommandSpec("pass", _("The player whose turn it is passes.")),
        CommandSpec("concede", _("A player gives up.")),
    )
    refusals = {
        "model_out": _("That model is out of the game."),
        "not_your_turn": _("It is not this player's turn."),
        "bad_target": _("That model cannot be struck."),
        "game_over": _("The game is over."),
        "unknown_command": _("The probe system has no such command."),
        "invalid_args": _("The command's details are not valid."),
        "nothing_to_choose": _("There is nothing to choose from."),
    }

    def initial_state(self) -> State:
        return State()

    def context(self, state: State, rng: random.Random, *, probe: bool) -> Ctx:
        return Ctx(self.apply, state, rng, probe=probe)

    def finished(self, state: State) -> bool:
        return state.over

    def round_of(self, state: State) -> int:
        return state.round

    def team_setup(self, roster: RosterInput, catalog: CatalogData) -> dict[str, Any]:
        models = []
        for entry in roster.entries:
            profile = catalog.profiles.get(entry.profile)
            if profile is not None:
                models += [
                    {"name": entry.name or profile.name, "strike": profile.stats["strike"]}
                ] * entry.count
        return {"models": models}

    def start(self, setup: Mapping[str, Any], rng: random.Random) -> list[Event]:
        players = Args(setup).objects("players", most=2)
        if len(players) != 2:
            raise RuleViolation("players", "A probe match has 2 players.")
        models = [
            {"id": n, "player": p, "name": m["name"], "strike": m["strike"], "out": False}
            for n, (p, m) in enumerate(
                (p, m) for p, player in enumerate(players) for m in player.raw("models")
            )
        ]
        names = [player.text("name") for player in players]
        return [Event("match_started", {"players": names, "models": models})]

    def present(self, state: State, screen: Screen) -> Board:
        offers = screen.offers
        strikes = tuple(
            offers.command(
                "strike",
                "%(unit)s → %(target)s",
                params={"unit": m.name, "target": t.name},
                args={"unit": m.id, "target": t.id},
            )
            for m in state.models
            if not m.out and m.player == state.turn
            for t in state.models
            if not t.out and t.player != m.player
        )
        heading = (
            TimelineLine("Probe"),
            TimelineLine(_("Round %(round)s"), {"round": state.round}),
        )
        return Board(
            heading=heading,
            over=state.over,
            players=state.players,
            models=state.models,
            strikes=strikes,
            pass_button=offers.command("pass", _("Pass")),
            concede=tuple(
                offers.command(
                    "concede", "%(player)s concedes", params={"player": name}, args={"player": i}
                )
                for i, name in enumerate(state.players)
            ),
        )

    def dump_state(self, state: State) -> dict[str, Any]:
        data: dict[str, Any] = _json.unstructure(state)
        return data

    def load_state(self, data: Mapping[str, Any]) -> State:
        try:
            return _json.structure(dict(data), State)
        except cattrs.BaseValidationError as error:
            raise ValueError(str(error)) from None

    def public_state(self, state: State, *, viewer: int | None = None) -> dict[str, Any]:
        return self.dump_state(state)

    def public_event(self, event: Event, *, viewer: int | None = None) -> dict[str, Any]:
        return dict(event.data)

    def result(self, state: State) -> Mapping[str, Any] | None:
        if not state.over:
            return None
        left = [len(_left(state, p)) for p in (0, 1)]
        winners = [state.winner] if state.winner is not None else [0, 1]
        return {"winners": winners, "draw": state.winner is None, "vp": left}

    def timeline(self, state: State, event: Event) -> TimelineLine | None:
        if event.type != "struck":
            return None
        data = event.data
        return TimelineLine(
            "%(unit)s strikes %(target)s: %(roll)s",
            {
                "unit": state.models[data["unit"]].name,
                "target": state.models[data["target"]].name,
                "roll": data["roll"],
            },
        )


# --- Cards ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class ModelFace:
    name: str
    points: int
    strike: int


class ProbeCards:
    def roster_print(self, roster: RosterInput, catalog: CatalogData) -> RosterPrint:
        cards = []
        for entry in roster.entries:
            profile = catalog.profiles.get(entry.profile)
            if profile is None:
                continue
            face = ModelFace(
                entry.name or profile.name,
                int(str(profile.stats["points"])),
                int(str(profile.stats["strike"])),
            )
            cards += [Card("model", face.name, face)] * entry.count
        return RosterPrint(tuple(cards), sheet={"points": _points(roster, catalog)})

    def blank_cards(self) -> tuple[Card, ...]:
        return (Card("model", "blank", ModelFace("", 0, 0)),)

    def split(self, card: Card) -> tuple[Card, Card] | None:
        return None
