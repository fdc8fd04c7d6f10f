"""The Universalis catalogue: unit cards, powers and factions (SPEC §3, universalis.de.txt
chapters 2-20).

The database keeps a few columns per card (slug, name, factions, kind, cost, version, sample)
and everything the unit card prints in the JSON column ``stats``. This module holds the
frozen dataclasses the rules work with; ``catalog_stats`` reads and writes that JSON and
``catalog_fields`` describes every key for the admin.

Derived values (``perception_cm``, ``danger_zone_cm``, ``capacity_kg``, ``overload``) follow the
rulebook: perception WN × 5 cm, danger zone 12 − EH cm, carrying capacity KO² kg (a colossus
(KO × 2)²) and −1 AGI and GK for every started multiple of the capacity above it. The card's AGI
and GK are stored unburdened; the app subtracts the overload itself (see the reference's "Where
the app decides").
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

MAX_HP: Final = 20
MAX_ATTRIBUTE: Final = 20
MAX_WK: Final = 5
MAX_DF: Final = 4
# An attribute a telematon lacks: rolls use its operator's (rulebook 19.5).
OPERATOR_ATTRIBUTES: Final = ("agi", "nk", "fk", "eh")
ATTRIBUTES: Final = ("agi", "nk", "fk", "ko", "wn", "eh")


class ModelType(StrEnum):
    STANDARD = "standard"
    TELEMATON = "telematon"
    COLOSSUS = "colossus"


class Size(StrEnum):
    SMALL = "small"
    MEDIUM = "medium"
    LARGE = "large"
    HUGE = "huge"


SIZE_ORDER: Final = (Size.SMALL, Size.MEDIUM, Size.LARGE, Size.HUGE)


class Movement(StrEnum):
    LEGS = "legs"
    FLIGHT = "flight"
    TRACKS = "tracks"
    WHEELS = "wheels"
    HOVER = "hover"
    STATIONARY = "stationary"


class Effect(StrEnum):
    """Damage effects (10.3); the last three belong to armour only, trauma and
    strukturschaedigend to weapons only."""

    BRAND = "brand"
    ERSCHUETTERUNG = "erschuetterung"
    EXPLOSIV = "explosiv"
    GIFTIG = "giftig"
    PANZERBRECHEND = "panzerbrechend"
    SCHRAPNELL = "schrapnell"
    ZERFETZEN = "zerfetzen"
    TRAUMA = "trauma"
    STRUKTURSCHAEDIGEND = "strukturschaedigend"
    ADAPTIV = "adaptiv"
    ROBUST = "robust"
    STRUKTURVERSTAERKT = "strukturverstaerkt"


SHARED_EFFECTS: Final = frozenset(
    {
        Effect.BRAND,
        Effect.ERSCHUETTERUNG,
        Effect.EXPLOSIV,
        Effect.GIFTIG,
        Effect.PANZERBRECHEND,
        Effect.SCHRAPNELL,
        Effect.ZERFETZEN,
    }
)
WEAPON_EFFECTS: Final = SHARED_EFFECTS | {Effect.TRAUMA, Effect.STRUKTURSCHAEDIGEND}
ARMOUR_EFFECTS: Final = SHARED_EFFECTS | {
    Effect.ADAPTIV,
    Effect.ROBUST,
    Effect.STRUKTURVERSTAERKT,
}
EFFECT_NAMES: Final[Mapping[Effect, str]] = {
    Effect.BRAND: "Brand",
    Effect.ERSCHUETTERUNG: "Erschütterung",
    Effect.EXPLOSIV: "Explosiv",
    Effect.GIFTIG: "Giftig",
    Effect.PANZERBRECHEND: "Panzerbrechend",
    Effect.SCHRAPNELL: "Schrapnell",
    Effect.ZERFETZEN: "Zerfetzen",
    Effect.TRAUMA: "Trauma",
    Effect.STRUKTURSCHAEDIGEND: "Strukturschädigend",
    Effect.ADAPTIV: "Adaptiv",
    Effect.ROBUST: "Robust",
    Effect.STRUKTURVERSTAERKT: "Strukturverstärkt",
}


class Attribute(StrEnum):
    AGI = "agi"
    NK = "nk"
    FK = "fk"
    KO = "ko"
    WN = "wn"
    EH = "eh"


class PowerTarget(StrEnum):
    AREA = "area"
    MODEL = "model"
    USER = "user"


class PowerRange(StrEnum):
    TOUCH = "touch"
    DISTANCE = "distance"


class PowerDuration(StrEnum):
    INSTANT = "instant"
    LASTING = "lasting"


class ItemKind(StrEnum):
    POWER = "power"


MELEE: Final = "NK"
THROWN: Final = "thrown"


@dataclass(frozen=True)
class Weapon:
    """A weapon of a unit card. ``range`` is "NK" (melee), "X/Y" (band length X cm, Y bands)
    or "thrown" (3 bands of KO × 2 cm, unwieldy KO × 0.5 rounded up). ``additive``: the
    strength is added to the bearer's KO. ``mount``: the colossus side carrying it."""

    name: str
    wk: int
    range: str
    strength: int
    damage: int
    additive: bool = False
    df: int = 0
    area: int = 0
    indirect: bool = False
    unwieldy: bool = False
    reload: bool = False
    uses: int | None = None
    effects: tuple[Effect, ...] = ()
    weight: int = 0
    mount: str = ""
    text: str = ""
    text_en: str = ""

    @property
    def melee(self) -> bool:
        return self.range == MELEE

    @property
    def thrown(self) -> bool:
        return self.range == THROWN

    def bands(self, ko: int) -> tuple[int, int]:
        """(band length in cm, number of bands) for a bearer with ``ko``; (0, 0) in melee."""
        if self.melee:
            return 0, 0
        if self.thrown:
            return (math.ceil(ko * 0.5) if self.unwieldy else ko * 2), 3
        length, count = self.range.split("/")
        return int(length), int(count)

    def strength_for(self, ko: int) -> int:
        return ko + self.strength if self.additive else self.strength


