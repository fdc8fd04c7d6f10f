"""A toolkit for scripted Universalis matches (no database).

``Game`` starts a match and decides and applies commands; after every command it checks what
the Django layer relies on: every event is JSON with a timeline line (or deliberately none) and
a public form, and folding the JSON round trip of the log over the initial state rebuilds the
live state exactly. The conftest replays every game's whole log after each test.

Dice are scripted: ``g.dice(7, 3)`` makes the next d12 (or d6, or pick) rolls show 7 and 3;
without a script a seeded ``random.Random`` rolls. The hand-made cards have round numbers: a
``soldier`` has AGI 5, NK 4, FK 6, KO 4, WN 4, EH 6, 6+2 HP, a rifle (WK II, 20/3, S 5, D 2) and
a knife (WK I, NK, S 3, D 1), and armour 5/0.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any, TypeVar

import pytest

from apps.systems.core.distributions import chance_text
from apps.systems.core.errors import RuleViolation
from apps.systems.core.match import Command, Event, replay
from apps.systems.universalis.catalog import (
    Armour,
    Attribute,
    Discipline,
    ModelType,
    Movement,
    Power,
    PowerDuration,
    PowerRange,
    PowerTarget,
    Size,
    UnitCard,
    Weapon,
)
from apps.systems.universalis.catalog_stats import card_from_stats, power_from_stats
from apps.systems.universalis.match.engine import UniversalisEngine
from apps.systems.universalis.match.order import free_activations
from apps.systems.universalis.match.serial import dump
from apps.systems.universalis.match.state import MatchState, Phase, Unit
from apps.systems.universalis.match.tracker.page import TrackerView

ENGINE = UniversalisEngine()
T = TypeVar("T")
FIXTURE = Path(__file__).resolve().parents[3] / "fixtures" / "universalis" / "catalog.json"

RIFLE = Weapon(name="Gewehr", wk=2, range="20/3", strength=5, damage=2)
KNIFE = Weapon(name="Messer", wk=1, range="NK", strength=3, damage=1)


def soldier(name: str = "Soldat", **changes: Any) -> UnitCard:
    card = UnitCard(
        slug=name.casefold().replace(" ", "-"),
        name=name,
        factions=("a",),
        type=ModelType.STANDARD,
        size=Size.MEDIUM,
        movement=Movement.LEGS,
        speed=10,
        hp=6,
        hp_critical=2,
        agi=5,
        nk=4,
        fk=6,
        ko=4,
        wn=4,
        eh=6,
        points=30,
        weapons=(RIFLE, KNIFE),
        armour=Armour(name="Weste", protection=5),
    )
    return replace(card, **changes)


def telematon(name: str = "Drohne", **changes: Any) -> UnitCard:
    values: dict[str, Any] = {
        "type": ModelType.TELEMATON,
        "size": Size.SMALL,
        "agi": None,
        "nk": None,
        "fk": None,
        "eh": None,
        "ko": 2,
        "hp": 3,
        "hp_critical": 1,
    }
    return soldier(name, **{**values, **changes})


def colossus(name: str = "Koloss", **changes: Any) -> UnitCard:
    values: dict[str, Any] = {
        "type": ModelType.COLOSSUS,
        "size": Size.HUGE,
        "ko": 8,
        "hp": 9,
        "hp_critical": 3,
    }
    return soldier(name, **{**values, **changes})


def power(
    name: str = "Blitz",
    *,
    ap: int = 2,
    attribute: Attribute = Attribute.WN,
    difficulty: int = 0,
    hp_loss: int = 0,
    always: bool = False,
    range_: PowerRange = PowerRange.DISTANCE,
    duration: PowerDuration = PowerDuration.INSTANT,
) -> Power:
    return Power(
        slug=name.casefold(),
        name=name,
        discipline="Magie",
        ap=ap,
        attribute=attribute,
        difficulty=difficulty,
        hp_loss=hp_loss,
        hp_loss_always=always,
        target=PowerTarget.MODEL,
        range=range_,
        duration=duration,
    )


MAGE_DISCIPLINE = (Discipline("Magie", 2),)


def model(
    card: UnitCard, *, name: str = "", powers: Sequence[Power] = (), operator: int | None = None
) -> dict[str, Any]:
    return {"name": name, "card": dump(card), "powers": dump(tuple(powers)), "operator": operator}


def fixture_cards() -> tuple[dict[str, UnitCard], dict[str, Power]]:
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    cards = {
        p["slug"]: card_from_stats(
            slug=p["slug"], name=p["name"], factions=p["factions"], stats=p["stats"], sample=True
        )
        for p in data["profiles"]
    }
    powers = {
        i["slug"]: power_from_stats(
            slug=i["slug"], name=i["name"], kind=i["kind"], stats=i["stats"]
        )
        for i in data["items"]
    }
    return cards, powers


def setup(
    teams: Sequence[Sequence[Mapping[str, Any]]] | None = None,
    *,
    mode: str = "secret",
    max_rounds: int = 0,
) -> dict[str, Any]:
    """A ``start`` setup; by default Anna and Ben each lead a leader soldier and a soldier."""
    if teams is None:
        teams = [
            [model(soldier("Anna Chefin", group_leader=True)), model(soldier("Anna Soldat"))],
            [model(soldier("Ben Chef", group_leader=True)), model(soldier("Ben Soldat"))],
        ]
    return {
        "mode": mode,
        "max_rounds": max_rounds,
        "players": [
            {"name": name, "faction": "a", "models": list(team)}
            for name, team in zip(("Anna", "Ben"), teams, strict=True)
        ],
    }


class ScriptedRandom(random.Random):
    """A random source whose next ``randint`` results can be scripted."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.script: list[int] = []

    def randint(self, a: int, b: int) -> int:
        if self.script:
            value = self.script.pop(0)
            assert a <= value <= b, f"scripted {value} is not a roll of {a}..{b}"
            return value
        return super().randint(a, b)


