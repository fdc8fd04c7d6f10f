"""The state of a Bunkers and Badasses match: frozen dataclasses that ``apply`` replaces.

The tracker does not resolve 40K combat: the players tell it what happened (models and wounds
lost, who holds a marker). It keeps the command points, the battle options bought, the doors
and laser barriers, the sentry guns and barricades, each unit's strength and level, the
objective markers (and, in Sichert das Artefakt, the hidden artifact) and the victory points.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from apps.systems.bunkers.match.tables import TABLE_PLACES, DoorState, Phase, Stage
from apps.systems.core.errors import RuleViolation, numbered


@dataclass(frozen=True)
class Unit:
    id: int
    player: int
    name: str
    models_start: int
    wounds_per_model: int
    models: int
    wounds: int  # the wounds the whole unit has left
    points: int = 0
    power: int = 0
    base: str = ""
    deep_strike: bool = False
    keywords: tuple[str, ...] = ()
    place: str = ""  # "" not deployed yet, "upper", "lower", "board" (one level) or "reserve"
    arrived: bool = False  # came from reserve

    @property
    def wounds_start(self) -> int:
        return self.models_start * self.wounds_per_model

    @property
    def destroyed(self) -> bool:
        return self.models <= 0

    @property
    def on_table(self) -> bool:
        return self.place in TABLE_PLACES and not self.destroyed

    @property
    def below_half(self) -> bool:
        """Maximaler Schaden: under 50 % of its starting models; a single model by wounds."""
        if self.destroyed:
            return False
        if self.models_start == 1:
            return self.wounds * 2 < self.wounds_per_model
        return self.models * 2 < self.models_start


@dataclass(frozen=True)
class Door:
    """A door or (``kind`` "barrier") a laser barrier; barriers have no wounds."""

    id: int
    name: str
    kind: str = "door"
    narrow: bool = False
    state: DoorState = DoorState.CLOSED
    wounds: int = 0
    trapped: bool = False

    @property
    def intact(self) -> bool:
        return self.state in (DoorState.OPEN, DoorState.CLOSED)

    @property
    def sealed(self) -> bool:
        """Sealed, open or closed: it can be neither opened nor closed any more."""
        return self.state in (DoorState.SEALED, DoorState.SEALED_OPEN)

    @property
    def is_open(self) -> bool:
        """Physically open: open, or sealed while it stood open (it does not shut by itself)."""
        return self.state in (DoorState.OPEN, DoorState.SEALED_OPEN)


@dataclass(frozen=True)
class Piece:
    """A sentry gun or a barricade bought with a battle option."""

    id: int
    player: int
    kind: str  # "sentry" or "barricade"
    wounds: int = 0
    removed: bool = False  # off the board: removed by hand or destroyed
    destroyed: bool = False  # a sentry gun that lost its last wound (Maximaler Schaden)


@dataclass(frozen=True)
class Crossing:
    """One ladder or elevator used in this player turn: the units and models it carried."""

    via: str  # "ladder" or "elevator"
    number: int  # its number (or colour) on the board, 1-9
    units: int = 0
    models: int = 0


@dataclass(frozen=True)
class Marker:
    number: int
    revealed: bool = False
    holder: int | None = None  # who held it at the last scoring


@dataclass(frozen=True)
class VpEntry:
    round: int
    points: int
    reason: str
    detail: str = ""


@dataclass(frozen=True)
class PlayerState:
    index: int
    name: str
    faction: str = ""
    army_points: int = 0
    army_power: int = 0
    scale: str = "points"
    cp: int = 0
    side: str = ""  # "attacker" or "defender"
    vp: tuple[VpEntry, ...] = ()
    options: tuple[str, ...] = ()  # every option bought, in order
    deep_strikes: int = 0  # reserve arrivals by deep strike so far
    nowhere: int = 0  # "Aus dem Nichts" bought and not used yet

    @property
    def total_vp(self) -> int:
        return sum(entry.points for entry in self.vp)


@dataclass(frozen=True)
class Result:
    winners: tuple[int, ...]
    draw: bool
    reason: str  # last_round, conceded, time


@dataclass(frozen=True)
class MatchState:
    mission: str = ""
    rounds: int = 0
    levels: int = 2  # the board's levels, 1 or 2 (a match started before the choice had 2)
    players: tuple[PlayerState, ...] = ()
    units: tuple[Unit, ...] = ()
    doors: tuple[Door, ...] = ()
    pieces: tuple[Piece, ...] = ()
    markers: tuple[Marker, ...] = ()
    stage: Stage = Stage.ZONES
    roll_winner: int | None = None  # the last roll-off's winner
    chooser: int | None = None  # who chose the zones
    marker_placer: int | None = None
    deployer: int | None = None
    first: int | None = None  # who takes the first turn of every round
    round: int = 0
    active: int | None = None  # whose player turn it is
    phase: Phase = Phase.COMMAND
    scoring_due: bool = False
    crossings: tuple[Crossing, ...] = ()  # the ladders and elevators used this player turn
    artifact: int | None = None  # the marker hiding it (hidden until revealed)
    artifact_found: bool = False
    carrier: int | None = None  # the unit carrying the artifact
    last_carrier_player: int | None = None
    result: Result | None = None
    ending: str = ""  # why the final question is asked: "last_round" or "time"

    def unit(self, unit_id: int) -> Unit:
        return numbered(self.units, unit_id, "unknown_unit", "unit")

    def door(self, door_id: int) -> Door:
        return numbered(self.doors, door_id, "unknown_door", "door")

    def piece(self, piece_id: int) -> Piece:
        if not 0 <= piece_id < len(self.pieces) or self.pieces[piece_id].removed:
            raise RuleViolation("unknown_piece", f"There is no piece number {piece_id}.")
        return self.pieces[piece_id]

    def crossing(self, via: str, number: int) -> Crossing:
        """What the ladder or elevator ``via`` ``number`` has carried this player turn."""
        for crossing in self.crossings:
            if crossing.via == via and crossing.number == number:
                return crossing
        return Crossing(via, number)

    def player(self, index: int) -> PlayerState:
        return numbered(self.players, index, "unknown_player", "player")

    def other(self, player: int) -> int:
        return 1 - player

    def side_units(self, player: int) -> tuple[Unit, ...]:
        return tuple(u for u in self.units if u.player == player)

    def placed(self, player: int, place: str) -> int:
        """How many of ``player``'s units not destroyed stand at ``place`` ("" = not
        deployed yet)."""
        return sum(1 for u in self.side_units(player) if u.place == place and not u.destroyed)

    @property
    def in_battle(self) -> bool:
        return self.stage is Stage.BATTLE

    @property
    def last_turn(self) -> bool:
        return self.round >= self.rounds and self.active is not None and self.active != self.first

    def with_unit(self, unit_id: int, **changes: object) -> MatchState:
        units = list(self.units)
        units[unit_id] = replace(units[unit_id], **changes)  # type: ignore[arg-type]
        return replace(self, units=tuple(units))

    def with_door(self, door_id: int, **changes: object) -> MatchState:
        doors = list(self.doors)
        doors[door_id] = replace(doors[door_id], **changes)  # type: ignore[arg-type]
        return replace(self, doors=tuple(doors))

    def with_piece(self, piece_id: int, **changes: object) -> MatchState:
        pieces = list(self.pieces)
        pieces[piece_id] = replace(pieces[piece_id], **changes)  # type: ignore[arg-type]
        return replace(self, pieces=tuple(pieces))

    def with_player(self, index: int, **changes: object) -> MatchState:
        players = list(self.players)
        players[index] = replace(players[index], **changes)  # type: ignore[arg-type]
        return replace(self, players=tuple(players))

    def with_marker(self, index: int, **changes: object) -> MatchState:
        markers = list(self.markers)
        markers[index] = replace(markers[index], **changes)  # type: ignore[arg-type]
        return replace(self, markers=tuple(markers))
