"""The Universalis catalogue: unit cards, powers and factions (SPEC §3, universalis.de.txt
chapters 2-20).

The database keeps a few columns per card (slug, name, factions, kind, cost, version, sample)
and everything the unit card prints in the JSON column ``stats``. This module owns that JSON:
``card_from_stats`` / ``power_from_stats`` check it and build the frozen dataclasses the rules
work with, ``card_stats`` / ``power_stats`` write it back (the round trip is exact), and
``PROFILE_FIELDS`` / ``ITEM_FIELDS`` describe every key for the admin. Structured keys (weapons,
armour, traits, equipment, disciplines, camouflage) are edited as JSON text.

Bad data raises ``SchemaError`` listing every problem at once with a dotted path
("weapons.1.wk").

Derived values (``perception_cm``, ``danger_zone_cm``, ``capacity_kg``, ``overload``) follow the
rulebook: perception WN × 5 cm, danger zone 12 − EH cm, carrying capacity KO² kg (a colossus
(KO × 2)²) and −1 AGI and GK for every started multiple of the capacity above it. The card's AGI
and GK are stored unburdened; the app subtracts the overload itself (see the reference's "Where
the app decides").
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final, TypeVar

from apps.systems.core.i18n import gettext_noop
from apps.systems.core.schema import FieldError, FieldSpec, SchemaError

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


# --- Field descriptions for forms ------------------------------------------------------------


class FieldType(StrEnum):
    INT = "int"
    BOOL = "bool"
    CHOICE = "choice"
    TEXT = "text"
    JSON = "json"


TYPE_CHOICES: Final = (
    (ModelType.STANDARD.value, gettext_noop("Standard")),
    (ModelType.TELEMATON.value, gettext_noop("Telematon")),
    (ModelType.COLOSSUS.value, gettext_noop("Koloss (colossus)")),
)
SIZE_CHOICES: Final = (
    (Size.SMALL.value, gettext_noop("klein (small)")),
    (Size.MEDIUM.value, gettext_noop("mittel (medium)")),
    (Size.LARGE.value, gettext_noop("groß (large)")),
    (Size.HUGE.value, gettext_noop("riesig (huge)")),
)
MOVEMENT_CHOICES: Final = (
    (Movement.LEGS.value, gettext_noop("Beine (legs)")),
    (Movement.FLIGHT.value, gettext_noop("Flug (flight)")),
    (Movement.TRACKS.value, gettext_noop("Kette (tracks)")),
    (Movement.WHEELS.value, gettext_noop("Rad (wheels)")),
    (Movement.HOVER.value, gettext_noop("Schweben (hover)")),
    (Movement.STATIONARY.value, gettext_noop("Stationär (stationary)")),
)
ATTRIBUTE_CHOICES: Final = tuple((a.value, a.value.upper()) for a in Attribute)
TARGET_CHOICES: Final = (
    (PowerTarget.AREA.value, gettext_noop("Bereich (area)")),
    (PowerTarget.MODEL.value, gettext_noop("Modell (model)")),
    (PowerTarget.USER.value, gettext_noop("Nutzer (user)")),
)
RANGE_CHOICES: Final = (
    (PowerRange.TOUCH.value, gettext_noop("Berührung (touch)")),
    (PowerRange.DISTANCE.value, gettext_noop("Distanz (distance)")),
)
DURATION_CHOICES: Final = (
    (PowerDuration.INSTANT.value, gettext_noop("Sofort (instant)")),
    (PowerDuration.LASTING.value, gettext_noop("Dauerhaft (lasting)")),
)
ITEM_KIND_CHOICES: Final = ((ItemKind.POWER.value, gettext_noop("Kraft (power)")),)


def _attr(name: str, label: str, *, operator: bool = False) -> FieldSpec:
    return FieldSpec(
        name,
        label,
        FieldType.INT,
        minimum=0,
        maximum=MAX_ATTRIBUTE,
        required=not operator,
        help=gettext_noop("Left empty for a telematon, which uses its operator's value.")
        if operator
        else "",
    )


PROFILE_FIELDS: Final = (
    FieldSpec("type", gettext_noop("Model type"), FieldType.CHOICE, choices=TYPE_CHOICES),
    FieldSpec("size", gettext_noop("Size (Größenprofil)"), FieldType.CHOICE, choices=SIZE_CHOICES),
    FieldSpec(
        "movement",
        gettext_noop("Movement kind (Bewegungsart)"),
        FieldType.CHOICE,
        choices=MOVEMENT_CHOICES,
    ),
    FieldSpec("speed", gettext_noop("Speed GK (cm)"), FieldType.INT, minimum=0, maximum=99),
    FieldSpec(
        "hp", gettext_noop("Hit points, normal (white)"), FieldType.INT, minimum=1, maximum=MAX_HP
    ),
    FieldSpec(
        "hp_critical",
        gettext_noop("Hit points, critical (orange)"),
        FieldType.INT,
        minimum=0,
        maximum=MAX_HP,
        help=gettext_noop("Normal and critical together at most 20. A colossus: its torso."),
    ),
    _attr("agi", gettext_noop("AGI (agility, unburdened)"), operator=True),
    _attr("nk", gettext_noop("NK (melee)"), operator=True),
    _attr("fk", gettext_noop("FK (ranged)"), operator=True),
    _attr("ko", gettext_noop("KO (constitution)")),
    _attr("wn", gettext_noop("WN (perception)")),
    _attr("eh", gettext_noop("EH (resolve)"), operator=True),
    FieldSpec("points", gettext_noop("Points"), FieldType.INT, minimum=0, maximum=9999),
    FieldSpec(
        "group_leader",
        gettext_noop("Group leader (Gruppenführer)"),
        FieldType.BOOL,
        required=False,
        default=False,
        help=gettext_noop("The faction's leader card: a group has exactly one."),
    ),
    FieldSpec(
        "operator",
        gettext_noop("Operator: telematons it may control"),
        FieldType.INT,
        minimum=0,
        maximum=9,
        required=False,
        default=0,
    ),
    FieldSpec(
        "camouflage",
        gettext_noop("Camouflage (Tarnung)"),
        FieldType.JSON,
        required=False,
        help=gettext_noop('JSON, e.g. {"active": false, "level": 2}'),
    ),
    FieldSpec(
        "traits",
        gettext_noop("Traits (Eigenschaften)"),
        FieldType.JSON,
        required=False,
        help=gettext_noop('JSON list, e.g. [{"name": "Zäh", "level": 2, "uses": 3, "ap": 1}]'),
    ),
    FieldSpec(
        "weapons",
        gettext_noop("Weapons (Waffen)"),
        FieldType.JSON,
        required=False,
        help=gettext_noop(
            'JSON list, e.g. [{"name": "Gewehr", "wk": 2, "range": "20/3", "strength": 4, '
            '"damage": 2, "df": 1, "effects": ["panzerbrechend"], "weight": 4}]; range "NK" '
            'for melee, "thrown" for throwing weapons.'
        ),
    ),
    FieldSpec(
        "armour",
        gettext_noop("Armour (Rüstung)"),
        FieldType.JSON,
        required=False,
        help=gettext_noop(
            'JSON, e.g. {"name": "Gefechtsanzug", "protection": 8, "reduction": 2, '
            '"self_supporting": false, "weight": 8}'
        ),
    ),
    FieldSpec(
        "equipment",
        gettext_noop("Equipment (Ausrüstung)"),
        FieldType.JSON,
        required=False,
        help=gettext_noop('JSON list, e.g. [{"name": "Medizinisches Spray", "ap": 1, "uses": 3}]'),
    ),
    FieldSpec(
        "disciplines",
        gettext_noop("Disciplines (Disziplinen)"),
        FieldType.JSON,
        required=False,
        help=gettext_noop('JSON list, e.g. [{"name": "Feuermagie", "level": 2}]'),
    ),
)

ITEM_FIELDS: Final = (
    FieldSpec("discipline", gettext_noop("Discipline (Disziplin)"), FieldType.TEXT),
    FieldSpec("ap", gettext_noop("AP cost"), FieldType.INT, minimum=0, maximum=12),
    FieldSpec("attribute", gettext_noop("Attribute"), FieldType.CHOICE, choices=ATTRIBUTE_CHOICES),
    FieldSpec(
        "difficulty",
        gettext_noop("Difficulty (e.g. -4 for FK-4)"),
        FieldType.INT,
        minimum=-12,
        maximum=12,
        required=False,
        default=0,
    ),
    FieldSpec(
        "hp_loss",
        gettext_noop("Hit point loss"),
        FieldType.INT,
        minimum=0,
        maximum=MAX_HP,
        required=False,
        default=0,
    ),
    FieldSpec(
        "hp_loss_always",
        gettext_noop("Hit points are lost on every use (not only on failure)"),
        FieldType.BOOL,
        required=False,
        default=False,
    ),
    FieldSpec(
        "target",
        gettext_noop("Target (Ziel)"),
        FieldType.CHOICE,
        choices=TARGET_CHOICES,
        required=False,
        default=PowerTarget.MODEL.value,
    ),
    FieldSpec(
        "range",
        gettext_noop("Range (Reichweite)"),
        FieldType.CHOICE,
        choices=RANGE_CHOICES,
        required=False,
        default=PowerRange.DISTANCE.value,
    ),
    FieldSpec(
        "duration",
        gettext_noop("Duration (Dauer)"),
        FieldType.CHOICE,
        choices=DURATION_CHOICES,
        required=False,
        default=PowerDuration.INSTANT.value,
    ),
    FieldSpec(
        "text",
        gettext_noop("Rules (Regeln)"),
        FieldType.TEXT,
        required=False,
        default="",
    ),
    FieldSpec(
        "text_en",
        gettext_noop("Rules in English"),
        FieldType.TEXT,
        required=False,
        default="",
        help=gettext_noop("Shown instead of the German rules in English."),
    ),
)
_STRUCTURED: Final = frozenset({spec.name for spec in PROFILE_FIELDS if spec.type == "json"})


# --- Reading ---------------------------------------------------------------------------------


class _Reader:
    """Collects every problem of one card so that one SchemaError reports them all."""

    def __init__(self) -> None:
        self.errors: list[FieldError] = []

    def add(self, path: str, message: str) -> None:
        self.errors.append(FieldError(path, message))

    def done(self) -> None:
        if self.errors:
            raise SchemaError(self.errors)

    def obj(
        self, value: object, path: str, keys: Sequence[str], required: Sequence[str]
    ) -> Mapping[str, object]:
        if not isinstance(value, Mapping):
            self.add(path, f"must be an object, not {value!r}.")
            return {}
        for key in value:
            if key not in keys:
                self.add(f"{path}.{key}" if path else str(key), "unknown field.")
        for key in required:
            if key not in value:
                self.add(f"{path}.{key}" if path else key, "is required.")
        return value

    def integer(self, value: object, path: str, lo: int | None = 0, hi: int | None = None) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            self.add(path, f"must be a whole number, not {value!r}.")
            return 0
        if lo is not None and value < lo:
            self.add(path, f"must be at least {lo}, not {value}.")
        if hi is not None and value > hi:
            self.add(path, f"must be at most {hi}, not {value}.")
        return value

    def optional_int(self, value: object, path: str, lo: int = 0, hi: int = 99) -> int | None:
        return None if value is None else self.integer(value, path, lo, hi)

    def flag(self, value: object, path: str) -> bool:
        if not isinstance(value, bool):
            self.add(path, f"must be true or false, not {value!r}.")
            return False
        return value

    def text(self, value: object, path: str, *, required: bool = False) -> str:
        if not isinstance(value, str):
            self.add(path, f"must be text, not {value!r}.")
            return ""
        if required and not value.strip():
            self.add(path, "must not be empty.")
        if len(value) > 2000:
            self.add(path, "must be at most 2000 characters.")
        return value.strip()

    def choice(self, value: object, path: str, allowed: Sequence[str]) -> str:
        if value not in allowed:
            self.add(path, f"must be one of {', '.join(allowed)}, not {value!r}.")
            return allowed[0]
        assert isinstance(value, str)
        return value

    def items(self, value: object, path: str) -> list[object]:
        if not isinstance(value, list | tuple):
            self.add(path, f"must be a list, not {value!r}.")
            return []
        return list(value)

    def effects(self, value: object, path: str, allowed: frozenset[Effect]) -> tuple[Effect, ...]:
        found: list[Effect] = []
        for index, code in enumerate(self.items(value, path)):
            name = self.choice(code, f"{path}.{index}", sorted(e.value for e in allowed))
            if Effect(name) in found:
                self.add(f"{path}.{index}", f"{name!r} is listed twice.")
            found.append(Effect(name))
        return tuple(found)


_WEAPON_KEYS: Final = (
    "name",
    "wk",
    "range",
    "strength",
    "damage",
    "additive",
    "df",
    "area",
    "indirect",
    "unwieldy",
    "reload",
    "uses",
    "effects",
    "weight",
    "mount",
    "text",
    "text_en",
)


def _range(reader: _Reader, value: object, path: str) -> str:
    if value in (MELEE, THROWN):
        assert isinstance(value, str)
        return value
    if isinstance(value, str) and value.count("/") == 1:
        length, count = value.split("/")
        if length.isdigit() and count.isdigit() and int(length) > 0 and 0 < int(count) <= 12:
            return f"{int(length)}/{int(count)}"
    reader.add(path, f'must be "NK", "thrown" or bands like "20/3", not {value!r}.')
    return MELEE


def _weapon(reader: _Reader, value: object, path: str) -> Weapon:
    data = reader.obj(value, path, _WEAPON_KEYS, ("name", "wk", "range", "strength", "damage"))
    weapon = Weapon(
        name=reader.text(data.get("name", "?"), f"{path}.name", required=True),
        wk=reader.integer(data.get("wk", 1), f"{path}.wk", 1, MAX_WK),
        range=_range(reader, data.get("range", MELEE), f"{path}.range"),
        strength=reader.integer(data.get("strength", 0), f"{path}.strength", 0, 30),
        damage=reader.integer(data.get("damage", 0), f"{path}.damage", 0, MAX_HP),
        additive=reader.flag(data.get("additive", False), f"{path}.additive"),
        df=reader.integer(data.get("df", 0), f"{path}.df", 0, MAX_DF),
        area=reader.integer(data.get("area", 0), f"{path}.area", 0, 50),
        indirect=reader.flag(data.get("indirect", False), f"{path}.indirect"),
        unwieldy=reader.flag(data.get("unwieldy", False), f"{path}.unwieldy"),
        reload=reader.flag(data.get("reload", False), f"{path}.reload"),
        uses=reader.optional_int(data.get("uses"), f"{path}.uses", 1),
        effects=reader.effects(data.get("effects", []), f"{path}.effects", WEAPON_EFFECTS),
        weight=reader.integer(data.get("weight", 0), f"{path}.weight", 0, 9999),
        mount=reader.choice(data.get("mount", ""), f"{path}.mount", ("", "left", "right")),
        text=reader.text(data.get("text", ""), f"{path}.text"),
        text_en=reader.text(data.get("text_en", ""), f"{path}.text_en"),
    )
    if weapon.melee and (weapon.df or weapon.area or weapon.indirect):
        reader.add(path, "a melee weapon has no sustained fire, area or indirect fire.")
    return weapon


def _armour(reader: _Reader, value: object, path: str) -> Armour | None:
    if value is None:
        return None
    keys = ("name", "protection", "reduction", "additive", "self_supporting", "effects", "weight")
    data = reader.obj(value, path, (*keys, "text", "text_en"), ("name", "protection"))
    return Armour(
        name=reader.text(data.get("name", "?"), f"{path}.name", required=True),
        protection=reader.integer(data.get("protection", 0), f"{path}.protection", 0, 30),
        reduction=reader.integer(data.get("reduction", 0), f"{path}.reduction", 0, MAX_HP),
        additive=reader.flag(data.get("additive", False), f"{path}.additive"),
        self_supporting=reader.flag(data.get("self_supporting", False), f"{path}.self_supporting"),
        effects=reader.effects(data.get("effects", []), f"{path}.effects", ARMOUR_EFFECTS),
        weight=reader.integer(data.get("weight", 0), f"{path}.weight", 0, 9999),
        text=reader.text(data.get("text", ""), f"{path}.text"),
        text_en=reader.text(data.get("text_en", ""), f"{path}.text_en"),
    )


def _trait(reader: _Reader, value: object, path: str) -> Trait:
    data = reader.obj(value, path, ("name", "level", "uses", "ap", "text", "text_en"), ("name",))
    return Trait(
        name=reader.text(data.get("name", "?"), f"{path}.name", required=True),
        level=reader.integer(data.get("level", 0), f"{path}.level", 0, 10),
        uses=reader.optional_int(data.get("uses"), f"{path}.uses", 1),
        ap=reader.optional_int(data.get("ap"), f"{path}.ap", 0, 12),
        text=reader.text(data.get("text", ""), f"{path}.text"),
        text_en=reader.text(data.get("text_en", ""), f"{path}.text_en"),
    )


def _equipment(reader: _Reader, value: object, path: str) -> Equipment:
    keys = ("name", "ap", "uses", "unwieldy", "weight", "text", "text_en")
    data = reader.obj(value, path, keys, ("name",))
    return Equipment(
        name=reader.text(data.get("name", "?"), f"{path}.name", required=True),
        ap=reader.optional_int(data.get("ap"), f"{path}.ap", 0, 12),
        uses=reader.optional_int(data.get("uses"), f"{path}.uses", 1),
        unwieldy=reader.flag(data.get("unwieldy", False), f"{path}.unwieldy"),
        weight=reader.integer(data.get("weight", 0), f"{path}.weight", 0, 9999),
        text=reader.text(data.get("text", ""), f"{path}.text"),
        text_en=reader.text(data.get("text_en", ""), f"{path}.text_en"),
    )


def _discipline(reader: _Reader, value: object, path: str) -> Discipline:
    data = reader.obj(value, path, ("name", "level"), ("name", "level"))
    return Discipline(
        name=reader.text(data.get("name", "?"), f"{path}.name", required=True),
        level=reader.integer(data.get("level", 1), f"{path}.level", 1, 10),
    )


def _camouflage(reader: _Reader, value: object, path: str) -> Camouflage | None:
    if value is None:
        return None
    data = reader.obj(value, path, ("active", "level"), ("active", "level"))
    return Camouflage(
        active=reader.flag(data.get("active", False), f"{path}.active"),
        level=reader.integer(data.get("level", 1), f"{path}.level", 0, 12),
    )


_PROFILE_KEYS: Final = tuple(spec.name for spec in PROFILE_FIELDS)
_PROFILE_REQUIRED: Final = tuple(spec.name for spec in PROFILE_FIELDS if spec.required)


def _attribute(r: _Reader, key: str, value: object, kind: ModelType) -> int | None:
    """One attribute; a telematon has none of its own for AGI, NK, FK and EH (None), every
    other model needs them all."""
    if key not in OPERATOR_ATTRIBUTES:
        return r.integer(value if value is not None else 0, key, 0, MAX_ATTRIBUTE)
    if kind is ModelType.TELEMATON:
        if value is not None:
            r.add(key, "a telematon has no own AGI, NK, FK or EH (it uses its operator's).")
        return None
    if value is None:
        r.add(key, "is required (only a telematon uses its operator's).")
        return None
    return r.integer(value, key, 0, MAX_ATTRIBUTE)


def _hit_points(r: _Reader, data: Mapping[str, object]) -> tuple[int, int]:
    """Normal and critical hit points, at most ``MAX_HP`` together."""
    hp = r.integer(data.get("hp", 1), "hp", 1, MAX_HP)
    hp_critical = r.integer(data.get("hp_critical", 0), "hp_critical", 0, MAX_HP)
    if hp + hp_critical > MAX_HP:
        r.add("hp_critical", f"normal and critical hit points are at most {MAX_HP} together.")
    return hp, hp_critical


def _size(r: _Reader, data: Mapping[str, object], kind: ModelType) -> Size:
    """The size, within what the model type allows (3.2)."""
    size = Size(r.choice(data.get("size", "medium"), "size", [s.value for s in Size]))
    if kind is ModelType.COLOSSUS and size not in (Size.LARGE, Size.HUGE):
        r.add("size", "a colossus is large or huge (3.2).")
    if kind is ModelType.STANDARD and size is Size.HUGE:
        r.add("size", "a standard model is small to large (3.2).")
    return size


_T = TypeVar("_T")


def _listed(
    r: _Reader,
    data: Mapping[str, object],
    key: str,
    read: Callable[[_Reader, object, str], _T],
) -> tuple[_T, ...]:
    """The list under ``key``, each element read by ``read`` with its path ("traits.2")."""
    return tuple(
        read(r, value, f"{key}.{i}") for i, value in enumerate(r.items(data.get(key, []), key))
    )


def _check_card(r: _Reader, card: UnitCard) -> None:
    """The rules that tie the card's values together."""
    if card.group_leader and card.telematon:
        r.add("group_leader", "a telematon cannot lead a group.")
    if card.telematon and card.operator:
        r.add("operator", "a telematon cannot operate telematons.")
    if not card.colossus and any(w.mount for w in card.weapons):
        r.add("weapons", "only a colossus carries weapons on its left or right side.")
    if not card.factions:
        r.add("factions", "must name at least one faction.")


