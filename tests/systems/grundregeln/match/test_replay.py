"""The log is the truth: every command type's events replay to the same state (the toolkit checks
after every command, the conftest again after each test), illegal commands change nothing, and
seeded random play through the tracker's own buttons over the shipped sample catalogue never
meets a button the engine refuses."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from apps.systems.core.buttons import Field
from apps.systems.core.errors import RuleViolation
from apps.systems.core.match import Command, Event
from apps.systems.core.rosters import CatalogData, CatalogEntry, EntryInput, RosterInput
from apps.systems.grundregeln.match.commands import COMMAND_SPECS
from apps.systems.grundregeln.match.state import Phase
from apps.systems.grundregeln.match.view import Button, tracker_view
from tests.systems.grundregeln.match.helpers import (
    ENGINE,
    Game,
    model,
    npc,
    profile,
    scenario,
    setup,
)

FIXTURES = Path(__file__).resolve().parents[4] / "fixtures" / "grundregeln"

Scenario = Callable[[], Game]
SCENARIOS: dict[str, Scenario] = {}


def covers(name: str) -> Callable[[Scenario], Scenario]:
    def register(fn: Scenario) -> Scenario:
        SCENARIOS[name] = fn
        return fn

    return register


def npc_round() -> Game:
    data = scenario(npcs=[npc("Hund", "active", size="S"), npc("Bürger", "passive")])
    g = Game(setup(data=data)).begin()
    for unit in ("Anna 1", "Ben 1", "Anna 2", "Ben 2"):
        g.act(unit, "walk")
    return g


@covers("roll_round_start")
def _roll() -> Game:
    g = Game(setup())
    g.dice(2, 2, 3, 1).do("roll_round_start")
    return g


@covers("choose_starter")
def _starter() -> Game:
    return Game(setup()).begin(starter=1)


@covers("test_morale")
def _test_morale() -> Game:
    g = Game(setup()).begin()
    g.dice(5, 5, 5, 5, 5, 5, 1, 1, 1, 1, 3).act("Anna 1", "strike", "Ben 1")
    g.dice(4, 4, 4).do("test_morale", unit=g.unit("Ben 1"))
    return g


@covers("declare")
def _declare() -> Game:
    g = Game(setup()).begin()
    g.dice(6, 6, 6, 2, 2, 2, 2, 2, 2).act("Anna 1", "charge", "Ben 1")
    return g


@covers("react")
def _react() -> Game:
    g = Game(setup()).begin()
    g.do("declare", unit=g.unit("Anna 1"), action="strike", target=g.unit("Ben 1"))
    g.do("react", unit=g.unit("Ben 1"), action="strike")
    g.do("react", unit=g.unit("Ben 2"), action="block")
    return g


@covers("reorder_reaction")
def _reorder() -> Game:
    g = _react()
    g.do("reorder_reaction", index=1)
    return g


@covers("resolve")
def _resolve() -> Game:
    g = _react()
    for _ in range(3):
        g.do("resolve")
    return g


@covers("skip_npc")
def _skip() -> Game:
    g = npc_round()
    g.do("skip_npc", unit=g.unit("Hund"))
    return g


@covers("move_npc")
def _move_npc() -> Game:
    g = _skip()
    g.do("move_npc", unit=g.unit("Bürger"), action="sprint")
    g.do("react", unit=g.unit("Anna 1"), action="block")
    for _ in range(2):
        g.do("resolve")
    return g


@covers("end_npc_moves")
def _end_moves() -> Game:
    g = _skip()
    g.do("end_npc_moves", player=0)
    return g


def test_a_stored_npc_move_from_before_reactions_to_npc_moves_still_replays() -> None:
    """Before commit 1eeb848 "move_npc" moved the NPC at once: one "npc_moved" event with
    its roll and distance. Matches stored then still replay and show it."""
    g = _skip()
    burger = g.model("Bürger")
    stored = Event(
        "npc_moved",
        {
            "player": 0,
            "unit": burger.id,
            "action": "sprint",
            "roll": {"dice": [6, 2], "extra": [], "rerolled": []},
            "distance": 8 + burger.move,
            "odds": [["at_least", "1/12"]],
            "next": 1,
            "n": g.state.command_no + 1,
        },
    )
    line = ENGINE.timeline(g.state, stored)
    g._record([stored])
    (record,) = g.state.rolls
    assert (record.kind, record.dice, record.unit) == ("move", (6, 2), burger.id)
    assert (record.result, record.odds) == (8 + burger.move, (("at_least", "1/12"),))
    assert g.model("Bürger").activated and g.state.turn == 1
    assert g.state.players[0].npc_moves == 1
    assert line is not None and line.template.endswith('%(distance)s".')
    assert line.params["distance"] == f"{8 + burger.move}"


@covers("score_round")
def _score() -> Game:
    g = Game(setup(data=scenario("objectives", objectives=1, vp_objective=1))).begin()
    for unit in ("Anna 1", "Ben 1", "Anna 2", "Ben 2"):
        g.act(unit, "walk")
    g.do("score_round", holders=[1])
    return g


@covers("fall")
def _fall() -> Game:
    g = Game(setup()).begin()
    g.do("fall", unit=g.unit("Anna 1"), distance=3)
    return g


@covers("roll")
def _free_roll() -> Game:
    g = Game(setup()).begin()
    g.do("roll", dice=3, label="Tür")
    return g


@covers("adjust")
def _adjust() -> Game:
    g = Game(setup()).begin()
    g.do("adjust", unit=g.unit("Ben 2"), lp=1, fleeing=True, note="Falle")
    return g


@covers("adjust_vp")
def _adjust_vp() -> Game:
    g = Game(setup()).begin()
    g.do("adjust_vp", player=1, points=2, note="Mission")
    return g


@covers("concede")
def _concede() -> Game:
    g = Game(setup()).begin()
    g.do("concede", player=1)
    return g


def test_every_command_type_has_a_replay_scenario() -> None:
    assert set(SCENARIOS) == {spec.type for spec in COMMAND_SPECS} - {"undo"}


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_replay_equals_snapshot(name: str) -> None:
    g = SCENARIOS[name]()
    assert any(event.type for event in g.log)
    # The snapshot survives the JSON round trip the database gives it.
    data = json.loads(json.dumps(ENGINE.dump_state(g.state)))
    assert ENGINE.dump_state(ENGINE.load_state(data)) == ENGINE.dump_state(g.state)


def test_a_refused_command_changes_nothing() -> None:
    g = Game(setup()).begin()
    g.refused("declare", "not_your_turn", unit=g.unit("Ben 1"), action="walk")
    g.refused("resolve", "no_action_pending")


# --- Random play through the tracker's buttons -------------------------------------------------


def _catalog() -> tuple[CatalogData, list[dict[str, Any]]]:
    doc = json.loads((FIXTURES / "catalog.json").read_text(encoding="utf-8"))
    profiles = {
        p["slug"]: CatalogEntry(
            p["slug"], p["name"], p["stats"], sample=True, factions=tuple(p["factions"])
        )
        for p in doc["profiles"]
    }
    items = {
        i["slug"]: CatalogEntry(
            i["slug"], i["name"], i["stats"], sample=True, kind=i["kind"], cost=i["cost"]
        )
        for i in doc["items"]
    }
    factions = {f["slug"]: f["name"] for f in doc["factions"]}
    missions = json.loads((FIXTURES / "scenarios.json").read_text(encoding="utf-8"))["missions"]
    return CatalogData(factions, profiles, items), missions


def _args(button: Button) -> dict[str, Any]:
    """The command's arguments as the form sends them: hidden fields and typed-in numbers."""
    args: dict[str, Any] = {}
    fields = [*button.fields, *(Field(i.name, str(i.value)) for i in button.inputs)]
    for field in fields:
        name, _sep, kind = field.name.removeprefix("args.").partition(":")
        args[name] = (
            int(field.value)
            if kind == "int"
            else field.value == "true"
            if kind == "bool"
            else field.value
        )
    return args


