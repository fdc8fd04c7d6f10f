"""The Grundregeln match engine as the rest of the app sees it (``core.match.MatchEngine``)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, Final

import cattrs

from apps.systems.core.engine import RuleEngine, Screen
from apps.systems.core.errors import RuleViolation
from apps.systems.core.match import Args, Command, Event, TimelineLine
from apps.systems.core.rosters import CatalogData, RosterInput
from apps.systems.core.schema import SchemaError
from apps.systems.core.summary import Summary
from apps.systems.grundregeln.catalog import ItemKind, Profile, Weapon
from apps.systems.grundregeln.match import upgrades
from apps.systems.grundregeln.match.apply import APPLIERS
from apps.systems.grundregeln.match.commands import COMMAND_SPECS
from apps.systems.grundregeln.match.context import Ctx
from apps.systems.grundregeln.match.flow import first_round_events
from apps.systems.grundregeln.match.handlers import COMMANDS
from apps.systems.grundregeln.match.refusals import REFUSALS
from apps.systems.grundregeln.match.serial import dump, load
from apps.systems.grundregeln.match.state import MatchState, Model, Phase, PlayerState
from apps.systems.grundregeln.match.summary import summary
from apps.systems.grundregeln.match.timeline import timeline_line
from apps.systems.grundregeln.match.tracker.page import TrackerView, tracker_view
from apps.systems.grundregeln.scenario import Behaviour, Scenario, scenario_from_data
from apps.systems.grundregeln.system import grundregeln_catalog

RANDOM_MODE: Final = "random"
MAX_MODELS_PER_SIDE: Final = 40


def model_from_profile(
    model_id: int,
    side: int | None,
    name: str,
    profile: Profile,
    *,
    extra_weapons: tuple[Weapon, ...] = (),
    extra_defence: int = 0,
    items: tuple[str, ...] = (),
    npc: Behaviour | None = None,
) -> Model:
    return Model(
        id=model_id,
        side=side,
        name=name,
        profile=profile.name,
        size=profile.size,
        move=profile.move,
        morale=profile.morale,
        morale_dice=profile.morale_dice,
        max_lp=profile.lp,
        lp=profile.lp,
        defence_dice=profile.defence_dice + extra_defence,
        weapons=(*profile.weapons, *extra_weapons),
        reroll_ones=profile.reroll_ones,
        items=items,
        abilities=tuple(f"{a.name}: {a.text}" if a.text else a.name for a in profile.abilities),
        npc=npc,
        sample=profile.sample,
    )


def _numbered(names: list[str]) -> list[str]:
    """Models of the same name get numbers, so the table can tell them apart."""
    counts = Counter(names)
    seen: Counter[str] = Counter()
    numbered = []
    for name in names:
        seen[name] += 1
        numbered.append(f"{name} {seen[name]}" if counts[name] > 1 else name)
    return numbered


def _scenario(setup: Args, rng: random.Random) -> tuple[Scenario, bool]:
    """The scenario the match plays: the named mission, or one drawn at random among all."""
    missions: dict[str, Mapping[str, Any]] = {}
    for mission in setup.objects("missions", most=200):
        missions[mission.text("slug")] = {"name": mission.text("name"), "data": mission.raw("data")}
    wanted = setup.text("mode")
    drawn = wanted == RANDOM_MODE
    if drawn:
        candidates = sorted(
            slug for slug, m in missions.items() if _valid(slug, m["name"], m["data"])
        )
        if not candidates:
            raise RuleViolation("no_scenario", "There is no scenario to draw from.")
        wanted = rng.choice(candidates)
    chosen = missions.get(wanted)
    if chosen is None:
        raise RuleViolation("unknown_mission", f"There is no scenario {wanted!r}.")
    try:
        return scenario_from_data(wanted, chosen["name"], chosen["data"]), drawn
    except SchemaError as error:
        raise RuleViolation("scenario_invalid", f"The scenario cannot be played: {error}") from None


def _valid(slug: str, name: str, data: object) -> bool:
    try:
        scenario_from_data(slug, name, data if isinstance(data, Mapping) else {})
    except SchemaError:
        return False
    return True


class GrundregelnEngine(RuleEngine[MatchState, Ctx]):
    system_name = "Grundregeln"
    # 1: every event carries its command's number "n". "npc_moved" events stored before
    # commit 1eeb848 also carry the move's roll (``apply`` still reads it): no upgrade can
    # split one such event into the move and the NPC's marker, and none is needed.
    # 2: a resolution may carry the attack's modifier and melee target measured after the
    # reactions, and a move's range is rolled before the reactions ("range_rolled");
    # ``upgrades``: a version-1 log and snapshot are valid as they are.
    schema_version = 3
    handlers = COMMANDS
    appliers = APPLIERS
    specs = COMMAND_SPECS
    refusals = REFUSALS
    event_upgrades = {1: upgrades.event_v1_to_v2}
    state_upgrades = {1: upgrades.state_v1_to_v2, 2: upgrades.state_v2_to_v3}

    def context(self, state: MatchState, rng: random.Random, *, probe: bool) -> Ctx:
        return Ctx(state, rng, probe=probe)

    def before(self, ctx: Ctx, command: Command, args: Args) -> None:
        if not ctx.state.players:
            raise RuleViolation("not_started", "The match has not started.")

    def round_of(self, state: MatchState) -> int:
        return state.round

    def mode_of(self, state: MatchState) -> str:
        return state.mode

    def present(self, state: MatchState, screen: Screen) -> TrackerView:
        """Grundregeln hides nothing from one seat that it shows another: the viewer is unused."""
        return tracker_view(state, screen)

    def team_setup(self, roster: RosterInput, catalog: CatalogData) -> dict[str, Any]:
        """The models of a roster with their cards and items resolved; unknown cards are left
        out (the roster's own validation reports them before a match starts)."""
        cards = grundregeln_catalog(catalog)
        models = []
        for entry in roster.entries:
            profile = cards.profiles.get(entry.profile)
            if profile is None:
                continue
            items = [cards.items[slug] for slug in entry.items if slug in cards.items]
            for _ in range(max(entry.count, 0)):
                models.append(
                    {
                        "name": entry.name or profile.name,
                        "profile": dump(profile),
                        "weapons": [dump(i.weapon) for i in items if i.weapon is not None],
                        "defence": sum(i.defence_dice for i in items),
                        "items": [i.name for i in items if i.kind is ItemKind.GEAR],
                    }
                )
        return {"faction": roster.faction, "models": models}

    def start(self, setup: Mapping[str, Any], rng: random.Random) -> list[Event]:
        """Open a match: ``setup`` holds ``mode`` (a scenario slug or "random"), ``missions``
        (the system's catalogue missions: ``[{"slug", "name", "data"}]``) and ``players``:
        ``[{"name", "faction", "models": [{"name", "profile", "weapons", "defence",
        "items"}]}]`` as ``team_setup`` makes them."""
        args = Args(setup)
        players = args.objects("players", most=4)
        if len(players) != 2:
            raise RuleViolation("players", "A Grundregeln match has 2 players.")
        scenario, drawn = _scenario(args, rng)
        player_states = []
        models: list[Model] = []
        for index, player in enumerate(players):
            name = player.text("name")[:40] or f"Player {index + 1}"
            player_states.append(
                PlayerState(index=index, name=name, faction=player.text("faction", ""))
            )
            entries = player.objects("models", most=MAX_MODELS_PER_SIDE)
            if not entries:
                raise RuleViolation("empty_team", f"{name} has no models.")
            names = _numbered([entry.text("name") for entry in entries])
            for entry, model_name in zip(entries, names, strict=True):
                try:
                    profile = load(entry.raw("profile"), Profile)
                    weapons = load(entry.raw("weapons"), tuple[Weapon, ...])
                except (cattrs.BaseValidationError, TypeError) as error:
                    raise RuleViolation(
                        "bad_model", f"A model card cannot be read: {error}"
                    ) from None
                models.append(
                    model_from_profile(
                        len(models),
                        index,
                        model_name,
                        profile,
                        extra_weapons=weapons,
                        extra_defence=entry.integer("defence", 0, lo=0, hi=20),
                        items=tuple(str(item)[:60] for item in entry.raw("items")),
                    )
                )
        npc_names = _numbered([npc.name for npc in scenario.npcs for _ in range(npc.count)])
        specs = [npc for npc in scenario.npcs for _ in range(npc.count)]
        for npc, npc_name in zip(specs, npc_names, strict=True):
            models.append(
                model_from_profile(len(models), None, npc_name, npc.profile, npc=npc.behaviour)
            )
        started = Event(
            "match_started",
            {
                "mode": scenario.slug,
                "random": drawn,
                "scenario": dump(scenario),
                "players": dump(tuple(player_states)),
                "models": dump(tuple(models)),
                "n": 1,
            },
        )
        return [started, *first_round_events(self.apply(self.initial_state(), started), rng)]

    def initial_state(self) -> MatchState:
        return MatchState()

    def dump_state(self, state: MatchState) -> dict[str, Any]:
        data: dict[str, Any] = dump(state)
        return data

    def load_state(self, data: Mapping[str, Any]) -> MatchState:
        return load(data, MatchState)

    def public_state(self, state: MatchState, *, viewer: int | None = None) -> dict[str, Any]:
        # Nothing is hidden in Grundregeln: every roll is made in the open.
        return self.dump_state(state)

    def public_event(self, event: Event, *, viewer: int | None = None) -> dict[str, Any]:
        return dict(event.data)

    def finished(self, state: MatchState) -> bool:
        return state.phase is Phase.OVER

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