def card_from_stats(
    *,
    slug: str,
    name: str,
    factions: Sequence[str],
    stats: Mapping[str, object],
    version: int = 1,
    sample: bool = False,
) -> UnitCard:
    """A unit card from its database row; raises ``SchemaError`` listing every problem."""
    r = _Reader()
    data = r.obj(stats, "", _PROFILE_KEYS, _PROFILE_REQUIRED)
    kind = ModelType(r.choice(data.get("type", "standard"), "type", [m.value for m in ModelType]))
    attributes = {key: _attribute(r, key, data.get(key), kind) for key in ATTRIBUTES}
    hp, hp_critical = _hit_points(r, data)
    size = _size(r, data, kind)
    ko = attributes["ko"]
    card = UnitCard(
        slug=r.text(slug, "slug", required=True),
        name=r.text(name, "name", required=True),
        factions=tuple(r.text(f, f"factions.{i}", required=True) for i, f in enumerate(factions)),
        type=kind,
        size=size,
        movement=Movement(
            r.choice(data.get("movement", "legs"), "movement", [m.value for m in Movement])
        ),
        speed=r.integer(data.get("speed", 0), "speed", 0, 99),
        hp=hp,
        hp_critical=hp_critical,
        agi=attributes["agi"],
        nk=attributes["nk"],
        fk=attributes["fk"],
        ko=ko if ko is not None else 0,
        wn=attributes["wn"] or 0,
        eh=attributes["eh"],
        points=r.integer(data.get("points", 0), "points", 0, 9999),
        group_leader=r.flag(data.get("group_leader", False), "group_leader"),
        operator=r.integer(data.get("operator", 0), "operator", 0, 9),
        camouflage=_camouflage(r, data.get("camouflage"), "camouflage"),
        traits=_listed(r, data, "traits", _trait),
        weapons=_listed(r, data, "weapons", _weapon),
        armour=_armour(r, data.get("armour"), "armour"),
        equipment=_listed(r, data, "equipment", _equipment),
        disciplines=_listed(r, data, "disciplines", _discipline),
        version=version,
        sample=sample,
    )
    _check_card(r, card)
    r.done()
    return card