def _choices(state: Any, rng: random.Random) -> list[Command]:
    """What a person could tap now: every enabled button on the page, after selecting a model
    or opening a target choice where the page offers one."""
    commands: list[Command] = []
    view = tracker_view(state, selected=None, params={})
    buttons = list(view.prompt.buttons)
    if view.pending is not None:
        buttons += [view.pending.resolve, view.pending.lapse]
    for unit in state.models:
        selection = tracker_view(state, selected=unit.id, params={}).selection
        for group in selection.groups if selection else ():
            for button in group.buttons:
                if not button.enabled:
                    continue
                if button.is_wizard:
                    wizard = tracker_view(
                        state,
                        selected=unit.id,
                        params={
                            "wizard": button.command.removeprefix("wizard:"),
                            "mod": str(rng.randint(-1, 1)),
                        },
                    ).wizard
                    buttons += (
                        [t.button for t in wizard.targets if t.button.enabled] if wizard else []
                    )
                else:
                    buttons.append(button)
    commands += [Command(b.command, _args(b)) for b in buttons if b.enabled and not b.is_wizard]
    if state.phase is Phase.SCORING:
        holders = [rng.choice([None, 0, 1]) for _ in view.objectives]
        commands.append(Command("score_round", {"holders": holders}))
    return commands


@pytest.mark.parametrize("seed", range(3))
def test_random_play_through_the_buttons_over_the_sample_catalogue(seed: int) -> None:
    catalog, missions = _catalog()
    teams = []
    for faction in ("eisenfaust", "moorvolk"):
        slugs = [s for s, p in catalog.profiles.items() if faction in p.factions][:4]
        roster = RosterInput(
            faction=faction, settings={}, entries=tuple(EntryInput(profile=s) for s in slugs)
        )
        teams.append(ENGINE.team_setup(roster, catalog))
    mission = missions[seed % len(missions)]
    setup_ = {
        "mode": mission["slug"],
        "missions": missions,
        "players": [
            {"name": name, **team} for name, team in zip(("Anna", "Ben"), teams, strict=True)
        ],
    }
    g = Game(setup_, seed=seed)
    rng = random.Random(seed)
    for _ in range(300):
        if g.phase is Phase.OVER:
            break
        options = _choices(g.state, rng)
        assert options, f"nothing to tap in {g.phase}"
        command = rng.choice(options)
        try:
            g.do(command.type, **command.args)
        except RuleViolation as error:  # pragma: no cover - the failure message says it all
            pytest.fail(f"an enabled button was refused: {command} -> {error!r}")
    assert g.phase is Phase.OVER or g.state.round >= 2


def test_profiles_from_the_toolkit_are_valid() -> None:
    assert model(profile())["profile"]["size"] == "M"
