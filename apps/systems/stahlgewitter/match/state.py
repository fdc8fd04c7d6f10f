"""The state of a Stahlgewitter match: frozen dataclasses that ``apply`` replaces.

The tracker resolves every attack on the combat results table, so it keeps each model (its TP,
stunned, prone, weapons and their faults), each unit (hidden behind its numbered marker or
revealed, activated, ready, panicking, out of the game), the markers with their secret
marker→unit mapping, the order of the round (whose pick, the last unit that took a turn, a
Blitzaktion waiting or running) and the victory points.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from apps.systems.core.errors import RuleViolation, numbered


class Stage(StrEnum):
    TERRAIN = "terrain"  # choose the terrain method (rolls who places / chooses)
    PLACING = "placing"  # alternate terrain placing until a player passes
    ZONE = "zone"  # the chooser picks a table edge
    DEPLOY_ROLL = "deploy_roll"  # who places the first marker
    MARKERS = "markers"  # hide units behind markers, place the markers alternately
    START = "start"  # the start roll
    BATTLE = "battle"
    OVER = "over"


class Phase(StrEnum):
    MOVEMENT = "movement"
    RANGED = "ranged"
    MELEE = "melee"
    RALLY = "rally"


PHASES: tuple[Phase, ...] = (Phase.MOVEMENT, Phase.RANGED, Phase.MELEE, Phase.RALLY)


@dataclass(frozen=True)
class Weapon:
    slug: str
    name: str
    type: str  # melee, throw, pistol, rifle, launcher
    fkw: int | None = None
    nkw: int | None = None
    range_cm: int | None = None  # None: unlimited or thrown (STK x 10 cm)
    burst: int = 0  # attacks per burst; 0: single shots only
    template_cm: int = 0
    move_and_fight: bool = True
    armour_breaker: bool = False
    bulkheads_only: bool = False  # footnote 1): the breaker only opens bulkheads, hatches, ...
    ignores_armour: bool = False
    pw_always_1: bool = False
    row_bonus: int = 0
    stun_from_e: bool = False
    morale_test: bool = False
    burns: bool = False
    no_burst_range_penalty: bool = False
    fault: bool = False
    fault_until: int = 0  # the round at whose end it works again; 0 with a fault: until repaired

    @property
    def ranged(self) -> bool:
        return self.fkw is not None and self.type != "melee"

    @property
    def melee(self) -> bool:
        return self.nkw is not None


@dataclass(frozen=True)
class Model:
    id: int
    unit: int
    player: int
    name: str
    profile: str
    rank: str = "soldier"  # leader or soldier
    rank_order: int = 0
    skills: tuple[str, ...] = ()
    effects: tuple[str, ...] = ()  # equipment effects: banner, motion_scanner, medic, ...
    b: int = 12
    pw: int = 0
    armour_pw: int = 0  # the part of pw that is armour (ignored by plasma, halved by breakers)
    ges: int = 1
    wik: int = 7
    stk: int = 1
    tp_start: int = 1
    tp: int = 1
    points: int = 0
    weapons: tuple[Weapon, ...] = ()
    nkw_bonus: int = 0  # an Energie-/Vibro-Variante on its melee weapons
    stunned: bool = False
    wakes: bool = False  # stunned before its unit's turn began: stands up at its end
    prone: bool = False
    moved: str = ""  # this turn: "" not moved, "short" (at most 3 cm), "far"
    acted: str = ""  # this turn: "" nothing, "ranged", "melee"
    dead: bool = False
    burning: int = 0  # rounds it still burns (Flammenwerfer: "Ziel brennt 1W4 Runden")

    @property
    def leader(self) -> bool:
        return self.rank == "leader"

    @property
    def alive(self) -> bool:
        return not self.dead


@dataclass(frozen=True)
class Unit:
    id: int
    player: int
    name: str
    models: tuple[int, ...]
    revealed: bool = False
    activated_round: int = 0
    ready: bool = False
    ready_round: int = 0
    blitzed_round: int = 0
    panic: bool = False
    out: str = ""  # "", wiped, deserted, surrendered, removed
    morale_bonus: int = 0
    mutinied: bool = False  # a cruel leader survived its mutiny: only a new example calms it


@dataclass(frozen=True)
class Marker:
    player: int
    number: int
    unit: int | None = None  # secret: the unit behind it (None: a decoy or not assigned yet)
    placed: bool = False
    revealed: bool = False
    removed: bool = False  # a decoy taken off the table


@dataclass(frozen=True)
class Fire:
    id: int
    out: bool = False


@dataclass(frozen=True)
class VpEntry:
    round: int
    points: int
    reason: str  # taken_out, surrendered, mission
    detail: str = ""


@dataclass(frozen=True)
class PlayerState:
    index: int
    name: str
    faction: str = ""
    army_points: int = 0
    edge: str = ""  # north or south
    commander: int | None = None  # the army commander (a model id)
    vp: tuple[VpEntry, ...] = ()

    @property
    def total_vp(self) -> int:
        return sum(entry.points for entry in self.vp)


@dataclass(frozen=True)
class Result:
    winners: tuple[int, ...]
    draw: bool
    reason: str  # last_round, eliminated, conceded, time


@dataclass(frozen=True)
class MatchState:
    mode: str = "free"
    rounds: int = 0
    start_wik: bool = False
    players: tuple[PlayerState, ...] = ()
    units: tuple[Unit, ...] = ()
    models: tuple[Model, ...] = ()
    markers: tuple[Marker, ...] = ()
    fires: tuple[Fire, ...] = ()
    stage: Stage = Stage.TERRAIN
    terrain: str = ""  # quarters or alternate
    terrain_first: int | None = None  # who won the terrain roll
    zone_chooser: int | None = None
    placer: int | None = None  # whose marker is placed next
    first: int | None = None  # the start player
    round: int = 0
    counts: tuple[int, ...] = ()  # units of each side counted at the start of the round
    turn_player: int | None = None  # whose pick is next
    picks: int = 0  # units the turn player activated in a row so far
    active: int | None = None  # the unit taking its turn
    phase: Phase = Phase.MOVEMENT
    last_unit: int | None = None  # the unit whose turn ended last
    blitz: int | None = None  # a Blitzaktion called, starting after the current phase
    interrupted: int | None = None  # the unit whose turn a running Blitzaktion interrupted
    resume: str = ""  # the phase the interrupted unit continues with ("" none left)
    struck: tuple[int, ...] = ()  # units attacked during the current turn
    leader_shots: tuple[tuple[int, int], ...] = ()  # (firing unit, target unit) per leader shot
    rallied: bool = False  # the active unit took its rally test this turn
    surrender: int | None = None  # a unit offering its surrender, waiting for the enemy's answer
    result: Result | None = None

    # --- look-ups --------------------------------------------------------------------------

    def unit(self, unit_id: int) -> Unit:
        return numbered(self.units, unit_id, "unknown_unit", "unit")

    def model(self, model_id: int) -> Model:
        return numbered(self.models, model_id, "unknown_model", "model")

    def player(self, index: int) -> PlayerState:
        return numbered(self.players, index, "unknown_player", "player")

    def marker(self, player: int, number: int) -> Marker:
        for marker in self.markers:
            if marker.player == player and marker.number == number:
                return marker
        raise RuleViolation("unknown_marker", f"There is no marker {number}.")

    def marker_of(self, unit_id: int) -> Marker | None:
        return next((m for m in self.markers if m.unit == unit_id), None)

    def other(self, player: int) -> int:
        return 1 - player

    def side_units(self, player: int) -> tuple[Unit, ...]:
        return tuple(u for u in self.units if u.player == player)

    def unit_models(self, unit_id: int) -> tuple[Model, ...]:
        return tuple(self.models[m] for m in self.units[unit_id].models)

    def living(self, unit_id: int) -> tuple[Model, ...]:
        return tuple(m for m in self.unit_models(unit_id) if m.alive)

    def in_play(self, player: int) -> tuple[Unit, ...]:
        """The player's units still in the game (hidden or revealed)."""
        return tuple(u for u in self.side_units(player) if not u.out)

    def player_markers(self, player: int) -> tuple[Marker, ...]:
        return tuple(m for m in self.markers if m.player == player)

    @property
    def in_battle(self) -> bool:
        return self.stage is Stage.BATTLE

    # --- changes ---------------------------------------------------------------------------

    def with_unit(self, unit_id: int, **changes: object) -> MatchState:
        units = list(self.units)
        units[unit_id] = replace(units[unit_id], **changes)  # type: ignore[arg-type]
        return replace(self, units=tuple(units))

    def with_model(self, model_id: int, **changes: object) -> MatchState:
        models = list(self.models)
        models[model_id] = replace(models[model_id], **changes)  # type: ignore[arg-type]
        return replace(self, models=tuple(models))

    def with_weapon(self, model_id: int, index: int, **changes: object) -> MatchState:
        model = self.models[model_id]
        weapons = list(model.weapons)
        weapons[index] = replace(weapons[index], **changes)  # type: ignore[arg-type]
        return self.with_model(model_id, weapons=tuple(weapons))

    def with_player(self, index: int, **changes: object) -> MatchState:
        players = list(self.players)
        players[index] = replace(players[index], **changes)  # type: ignore[arg-type]
        return replace(self, players=tuple(players))

    def with_marker(self, player: int, number: int, **changes: object) -> MatchState:
        markers = tuple(
            replace(m, **changes) if m.player == player and m.number == number else m  # type: ignore[arg-type]
            for m in self.markers
        )
        return replace(self, markers=markers)