_POWER_KEYS: Final = tuple(spec.name for spec in ITEM_FIELDS)


def power_from_stats(
    *,
    slug: str,
    name: str,
    kind: str,
    stats: Mapping[str, object],
    version: int = 1,
    sample: bool = False,
) -> Power:
    """A power card from its database row; raises ``SchemaError`` listing every problem."""
    r = _Reader()
    r.choice(kind, "kind", [k.value for k in ItemKind])
    data = r.obj(stats, "", _POWER_KEYS, ("discipline", "ap", "attribute"))
    power = Power(
        slug=r.text(slug, "slug", required=True),
        name=r.text(name, "name", required=True),
        discipline=r.text(data.get("discipline", ""), "discipline", required=True),
        ap=r.integer(data.get("ap", 0), "ap", 0, 12),
        attribute=Attribute(
            r.choice(data.get("attribute", "wn"), "attribute", [a.value for a in Attribute])
        ),
        difficulty=r.integer(data.get("difficulty", 0), "difficulty", -12, 12),
        hp_loss=r.integer(data.get("hp_loss", 0), "hp_loss", 0, MAX_HP),
        hp_loss_always=r.flag(data.get("hp_loss_always", False), "hp_loss_always"),
        target=PowerTarget(
            r.choice(data.get("target", "model"), "target", [t.value for t in PowerTarget])
        ),
        range=PowerRange(
            r.choice(data.get("range", "distance"), "range", [x.value for x in PowerRange])
        ),
        duration=PowerDuration(
            r.choice(data.get("duration", "instant"), "duration", [d.value for d in PowerDuration])
        ),
        text=r.text(data.get("text", ""), "text"),
        text_en=r.text(data.get("text_en", ""), "text_en"),
        version=version,
        sample=sample,
    )
    r.done()
    return power


