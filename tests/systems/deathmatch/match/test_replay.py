"""The log is the truth: every command type's events replay to the same state (the toolkit checks
after every command and replays each game from scratch after the test), illegal commands change
nothing, and seeded random play over the shipped sample catalogue never breaks the engine."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from apps.systems.core.errors import RuleViolation
from apps.systems.core.match import Command, Event
from apps.systems.deathmatch.catalog import (
    EquipmentCard,
    FighterProfile,
    SpecialAction,
    item_from_stats,
    profile_from_stats,
)
from apps.systems.deathmatch.match.modes import MODES
from apps.systems.deathmatch.match.serial import dump
from tests.systems.deathmatch.match.helpers import (
    ENGINE,
    F,
    Game,
    default_team,
    item,
    profile,
    setup,
    target,
)

FIXTURE = Path(__file__).resolve().parents[4] / "fixtures" / "deathmatch" / "catalog.json"

Scenario = Callable[[], tuple[Game, Command]]
SCENARIOS: dict[str, Scenario] = {}


def scenario(name: str) -> Callable[[Scenario], Scenario]:
    def register(fn: Scenario) -> Scenario:
        SCENARIOS[name] = fn
        return fn

    return register


def c(type_: str, **args: Any) -> Command:
    return Command(type_, args)


def fresh(mode: str = "flag-rush", *, gadgets: bool = False, **kwargs: Any) -> Game:
    return Game(setup(mode, gadgets=gadgets, **kwargs))


def in_round(mode: str = "flag-rush", **kwargs: Any) -> Game:
    g = fresh(mode, **kwargs)
    g.to_round_one()
    return g


def active(mode: str = "flag-rush", unit: int = 0, **kwargs: Any) -> Game:
    g = in_round(mode, **kwargs)
    g.activate(unit)
    return g


def commanded(command: int = 1) -> list[list[Any]]:
    return [default_team(p, command=command) for p in (0, 1)]


# --- One scenario per command ------------------------------------------------------------------


@scenario("choose_gadget")
def _choose_gadget() -> tuple[Game, Command]:
    g = fresh(gadgets=True)
    g.do("choose_gadget", player=0, option=3)
    return g, c("choose_gadget", player=1, option=9)


@scenario("flip_gadget")
def _flip_gadget() -> tuple[Game, Command]:
    return fresh(gadgets=True), c("flip_gadget", player=1)


@scenario("skip_gadgets")
def _skip_gadgets() -> tuple[Game, Command]:
    return fresh(gadgets=True), c("skip_gadgets")


@scenario("deployment_flip")
def _deployment_flip() -> tuple[Game, Command]:
    g = fresh()
    # A tie first: both flip again.
    g.stack(0, [4, 8])
    g.stack(1, [4, 2])
    return g, c("deployment_flip")


@scenario("choose_first_deployer")
def _choose_first_deployer() -> tuple[Game, Command]:
    g = fresh()
    g.do("deployment_flip")
    assert g.state.deployment_chooser is not None
    return g, c("choose_first_deployer", player=1 - g.state.deployment_chooser)


@scenario("name_vip")
def _name_vip() -> tuple[Game, Command]:
    g = fresh("conquest")
    g.do("deployment_flip")
    g.do("choose_first_deployer", player=1)
    return g, c("name_vip", unit=4)


@scenario("assign_flags")
def _assign_flags() -> tuple[Game, Command]:
    g = fresh("breakthrough")
    g.do("deployment_flip")
    g.do("choose_first_deployer", player=0)
    return g, c("assign_flags", units=[0, 2])


@scenario("start_game")
def _start_game() -> tuple[Game, Command]:
    g = fresh()
    g.do("deployment_flip")
    g.do("choose_first_deployer", player=0)
    return g, c("start_game")


@scenario("flip_initiative")
def _flip_initiative() -> tuple[Game, Command]:
    g = fresh(teams=commanded())
    g.do("deployment_flip")
    g.do("choose_first_deployer", player=0)
    g.do("start_game")
    return g, c("flip_initiative")


@scenario("choose_starter")
def _choose_starter() -> tuple[Game, Command]:
    g = fresh()
    g.do("deployment_flip")
    g.do("choose_first_deployer", player=0)
    g.do("start_game")
    g.do("flip_initiative")
    return g, c("choose_starter", player=1)


@scenario("name_king")
def _name_king() -> tuple[Game, Command]:
    g = fresh("king-of-the-hill")
    g.do("deployment_flip")
    g.do("choose_first_deployer", player=0)
    g.do("start_game")
    g.do("flip_initiative")
    g.do("choose_starter", player=0)
    return g, c("name_king", unit=1)


@scenario("activate")
def _activate() -> tuple[Game, Command]:
    return in_round(), c("activate", unit=1)


@scenario("pass")
def _pass() -> tuple[Game, Command]:
    return in_round(), c("pass")


@scenario("coordinated_activation")
def _coordinated() -> tuple[Game, Command]:
    return in_round(teams=commanded()), c("coordinated_activation")


@scenario("order")
def _order() -> tuple[Game, Command]:
    g = active(teams=commanded())
    g.stack(0, [5, 9])
    g.do("ranged_attack", targets=[target(4)], confirm_flips=False)
    return g, c("order", unit=4)


@scenario("dodge")
def _dodge() -> tuple[Game, Command]:
    return active(), c("dodge", unit=0)


@scenario("readiness")
def _readiness() -> tuple[Game, Command]:
    return active(), c("readiness")


@scenario("aim")
def _aim() -> tuple[Game, Command]:
    return active(), c("aim")


@scenario("power_strike")
def _power_strike() -> tuple[Game, Command]:
    return active(), c("power_strike")


@scenario("move")
def _move() -> tuple[Game, Command]:
    return active(), c("move", fall_height=4, dangerous_terrain=True)


@scenario("disengage")
def _disengage() -> tuple[Game, Command]:
    g = active(teams=commanded())
    g.stack(1, [5, 2, 9])
    return g, c("disengage", strikes=[{"striker": 3}, {"striker": 4, "not_in_contact": True}])


@scenario("ranged_attack")
def _ranged_attack() -> tuple[Game, Command]:
    g = active(teams=commanded())
    g.stack(0, [9, 9])
    return g, c("ranged_attack", targets=[target(3, cover="hard", warning=True)])


@scenario("melee_attack")
def _melee_attack() -> tuple[Game, Command]:
    g = active()
    g.stack(0, [3, 4, 1])
    return g, c("melee_attack", weapon=1, targets=[target(3, rear=True)])


@scenario("charge")
def _charge() -> tuple[Game, Command]:
    g = active()
    g.stack(0, [6, 9, 9])
    return g, c("charge", weapon=1, targets=[target(3)])


@scenario("react")
def _react() -> tuple[Game, Command]:
    g = active()
    g.do("readiness")
    g.end()
    g.activate(3)
    g.stack(0, [6, 2])
    return g, c("react", unit=0, action="melee_attack", weapon=1)


@scenario("special_action")
def _special_action() -> tuple[Game, Command]:
    jump = item("sprungmodul", action=SpecialAction("Sprung", 1), usage="Einmal pro Aktivierung")
    teams = [[F(profile("Anna Springer"), (jump,)), *default_team(0)[1:]], default_team(1)]
    return active(teams=teams), c("special_action", item="sprungmodul")


@scenario("activate_switch")
def _activate_switch() -> tuple[Game, Command]:
    return active("conquest"), c("activate_switch", objective="C")


@scenario("neutralise_switch")
def _neutralise_switch() -> tuple[Game, Command]:
    g = active("conquest")
    g.do("activate_switch", objective="C")
    g.end()
    g.activate(3)
    return g, c("neutralise_switch", objective="C")


@scenario("repair_core")
def _repair_core() -> tuple[Game, Command]:
    g = active("onslaught")
    g.do("adjust", unit=6, lp=10)
    return g, c("repair_core", core=6)


@scenario("pick_up_flag")
def _pick_up_flag() -> tuple[Game, Command]:
    return active(), c("pick_up_flag", unit=0, objective="F")


@scenario("hand_over_flag")
def _hand_over_flag() -> tuple[Game, Command]:
    g = active()
    g.do("pick_up_flag", unit=0, objective="F")
    return g, c("hand_over_flag", unit=0, to=2)


@scenario("score_flag")
def _score_flag() -> tuple[Game, Command]:
    g = active()
    g.do("pick_up_flag", unit=0, objective="F")
    return g, c("score_flag", unit=0)


@scenario("touch_gadget")
def _touch_gadget() -> tuple[Game, Command]:
    g = fresh(gadgets=True)
    g.do("choose_gadget", player=0, option=1)
    g.do("choose_gadget", player=1, option=7)
    g.to_round_one()
    g.activate(0)
    g.do("adjust", unit=0, lp=2)
    return g, c("touch_gadget", unit=0, gadget="G1")


@scenario("end_activation")
def _end_activation() -> tuple[Game, Command]:
    g = active(teams=commanded())
    g.do("adjust", unit=0, fire=2, poison=1, shock=1)
    g.stack(1, [5])
    return g, c("end_activation", readiness=True)


@scenario("reroll")
def _reroll() -> tuple[Game, Command]:
    g = active(teams=commanded())
    g.stack(0, [2, 8, 4])
    g.do("ranged_attack", targets=[target(3)])
    return g, c("reroll", positions=[0], player=0)


@scenario("accept")
def _accept() -> tuple[Game, Command]:
    g = active(teams=commanded())
    g.stack(0, [9, 4, 4])
    g.do("ranged_attack", targets=[target(3, cover="hard")])
    return g, c("accept", critical_auto_hits=1)


@scenario("score_round")
def _score_round() -> tuple[Game, Command]:
    g = in_round("king-of-the-hill")
    g.finish_round()
    return g, c("score_round", focal_points={"A": 0, "B": 1}, king_in_zone=True)


@scenario("flip")
def _flip() -> tuple[Game, Command]:
    return in_round(), c("flip", player=1, boost=-2, label="Gelände")


@scenario("auto_hit")
def _auto_hit() -> tuple[Game, Command]:
    g = active()
    g.stack(0, [9])
    return g, c("auto_hit", unit=4, strength=4, cause="effect", credit=0)


@scenario("adjust")
def _adjust() -> tuple[Game, Command]:
    return active(), c("adjust", unit=3, lp=0, note="Vom Tisch gefallen")


@scenario("adjust_vp")
def _adjust_vp() -> tuple[Game, Command]:
    return in_round(), c("adjust_vp", player=1, points=-2, note="Korrektur")


@scenario("adjust_cp")
def _adjust_cp() -> tuple[Game, Command]:
    return in_round(), c("adjust_cp", player=0, cp=4)


@scenario("concede")
def _concede() -> tuple[Game, Command]:
    return active(), c("concede", player=1)


@scenario("end_on_time")
def _end_on_time() -> tuple[Game, Command]:
    return active(), c("end_on_time")


def test_every_command_type_has_a_replay_scenario() -> None:
    documented = {spec.type for spec in ENGINE.commands()}
    assert set(SCENARIOS) == documented - {"undo"}


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_command_events_replay_to_the_same_state(name: str) -> None:
    g, command = SCENARIOS[name]()
    assert command.type == name
    events = g.play(command)
    assert events
    # Beyond the checks after every command: the whole log from scratch, through JSON.
    g.assert_replays()


def test_undo_is_left_to_the_django_layer(game: Game) -> None:
    game.refused("undo", "unknown_command")


# --- Special actions ----------------------------------------------------------------------------


def test_special_action_costs_its_ap_and_respects_its_usage_limit() -> None:
    jump = item("sprungmodul", action=SpecialAction("Sprung", 1), usage="Einmal pro Aktivierung")
    g = active(
        teams=[[F(profile("Anna Springer"), (jump,)), *default_team(0)[1:]], default_team(1)]
    )
    g.refused("special_action", "unknown_special_action", item="medkit")
    events = g.do("special_action", item="sprungmodul")
    assert [e.type for e in events] == ["ap_spent", "special_action_used"]
    g.refused("special_action", "usage_limit", item="sprungmodul")
    g.end()
    g.finish_round()
    g.score()
    g.start_round()
    g.activate(0)
    g.do("special_action", item="sprungmodul")


def test_zero_ap_special_action_is_once_per_turn() -> None:
    stims = item("stims", action=SpecialAction("Stimulanzien", 0))
    g = active(teams=[[F(profile("Anna Stim"), (stims,)), *default_team(0)[1:]], default_team(1)])
    g.do("special_action", item="stims")
    assert g.unit(0).ap == 2
    g.refused("special_action", "usage_limit", item="stims")


def test_once_per_game_special_action() -> None:
    medkit = item("medkit", action=SpecialAction("Erste Hilfe", 1), usage="Einmal pro Spiel")
    g = active(teams=[[F(profile("Anna Sani"), (medkit,)), *default_team(0)[1:]], default_team(1)])
    g.do("special_action", item="medkit")
    g.end()
    g.finish_round()
    g.score()
    g.start_round()
    g.activate(0)
    g.refused("special_action", "usage_limit", item="medkit")


def test_automatic_hit_is_credited_to_the_player_named() -> None:
    g = active()
    g.stack(0, [9])
    events = g.do("auto_hit", unit=4, strength=4, credit=0)
    knocked = [e.data for e in events if e.type == "knocked_out"]
    assert knocked == [{"unit": 4, "credit": [0], "cause": "effect", "by": None}]
    assert g.vp(0) == 1


# --- Random play --------------------------------------------------------------------------------


def _catalogue() -> tuple[dict[str, FighterProfile], dict[str, EquipmentCard]]:
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    profiles = {
        p["slug"]: profile_from_stats(
            slug=p["slug"],
            name=p["name"],
            factions=tuple(p["factions"]),
            stats=p["stats"],
            version=1,
            sample=True,
        )
        for p in data["profiles"]
    }
    items = {
        i["slug"]: item_from_stats(
            slug=i["slug"],
            name=i["name"],
            kind=i["kind"],
            cost=i["cost"],
            stats=i["stats"],
            version=1,
            sample=True,
        )
        for i in data["items"]
    }
    return profiles, items


TEAMS = (
    (
        "phalanx",
        ("phalanx-hauptmann-brandt", "phalanx-schildtraeger", "phalanx-grenadier"),
        ("splittergranaten", "ruestungsupgrade-sprungmodule"),
    ),
    (
        "shelzahav",
        ("shelzahav-emirin-sahar-vel", "shelzahav-duenenlaeufer", "shelzahav-feuerpriester"),
        ("kampfstimulanzien", "plasmaklinge"),
    ),
    (
        "organon",
        ("organon-direktorin-ilva-syn", "organon-argus-geschuetzturm", "organon-atalante-klon"),
        ("medkit", "ruestungsupgrade-tarnfeld"),
    ),
    (
        "anaimaktos",
        ("anaimaktos-vorax-kaltklinge", "anaimaktos-giftmischer", "anaimaktos-saeurewerfer"),
        ("zweite-pistole",),
    ),
)


def catalogue_setup(mode: str, players: int, seed: int) -> dict[str, Any]:
    profiles, items = _catalogue()
    return {
        "mode": mode,
        "game_size": 3,
        "gadgets": seed % 2 == 0,
        "players": [
            {
                "name": f"P{p}",
                "faction": faction,
                "harmony": True,
                "fighters": [
                    {
                        "name": "",
                        "profile": dump(profiles[slug]),
                        "items": [dump(items[extra[0]])] if n == 0 else [],
                    }
                    for n, slug in enumerate(slugs)
                ],
            }
            for p, (faction, slugs, extra) in enumerate(TEAMS[:players])
        ],
    }


def candidates(g: Game, rng: random.Random) -> Iterator[Command]:
    """Plausible and implausible commands alike: the engine must refuse the wrong ones."""
    state = g.state
    n, p = len(state.units), len(state.players)
    # Half the time a unit of whoever is to act, so that play moves on.
    acting = state.awaiting_player if state.awaiting_player is not None else state.turn
    own = [x.id for x in state.units if x.player == acting and x.in_play]
    u = rng.choice(own) if own and rng.random() < 0.5 else rng.randrange(n)
    victim = rng.randrange(n)
    situation = {
        "unit": victim,
        "cover": rng.choice(["none", "cover", "hard"]),
        "warning": rng.random() < 0.2,
        "rear": rng.random() < 0.2,
        "target_in_melee": rng.random() < 0.2,
        "interferers": [rng.randrange(-1, n) for _ in range(rng.randrange(3))],
    }
    objective = rng.choice([o.id for o in state.objectives] or ["A"])
    gadget = rng.choice([x.id for x in state.gadgets] or ["G1"])
    confirm = rng.random() < 0.5
    yield from (
        c(
            rng.choice(["choose_gadget", "flip_gadget"]),
            player=rng.randrange(p),
            option=rng.randrange(10),
        ),
        c("skip_gadgets"),
        c("deployment_flip"),
        c("choose_first_deployer", player=rng.randrange(p)),
        c("name_vip", unit=u),
        c("assign_flags", units=[u]),
        c("start_game"),
        c("flip_initiative"),
        c("choose_starter", player=rng.randrange(p)),
        c("name_king", unit=u),
        c("activate", unit=u),
        c("activate", unit=u),
        c("pass"),
        c("coordinated_activation"),
        c("order", unit=u),
        c("dodge"),
        c("readiness"),
        c("aim"),
        c("power_strike"),
        c("move", fall_height=rng.choice([0, 0, 3, 5]), dangerous_terrain=rng.random() < 0.2),
        c("ranged_attack", weapon=rng.randrange(4), targets=[situation], confirm_flips=confirm),
        c(
            "ranged_attack",
            weapon=rng.randrange(4),
            targets=[situation, {"unit": rng.randrange(n)}],
            confirm_flips=confirm,
        ),
        c("melee_attack", weapon=rng.randrange(4), targets=[situation], confirm_flips=confirm),
        c("charge", weapon=rng.randrange(4), targets=[situation]),
        c(
            "react",
            unit=u,
            action=rng.choice(["ranged_attack", "melee_attack", "dodge"]),
            weapon=rng.randrange(3),
        ),
        c("disengage", strikes=[{"striker": victim, "friends_engaged": rng.random() < 0.5}]),
        c(
            "special_action",
            item=rng.choice(["ruestungsupgrade-sprungmodule", "kampfstimulanzien", "medkit"]),
        ),
        c("end_activation", readiness=rng.random() < 0.3),
        c("end_activation"),
        c("reroll", positions=[rng.randrange(3)]),
        c("reroll", positions=[0, 1]),
        c("accept", critical_auto_hits=rng.randrange(3)),
        c("accept"),
        c("accept"),
        c(
            "score_round",
            focal_points={objective: rng.randrange(p)},
            king_in_zone=rng.random() < 0.5,
        ),
        c("activate_switch", objective=objective),
        c("neutralise_switch", objective=objective),
        c("pick_up_flag", unit=u, objective=objective),
        c("hand_over_flag", unit=u, to=victim),
        c("score_flag", unit=u),
        c("touch_gadget", unit=u, gadget=gadget),
        c("flip", player=rng.randrange(p), boost=rng.randrange(-2, 3)),
        c("repair_core", core=victim),
        c("auto_hit", unit=victim, strength=rng.randrange(8)),
        c("adjust", unit=victim, lp=rng.randrange(3), shock=rng.randrange(4)),
    )


def progress(g: Game, rng: random.Random) -> Command:
    """A command that moves the game on: what the table owes, else end or start an activation."""
    state = g.state
    who = state.awaiting_player
    own = [u.id for u in state.units if u.player == who and u.team_member and u.in_play]
    owed = {
        "gadgets": lambda: c(
            "choose_gadget",
            player=next(p.index for p in state.players if p.gadget is None),
            option=rng.randrange(10),
        ),
        "deployment_flip": lambda: c("deployment_flip"),
        "first_deployer": lambda: c("choose_first_deployer", player=who),
        "vip": lambda: c("name_vip", unit=rng.choice(own)),
        "flags": lambda: c("assign_flags", units=own[: rng.randrange(4)]),
        "ready": lambda: c("start_game"),
        "initiative": lambda: c("flip_initiative"),
        "starter": lambda: c("choose_starter", player=who),
        "king": lambda: c("name_king", unit=rng.choice(own)),
        "king_unclear": lambda: c("name_king", unit=rng.choice(own)),
        "score": lambda: c("score_round"),
    }
    if state.attack or state.pending or state.disengage:
        return c("accept")
    if state.awaiting in owed:
        return owed[state.awaiting]()
    if state.active is not None:
        return c("end_activation")
    ready = [
        u.id
        for u in state.units
        if u.player == state.turn and u.in_play and not u.activated and u.kind != "core"
    ]
    return c("activate", unit=rng.choice(ready)) if ready else c("pass")


# A few seeds, each in another mode (the multiplayer ones with three players), each game
# bounded in steps.
RANDOM_GAMES = [(seed, MODES[seed * 4 % len(MODES)].slug) for seed in range(6)]


@pytest.mark.parametrize(("seed", "mode"), RANDOM_GAMES)
def test_seeded_random_play_keeps_the_engine_consistent(seed: int, mode: str) -> None:
    players = next(m.min_players for m in MODES if m.slug == mode)
    rng = random.Random(seed)
    g = Game(catalogue_setup(mode, players, seed), seed=seed)
    steps = 0
    while not ENGINE.finished(g.state) and steps < 300:
        steps += 1
        moving_on = rng.random() < 0.3
        command = progress(g, rng) if moving_on else rng.choice(list(candidates(g, rng)))
        before = g.state
        try:
            g.play(command)  # checks JSON, timeline and replay after every command
        except RuleViolation:
            assert g.state is before
            if steps % 25 == 0:
                snapshot = ENGINE.dump_state(before)
                with pytest.raises(RuleViolation):
                    ENGINE.decide(before, command, random.Random(seed))
                assert ENGINE.dump_state(before) == snapshot
    assert g.state.round >= 1, "random play should get past the setup"
    events: list[Event] = g.events
    assert events[0].type == "match_started"