PLAYED: list[Game] = []


def roundtrip(event: Event) -> Event:
    return Event(event.type, json.loads(json.dumps(event.data)))


class Game:
    def __init__(self, setup_: Mapping[str, Any] | None = None, seed: int = 0) -> None:
        PLAYED.append(self)
        self.rng = ScriptedRandom(seed)
        self.log: list[Event] = []
        self.state: MatchState = ENGINE.initial_state()
        self.replica: MatchState = ENGINE.initial_state()
        self._record(ENGINE.start(setup_ or setup(), self.rng))

    def dice(self, *values: int) -> Game:
        self.rng.script.extend(values)
        return self

    def do(self, type_: str, /, **args: Any) -> list[Event]:
        events = ENGINE.decide(self.state, Command(type_, args), self.rng)
        self._record(events)
        assert not self.rng.script, f"scripted dice left over: {self.rng.script}"
        return events

    def refused(self, type_: str, code: str, /, **args: Any) -> RuleViolation:
        before = ENGINE.dump_state(self.state)
        with pytest.raises(RuleViolation) as caught:
            ENGINE.decide(self.state, Command(type_, args), random.Random(99))
        assert caught.value.code == code, caught.value
        assert ENGINE.dump_state(self.state) == before
        return caught.value

    def _record(self, events: Iterable[Event]) -> None:
        for event in events:
            self.state = ENGINE.apply(self.state, event)
            self.replica = ENGINE.apply(self.replica, roundtrip(event))
            self.log.append(event)
            line = ENGINE.timeline(self.state, event)
            if line is not None:
                assert line.text
            json.dumps(ENGINE.public_event(event, viewer=None))
        assert ENGINE.dump_state(self.replica) == ENGINE.dump_state(self.state)

    def assert_replays(self) -> None:
        snapshot = ENGINE.dump_state(self.state)
        reloaded = ENGINE.load_state(json.loads(json.dumps(snapshot)))
        assert ENGINE.dump_state(reloaded) == snapshot
        plain = replay(ENGINE, [roundtrip(e) for e in self.log])
        assert ENGINE.dump_state(plain) == snapshot

    # --- Looking and stepping ------------------------------------------------------------

    def unit(self, unit_id: int) -> Unit:
        return self.state.units[unit_id]

    def to_round_one(self, *, deploy: tuple[int, int] = (9, 2)) -> Game:
        if not self.state.missions_revealed:
            self.do("choose_mission", player=0, mission="vernichtung")
            self.do("choose_mission", player=1, mission="kopfjagd")
        self.dice(*deploy).do("roll_deployment")
        self.do("start_game")
        return self

    def phase_of(self, first: int, second: int, *, rolls: tuple[int, int] = (9, 1)) -> Game:
        """Both players pick; ``first`` (Anna's pick when rolls favour Anna) acts first."""
        picks = {self.unit(first).player: first, self.unit(second).player: second}
        self.do("pick", player=0, unit=picks[0])
        self.dice(*(rolls if self.unit(first).player == 0 else rolls[::-1]))
        self.do("pick", player=1, unit=picks[1])
        assert self.state.active == first
        return self

    @property
    def phase(self) -> Phase:
        return self.state.phase