# --- Writing ---------------------------------------------------------------------------------


def _drop_defaults(data: dict[str, object], defaults: Mapping[str, object]) -> dict[str, object]:
    return {key: value for key, value in data.items() if defaults.get(key, ...) != value}


_WEAPON_DEFAULTS: Final[Mapping[str, object]] = {
    "additive": False,
    "df": 0,
    "area": 0,
    "indirect": False,
    "unwieldy": False,
    "reload": False,
    "uses": None,
    "effects": [],
    "weight": 0,
    "mount": "",
    "text": "",
    "text_en": "",
}


def weapon_stats(weapon: Weapon) -> dict[str, object]:
    return _drop_defaults(
        {
            "name": weapon.name,
            "wk": weapon.wk,
            "range": weapon.range,
            "strength": weapon.strength,
            "damage": weapon.damage,
            "additive": weapon.additive,
            "df": weapon.df,
            "area": weapon.area,
            "indirect": weapon.indirect,
            "unwieldy": weapon.unwieldy,
            "reload": weapon.reload,
            "uses": weapon.uses,
            "effects": [e.value for e in weapon.effects],
            "weight": weapon.weight,
            "mount": weapon.mount,
            "text": weapon.text,
            "text_en": weapon.text_en,
        },
        _WEAPON_DEFAULTS,
    )


