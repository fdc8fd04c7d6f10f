"""A toolkit for scripted Grundregeln matches (no database).

``Game`` starts a match and plays commands. Dice come from ``Dice``: a random source whose next
d6 results a test queues (``g.dice(6, 2, 5)``); once the queue is empty it rolls from a seed. After
every command the toolkit checks what the Django layer relies on: every event is JSON, has a
readable line or deliberately none, and folding the JSON round trip of the whole log over the
initial state keeps equal to the live state. The conftest replays every game from scratch after
each test and compares it with the reloaded snapshot (replay equals snapshot).

Profiles have round numbers: size M, B 4", morale 2 with 3 morale dice, 4 LP, 1 defence die,
a Schwert (melee, 3 attack dice) and an Armbrust (ranged, 2 dice, 18", slow reload). M against M
hits on 4+ and damages on 4+.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pytest

from apps.systems.core.errors import RuleViolation
from apps.systems.core.match import Command, Event
from apps.systems.grundregeln.catalog import Profile, profile_from_stats, profile_stats
from apps.systems.grundregeln.match.engine import GrundregelnEngine
from apps.systems.grundregeln.match.serial import dump
from apps.systems.grundregeln.match.state import MatchState, Phase

ENGINE = GrundregelnEngine()
NAMES = ("Anna", "Ben")
SWORD = {"name": "Schwert", "kind": "melee", "attack_dice": 3, "range_inches": 0, "reload": "none"}
CROSSBOW = {
    "name": "Armbrust",
    "kind": "ranged",
    "attack_dice": 2,
    "range_inches": 18,
    "reload": "slow",
}
PISTOL = {
    "name": "Pistole",
    "kind": "ranged",
    "attack_dice": 2,
    "range_inches": 12,
    "reload": "fast",
}


def profile(name: str = "Krieger", **stats: Any) -> Profile:
    data: dict[str, Any] = {
        "size": "M",
        "move": 4,
        "morale": 2,
        "morale_dice": 3,
        "lp": 4,
        "defence_dice": 1,
        "points": 10,
        "weapons": [SWORD, CROSSBOW],
    }
    data.update(stats)
    return profile_from_stats(slug=name.casefold(), name=name, factions=("a",), stats=data)


def model(
    p: Profile,
    *,
    name: str = "",
    weapons: Sequence[Mapping[str, Any]] = (),
    defence: int = 0,
    items: Sequence[str] = (),
) -> dict[str, Any]:
    return {
        "name": name or p.name,
        "profile": dump(p),
        "weapons": list(weapons),
        "defence": defence,
        "items": list(items),
    }


def npc(name: str, behaviour: str, count: int = 1, **stats: Any) -> dict[str, Any]:
    p = profile(name, npc=True, **stats)
    return {
        "profile": p.slug,
        "name": name,
        "behaviour": behaviour,
        "count": count,
        "stats": profile_stats(p),
    }


def scenario(
    victory: str = "most_kills",
    *,
    rounds: int = 3,
    objectives: int = 0,
    vp_kill: int = 1,
    vp_npc: int = 0,
    vp_objective: int = 0,
    npcs: Sequence[Mapping[str, Any]] = (),
) -> dict[str, Any]:
    return {
        "players": [2, 2],
        "victory": victory,
        "rounds": rounds,
        "objectives": objectives,
        "vp_kill": vp_kill,
        "vp_npc": vp_npc,
        "vp_objective": vp_objective,
        "summary": "",
        "npcs": list(npcs),
    }


def setup(
    teams: Sequence[Sequence[Mapping[str, Any]]] | None = None,
    *,
    data: Mapping[str, Any] | None = None,
    mode: str = "test",
    extra_missions: Sequence[Mapping[str, Any]] = (),
) -> dict[str, Any]:
    """A ``start`` setup: by default two models a side, "Anna 1", "Anna 2", "Ben 1", "Ben 2"."""
    if teams is None:
        teams = [[model(profile(NAMES[p]))] * 2 for p in (0, 1)]
    return {
        "mode": mode,
        "missions": [
            {"slug": "test", "name": "Test", "data": dict(data or scenario())},
            *extra_missions,
        ],
        "players": [
            {"name": NAMES[p], "faction": "a", "models": list(team)} for p, team in enumerate(teams)
        ],
    }


class Dice(random.Random):
    """A random source whose next d6 are queued by the test; seeded rolls after that."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.queue: list[int] = []

    def randint(self, a: int, b: int) -> int:
        if self.queue:
            value = self.queue.pop(0)
            assert a <= value <= b, f"queued {value} outside {a}..{b}"
            return value
        return super().randint(a, b)


PLAYED: list[Game] = []


def roundtrip(event: Event) -> Event:
    return Event(event.type, json.loads(json.dumps(event.data)))


class Game:
    def __init__(self, setup_: Mapping[str, Any] | None = None, seed: int = 0) -> None:
        PLAYED.append(self)
        self.rng = Dice(seed)
        self.log: list[Event] = []
        self.state: MatchState = ENGINE.initial_state()
        # Fed the JSON round trip of every event: it must always equal the live state.
        self.replica: MatchState = ENGINE.initial_state()
        self._record(ENGINE.start(setup_ or setup(), self.rng))

    # --- Playing ---------------------------------------------------------------------------

    def dice(self, *values: int) -> Game:
        self.rng.queue.extend(values)
        return self

    def do(self, type_: str, /, **args: Any) -> list[Event]:
        events = ENGINE.decide(self.state, Command(type_, args), self.rng)
        self._record(events)
        return events

    def refused(self, type_: str, code: str, /, **args: Any) -> RuleViolation:
        """The command is illegal with ``code`` and changes nothing."""
        before = ENGINE.dump_state(self.state)
        with pytest.raises(RuleViolation) as caught:
            ENGINE.decide(self.state, Command(type_, args), Dice(99))
        assert caught.value.code == code, caught.value
        assert ENGINE.dump_state(self.state) == before
        return caught.value

    def _record(self, events: Iterable[Event]) -> None:
        for event in events:
            payload = json.dumps(event.data)
            assert json.loads(payload) == event.data
            self.state = ENGINE.apply(self.state, event)
            self.log.append(event)
            self.replica = ENGINE.apply(self.replica, roundtrip(event))
            line = ENGINE.timeline(self.state, event)
            if line is not None:
                assert line.text
        assert ENGINE.dump_state(self.replica) == ENGINE.dump_state(self.state)

    # --- Shortcuts -------------------------------------------------------------------------

    def unit(self, name: str) -> int:
        return next(m.id for m in self.state.models if m.name == name)

    def model(self, name: str) -> Any:
        return self.state.models[self.unit(name)]

    def begin(self, starter: int = 0, rolls: tuple[int, int] = (5, 2)) -> Game:
        """Roll for the round start (Anna wins unless told otherwise) and let ``starter`` begin."""
        self.dice(*rolls)
        self.do("roll_round_start")
        self.do("choose_starter", player=starter)
        return self

    def act(self, unit: str, action: str, target: str | None = None, **args: Any) -> list[Event]:
        """Declare an action with no reactions and resolve it."""
        if target is not None:
            args["target"] = self.unit(target)
        events = self.do("declare", unit=self.unit(unit), action=action, **args)
        return events + self.do("resolve")

    def types(self, events: Iterable[Event]) -> list[str]:
        return [e.type for e in events]

    def event(self, events: Iterable[Event], type_: str) -> Mapping[str, Any]:
        return next(e.data for e in events if e.type == type_)

    @property
    def phase(self) -> Phase:
        return self.state.phase