@dataclass(frozen=True)
class Armour:
    name: str
    protection: int
    reduction: int = 0
    additive: bool = False
    self_supporting: bool = False
    effects: tuple[Effect, ...] = ()
    weight: int = 0
    text: str = ""
    text_en: str = ""

    def protection_for(self, ko: int) -> int:
        return ko + self.protection if self.additive else self.protection


@dataclass(frozen=True)
class Trait:
    """A trait with an optional level (0: none), single-use markers and AP cost (None: no
    action needed)."""

    name: str
    level: int = 0
    uses: int | None = None
    ap: int | None = None
    text: str = ""
    text_en: str = ""


@dataclass(frozen=True)
class Equipment:
    name: str
    ap: int | None = None
    uses: int | None = None
    unwieldy: bool = False
    weight: int = 0
    text: str = ""
    text_en: str = ""


@dataclass(frozen=True)
class Discipline:
    name: str
    level: int


@dataclass(frozen=True)
class Camouflage:
    active: bool
    level: int


@dataclass(frozen=True)
class UnitCard:
    """A unit card (Einheitenkarte). ``hp`` are the normal (white) hit points, ``hp_critical``
    the critical (orange) ones; a colossus's are those of its torso. Telematons have no AGI,
    NK, FK or EH (None)."""

    slug: str
    name: str
    factions: tuple[str, ...]
    type: ModelType
    size: Size
    movement: Movement
    speed: int
    hp: int
    hp_critical: int
    agi: int | None
    nk: int | None
    fk: int | None
    ko: int
    wn: int
    eh: int | None
    points: int
    group_leader: bool = False
    operator: int = 0
    camouflage: Camouflage | None = None
    traits: tuple[Trait, ...] = ()
    weapons: tuple[Weapon, ...] = ()
    armour: Armour | None = None
    equipment: tuple[Equipment, ...] = ()
    disciplines: tuple[Discipline, ...] = ()
    version: int = 1
    sample: bool = False

    @property
    def telematon(self) -> bool:
        return self.type is ModelType.TELEMATON

    @property
    def colossus(self) -> bool:
        return self.type is ModelType.COLOSSUS

    @property
    def hp_total(self) -> int:
        return self.hp + self.hp_critical

    @property
    def base_ap(self) -> int:
        return 2 if self.telematon else 6

    @property
    def perception_cm(self) -> int:
        return self.wn * 5

    @property
    def danger_zone_cm(self) -> int | None:
        """12 − EH; telematons have none (19.6)."""
        return None if self.eh is None else max(0, 12 - self.eh)

    @property
    def capacity_kg(self) -> int:
        return (self.ko * 2) ** 2 if self.colossus else self.ko**2

    @property
    def load_kg(self) -> int:
        armour = 0 if self.armour is None or self.armour.self_supporting else self.armour.weight
        return sum(w.weight for w in self.weapons) + sum(e.weight for e in self.equipment) + armour

    @property
    def overload(self) -> int:
        """−1 AGI and GK above the capacity, −2 above double, and so on (4.4)."""
        capacity, load = self.capacity_kg, self.load_kg
        if load <= capacity:
            return 0
        if capacity <= 0:
            return MAX_ATTRIBUTE
        return math.ceil(load / capacity) - 1

    @property
    def effective_agi(self) -> int | None:
        return None if self.agi is None else self.agi - self.overload

    @property
    def effective_speed(self) -> int:
        return max(0, self.speed - self.overload)

    @property
    def unwieldy(self) -> bool:
        """Carries at least one unwieldy weapon or piece of equipment (−3 in melee, 15.7.4)."""
        return any(w.unwieldy for w in self.weapons) or any(e.unwieldy for e in self.equipment)

    @property
    def unarmed(self) -> Weapon:
        """Unarmed melee (15.9): S = KO, damage KO/3 rounded up, WK by size."""
        wk = {Size.LARGE: 2, Size.HUGE: 3}.get(self.size, 1)
        return Weapon(
            name="Unbewaffnet", wk=wk, range=MELEE, strength=self.ko, damage=-(-self.ko // 3)
        )

    def discipline_level(self, name: str) -> int:
        return max((d.level for d in self.disciplines if d.name == name), default=0)

    @property
    def zone_hp(self) -> tuple[int, int]:
        """A colossus's sides and movement (normal, critical): ⅔ of the torso's hit points,
        rounded up (18.3); of these, ⅔ of the torso's critical ones (rounded up) are critical,
        so a zone keeps about the torso's critical share (see the reference)."""
        total = -(-self.hp_total * 2 // 3)
        critical = -(-self.hp_critical * 2 // 3)
        return total - critical, critical


@dataclass(frozen=True)
class Power:
    """A power (Kraft) of a discipline. ``difficulty`` modifies the attribute roll (FK−4 is
    −4); ``hp_loss`` hit points are lost on a failed roll, or on every use if
    ``hp_loss_always``."""

    slug: str
    name: str
    discipline: str
    ap: int
    attribute: Attribute
    difficulty: int = 0
    hp_loss: int = 0
    hp_loss_always: bool = False
    target: PowerTarget = PowerTarget.MODEL
    range: PowerRange = PowerRange.DISTANCE
    duration: PowerDuration = PowerDuration.INSTANT
    text: str = ""
    text_en: str = ""
    version: int = 1
    sample: bool = False