def card_stats(card: UnitCard) -> dict[str, object]:
    """The ``stats`` JSON of a unit card (optional keys at their default are left out)."""
    stats: dict[str, object] = {
        "type": card.type.value,
        "size": card.size.value,
        "movement": card.movement.value,
        "speed": card.speed,
        "hp": card.hp,
        "hp_critical": card.hp_critical,
    }
    for key in ATTRIBUTES:
        value = getattr(card, key)
        if value is not None:
            stats[key] = value
    stats["points"] = card.points
    optional: dict[str, object] = {
        "group_leader": card.group_leader,
        "operator": card.operator,
        "camouflage": None
        if card.camouflage is None
        else {"active": card.camouflage.active, "level": card.camouflage.level},
        "traits": [
            _drop_defaults(
                {
                    "name": t.name,
                    "level": t.level,
                    "uses": t.uses,
                    "ap": t.ap,
                    "text": t.text,
                    "text_en": t.text_en,
                },
                {"level": 0, "uses": None, "ap": None, "text": "", "text_en": ""},
            )
            for t in card.traits
        ],
        "weapons": [weapon_stats(w) for w in card.weapons],
        "armour": None
        if card.armour is None
        else _drop_defaults(
            {
                "name": card.armour.name,
                "protection": card.armour.protection,
                "reduction": card.armour.reduction,
                "additive": card.armour.additive,
                "self_supporting": card.armour.self_supporting,
                "effects": [e.value for e in card.armour.effects],
                "weight": card.armour.weight,
                "text": card.armour.text,
                "text_en": card.armour.text_en,
            },
            {
                "reduction": 0,
                "additive": False,
                "self_supporting": False,
                "effects": [],
                "weight": 0,
                "text": "",
                "text_en": "",
            },
        ),
        "equipment": [
            _drop_defaults(
                {
                    "name": e.name,
                    "ap": e.ap,
                    "uses": e.uses,
                    "unwieldy": e.unwieldy,
                    "weight": e.weight,
                    "text": e.text,
                    "text_en": e.text_en,
                },
                {
                    "ap": None,
                    "uses": None,
                    "unwieldy": False,
                    "weight": 0,
                    "text": "",
                    "text_en": "",
                },
            )
            for e in card.equipment
        ],
        "disciplines": [{"name": d.name, "level": d.level} for d in card.disciplines],
    }
    stats.update(
        _drop_defaults(
            optional,
            {
                "group_leader": False,
                "operator": 0,
                "camouflage": None,
                "traits": [],
                "weapons": [],
                "armour": None,
                "equipment": [],
                "disciplines": [],
            },
        )
    )
    return stats


