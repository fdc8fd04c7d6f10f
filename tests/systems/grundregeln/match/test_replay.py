"""The log is the truth: every command type's events replay to the same state (the toolkit checks
after every command, the conftest again after each test) and illegal commands change nothing.
Seeded random play through the tracker's own screens is the generic
``tests/systems/test_random_play.py``."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from apps.systems.core.match import Event, replay
from apps.systems.grundregeln.match.commands import COMMAND_SPECS
from tests.systems.grundregeln.match.helpers import (
    ENGINE,
    Game,
    model,
    npc,
    profile,
    roundtrip,
    scenario,
    setup,
)

Scenario = Callable[[], Game]
# A recorded match in schema version 1 (a golden log: read here, never edited).
GOLDEN = Path(__file__).resolve().parents[3] / "golden" / "grundregeln" / "seed-1.json"
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
    for _ in range(2):
        g.do("resolve")
    # The strike, measured after the reactions: one die fewer, turned on Ben 2.
    g.do("resolve", modifier=-1, target=g.unit("Ben 2"))
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
    g.do("react", unit=g.unit("Ben 1"), action="block")
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


@covers("end_on_time")
def _end_on_time() -> Game:
    g = Game(setup()).begin()
    g.do("adjust_vp", player=0, points=2)
    g.do("end_on_time")
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


def test_a_version_1_log_and_snapshot_replay_and_load_unchanged() -> None:
    """Schema version 2 lets a resolution carry the modifier and the melee target the table
    measured after the reactions; a version-1 resolution measured nothing, so version-1 events
    and snapshots (here: a recorded match, and a snapshot taken in the middle of an exchange)
    are brought forward unchanged and rebuild the same states."""
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert golden["state_version"] == 1 and {e["version"] for e in golden["events"]} == {1}
    events = [ENGINE.upgrade_event(Event(e["type"], e["data"]), 1) for e in golden["events"]]
    assert [dict(e.data) for e in events] == [e["data"] for e in golden["events"]]
    replayed = json.loads(json.dumps(ENGINE.dump_state(replay(ENGINE, events))))
    assert replayed == ENGINE.upgrade_state(golden["state"], 1)
    g = _react()
    g.do("resolve")
    # Written by version 1 the same way: no resolution measured anything yet.
    snapshot = json.loads(json.dumps(ENGINE.dump_state(g.state)))
    assert ENGINE.load_state(ENGINE.upgrade_state(snapshot, 1)) == g.state
    old_log = [ENGINE.upgrade_event(roundtrip(event), 1) for event in g.log]
    assert replay(ENGINE, old_log) == g.state


def test_a_measured_resolution_is_written_into_its_event() -> None:
    g = _resolve()
    resolved = [e.data for e in g.log if e.type == "action_resolved"][-1]
    assert (resolved["modifier"], resolved["target"]) == (-1, g.unit("Ben 2"))
    assert g.state.pending is None and g.unit("Ben 2") in g.model("Anna 1").engaged


def test_a_refused_command_changes_nothing() -> None:
    g = Game(setup()).begin()
    g.refused("declare", "not_your_turn", unit=g.unit("Ben 1"), action="walk")
    g.refused("resolve", "no_action_pending")


def test_profiles_from_the_toolkit_are_valid() -> None:
    assert model(profile())["profile"]["size"] == "M"
