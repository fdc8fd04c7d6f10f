"""The state of a Grundregeln match: frozen dataclasses that ``apply`` replaces, never mutates.

Every model on the table is a ``Model``: the two sides' models and the scenario's NPCs (``side``
None). The state keeps what the table tracks between rolls: LP, the activation and reaction
markers, block tokens, who is in melee with whom, who flees, which weapon is ready and which
needs reloading, each side's VP, the action in progress with its reactions, and the last
command's dice for the dice panel.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from apps.systems.core.errors import numbered
from apps.systems.grundregeln.catalog import RollKind, Size, Weapon
from apps.systems.grundregeln.scenario import Behaviour, Scenario


class Phase(StrEnum):
    ROUND_START = "round_start"  # Rundenbeginn: roll 1d6 + highest morale
    STARTER = "starter"  # the roll's winner decides who begins
    ACTIONS = "actions"  # Aktionsphase
    NPC_ACTIONS = "npc_actions"  # NPC-Phase 1: scenario NPCs act
    NPC_MOVES = "npc_moves"  # NPC-Phase 2: players move passive NPCs
    SCORING = "scoring"  # who holds the objectives at the end of the round
    OVER = "over"  # Spielende


@dataclass(frozen=True)
class Model:
    """A model in the match. ``side`` is the player it belongs to, None for an NPC."""

    id: int
    side: int | None
    name: str
    profile: str
    size: Size
    move: int
    morale: int
    morale_dice: int
    max_lp: int
    defence_dice: int
    weapons: tuple[Weapon, ...]
    lp: int
    reroll_ones: tuple[RollKind, ...] = ()
    items: tuple[str, ...] = ()
    abilities: tuple[str, ...] = ()
    npc: Behaviour | None = None
    sample: bool = False
    ready_weapon: int = 0
    unloaded: tuple[int, ...] = ()  # weapons that need reloading before the next shot
    # The marker of a round (l. 72): its one action is taken, by acting or by a reaction
    # before its activation; for a passive NPC: it was moved in this NPC phase.
    activated: bool = False
    reacted: bool = False  # it has reacted this round (once per round, also after acting)
    blocking: bool = False  # Blocken: +1 armour until the round end (NPC phase: the next round)
    fleeing: bool = False  # auf der Flucht
    engaged: tuple[int, ...] = ()  # the models it is in melee with
    out: bool = False  # eliminated and removed
    killed_by: int | None = None  # the side whose attack took its last LP

    @property
    def lost(self) -> int:
        return self.max_lp - self.lp

    @property
    def in_play(self) -> bool:
        return not self.out

    @property
    def standing(self) -> bool:
        """In play with LP left (a model on 0 LP is removed when the exchange ends)."""
        return not self.out and self.lp > 0

    @property
    def active_npc(self) -> bool:
        return self.npc is Behaviour.ACTIVE

    @property
    def passive_npc(self) -> bool:
        return self.npc is Behaviour.PASSIVE

    @property
    def weapon(self) -> Weapon | None:
        return self.weapons[self.ready_weapon] if self.weapons else None

    @property
    def defence(self) -> int:
        return self.defence_dice + (1 if self.blocking else 0)

    def rerolls(self, kind: RollKind) -> bool:
        return kind in self.reroll_ones


@dataclass(frozen=True)
class VpEntry:
    round: int
    points: int
    reason: str  # kill, npc_kill, objective, adjusted
    detail: str = ""


@dataclass(frozen=True)
class PlayerState:
    index: int
    name: str
    faction: str = ""
    vp: tuple[VpEntry, ...] = ()
    npc_moves: int = 0  # passive NPCs moved in this NPC phase
    npc_done: bool = False  # moves no more NPCs in this NPC phase

    @property
    def total_vp(self) -> int:
        return sum(entry.points for entry in self.vp)


@dataclass(frozen=True)
class Declared:
    """An action or a reaction as declared; ``possible`` is False when the table found it
    impossible at resolution (out of range, no sight): it lapses."""

    unit: int
    action: str
    target: int | None = None
    weapon: int | None = None
    modifier: int = 0
    note: str = ""
    dice: int | None = None  # the attack dice the table named for a model without the weapon
    resolved: bool = False
    possible: bool = True


@dataclass(frozen=True)
class Pending:
    """An action in progress: declared, reactions being declared, then resolved in order."""

    action: Declared
    reactions: tuple[Declared, ...] = ()
    reacting: tuple[int, ...] = ()  # the sides whose models may react
    closed: bool = False  # resolution has begun: no more reactions
    mover: int | None = None  # NPC phase: the player who moves this passive NPC
    # A move's rolled range, rolled before the reactions are carried out (Bewegung, l. 84)
    distance: int | None = None


@dataclass(frozen=True)
class RollRecord:
    """One group of dice the app rolled, for the dice panel.

    ``kind`` names the roll (hit, damage, defence, morale, move, flight, push, fall, round_start,
    free); ``need`` is the value each die needs for a success roll; ``result`` the successes or
    the total; ``odds`` pairs a stable code with the exact probability it had ("n/d")."""

    kind: str
    dice: tuple[int, ...]
    extra: tuple[int, ...] = ()
    rerolled: tuple[int, ...] = ()
    unit: int | None = None
    other: int | None = None
    player: int | None = None
    need: int | None = None
    result: int = 0
    cancelled: tuple[int, ...] = ()  # damage dice a defence die cancelled (positions)
    odds: tuple[tuple[str, str], ...] = ()
    label: str = ""


@dataclass(frozen=True)
class Result:
    winners: tuple[int, ...]
    draw: bool
    reason: str  # wiped_out, last_round, conceded, time


@dataclass(frozen=True)
class MatchState:
    mode: str = ""
    scenario: Scenario | None = None
    players: tuple[PlayerState, ...] = ()
    models: tuple[Model, ...] = ()
    phase: Phase = Phase.ROUND_START
    round: int = 0
    roll_winner: int | None = None
    starter: int | None = None
    turn: int | None = None  # whose activation (actions) or NPC move (npc_moves) it is
    rallied: int | None = None  # a fleeing model that passed its test and may now act
    pending: Pending | None = None
    holders: tuple[int | None, ...] = ()  # who held each objective at the last scoring
    result: Result | None = None
    rolls: tuple[RollRecord, ...] = ()
    roll_batch: int = 0  # the command whose dice ``rolls`` shows
    command_no: int = 0  # counts the commands decided, stamped into their events

    # --- Lookups ---------------------------------------------------------------------------

    def model(self, model_id: int) -> Model:
        return numbered(self.models, model_id, "unknown_unit", "model")

    def player(self, index: int) -> PlayerState:
        return numbered(self.players, index, "unknown_player", "player")

    def side(self, player: int) -> tuple[Model, ...]:
        return tuple(m for m in self.models if m.side == player)

    def npcs(self) -> tuple[Model, ...]:
        return tuple(m for m in self.models if m.side is None)

    def other(self, player: int) -> int:
        return 1 - player

    # --- Updates (used by apply) -----------------------------------------------------------

    def with_model(self, model_id: int, **changes: object) -> MatchState:
        models = list(self.models)
        models[model_id] = replace(models[model_id], **changes)  # type: ignore[arg-type]
        return replace(self, models=tuple(models))

    def with_player(self, index: int, **changes: object) -> MatchState:
        players = list(self.players)
        players[index] = replace(players[index], **changes)  # type: ignore[arg-type]
        return replace(self, players=tuple(players))