def power_stats(power: Power) -> dict[str, object]:
    return {
        "discipline": power.discipline,
        "ap": power.ap,
        "attribute": power.attribute.value,
        "difficulty": power.difficulty,
        "hp_loss": power.hp_loss,
        "hp_loss_always": power.hp_loss_always,
        "target": power.target.value,
        "range": power.range.value,
        "duration": power.duration.value,
        "text": power.text,
        "text_en": power.text_en,
    }


# --- Form text of the structured fields ------------------------------------------------------


def format_field(spec: FieldSpec, value: object) -> object:
    """A structured field as the JSON text of its textarea; plain fields pass through."""
    if spec.name not in _STRUCTURED:
        return value
    return json.dumps(value, ensure_ascii=False, indent=1)


def parse_field(spec: FieldSpec, value: object) -> object:
    """The inverse of ``format_field``: JSON text checked by the card reader later."""
    if spec.name not in _STRUCTURED:
        return value
    try:
        parsed: object = json.loads(str(value))
    except json.JSONDecodeError as error:
        raise SchemaError(
            [FieldError(spec.name, f"is not valid JSON: {error.msg}", error.lineno)]
        ) from None
    except (ValueError, RecursionError):
        # An integer of thousands of digits, or nesting deeper than the parser's stack.
        raise SchemaError([FieldError(spec.name, "is not JSON a card can hold")]) from None
    return parsed