def ben_waits_ready(g: Game) -> Game:
    """From round 1's first phase (``phase_of(0, 2)``): Ben's unit 2 ends its phase in fire
    readiness with its first weapon; then Anna's unit 1 acts and Ben's unit 3 follows."""
    g.do("end_phase")
    g.do("fire_readiness", unit=2, weapon=0)
    g.do("end_phase")
    g.do("pick", player=0, unit=1)
    g.dice(9, 1).do("pick", player=1, unit=3)
    return g


def tracker(
    g: Game,
    *,
    selected: int | None = None,
    params: Mapping[str, str] | None = None,
    viewer: int | None = None,
) -> TrackerView:
    """The tracker screen of the game as it stands (the page's query in ``params``)."""
    view: TrackerView = ENGINE.tracker(
        g.state, selected=selected, params=params or {}, viewer=viewer
    )
    return view


def there(value: T | None) -> T:
    """A part of the screen the test expects to be there (a form, a panel)."""
    assert value is not None
    return value


def of_type(events: Iterable[Event], type_: str) -> list[Mapping[str, Any]]:
    return [e.data for e in events if e.type == type_]


def shown_chance(odds: str | Fraction) -> str:
    """How a preview line shows a chance (an event records it as "n/d")."""
    return chance_text(Fraction(odds))


def one(events: Iterable[Event], type_: str) -> Mapping[str, Any]:
    found = of_type(events, type_)
    assert len(found) == 1, (type_, [e.type for e in events])
    return found[0]


def rolls(events: Iterable[Event]) -> list[Mapping[str, Any]]:
    shown = of_type(events, "rolls_shown")
    return list(shown[-1]["patch"]["state"]["last_rolls"]) if shown else []


def finish_round(g: Game) -> None:
    """Every remaining model takes its phase and ends it at once."""
    for _ in range(40):
        state = g.state
        if state.phase is not Phase.ORDER and state.phase is not Phase.ACTING:
            return
        if state.phase is Phase.ACTING:
            g.do("end_phase")
            continue
        free = [u for u in state.units if u.in_play and not u.activated and not u.telematon]
        if (
            state.players[0].pick is None
            and any(u.player == 0 for u in free)
            and any(u.player == 1 for u in free)
        ):
            a = next(u for u in free if u.player == 0)
            b = next(u for u in free if u.player == 1)
            g.do("pick", player=0, unit=a.id)
            g.dice(9, 1).do("pick", player=1, unit=b.id)
        else:
            g.do("activate", unit=free_activations(state)[0].id)
