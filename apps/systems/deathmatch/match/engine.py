"""The Deathmatch match engine as the rest of the app sees it (``core.match.MatchEngine``)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Final

import cattrs

from apps.systems.core.deck import draw, shuffled_deck
from apps.systems.core.engine import RuleEngine, Screen
from apps.systems.core.errors import RuleViolation
from apps.systems.core.i18n import gettext_noop
from apps.systems.core.match import Args, Command, Event, TimelineLine
from apps.systems.core.rosters import CatalogData, RosterInput
from apps.systems.core.schema import FieldSpec
from apps.systems.core.summary import Summary
from apps.systems.deathmatch.catalog import EquipmentCard, FighterProfile, ItemKind, Rank
from apps.systems.deathmatch.match import rounds, upgrades
from apps.systems.deathmatch.match.apply import APPLIERS
from apps.systems.deathmatch.match.commands import COMMAND_SPECS
from apps.systems.deathmatch.match.context import Ctx
from apps.systems.deathmatch.match.handlers import COMMANDS
from apps.systems.deathmatch.match.modes import (
    ObjectiveKind,
    Spot,
    mode_by_card,
    mode_by_slug,
    modes_for,
)
from apps.systems.deathmatch.match.refusals import REFUSALS
from apps.systems.deathmatch.match.serial import dump, load
from apps.systems.deathmatch.match.state import (
    MatchState,
    Objective,
    Phase,
    PlayerState,
    Unit,
    UnitKind,
)
from apps.systems.deathmatch.match.summary import summary
from apps.systems.deathmatch.match.timeline import timeline_line
from apps.systems.deathmatch.match.tracker.page import TrackerView, tracker_view
from apps.systems.deathmatch.match.units import core_profile, fighter_unit, special_unit
from apps.systems.deathmatch.roster import totals
from apps.systems.deathmatch.system import deathmatch_catalog, deathmatch_roster

MIN_PLAYERS, MAX_PLAYERS = 2, 4
RANDOM_MODE = "random"


def _choose_mode(slug: str, players: int, rng: random.Random) -> tuple[str, list[int]]:
    """The agreed mode, or a random one by flipping a card from a freshly shuffled deck: 0-9
    names a two-player mode; with 3-4 players cards are flipped until one shows 1-5."""
    if slug != RANDOM_MODE:
        mode = mode_by_slug(slug)
        if not mode.min_players <= players <= mode.max_players:
            raise RuleViolation(
                "mode_players",
                f"{mode.name} is played by {mode.players_label} players, not {players}.",
            )
        return mode.slug, []
    deck = shuffled_deck(rng)
    cards: list[int] = []
    multiplayer = modes_for(players) if players > 2 else ()
    while True:
        drawn = draw(deck, rng)
        deck = drawn.deck
        cards.append(drawn.card)
        if players == 2:
            return mode_by_card(drawn.card).slug, cards
        if 1 <= drawn.card <= len(multiplayer):
            return multiplayer[drawn.card - 1].slug, cards


def _objective(spot: Spot) -> Objective:
    return Objective(id=spot.id, kind=spot.kind.value, side=spot.side)


SETUP_FIELDS: Final = (
    FieldSpec(
        "game_size",
        gettext_noop("Game size"),
        "choice",
        choices=(
            ("3", gettext_noop("Small (3 fighters)")),
            ("5", gettext_noop("Standard (5 fighters)")),
            ("7", gettext_noop("Large (7 fighters)")),
        ),
        default="5",
    ),
    FieldSpec(
        "gadgets",
        gettext_noop("Play with gadgets (each player chooses or flips one)"),
        "bool",
        required=False,
        default=True,
    ),
)


class DeathmatchEngine(RuleEngine[MatchState, Ctx]):
    system_name = "Deathmatch"
    # 2: an attack's queued automatic hits are a list (``Attack.queued_hits``), not encoded
    # in ``then`` as "auto:<cause>:<strength>[:<then>]".
    # 3: units carry standing modifiers, gadgets the round they were used in (SPEC §6).
    schema_version = 4
    handlers = COMMANDS
    appliers = APPLIERS
    specs = COMMAND_SPECS
    refusals = REFUSALS
    event_upgrades = {1: upgrades.event_v1_to_v2, 2: upgrades.event_v2_to_v3}
    state_upgrades = {
        1: upgrades.state_v1_to_v2,
        2: upgrades.state_v2_to_v3,
        3: upgrades.state_v3_to_v4,
    }

    def setup_fields(self) -> tuple[FieldSpec, ...]:
        return SETUP_FIELDS

    def context(self, state: MatchState, rng: random.Random, *, probe: bool) -> Ctx:
        return Ctx(state, rng, probe=probe)

    def before(self, ctx: Ctx, command: Command, args: Args) -> None:
        """A free flip stays open for its rerolls; any other command closes it."""
        state = ctx.state
        if state.open_free_flip is not None and not _keeps_free_flip_open(state, command, args):
            ctx.emit("free_flip_closed")

    def settle(self, ctx: Ctx) -> None:
        rounds.settle(ctx)

    def undo_events(self, current: MatchState, rebuilt: MatchState) -> list[Event]:
        """Seen cards stay seen (SPEC §6; rulebook "verdeckter Stapel", "bindend"): the cards
        the undone command drew stay drawn. Every deck it moved is kept as it lies now, its
        order untouched, so undo can neither show nor swap the next card."""
        decks = [
            {"player": now.index, "deck": dump(now.deck)}
            for now, before in zip(current.players, rebuilt.players, strict=True)
            if now.deck != before.deck
        ]
        return [Event("decks_kept", {"decks": decks})] if decks else []

    def round_of(self, state: MatchState) -> int:
        return state.round

    def mode_of(self, state: MatchState) -> str:
        return state.mode

    def present(self, state: MatchState, screen: Screen) -> TrackerView:
        """Deathmatch hides nothing from one seat that it shows another: the viewer is unused."""
        return tracker_view(state, screen)

    def roster_settings(self, mode: str) -> dict[str, Any]:
        """Last Man Standing gives +0.5 ARP per Mech: its teams are checked with that bonus. A
        random mode is not known yet when the teams are checked, so they are checked without."""
        return {"last_man_standing": mode != RANDOM_MODE and mode_by_slug(mode).lms_arp}

    def team_setup(self, roster: RosterInput, catalog: CatalogData) -> dict[str, Any]:
        """The fighters of a roster with their cards; the leader carries the Respawn-Fokus for
        free (it is never listed in a roster). Unknown cards are left out: the roster's own
        validation reports them before a match starts."""
        cards = deathmatch_catalog(catalog)
        team = deathmatch_roster(roster)
        focus = next(
            (i for i in cards.items.values() if i.kind is ItemKind.RESPAWN_FOCUS and i.cost == 0),
            None,
        )
        fighters = []
        for entry in team.entries:
            profile = cards.profiles.get(entry.profile)
            if profile is None:
                continue
            items = [cards.items[slug] for slug in entry.items if slug in cards.items]
            if profile.rank is Rank.LEADER and focus is not None:
                items.insert(0, focus)
            for _ in range(max(entry.count, 0)):
                fighters.append(
                    {"name": entry.name, "profile": dump(profile), "items": dump(tuple(items))}
                )
        harmony = totals(team, cards).harmony_bonus > 0
        return {"faction": roster.faction, "harmony": harmony, "fighters": fighters}

    def start(self, setup: Mapping[str, Any], rng: random.Random) -> list[Event]:
        """Open a match: ``setup`` holds ``mode`` (a slug or "random"), ``game_size``,
        ``gadgets`` (bool) and ``players``: ``[{"name", "faction", "harmony", "fighters":
        [{"name", "profile": <FighterProfile>, "items": [<EquipmentCard>]}]}]``."""
        args = Args(setup)
        players = args.objects("players", most=MAX_PLAYERS)
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            raise RuleViolation("players", "A Deathmatch match has 2 to 4 players.")
        game_size = args.integer("game_size", lo=3, hi=7)
        if game_size not in (3, 5, 7):
            raise RuleViolation("game_size", "The game size must be 3, 5 or 7 fighters.")
        mode_slug, cards = _choose_mode(args.text("mode"), len(players), rng)
        mode = mode_by_slug(mode_slug)
        player_states: list[PlayerState] = []
        units: list[Unit] = []
        for index, player in enumerate(players):
            player_states.append(
                PlayerState(
                    index=index,
                    name=player.text("name")[:40] or f"Player {index + 1}",
                    faction=player.text("faction", ""),
                    deck=shuffled_deck(rng),
                    harmony=player.boolean("harmony"),
                )
            )
            fighters = player.objects("fighters", most=20)
            if not fighters:
                raise RuleViolation("empty_team", f"{player.text('name')} has no fighters.")
            for fighter in fighters:
                try:
                    profile = load(fighter.raw("profile"), FighterProfile)
                    items = load(fighter.raw("items"), tuple[EquipmentCard, ...])
                except cattrs.BaseValidationError as error:
                    raise RuleViolation(
                        "bad_fighter", f"A fighter card cannot be read: {error}"
                    ) from None
                units.append(
                    fighter_unit(len(units), index, profile, items, fighter.text("name", ""))
                )
        layout = mode.layout(len(players), game_size)
        if mode.cores:
            for spot in layout.spots:
                if spot.kind is ObjectiveKind.CORE and spot.side is not None:
                    units.append(
                        special_unit(len(units), spot.side, UnitKind.CORE, core_profile(game_size))
                    )
        objectives = tuple(
            _objective(spot)
            for spot in layout.spots
            if spot.kind not in (ObjectiveKind.CORE, ObjectiveKind.KING_ZONE)
        )
        awaiting = "gadgets" if args.boolean("gadgets", True) else "deployment_flip"
        return [
            Event(
                "match_started",
                {
                    "mode": mode.slug,
                    "mode_cards": cards,
                    "game_size": game_size,
                    "players": dump(tuple(player_states)),
                    "units": dump(tuple(units)),
                    "objectives": dump(objectives),
                    "awaiting": awaiting,
                },
            )
        ]

    def initial_state(self) -> MatchState:
        return MatchState()

    def dump_state(self, state: MatchState) -> dict[str, Any]:
        data: dict[str, Any] = dump(state)
        return data

    def load_state(self, data: Mapping[str, Any]) -> MatchState:
        return load(data, MatchState)

    def public_state(self, state: MatchState, *, viewer: int | None = None) -> dict[str, Any]:
        """Every viewer alike: only the decks' order is hidden."""
        public: dict[str, Any] = hide_decks(self.dump_state(state))
        return public

    def public_event(self, event: Event, *, viewer: int | None = None) -> dict[str, Any]:
        public: dict[str, Any] = hide_decks(dict(event.data))
        return public

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


def _keeps_free_flip_open(state: MatchState, command: Command, args: Args) -> bool:
    """A reroll of the free flip keeps it open; an Accept meant for it closes it itself (closed
    first by ``before``, the Accept would find no flip waiting)."""
    if command.type == "accept":
        return state.attack is None and state.disengage is None and state.pending is None
    return command.type == "reroll" and args.optional_int("player", lo=0, hi=3) is not None


def deck_summary(deck: Mapping[str, Any]) -> dict[str, Any]:
    """What a player may know of a deck: how many cards come before the Wendepunkt and which
    cards were drawn since the last shuffle -- never the order of the rest."""
    return {
        "remaining_before_turn": len(deck["above_turn"]),
        "drawn": list(deck["drawn"]),
        "size": 41,
    }


def hide_decks(value: Any) -> Any:
    """A copy with every deck replaced by its summary (decks sit in players and in flips)."""
    if isinstance(value, Mapping):
        if "above_turn" in value and "below_turn" in value:
            return deck_summary(value)
        return {key: hide_decks(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [hide_decks(item) for item in value]
    return value
