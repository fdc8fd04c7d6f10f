"""The state of a Universalis match: frozen dataclasses, replaced (never mutated) by ``apply``.

Everything a table tracks lives here: each model's hit points (a colossus's per hit zone), AP,
tokens and markers, conditions, single-use markers and powers in play; each player's secret
mission and secret initiative pick; the round, whose initiative phase it is, and the rolls of the
last command for the roll panel. It is stored as JSON (``serial.py``); the missions and picks are
hidden from everyone but their owner until revealed (``engine.public_state``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from apps.systems.core.errors import numbered
from apps.systems.universalis.catalog import Effect, Power, UnitCard

MAX_AP = 12


class Phase(StrEnum):
    SETUP = "setup"  # missions, deployment roll-off
    ORDER = "order"  # both players pick a model in secret
    ACTING = "acting"  # a model's initiative phase
    ROUND_END = "round_end"  # surrender, victory check
    OVER = "over"


class ZoneName(StrEnum):
    TORSO = "torso"
    LEFT = "left"
    RIGHT = "right"
    MOVEMENT = "movement"


@dataclass(frozen=True)
class Zone:
    """A colossus's hit zone with its own hit points (18.3)."""

    name: ZoneName
    hp: int
    hp_max: int
    hp_critical: int
    critical: bool = False
    destroyed: bool = False


@dataclass(frozen=True)
class Burn:
    """The profile of the weapon that set a model on fire or poisoned it."""

    name: str
    strength: int
    damage: int
    effects: tuple[Effect, ...] = ()


@dataclass(frozen=True)
class Unit:
    """A model in play. ``operator`` is the unit id of a telematon's operator."""

    id: int
    player: int
    name: str
    card: UnitCard
    powers: tuple[Power, ...] = ()
    operator: int | None = None
    hp: int = 0
    ap: int = 0
    shock_tokens: int = 0
    shock_paid: int = 0  # tokens a telematon paid with AP at this round's start
    critical: bool = False
    was_critical: bool = False
    eliminated: bool = False
    fled: bool = False
    activated: bool = False  # had its initiative phase this round
    prone: bool = False
    fast: bool = False  # moved more than 20 cm in its phase (token)
    moved_cm: int = 0  # this initiative phase
    defence: bool = False
    readiness: int | None = None  # weapon index in fire readiness
    reload: tuple[int, ...] = ()  # weapon indices with a reload marker
    weapon_uses: tuple[int | None, ...] = ()
    trait_uses: tuple[int | None, ...] = ()
    equipment_uses: tuple[int | None, ...] = ()
    burning: Burn | None = None
    poison: int = 0
    poison_by: Burn | None = None
    panic: bool = False
    camouflaged: bool = False
    revealed_moves: int = 0  # full moves since it was revealed
    zones: tuple[Zone, ...] = ()
    immobile: str = ""  # movement zone destroyed: "turn" (can still turn) or "fixed"
    powers_in_play: tuple[int, ...] = ()
    threat_tested: bool = False  # the direct-threat EH test of this phase is made
    threat_failed: bool = False  # ... and failed: no disengaging this phase
    acted: bool = False  # took an action in this phase (flight moves first)
    # The enemy models it is in melee with (base contact, 15): from a charge or base contact
    # until it disengages, is pushed out of contact or its opponent is gone.
    engaged: tuple[int, ...] = ()
    # A failed direct-threat test: its next action must attack one of these (4.5.1).
    must_attack: tuple[int, ...] = ()
    ambush_round: int = 0  # the round it attacked out of camouflage (15.7.3): its bonus lasts

    @property
    def in_play(self) -> bool:
        return not (self.eliminated or self.fled)

    @property
    def telematon(self) -> bool:
        return self.card.telematon


@dataclass(frozen=True)
class PlayerState:
    index: int
    name: str
    faction: str
    mission: str | None = None  # secret until ``missions_revealed``
    pick: int | None = None  # the secret initiative pick of this round
    held_rounds: int = 0  # rounds a declared mission was met
    accomplished: bool = False
    surrendered: bool = False


@dataclass(frozen=True)
class Roll:
    """One roll for the roll panel and the API: what was rolled, the dice, and the exact odds
    it had. ``label`` is gettext_noop-marked with %(name)s ``params``."""

    label: str
    dice: tuple[int, ...]
    outcome: str  # success, failure, win, tie, loss, or a number
    odds: str  # "n/d": P(success) or P(win) before the roll
    params: tuple[tuple[str, str | int], ...] = ()
    target: int | None = None  # attribute roll: the value to roll at most
    totals: tuple[int, ...] = ()  # comparative roll: each side's total
    tie_odds: str = ""


@dataclass(frozen=True)
class PanicDue:
    unit: int
    cause: int | None  # the friend just eliminated (None: the end-of-phase retest)


@dataclass(frozen=True)
class LastAction:
    """The action other models may react to: ``kind`` move, melee, disengage; ``left`` the
    models a disengaging model was in base contact with (they may attack it as it goes)."""

    kind: str
    unit: int
    target: int | None = None
    reckless_lost: bool = False
    left: tuple[int, ...] = ()


@dataclass(frozen=True)
class Charge:
    """An Angriffsbewegung that reached base contact: reactions to the move come first, then
    it becomes the attack (8.3, 14.3) with its weapon, paid with the move."""

    unit: int
    target: int
    weapon: int
    reckless: bool = False


@dataclass(frozen=True)
class AreaShot:
    """An area weapon's shot waits for the table to say which models the area covers."""

    unit: int
    weapon: int
    hit: bool
    scatter_cm: int
    direction: int
    extra_strength: int = 0
    indirect: bool = False


@dataclass(frozen=True)
class Result:
    winners: tuple[int, ...]
    draw: bool
    reason: str


@dataclass(frozen=True)
class MatchState:
    mode: str = ""  # "secret", or the mission both play
    max_rounds: int = 0  # 0: no limit
    players: tuple[PlayerState, ...] = ()
    units: tuple[Unit, ...] = ()
    phase: Phase = Phase.SETUP
    round: int = 0
    missions_revealed: bool = False
    deployment_winner: int | None = None
    active: int | None = None  # the unit in its initiative phase
    follower: int | None = None  # the initiative loser's unit, whose phase comes next
    burning_due: tuple[int, ...] = ()  # models that must test their burning first
    last_action: LastAction | None = None
    charge: Charge | None = None  # a charge waiting for its attack
    area: AreaShot | None = None
    panic_due: tuple[PanicDue, ...] = ()
    panic_moves_due: tuple[int, ...] = ()  # panicking models to move at the round's start
    last_rolls: tuple[Roll, ...] = ()
    result: Result | None = None

    def unit(self, unit_id: int) -> Unit:
        return numbered(self.units, unit_id, "unknown_unit", "model")

    def player(self, index: int) -> PlayerState:
        return numbered(self.players, index, "unknown_player", "player")

    def team(self, player: int) -> tuple[Unit, ...]:
        return tuple(u for u in self.units if u.player == player)

    def with_unit(self, unit_id: int, **changes: Any) -> MatchState:
        units = list(self.units)
        units[unit_id] = replace(units[unit_id], **changes)
        return replace(self, units=tuple(units))

    def with_player(self, index: int, **changes: Any) -> MatchState:
        players = list(self.players)
        players[index] = replace(players[index], **changes)
        return replace(self, players=tuple(players))
