"""The log is the truth: every command type's events replay to the same state (the toolkit
checks after every command, the conftest replays each game from scratch after the test) and
illegal commands change nothing. Seeded random play over the sample catalogue, through the
tracker's screens, is the generic ``tests/systems/test_random_play.py``."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from apps.systems.core.errors import RuleViolation
from apps.systems.core.match import Command
from apps.systems.universalis.catalog import Camouflage, Equipment, PowerDuration, Trait
from apps.systems.universalis.match.commands import COMMAND_SPECS
from tests.systems.universalis.helpers import (
    ENGINE,
    MAGE_DISCIPLINE,
    Game,
    model,
    power,
    setup,
    soldier,
    telematon,
)
from tests.systems.universalis.test_rounds import finish_round

Scenario = Callable[[], tuple[Game, Command, tuple[int, ...]]]
SCENARIOS: dict[str, Scenario] = {}


def scenario(name: str) -> Callable[[Scenario], Scenario]:
    def register(fn: Scenario) -> Scenario:
        SCENARIOS[name] = fn
        return fn

    return register


def c(type_: str, **args: Any) -> Command:
    return Command(type_, args)


def rich() -> Game:
    """Anna: a mage with a lasting power, a trait and equipment, an operator and its drone;
    Ben: a camouflaged leader and a soldier. Round 1, Anna's mage acts, Ben's leader follows."""
    lasting = power("Schild", duration=PowerDuration.LASTING)
    mage = soldier(
        "Anna Magierin",
        group_leader=True,
        disciplines=MAGE_DISCIPLINE,
        operator=1,
        traits=(Trait("Sprint", ap=1),),
        equipment=(Equipment("Spray", ap=1, uses=2),),
    )
    anna = [model(mage, powers=(power(), lasting)), model(telematon(), operator=0)]
    ben = [
        model(soldier("Ben", group_leader=True, camouflage=Camouflage(active=False, level=1))),
        model(soldier("Ben Soldat")),
    ]
    return Game(setup([anna, ben], mode="stellung-halten")).to_round_one().phase_of(0, 2)


def setup_game() -> Game:
    return Game()


@scenario("choose_mission")
def _choose() -> tuple[Game, Command, tuple[int, ...]]:
    return setup_game(), c("choose_mission", player=0, mission="kopfjagd"), ()


@scenario("roll_deployment")
def _deploy() -> tuple[Game, Command, tuple[int, ...]]:
    g = setup_game()
    g.do("choose_mission", player=0, mission="kopfjagd")
    g.do("choose_mission", player=1, mission="kopfjagd")
    return g, c("roll_deployment"), (3, 8)


@scenario("start_game")
def _start() -> tuple[Game, Command, tuple[int, ...]]:
    g = setup_game()
    g.do("choose_mission", player=0, mission="kopfjagd")
    g.do("choose_mission", player=1, mission="kopfjagd")
    g.dice(3, 8).do("roll_deployment")
    return g, c("start_game"), ()


@scenario("pick")
def _pick() -> tuple[Game, Command, tuple[int, ...]]:
    g = Game().to_round_one()
    g.do("pick", player=0, unit=0)
    return g, c("pick", player=1, unit=2), (4, 4, 2, 7)


@scenario("operator_takes_shock")
def _operator_takes_shock() -> tuple[Game, Command, tuple[int, ...]]:
    g = rich()
    g.do("correct", unit=1, shock_tokens=1)
    finish_round(g)
    g.do("end_round")
    return g, c("operator_takes_shock", unit=1), ()


@scenario("activate")
def _activate() -> tuple[Game, Command, tuple[int, ...]]:
    g = rich()
    g.do("end_phase")
    g.do("end_phase")
    return g, c("activate", unit=3), ()


@scenario("burning_test")
def _burning() -> tuple[Game, Command, tuple[int, ...]]:
    g = rich()
    g.dice(12, 1).do("auto_hit", unit=3, strength=5, damage=1, effects=["brand"])
    g.do("end_phase")
    g.do("end_phase")
    g.do("activate", unit=3)
    return g, c("burning_test", unit=3, helpers=1), (2, 12, 1, 4, 6, 9, 11, 3)


def _simple(name: str, dice: tuple[int, ...] = (), **args: Any) -> None:
    SCENARIOS[name] = lambda: (rich(), c(name, **args), dice)


_simple("threat_test", (12,), unit=0, threat=3)
_simple("turn", unit=0)
_simple("move", (1,), unit=0, cm=10, movement_test=True)
_simple("prone", unit=0)
_simple("use_object", (5,), unit=0, attribute="wn", modifier=1)
_simple("shoot", (2, 9, 3), unit=0, targets=[{"unit": 3, "distance": 25, "dodge": True}])
_simple("fire_readiness", unit=0, weapon=0)
_simple("melee", (10, 2, 12, 1), unit=0, target=3, weapon=1, reckless=True, erschuetterung="behind")
_simple("contact", unit=0, other=3, touching=True)
_simple("defence", unit=0)
_simple("reveal", (1,), unit=0, target=2, extra_ap=1)
_simple("camouflage", unit=2, hidden=False)
_simple("use_trait", unit=0, trait=0)
_simple("use_equipment", unit=0, equipment=0)
_simple("use_power", (1,), unit=0, power=1)
_simple("auto_hit", (12, 1), unit=3, strength=4, damage=2, effects=["giftig", "zerfetzen"])
_simple("fall", (12, 12, 1), unit=0, height="double")
_simple("correct", unit=3, hp=3, ap=2, shock_tokens=1)
_simple("end_phase", unit=0)


@scenario("disengage")
def _disengage() -> tuple[Game, Command, tuple[int, ...]]:
    g = rich()
    g.do("contact", unit=0, other=3, touching=True)
    return g, c("disengage", unit=0), (2,)


@scenario("charge_attack")
def _charge_attack() -> tuple[Game, Command, tuple[int, ...]]:
    g = rich()
    g.do("melee", unit=0, target=3, weapon=1, charge=True, reckless=True)
    return g, c("charge_attack", unit=0, on_win="push"), (10, 2)


@scenario("panic_move")
def _panic_move() -> tuple[Game, Command, tuple[int, ...]]:
    g = rich()
    g.dice(12, 1).do("auto_hit", unit=2, strength=20, damage=20)
    g.dice(12).do("panic_test", unit=3)
    finish_round(g)
    g.do("end_round")
    return g, c("panic_move", unit=3, left_table=True), ()


@scenario("stand_up")
def _stand_up() -> tuple[Game, Command, tuple[int, ...]]:
    g = rich()
    g.do("prone", unit=0)
    return g, c("stand_up", unit=0), ()


@scenario("area_hits")
def _area_hits() -> tuple[Game, Command, tuple[int, ...]]:
    from dataclasses import replace

    from tests.systems.universalis.helpers import RIFLE

    launcher = replace(RIFLE, name="Werfer", area=5, effects=())
    anna = [model(soldier("A", group_leader=True, weapons=(launcher,))), model(soldier("A2"))]
    ben = [model(soldier("B", group_leader=True)), model(soldier("B2"))]
    g = Game(setup([anna, ben])).to_round_one().phase_of(0, 2)
    g.dice(9, 5).do("shoot", unit=0, targets=[{"distance": 30}])
    return g, c("area_hits", hits=[{"unit": 2, "partial": True, "cover": "hard"}]), (12, 1)


@scenario("reload")
def _reload() -> tuple[Game, Command, tuple[int, ...]]:
    from dataclasses import replace

    from tests.systems.universalis.helpers import RIFLE

    anna = [
        model(soldier("A", group_leader=True, weapons=(replace(RIFLE, reload=True),))),
        model(soldier("A2")),
    ]
    ben = [model(soldier("B", group_leader=True)), model(soldier("B2"))]
    g = Game(setup([anna, ben])).to_round_one().phase_of(0, 2)
    g.dice(12).do("shoot", unit=0, targets=[{"unit": 2, "distance": 10}])
    return g, c("reload", unit=0, weapon=0), ()


@scenario("reaction_fire")
def _reaction_fire() -> tuple[Game, Command, tuple[int, ...]]:
    g = rich()
    g.do("end_phase")
    g.do("fire_readiness", unit=2, weapon=0)
    g.do("end_phase")
    g.do("activate", unit=3)
    g.do("end_phase")
    finish_round(g)
    g.do("end_round")
    g.phase_of(0, 3)
    g.do("move", unit=0)
    return g, c("reaction_fire", unit=2, target={"distance": 10}), (12,)


@scenario("counter_attack")
def _counter() -> tuple[Game, Command, tuple[int, ...]]:
    g = rich()
    g.dice(1, 12).do("melee", unit=0, target=3, weapon=1)
    return g, c("counter_attack", unit=3, weapon=1, on_win="push"), (12, 1)


@scenario("opportunity_attack")
def _opportunity() -> tuple[Game, Command, tuple[int, ...]]:
    g = rich()
    g.do("contact", unit=0, other=3, touching=True)
    g.dice(1).do("disengage", unit=0)
    return g, c("opportunity_attack", unit=3, weapon=-1), (12, 1, 12, 1)


@scenario("end_power")
def _end_power() -> tuple[Game, Command, tuple[int, ...]]:
    g = rich()
    g.dice(1).do("use_power", unit=0, power=1)
    return g, c("end_power", unit=0, power=1), ()


@scenario("block_power")
def _block() -> tuple[Game, Command, tuple[int, ...]]:
    lasting = power("Schild", duration=PowerDuration.LASTING)
    anna = [
        model(soldier("A", group_leader=True, disciplines=MAGE_DISCIPLINE), powers=(lasting,)),
        model(soldier("A2")),
    ]
    ben = [
        model(soldier("B", group_leader=True, disciplines=MAGE_DISCIPLINE)),
        model(soldier("B2")),
    ]
    g = Game(setup([anna, ben])).to_round_one().phase_of(0, 2)
    g.dice(1).do("use_power", unit=0, power=0)
    g.do("end_phase")
    return g, c("block_power", unit=2, owner=0, power=0), (1,)


@scenario("panic_test")
def _panic() -> tuple[Game, Command, tuple[int, ...]]:
    g = rich()
    g.dice(12, 1).do("auto_hit", unit=2, strength=20, damage=20)
    return g, c("panic_test", unit=3, enemies=1, friends_in_contact=0), (9,)


@scenario("skip_panic_test")
def _skip_panic() -> tuple[Game, Command, tuple[int, ...]]:
    g = rich()
    g.dice(12, 1).do("auto_hit", unit=2, strength=20, damage=20)
    return g, c("skip_panic_test", unit=3), ()


@scenario("flee")
def _flee() -> tuple[Game, Command, tuple[int, ...]]:
    g = rich()
    g.dice(12, 1).do("auto_hit", unit=2, strength=20, damage=20)
    g.dice(12).do("panic_test", unit=3)
    g.do("end_phase")
    g.do("activate", unit=3)
    return g, c("flee", unit=3, left_table=True), ()


@scenario("surrender")
def _surrender() -> tuple[Game, Command, tuple[int, ...]]:
    g = rich()
    finish_round(g)
    return g, c("surrender", player=1), ()


@scenario("end_round")
def _end_round() -> tuple[Game, Command, tuple[int, ...]]:
    g = rich()
    finish_round(g)
    return g, c("end_round", held=[0]), ()


@scenario("concede")
def _concede() -> tuple[Game, Command, tuple[int, ...]]:
    return rich(), c("concede", player=1), ()


@scenario("end_on_time")
def _end_on_time() -> tuple[Game, Command, tuple[int, ...]]:
    return rich(), c("end_on_time"), ()


def test_every_command_type_has_a_replay_scenario() -> None:
    assert set(SCENARIOS) == {spec.type for spec in COMMAND_SPECS}


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_command_events_replay_to_the_same_state(name: str) -> None:
    g, command, dice = SCENARIOS[name]()
    g.dice(*dice)
    events = g.do(command.type, **command.args)
    assert events
    g.assert_replays()


def test_an_illegal_command_changes_nothing() -> None:
    g = rich()
    with pytest.raises(RuleViolation):
        ENGINE.decide(g.state, Command("shoot", {"unit": 0, "targets": "x"}), random.Random(1))
    g.refused("nonsense", "unknown_command")
    g.refused("melee", "invalid_args", unit="zero", target=2)
