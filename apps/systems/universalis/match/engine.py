"""The Universalis match engine as the rest of the app sees it (``core.match.MatchEngine``), on
the one skeleton of every engine (``core.engine.RuleEngine``)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, Final

import cattrs

from apps.systems.core.engine import RuleEngine, Screen
from apps.systems.core.errors import RuleViolation
from apps.systems.core.i18n import gettext_noop
from apps.systems.core.match import Args, Event, TimelineLine
from apps.systems.core.rosters import CatalogData, RosterInput
from apps.systems.core.schema import FieldSpec
from apps.systems.core.summary import Summary
from apps.systems.universalis.catalog import Power, UnitCard
from apps.systems.universalis.match import rounds, upgrades
from apps.systems.universalis.match.commands import COMMAND_SPECS
from apps.systems.universalis.match.context import Ctx
from apps.systems.universalis.match.handlers import COMMANDS
from apps.systems.universalis.match.missions import MISSIONS, SECRET, mission
from apps.systems.universalis.match.refusals import REFUSAL_DETAILS, REFUSALS
from apps.systems.universalis.match.serial import APPLIERS, dump, load
from apps.systems.universalis.match.state import (
    MatchState,
    Phase,
    PlayerState,
    Unit,
    Zone,
    ZoneName,
)
from apps.systems.universalis.match.summary import summary
from apps.systems.universalis.match.timeline import timeline_line
from apps.systems.universalis.match.tracker.page import TrackerView, tracker_view
from apps.systems.universalis.roster import universalis_catalog

MAX_MODELS = 40
# Events that carry a player's secret, and the key holding it.
SECRET_EVENTS: Final = {"mission_chosen": "mission", "picked": "unit"}
SETUP_FIELDS: Final = (
    FieldSpec(
        "max_rounds",
        gettext_noop("Round limit (the game is a draw when it is reached)"),
        "choice",
        choices=(
            ("0", gettext_noop("No limit")),
            ("4", gettext_noop("4 rounds")),
            ("6", gettext_noop("6 rounds")),
            ("8", gettext_noop("8 rounds")),
        ),
        default="6",
    ),
)


def _unit(uid: int, player: int, name: str, card: UnitCard, powers: tuple[Power, ...]) -> Unit:
    zones: tuple[Zone, ...] = ()
    if card.colossus:
        hp, critical = card.zone_hp
        zones = tuple(
            Zone(name=name_, hp=hp + critical, hp_max=hp + critical, hp_critical=critical)
            for name_ in (ZoneName.LEFT, ZoneName.RIGHT, ZoneName.MOVEMENT)
        )
    return Unit(
        id=uid,
        player=player,
        name=name or card.name,
        card=card,
        powers=powers,
        hp=card.hp_total,
        weapon_uses=tuple(w.uses for w in card.weapons),
        trait_uses=tuple(t.uses for t in card.traits),
        equipment_uses=tuple(e.uses for e in card.equipment),
        # Camouflaged models begin camouflaged (16): whether a passive one really touches
        # terrain the table corrects with the ``camouflage`` command.
        camouflaged=card.camouflage is not None,
        zones=zones,
    )


class UniversalisEngine(RuleEngine[MatchState, Ctx]):
    system_name = "Universalis"
    # Events are patches naming fields of Unit, PlayerState and MatchState (``serial``): a
    # renamed or removed field changes their shape. Version 2 added the fields of SPEC §6's
    # rulings (``upgrades``).
    schema_version = 3
    state_upgrades = {1: upgrades.state_v1_to_v2, 2: upgrades.state_v2_to_v3}
    handlers = COMMANDS
    appliers = APPLIERS
    specs = COMMAND_SPECS
    refusals = REFUSALS
    refusal_details = REFUSAL_DETAILS

    def setup_fields(self) -> tuple[FieldSpec, ...]:
        return SETUP_FIELDS

    def mode_choices(self) -> tuple[tuple[str, str], ...]:
        """The match form's "mode": the rulebook's secret choice, or one mission agreed for
        both players (gettext_noop-marked labels; mission names are proper names)."""
        return (
            (SECRET, gettext_noop("Each player picks a mission in secret (rulebook)")),
            *((m.slug, m.name) for m in MISSIONS),
        )

    def context(self, state: MatchState, rng: random.Random, *, probe: bool) -> Ctx:
        return Ctx(state, rng, probe=probe)

    def settle(self, ctx: Ctx) -> None:
        """What follows by itself (an active model that left play ends its phase), then the
        command's rolls go to the roll panel."""
        rounds.settle(ctx)
        if ctx.rolls:
            ctx.emit("rolls_shown", state={"last_rolls": tuple(ctx.rolls)})

    def round_of(self, state: MatchState) -> int:
        return state.round

    def mode_of(self, state: MatchState) -> str:
        """The mission both play, or "secret": each player picked one in secret."""
        return state.mode

    def present(self, state: MatchState, screen: Screen) -> TrackerView:
        return tracker_view(state, screen)

    def team_setup(self, roster: RosterInput, catalog: CatalogData) -> dict[str, Any]:
        """The models of a group with their cards and chosen powers; a telematon names the
        model (index in ``models``) of its operator."""
        cards = universalis_catalog(catalog)
        models: list[dict[str, Any]] = []
        first: dict[int, int] = {}
        for index, entry in enumerate(roster.entries):
            card = cards.cards.get(entry.profile)
            if card is None:
                continue
            first[index] = len(models)
            powers = [cards.powers[s] for s in entry.items if s in cards.powers]
            for _copy in range(max(entry.count, 0)):
                models.append(
                    {
                        "name": entry.name,
                        "card": dump(card),
                        "powers": dump(tuple(powers)),
                        "operator": entry.attach_to,
                    }
                )
        for model in models:
            if model["operator"] is not None:
                model["operator"] = first.get(model["operator"])
        return {"faction": roster.faction, "models": models}

    def start(self, setup: Mapping[str, Any], rng: random.Random) -> list[Event]:
        """Open a match: ``setup`` holds ``mode`` ("secret" or a mission slug both play),
        ``max_rounds`` and ``players``: ``[{"name", "faction", "models": [{"name", "card",
        "powers", "operator"}]}]``."""
        args = Args(setup)
        mode = args.text("mode", SECRET)
        if mode != SECRET:
            mission(mode)
        max_rounds = args.integer("max_rounds", 0, lo=0, hi=99)
        players = args.objects("players", most=2)
        if len(players) != 2:
            raise RuleViolation("players", "A Universalis match has 2 players.")
        player_states: list[PlayerState] = []
        units: list[Unit] = []
        for index, player in enumerate(players):
            name = player.text("name")[:40] or f"Player {index + 1}"
            player_states.append(
                PlayerState(
                    index=index,
                    name=name,
                    faction=player.text("faction", ""),
                    mission=None if mode == SECRET else mode,
                )
            )
            models = player.objects("models", most=MAX_MODELS)
            if len(models) < 2:
                raise RuleViolation("empty_team", f"{name} needs at least 2 models.")
            offset = len(units)
            for model in models:
                try:
                    card = load(model.raw("card"), UnitCard)
                    powers = load(model.raw("powers"), tuple[Power, ...])
                except cattrs.BaseValidationError as error:
                    raise RuleViolation(
                        "bad_model", f"A unit card cannot be read: {error}"
                    ) from None
                unit = _unit(len(units), index, model.text("name", ""), card, powers)
                operator = model.optional_int("operator", lo=0, hi=len(models) - 1)
                if operator is not None:
                    unit = replace(unit, operator=offset + operator)
                units.append(unit)
        state = MatchState(
            mode=mode,
            max_rounds=max_rounds,
            players=tuple(player_states),
            units=tuple(units),
            missions_revealed=mode != SECRET,
        )
        return [Event("match_started", {"mode": mode, "patch": {"state": dump(state)}})]

    def initial_state(self) -> MatchState:
        return MatchState()

    def dump_state(self, state: MatchState) -> dict[str, Any]:
        data: dict[str, Any] = dump(state)
        return data

    def load_state(self, data: Mapping[str, Any]) -> MatchState:
        return load(data, MatchState)

    def public_state(self, state: MatchState, *, viewer: int | None = None) -> dict[str, Any]:
        """The state without the secrets ``viewer`` may not see: the other players' missions
        before the reveal, and their initiative picks."""
        data = self.dump_state(state)
        for player in data["players"]:
            if player["index"] != viewer:
                player["pick"] = None
                if not state.missions_revealed:
                    player["mission"] = None
        return data

    def public_event(self, event: Event, *, viewer: int | None = None) -> dict[str, Any]:
        """An event without the secrets ``viewer`` may not see (a chosen mission, a pick)."""
        data = dict(event.data)
        secret = SECRET_EVENTS.get(event.type)
        if secret is not None and data.get("player") != viewer:
            data = {**data, secret: None, "patch": {}}
        return data

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
            "vp": [taken_out_points(state, p.index) for p in state.players],
        }

    def timeline(self, state: MatchState, event: Event) -> TimelineLine | None:
        return timeline_line(state, event)


def taken_out_points(state: MatchState, player: int) -> int:
    """The VP a league reads: the points of the enemy models eliminated or fled."""
    return sum(u.card.points for u in state.units if u.player != player and not u.in_play)
