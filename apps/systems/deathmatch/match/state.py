"""The state of a Deathmatch match: frozen dataclasses, replaced (never mutated) by ``apply``.

Everything a table tracks lives here: each fighter's LP, markers, AP and bonuses, each player's
deck (the real card order), command pool and VP, the objectives, and the flip or attack in
progress. It is stored as JSON (``serial.py``); the deck's order is hidden from clients.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Literal

from apps.systems.core.deck import Deck, Flip
from apps.systems.core.errors import RuleViolation, numbered
from apps.systems.deathmatch.catalog import EquipmentCard, FighterProfile, Weapon
from apps.systems.deathmatch.match.rules_text import NamedAbility, abilities_named

MAX_MARKERS = 3
ACTIVATION_AP = 2
MAX_REROLLS_PER_FLIP = 3


class Phase(StrEnum):
    SETUP = "setup"
    START = "start"  # initiative
    DRONES = "drones"  # A-18 drones activate in initiative order
    ACTIVATION = "activation"
    END = "end"
    OVER = "over"


class UnitKind(StrEnum):
    FIGHTER = "fighter"
    DRONE = "drone"  # gadget 9: belongs to a player, not to the team
    DEFENCE = "defence"  # gadget 3: automated defence system
    CORE = "core"  # Onslaught's energy core


class Marker(StrEnum):
    FIRE = "fire"
    SHOCK = "shock"
    ACID = "acid"
    POISON = "poison"


@dataclass(frozen=True)
class Markers:
    fire: int = 0
    shock: int = 0
    acid: int = 0
    poison: int = 0
    # Who placed the damaging markers since they were last cleared: a knock-out by a marker is
    # credited to the team that caused it, and to nobody if that is not one team.
    fire_by: tuple[int, ...] = ()
    poison_by: tuple[int, ...] = ()

    def count(self, marker: Marker) -> int:
        return int(getattr(self, marker.value))

    def add(self, marker: Marker, by: int | None) -> Markers:
        counts: dict[str, int] = {marker.value: min(MAX_MARKERS, self.count(marker) + 1)}
        changed = replace(self, **counts)  # type: ignore[arg-type]
        if by is not None and marker is Marker.FIRE and by not in self.fire_by:
            changed = replace(changed, fire_by=(*self.fire_by, by))
        if by is not None and marker is Marker.POISON and by not in self.poison_by:
            changed = replace(changed, poison_by=(*self.poison_by, by))
        return changed

    @property
    def any(self) -> bool:
        return bool(self.fire or self.shock or self.acid or self.poison)


@dataclass(frozen=True)
class Modifiers:
    """Standing changes of a model's profile values entered by a correction (a table effect the
    app cannot know): Reflex, Widerstand, LP, movement in inches, FK and NK."""

    reflex: int = 0
    resistance: int = 0
    lp: int = 0
    move: int = 0
    ranged: int = 0  # FK of its ranged weapons
    melee: int = 0  # NK of its melee weapons

    def get(self, value: str) -> int:
        return int(getattr(self, value))

    @property
    def any(self) -> bool:
        return any(self.get(name) for name in MODIFIER_NAMES)


MODIFIER_NAMES = ("reflex", "resistance", "lp", "move", "ranged", "melee")


@dataclass(frozen=True)
class Unit:
    """A fighter of a team, or a drone, defence system or energy core a player owns.

    ``weapons`` are the profile's weapons (a single pistol paired by a bought second pistol),
    then those of its weapon cards, then the Kampfmesser if it has no melee weapon; ``ammo``
    runs parallel (None: unlimited).
    """

    id: int
    player: int
    kind: UnitKind
    name: str
    profile: FighterProfile
    items: tuple[EquipmentCard, ...]
    weapons: tuple[Weapon, ...]
    ammo: tuple[int | None, ...]
    lp: int
    max_lp: int
    markers: Markers = Markers()
    ap: int = 0
    activated: bool = False  # this round
    dodges: int = 0  # +2 Reflex each until its next activation
    aim: bool = False
    power_strike: bool = False
    readiness: bool = False
    readiness_taken: bool = False  # the readiness action, once per activation
    respawns: int = 0
    out: bool = False  # knocked out and not (or no longer) in play
    order_allowed: bool = False  # respawned before activating this round: Befehl may bring it
    ordered: bool = False  # Befehl given: its activation has 1 AP
    shields: int = 0  # Energieschild markers: +3 Resistance against the next hit each
    penetration: bool = False  # Durchschlag marker: +2 S on the next attack
    shimmer: bool = False  # Schimmer marker: +3 Reflex against the next ranged attack
    erloeser: bool = False  # holds the Erlöser's one shot
    flags: tuple[str, ...] = ()  # flags carried (at most one) and Breakthrough markers
    vip: bool = False
    king: bool = False
    uses: tuple[str, ...] = ()  # special actions used, keyed by scope
    # Marker kinds received during its own activation: they act at the end of the next one.
    fresh_markers: tuple[str, ...] = ()
    modifiers: Modifiers = Modifiers()  # standing changes entered by a correction

    @property
    def abilities(self) -> frozenset[NamedAbility]:
        return abilities_named(self.profile.abilities)

    @property
    def stationary(self) -> bool:
        return NamedAbility.STATIONARY in self.abilities or self.kind in (
            UnitKind.DEFENCE,
            UnitKind.CORE,
        )

    @property
    def respawn_shock(self) -> bool:
        """From the first respawn on, unless it is a Mech."""
        return self.respawns > 0 and not self.profile.mech

    @property
    def team_member(self) -> bool:
        """Drones, defence systems and cores belong to a player but not to the team."""
        return self.kind is UnitKind.FIGHTER

    @property
    def in_play(self) -> bool:
        return not self.out


@dataclass(frozen=True)
class VpEntry:
    round: int
    points: int
    reason: str  # a stable code: knock_out, vip, focal_point, switch, flag, core, ...
    detail: str = ""


@dataclass(frozen=True)
class PlayerState:
    index: int
    name: str
    faction: str
    deck: Deck
    cp: int = 0
    passed: bool = False  # the team's pass of this round is used
    vp: tuple[VpEntry, ...] = ()
    gadget: int | None = None  # the option this player chose or flipped (0-9)
    finished_round: int = 0  # the round in which it last ran out of activations (0: never)
    finish_order: int = 0  # its place among those who ran out in finished_round (1 = first)
    free_reroll_used: bool = False  # Präventivschlag this round
    eliminated: bool = False
    harmony: bool = False  # Perfekte Harmonie: a one-faction team, +1 CP every round

    @property
    def total_vp(self) -> int:
        return sum(entry.points for entry in self.vp)


class ObjectiveState(StrEnum):
    HOME = "home"  # a flag at its place
    CARRIED = "carried"
    DROPPED = "dropped"
    IN_ZONE = "in_zone"  # a Breakthrough flag marker back in its owner's zone


@dataclass(frozen=True)
class Objective:
    """A switch, focal point or flag on the table (positions are the mode's layout)."""

    id: str
    kind: str  # ObjectiveKind value
    side: int | None = None  # the team a flag or Breakthrough switch belongs to
    owner: int | None = None  # switch: who controls it; focal point: last round's controller
    locked: bool = False  # Breakthrough: an activated enemy switch stays activated
    state: ObjectiveState = ObjectiveState.HOME
    carrier: int | None = None


@dataclass(frozen=True)
class Gadget:
    """A gadget station on the table: one of every chosen option per player."""

    id: str
    option: int
    owner: int
    used_turn: int = 0  # the turn number in which it last served a model
    active: bool = True  # the Erlöser is active only in rounds 2 and 4
    # The round in which it was used: spent until the next start phase recharges it (0: not
    # known, for uses logged before schema version 3).
    used_round: int = 0


class FlipPurpose(StrEnum):
    INITIATIVE = "initiative"
    DEPLOYMENT = "deployment"
    HIT = "hit"
    WOUND = "wound"
    STRIKE = "strike"  # a disengage strike: one card, no damage
    INTERFERENCE = "interference"
    GADGET = "gadget"
    FREE = "free"


class Outcome(StrEnum):
    HIT = "hit"
    GRAZE = "graze"  # flesh wound in melee
    MISS = "miss"
    FAIL = "fail"  # a kept 0


@dataclass(frozen=True)
class Target:
    """One model an attack is compared against, with its modified values."""

    unit: int
    reflex: int
    attack_value: int
    resistance_bonus: int = 0  # hard cover
    reflex_notes: tuple[str, ...] = ()
    # Models (or -1 for an obstacle) in the line of fire that give the target cover, closest
    # to the target first: a near-miss hits one of them instead.
    interferers: tuple[int, ...] = ()
    auto_hit: bool = False  # a stationary model in melee, or an automatic hit
    hit_odds: str = ""  # P(hit) the hit flip had, from the deck before it ("n/d")
    knock_out_odds: str = ""  # P(knock-out) the wound flip had
    outcome: Outcome | None = None
    crits_auto_hit: int = 0
    crits_boost: int = 0
    redirected_to: int | None = None
    wound_modifier: int = 0
    wound_flip: Flip | None = None
    wound_rerolls: int = 0
    strength: int = 0
    resistance: int = 0
    damage: int | None = None


class AttackKind(StrEnum):
    RANGED = "ranged"
    MELEE = "melee"
    CHARGE = "charge"
    STRIKE = "strike"  # disengage strike
    AUTO = "auto"  # an automatic hit: fire, a fall, dangerous terrain


Then = Literal["", "end_activation", "charge"]


@dataclass(frozen=True)
class Attack:
    """An attack in progress: its hit flip and, target by target, its wound flips."""

    kind: AttackKind
    player: int  # whose deck flips (and who may reroll)
    attacker: int | None  # the attacking unit (None for automatic hits)
    weapon: Weapon | None
    weapon_index: int | None
    targets: tuple[Target, ...]
    cause: str = ""  # for automatic hits: fire, fall, dangerous_terrain, ...
    credit: tuple[int, ...] = ()  # who a knock-out is credited to
    reaction: bool = False
    charge: bool = False  # the free attack of a charge: boosted wound flip on a hit
    power_strike: bool = False  # Wuchtschlag: +1 S and a boosted wound flip
    penetration: bool = False  # Durchschlag marker: +2 S
    confirm: bool = True  # wait after each flip so the player may reroll
    hit_modifier: int = 0
    hit_flip: Flip | None = None
    hit_rerolls: int = 0
    stage: FlipPurpose = FlipPurpose.HIT
    current: int = 0  # the target whose wound flip is in progress
    # What continues when it is done: the automatic hits still to come on the same model
    # (cause, strength), then ``then``: "end_activation", "charge" (the waiting charge attack)
    # or nothing. Events stored before ``queued_hits`` encode one queued hit in ``then`` as
    # "auto:<cause>:<strength>[:<then>]" (serial.py reads both).
    queued_hits: tuple[tuple[str, int], ...] = ()
    then: Then = ""


@dataclass(frozen=True)
class PendingFlip:
    """A flip that waits for its player to reroll or accept: initiative, deployment, gadget,
    interference and free flips (attack flips wait inside ``Attack``)."""

    purpose: FlipPurpose
    flips: tuple[Flip | None, ...]  # per player for initiative/deployment, else one
    players: tuple[int, ...]  # who flipped, parallel to ``flips``
    rerolls: tuple[int, ...]
    deciders: tuple[int, ...] = ()  # players still to decide on rerolls, in order
    context: str = ""


@dataclass(frozen=True)
class Disengage:
    """A move out of enemy control zones: each striker strikes once before it goes."""

    unit: int
    strikes: tuple[Target, ...]  # ``unit`` is the striker, ``reflex`` the mover's
    flips: tuple[Flip | None, ...] = ()
    rerolls: tuple[int, ...] = ()
    current: int = 0
    confirm: bool = True
    # Where the move goes on if no strike stops it (Lösen is a Bewegungsaktion): a fall from
    # this height, dangerous terrain touched.
    fall: int = 0
    dangerous: bool = False


@dataclass(frozen=True)
class Result:
    winners: tuple[int, ...]
    draw: bool
    reason: str


@dataclass(frozen=True)
class MatchState:
    mode: str = ""
    game_size: int = 0
    players: tuple[PlayerState, ...] = ()
    units: tuple[Unit, ...] = ()
    objectives: tuple[Objective, ...] = ()
    gadgets: tuple[Gadget, ...] = ()
    phase: Phase = Phase.SETUP
    round: int = 0
    turn: int | None = None  # whose turn it is
    turn_number: int = 0  # counts turns, for the gadgets' "first model per turn"
    activation_number: int = 0  # counts activations, for "once per activation" limits
    active: int | None = None  # the activated unit
    turn_over: bool = False  # the activation ended: the turn passes once no flip waits
    coordinated: bool = False  # a second activation follows in this turn
    second_due: bool = False  # the coordinated activation's second model is to be activated
    pass_blocked: int | None = None  # the player who may not pass back this turn
    starter: int | None = None  # who begins the round
    initiative_winner: int | None = None
    initiative_order: tuple[int, ...] = ()  # players by initiative, for drones
    first_deployer: int | None = None
    deployment_chooser: int | None = None  # won the deployment flip: names the first deployer
    attack: Attack | None = None
    pending: PendingFlip | None = None
    disengage: Disengage | None = None
    # A Sturmangriff whose move hurts the charger first (a fall, dangerous terrain): its attack
    # waits here until those automatic hits are done.
    charge: Attack | None = None
    awaiting: str = ""  # a choice the table owes: "vip", "king", "flags", "king_unclear", ...
    awaiting_player: int | None = None
    open_free_flip: int | None = None  # the player whose last free flip may still be rerolled
    free_flip: Flip | None = None
    free_flip_rerolls: int = 0
    free_flip_chance: str = ""  # P(a result at least as high) the free flip had
    game_ending: bool = False  # Deathmatch: the VP target was reached, the round finishes
    # Players in the order they reached the VP target (not those who reached it together).
    target_reached: tuple[int, ...] = ()
    first_core_destroyer: int | None = None
    result: Result | None = None

    # --- Lookups ---------------------------------------------------------------------------

    def unit(self, unit_id: int) -> Unit:
        return numbered(self.units, unit_id, "unknown_unit", "model")

    def player(self, index: int) -> PlayerState:
        return numbered(self.players, index, "unknown_player", "player")

    def objective(self, objective_id: str) -> Objective:
        for objective in self.objectives:
            if objective.id == objective_id:
                return objective
        raise RuleViolation("unknown_objective", f"There is no objective {objective_id!r}.")

    def gadget(self, gadget_id: str) -> Gadget:
        for gadget in self.gadgets:
            if gadget.id == gadget_id:
                return gadget
        raise RuleViolation("unknown_gadget", f"There is no gadget {gadget_id!r}.")

    def team(self, player: int) -> tuple[Unit, ...]:
        return tuple(u for u in self.units if u.player == player and u.team_member)

    def opponents(self, player: int) -> tuple[int, ...]:
        return tuple(p.index for p in self.players if p.index != player)

    # --- Updates (used by apply) ------------------------------------------------------------

    def with_unit(self, unit_id: int, **changes: object) -> MatchState:
        units = list(self.units)
        units[unit_id] = replace(units[unit_id], **changes)  # type: ignore[arg-type]
        return replace(self, units=tuple(units))

    def with_player(self, index: int, **changes: object) -> MatchState:
        players = list(self.players)
        players[index] = replace(players[index], **changes)  # type: ignore[arg-type]
        return replace(self, players=tuple(players))

    def with_objective(self, objective_id: str, **changes: object) -> MatchState:
        objectives = tuple(
            replace(o, **changes) if o.id == objective_id else o  # type: ignore[arg-type]
            for o in self.objectives
        )
        return replace(self, objectives=objectives)

    def with_gadget(self, gadget_id: str, **changes: object) -> MatchState:
        gadgets = tuple(
            replace(g, **changes) if g.id == gadget_id else g  # type: ignore[arg-type]
            for g in self.gadgets
        )
        return replace(self, gadgets=gadgets)
