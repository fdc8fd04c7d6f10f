"""The Stahlgewitter catalogue: army-list profiles, armour, weapons, variants, equipment and game
types (SPEC §4, stahlgewitter.de.txt "Armeelisten" to the end).

The database keeps a few columns per row (slug, name, factions, kind, cost, version, sample) and
everything printed in the JSON column ``stats``. This module owns that JSON: ``profile_from_stats``
and ``item_from_stats`` check it and build the frozen dataclasses the builder, the tracker and
the cards work with; ``PROFILE_FIELDS`` / ``ITEM_FIELDS`` describe every key for the admin (one
form serves every item kind, so each kind's keys are optional there and checked here per kind).

The standard armour (the shared design's decision): a printed profile line already wears an
armour, the one whose PW and movement reduction make its printed PW and B come out. A model's
base PW is its printed PW minus that armour's PW; wearing another armour X gives PW = base + X.pw
and B = printed B + standard reduction − X's reduction (at least 1). ``model_values`` does this
maths, so with its standard armour a model shows exactly the printed values.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Final, TypeVar

from apps.systems.core.i18n import gettext_noop
from apps.systems.core.rosters import CatalogData, CatalogEntry
from apps.systems.core.schema import FieldErrors, FieldSpec, SchemaError

BASE_MOVE_CM: Final = 12  # "alle menschlichen Modelle eine Bewegungsweite (B) von 12 cm"
MIN_MOVE_CM: Final = 1
MAX_VALUE: Final = 99
MAX_POINTS: Final = 9999


class Grade(StrEnum):
    REGULAR = "regular"
    VETERAN = "V"
    ELITE = "E"


# The PW a grade brings without armour (the design's "grade value"): regular 1, V 2, E 3.
GRADE_VALUE: Final[Mapping[Grade, int]] = {Grade.REGULAR: 1, Grade.VETERAN: 2, Grade.ELITE: 3}


class Rank(StrEnum):
    LEADER = "leader"
    SOLDIER = "soldier"


class Skill(StrEnum):
    FANATIKER = "fanatiker"
    GRAUSAM = "grausam"
    PSITER = "psiter"


SKILL_NAMES: Final[Mapping[Skill, str]] = {
    Skill.FANATIKER: "Fanatiker",
    Skill.GRAUSAM: "grausam",
    Skill.PSITER: "Psiter",
}


class WeaponType(StrEnum):
    MELEE = "melee"
    THROW = "throw"
    PISTOL = "pistol"
    RIFLE = "rifle"
    LAUNCHER = "launcher"


# The printed "Art" of a weapon type.
WEAPON_TYPE_NAMES: Final[Mapping[WeaponType, str]] = {
    WeaponType.MELEE: "-",
    WeaponType.THROW: "Wurf",
    WeaponType.PISTOL: "Pistole",
    WeaponType.RIFLE: "Gewehr",
    WeaponType.LAUNCHER: "Werfer",
}


class ItemKind(StrEnum):
    ARMOUR = "armour"
    WEAPON = "weapon"
    VARIANT = "variant"
    EQUIPMENT = "equipment"
    GAME_TYPE = "game_type"


class Effect(StrEnum):
    """What a piece of equipment does in the rules."""

    BANNER = "banner"
    MOTION_SCANNER = "motion_scanner"
    RADIO = "radio"
    MEDIC = "medic"
    MORPHINE = "morphine"
    KHIRF = "khirf"
    SPECIALIST = "specialist"


GRADE_CHOICES: Final = (
    (Grade.REGULAR.value, gettext_noop("regular")),
    (Grade.VETERAN.value, gettext_noop("V (veteran)")),
    (Grade.ELITE.value, gettext_noop("E (elite)")),
)
RANK_CHOICES: Final = (
    (Rank.LEADER.value, gettext_noop("Anführer (leader)")),
    (Rank.SOLDIER.value, gettext_noop("soldier")),
)
WEAPON_TYPE_CHOICES: Final = (
    (WeaponType.MELEE.value, gettext_noop("melee")),
    (WeaponType.THROW.value, gettext_noop("Wurf (throw)")),
    (WeaponType.PISTOL.value, gettext_noop("Pistole (pistol)")),
    (WeaponType.RIFLE.value, gettext_noop("Gewehr (rifle)")),
    (WeaponType.LAUNCHER.value, gettext_noop("Werfer (launcher)")),
)
EFFECT_CHOICES: Final = (
    (Effect.BANNER.value, gettext_noop("Fahne (banner): one morale reroll")),
    (Effect.MOTION_SCANNER.value, gettext_noop("Motion-Scanner: Blitzaktion within 25 cm")),
    (Effect.RADIO.value, gettext_noop("Funkgerät (radio)")),
    (Effect.MEDIC.value, gettext_noop("Sanitäter (medic)")),
    (Effect.MORPHINE.value, gettext_noop("Morphin: stuns count as retreats")),
    (Effect.KHIRF.value, gettext_noop("Khirf: no morale tests, never retreats")),
    (Effect.SPECIALIST.value, gettext_noop("Spezialist (specialist)")),
)
ITEM_KIND_CHOICES: Final = (
    (ItemKind.WEAPON.value, gettext_noop("Waffe (weapon)")),
    (ItemKind.ARMOUR.value, gettext_noop("Rüstung (armour)")),
    (ItemKind.VARIANT.value, gettext_noop("Variante (melee weapon variant)")),
    (ItemKind.EQUIPMENT.value, gettext_noop("Ausrüstung (equipment)")),
    (ItemKind.GAME_TYPE.value, gettext_noop("Spieltyp (game type, never bought)")),
)


# --- The dataclasses -------------------------------------------------------------------------


@dataclass(frozen=True)
class Profile:
    """One printed army-list line. ``armour`` is the slug of its standard armour; ``b`` and
    ``pw`` are the printed values (with that armour worn)."""

    slug: str
    name: str
    factions: tuple[str, ...]
    list: str
    type: str
    grade: Grade
    rank: Rank
    rank_order: int
    b: int
    pw: int
    tp: int
    stk: int
    ges: int
    wik: int
    skills: tuple[Skill, ...]
    armour: str
    points: int
    provisional: bool = False
    version: int = 1
    sample: bool = False

    @property
    def leader(self) -> bool:
        return self.rank is Rank.LEADER

    @property
    def fanatic(self) -> bool:
        return Skill.FANATIKER in self.skills

    @property
    def cruel(self) -> bool:
        return Skill.GRAUSAM in self.skills

    @property
    def psiter(self) -> bool:
        return Skill.PSITER in self.skills

    @property
    def grade_label(self) -> str:
        """ "", "V" or "E", as printed after the type."""
        return "" if self.grade is Grade.REGULAR else self.grade.value

    @property
    def skill_names(self) -> tuple[str, ...]:
        return tuple(SKILL_NAMES[s] for s in self.skills)


@dataclass(frozen=True)
class Armour:
    """A line of the Rüstungstabelle: PW and the movement reduction ("B -")."""

    slug: str
    name: str
    pw: int
    b_reduction: int
    cost: int = 0
    provisional: bool = False
    version: int = 1
    sample: bool = False


@dataclass(frozen=True)
class Weapon:
    """A line of the Allgemeine Waffentabelle. ``fkw``/``nkw`` None: "-" (no ranged or no melee
    attack); ``burst`` N for "N Angriffe/Runde" (0: single shots only); ``range_stk_x`` for
    thrown weapons (range = STK × it cm); ``unlimited`` for "unbegrenzt"."""

    slug: str
    name: str
    type: WeaponType
    fkw: int | None
    nkw: int | None
    cost: int = 0
    category: str = ""
    range_cm: int | None = None
    range_stk_x: int | None = None
    unlimited: bool = False
    fkw_decided: bool = False
    move_and_fight: bool = True
    armour_breaker: bool = False
    breaker_note: str = ""
    burst: int = 0
    template_cm: int = 0
    burns_d4: bool = False
    ignores_armour: bool = False
    pw_always_1: bool = False
    row_bonus: int = 0
    stun_from_e: bool = False
    morale_test: bool = False
    secondary_fkw: int | None = None
    one_rifle_shot: bool = False
    no_burst_range_penalty: bool = False
    special: str = ""
    special_en: str = ""
    provisional: bool = False
    version: int = 1
    sample: bool = False

    @property
    def ranged(self) -> bool:
        return self.fkw is not None

    @property
    def melee(self) -> bool:
        return self.nkw is not None

    @property
    def launcher(self) -> bool:
        return self.type is WeaponType.LAUNCHER

    def range_for(self, stk: int) -> int | None:
        """The range in cm for a bearer with ``stk``; None: unlimited or no ranged attack."""
        if self.range_stk_x is not None:
            return stk * self.range_stk_x
        return self.range_cm

    def burst_range_for(self, stk: int) -> int | None:
        """A burst's range: half the range ("Hälfte der normalen Reichweite"), the full range
        without the burst range penalty (footnote 4)."""
        full = self.range_for(stk)
        if full is None or self.no_burst_range_penalty:
            return full
        return full // 2

    def range_label(self) -> str:
        """The printed "Art / Reichweite" ("Gewehr 80 cm", "Wurf STK x 10 cm", "-")."""
        if self.type is WeaponType.MELEE:
            return "-"
        if self.range_stk_x is not None:
            return f"Wurf STK x {self.range_stk_x} cm"
        distance = "unbegrenzt" if self.unlimited else f"{self.range_cm} cm"
        return f"{WEAPON_TYPE_NAMES[self.type]} {distance}"


@dataclass(frozen=True)
class Variant:
    """Energie-/Vibro-Varianten: a melee weapon upgrade (+NKW, maybe an armour breaker)."""

    slug: str
    name: str
    nkw_bonus: int
    cost: int = 0
    armour_breaker: bool = False
    breaker_note: str = ""
    breaker_note_en: str = ""
    provisional: bool = False
    version: int = 1
    sample: bool = False


@dataclass(frozen=True)
class Equipment:
    slug: str
    name: str
    effect: Effect
    cost: int = 0
    text: str = ""
    text_en: str = ""
    provisional: bool = False
    version: int = 1
    sample: bool = False


@dataclass(frozen=True)
class GameType:
    """Scharmützel, Gefecht, Schlacht: a range of army points; never bought."""

    slug: str
    name: str
    min_points: int
    max_points: int
    hours: str = ""
    provisional: bool = False
    version: int = 1
    sample: bool = False


Item = Armour | Weapon | Variant | Equipment | GameType


# --- Derived values --------------------------------------------------------------------------


@dataclass(frozen=True)
class ModelValues:
    """A model's PW and B with the armour it wears (``worn``), and its base PW without armour."""

    base_pw: int
    pw: int
    b: int
    armour: Armour
    standard: Armour

    @property
    def reduction(self) -> int:
        """The worn armour's movement reduction, as the builder shows it."""
        return self.armour.b_reduction


def base_pw(profile: Profile, standard: Armour) -> int:
    """Printed PW minus the standard armour's PW (never below 0)."""
    return max(0, profile.pw - standard.pw)


def model_values(profile: Profile, standard: Armour, worn: Armour | None = None) -> ModelValues:
    """PW and B of a model of ``profile`` wearing ``worn`` (None: its standard armour).

    PW = base + worn.pw; B = printed B + standard reduction − worn reduction, at least 1.
    """
    armour = worn or standard
    move = profile.b + standard.b_reduction - armour.b_reduction
    return ModelValues(
        base_pw=base_pw(profile, standard),
        pw=base_pw(profile, standard) + armour.pw,
        b=max(MIN_MOVE_CM, move),
        armour=armour,
        standard=standard,
    )


def standard_armour_slug(b: int, pw: int, grade: Grade, armours: Iterable[Armour]) -> str | None:
    """The design's standard armour of a printed line: at B 12 kevlar when PW is above the grade
    value (else ungerüstet); otherwise the armour whose reduction makes B (the first by the
    table's order, which is the design's choice for each B printed)."""
    table = list(armours)
    reduction = BASE_MOVE_CM - b
    if reduction == 0:
        return "kevlar" if pw > GRADE_VALUE[grade] else "ungeruestet"
    return next((a.slug for a in table if a.b_reduction == reduction), None)


def upgraded(weapon: Weapon, variants: Sequence[Variant]) -> Weapon:
    """A melee weapon with the model's variants: +NKW each; a variant that breaks armour makes
    the weapon an armour breaker with the variant's note ("nur zum Öffnen von Schotts")."""
    if not weapon.melee or not variants:
        return weapon
    nkw = (weapon.nkw or 0) + sum(v.nkw_bonus for v in variants)
    breaker = next((v for v in variants if v.armour_breaker), None)
    names = " + ".join(v.name for v in variants)
    return replace(
        weapon,
        name=f"{weapon.name} ({names})",
        nkw=nkw,
        armour_breaker=weapon.armour_breaker or breaker is not None,
        breaker_note=weapon.breaker_note
        if weapon.armour_breaker or breaker is None
        else breaker.breaker_note,
    )


# --- The parsed catalogue --------------------------------------------------------------------


@dataclass(frozen=True)
class Catalog:
    factions: Mapping[str, str]
    profiles: Mapping[str, Profile]
    armours: Mapping[str, Armour]
    weapons: Mapping[str, Weapon]
    variants: Mapping[str, Variant]
    equipment: Mapping[str, Equipment]
    game_types: Mapping[str, GameType]

    def item(self, slug: str) -> Item | None:
        for table in (self.weapons, self.armours, self.variants, self.equipment, self.game_types):
            found = table.get(slug)
            if found is not None:
                return found
        return None

    def standard_armour(self, profile: Profile) -> Armour:
        """The profile's standard armour; an armour gone from the catalogue counts as none
        (PW 0, no reduction), so the printed values still show."""
        return self.armours.get(profile.armour) or Armour(
            slug=profile.armour, name=profile.armour, pw=0, b_reduction=0
        )

    def values(self, profile: Profile, worn: Armour | None = None) -> ModelValues:
        return model_values(profile, self.standard_armour(profile), worn)

    def faction_profiles(self, faction: str) -> tuple[Profile, ...]:
        return tuple(p for p in self.profiles.values() if faction in p.factions)

    def lists(self) -> tuple[str, ...]:
        """The printed army lists, in catalogue order."""
        return tuple(dict.fromkeys(p.list for p in self.profiles.values()))


@dataclass(frozen=True)
class Loadout:
    """What an entry's items are: weapons (melee ones upgraded by the variants), the worn armour
    (None: the standard one), variants, equipment, and slugs the catalogue does not know."""

    weapons: tuple[Weapon, ...]
    armours: tuple[Armour, ...]
    variants: tuple[Variant, ...]
    equipment: tuple[Equipment, ...]
    game_types: tuple[GameType, ...]
    unknown: tuple[str, ...]

    @property
    def armour(self) -> Armour | None:
        return self.armours[0] if self.armours else None

    @property
    def effects(self) -> frozenset[Effect]:
        return frozenset(e.effect for e in self.equipment)

    @property
    def armed_weapons(self) -> tuple[Weapon, ...]:
        """The weapons as they fight: melee weapons with the variants applied."""
        return tuple(upgraded(w, self.variants) for w in self.weapons)


def loadout(items: Sequence[str], catalog: Catalog) -> Loadout:
    weapons: list[Weapon] = []
    armours: list[Armour] = []
    variants: list[Variant] = []
    equipment: list[Equipment] = []
    game_types: list[GameType] = []
    unknown: list[str] = []
    for slug in items:
        item = catalog.item(slug)
        if isinstance(item, Weapon):
            weapons.append(item)
        elif isinstance(item, Armour):
            armours.append(item)
        elif isinstance(item, Variant):
            variants.append(item)
        elif isinstance(item, Equipment):
            equipment.append(item)
        elif isinstance(item, GameType):
            game_types.append(item)
        else:
            unknown.append(slug)
    return Loadout(
        tuple(weapons),
        tuple(armours),
        tuple(variants),
        tuple(equipment),
        tuple(game_types),
        tuple(unknown),
    )


def stahlgewitter_catalog(data: CatalogData) -> Catalog:
    """The catalogue rows parsed; rows that no longer fit the schema are left out."""
    profiles: dict[str, Profile] = {}
    for slug, entry in data.profiles.items():
        profile = _parsed_profile(entry)
        if profile is not None:
            profiles[slug] = profile
    tables: dict[ItemKind, dict[str, Item]] = {kind: {} for kind in ItemKind}
    for slug, entry in data.items.items():
        item = _parsed_item(entry)
        if item is not None:
            tables[ItemKind(entry.kind)][slug] = item
    return Catalog(
        factions=dict(data.factions),
        profiles=profiles,
        armours=_typed(tables[ItemKind.ARMOUR], Armour),
        weapons=_typed(tables[ItemKind.WEAPON], Weapon),
        variants=_typed(tables[ItemKind.VARIANT], Variant),
        equipment=_typed(tables[ItemKind.EQUIPMENT], Equipment),
        game_types=_typed(tables[ItemKind.GAME_TYPE], GameType),
    )


_T = TypeVar("_T")


def _typed(table: Mapping[str, Item], cls: type[_T]) -> dict[str, _T]:
    return {slug: item for slug, item in table.items() if isinstance(item, cls)}


# Builder clicks re-read the catalogue; rows are immutable per version, so parses are kept.
_PARSED: dict[tuple[object, ...], Profile | Item | None] = {}
_CACHE_LIMIT: Final = 4096


def _cache_key(kind: str, entry: CatalogEntry) -> tuple[object, ...]:
    return (
        kind,
        entry.slug,
        entry.name,
        entry.version,
        entry.sample,
        entry.factions,
        entry.kind,
        entry.cost,
        repr(sorted(entry.stats.items())),
    )


def _parsed_profile(entry: CatalogEntry) -> Profile | None:
    key = _cache_key("profile", entry)
    if key not in _PARSED:
        if len(_PARSED) >= _CACHE_LIMIT:
            _PARSED.clear()
        try:
            _PARSED[key] = profile_from_stats(
                slug=entry.slug,
                name=entry.name,
                factions=entry.factions,
                stats=entry.stats,
                version=entry.version,
                sample=entry.sample,
            )
        except SchemaError:
            _PARSED[key] = None
    found = _PARSED[key]
    return found if isinstance(found, Profile) else None


def _parsed_item(entry: CatalogEntry) -> Item | None:
    key = _cache_key("item", entry)
    if key not in _PARSED:
        if len(_PARSED) >= _CACHE_LIMIT:
            _PARSED.clear()
        try:
            _PARSED[key] = item_from_stats(
                slug=entry.slug,
                name=entry.name,
                kind=entry.kind,
                cost=entry.cost,
                stats=entry.stats,
                version=entry.version,
                sample=entry.sample,
            )
        except SchemaError:
            _PARSED[key] = None
    found = _PARSED[key]
    return None if found is None or isinstance(found, Profile) else found


# --- Field descriptions for the admin --------------------------------------------------------


def _int(name: str, label: str, lo: int = 0, hi: int = MAX_VALUE, **kw: object) -> FieldSpec:
    return FieldSpec(name, label, "int", minimum=lo, maximum=hi, **kw)  # type: ignore[arg-type]


_PROVISIONAL = FieldSpec(
    "provisional",
    gettext_noop("Provisional cost (not printed)"),
    "bool",
    required=False,
    default=False,
    help=gettext_noop("The rulebook prints no costs: shipped costs are decisions."),
)

PROFILE_FIELDS: Final = (
    FieldSpec("list", gettext_noop("Army list (Armeeliste)"), "text"),
    FieldSpec("type", gettext_noop("Type (Typ), without the grade"), "text"),
    FieldSpec("grade", gettext_noop("Grade"), "choice", choices=GRADE_CHOICES),
    FieldSpec("rank", gettext_noop("Rank"), "choice", choices=RANK_CHOICES),
    _int(
        "rank_order",
        gettext_noop("Rank order (highest-ranking leader)"),
        0,
        9,
        help=gettext_noop("Kapitän, Kaplan, Gabrielsritter 3; Offizier 2; Unteroffizier 1."),
    ),
    _int("b", gettext_noop("B (movement, cm)"), 1, 30),
    _int("pw", gettext_noop("PW (armour value)")),
    _int("tp", gettext_noop("TP (hit points)"), 1, 9),
    _int("stk", gettext_noop("STK (strength)")),
    _int("ges", gettext_noop("GES (dexterity)")),
    _int("wik", gettext_noop("WIK (willpower)")),
    FieldSpec(
        "skills",
        gettext_noop("Skills (Fertigkeiten)"),
        "skills",
        required=False,
        help=gettext_noop("Comma-separated: fanatiker, grausam, psiter; empty for none."),
    ),
    FieldSpec(
        "armour",
        gettext_noop("Standard armour (slug)"),
        "text",
        help=gettext_noop("The armour whose PW and movement reduction the printed line includes."),
    ),
    _int("points", gettext_noop("Points"), 0, MAX_POINTS),
    _PROVISIONAL,
)

# A choice the admin leaves empty for the kinds it does not apply to.
_BLANK: Final = ("", "—")
# One form serves every kind: each kind's keys are optional here and checked per kind.
ITEM_FIELDS: Final = (
    _int("pw", gettext_noop("Armour: PW"), required=False),
    _int("b_reduction", gettext_noop("Armour: movement reduction (B −)"), 0, 12, required=False),
    FieldSpec("category", gettext_noop("Weapon: category"), "text", required=False, default=""),
    FieldSpec(
        "type",
        gettext_noop("Weapon: type"),
        "choice",
        choices=(_BLANK, *WEAPON_TYPE_CHOICES),
        required=False,
    ),
    _int("range_cm", gettext_noop("Weapon: range (cm)"), 1, 999, required=False),
    _int("range_stk_x", gettext_noop("Weapon: range STK × (cm)"), 1, 99, required=False),
    FieldSpec("unlimited", gettext_noop("Weapon: unlimited range"), "bool", required=False),
    _int("fkw", gettext_noop("Weapon: FKW"), required=False, help=gettext_noop("Empty: “-”.")),
    _int("nkw", gettext_noop("Weapon: NKW"), required=False, help=gettext_noop("Empty: “-”.")),
    FieldSpec(
        "fkw_decided",
        gettext_noop("Weapon: FKW decided (printed “?”)"),
        "bool",
        required=False,
    ),
    FieldSpec("move_and_fight", gettext_noop("Weapon: move and fight"), "bool", required=False),
    FieldSpec(
        "armour_breaker", gettext_noop("Armour breaker (Panzerknacker)"), "bool", required=False
    ),
    FieldSpec("breaker_note", gettext_noop("Armour breaker note"), "text", required=False),
    FieldSpec(
        "breaker_note_en", gettext_noop("Armour breaker note in English"), "text", required=False
    ),
    _int("burst", gettext_noop("Weapon: attacks per round (burst)"), 0, 9, required=False),
    _int("template_cm", gettext_noop("Weapon: template (cm)"), 0, 99, required=False),
    FieldSpec("burns_d4", gettext_noop("Weapon: target burns 1d4 rounds"), "bool", required=False),
    FieldSpec("ignores_armour", gettext_noop("Weapon: ignores armour"), "bool", required=False),
    FieldSpec("pw_always_1", gettext_noop("Weapon: defender PW always 1"), "bool", required=False),
    _int("row_bonus", gettext_noop("Weapon: combat result roll bonus"), 0, 9, required=False),
    FieldSpec("stun_from_e", gettext_noop("Weapon: results from E stun"), "bool", required=False),
    FieldSpec("morale_test", gettext_noop("Weapon: immediate morale test"), "bool", required=False),
    _int("secondary_fkw", gettext_noop("Weapon: secondary targets FKW"), required=False),
    FieldSpec(
        "one_rifle_shot", gettext_noop("Weapon: one rifle shot per game"), "bool", required=False
    ),
    FieldSpec(
        "no_burst_range_penalty",
        gettext_noop("Weapon: no range penalty for bursts"),
        "bool",
        required=False,
    ),
    FieldSpec("special", gettext_noop("Special (spezial)"), "text", required=False),
    FieldSpec("special_en", gettext_noop("Special in English"), "text", required=False),
    _int("nkw_bonus", gettext_noop("Variant: NKW bonus"), 0, 9, required=False),
    FieldSpec(
        "effect",
        gettext_noop("Equipment: effect"),
        "choice",
        choices=(_BLANK, *EFFECT_CHOICES),
        required=False,
    ),
    FieldSpec("text", gettext_noop("Equipment: rules"), "text", required=False),
    FieldSpec("text_en", gettext_noop("Equipment: rules in English"), "text", required=False),
    _int("min_points", gettext_noop("Game type: minimum points"), 0, 10_000, required=False),
    _int("max_points", gettext_noop("Game type: maximum points"), 1, 10_000, required=False),
    FieldSpec("hours", gettext_noop("Game type: hours"), "text", required=False),
    _PROVISIONAL,
)

_WEAPON_KEYS: Final = (
    "category",
    "type",
    "range_cm",
    "range_stk_x",
    "unlimited",
    "fkw",
    "nkw",
    "fkw_decided",
    "move_and_fight",
    "armour_breaker",
    "breaker_note",
    "burst",
    "template_cm",
    "burns_d4",
    "ignores_armour",
    "pw_always_1",
    "row_bonus",
    "stun_from_e",
    "morale_test",
    "secondary_fkw",
    "one_rifle_shot",
    "no_burst_range_penalty",
    "special",
    "special_en",
)
KIND_KEYS: Final[Mapping[ItemKind, tuple[str, ...]]] = {
    ItemKind.ARMOUR: ("pw", "b_reduction"),
    ItemKind.WEAPON: _WEAPON_KEYS,
    ItemKind.VARIANT: ("nkw_bonus", "armour_breaker", "breaker_note", "breaker_note_en"),
    ItemKind.EQUIPMENT: ("effect", "text", "text_en"),
    ItemKind.GAME_TYPE: ("min_points", "max_points", "hours"),
}
_ITEM_KEYS: Final = frozenset(spec.name for spec in ITEM_FIELDS)
_PROFILE_KEYS: Final = frozenset(spec.name for spec in PROFILE_FIELDS)


# --- Reading ---------------------------------------------------------------------------------


class _Reader:
    """Reads one row's stats, noting every problem in ``errors``."""

    def __init__(self, stats: object, allowed: frozenset[str]) -> None:
        self.errors = FieldErrors()
        if not isinstance(stats, Mapping):
            self.errors.add("stats", f"must be an object, not {stats!r}.")
            stats = {}
        self.data: Mapping[str, object] = stats
        for key in stats:
            if key not in allowed:
                self.errors.add(str(key), "unknown field.")

    def required(self, key: str) -> object:
        if key not in self.data:
            self.errors.add(key, "is required.")
        return self.data.get(key)

    def integer(self, key: str, lo: int, hi: int, *, default: int | None = None) -> int:
        value = self.data.get(key, default) if default is not None else self.required(key)
        if not isinstance(value, int) or isinstance(value, bool):
            if key in self.data or default is None:
                self.errors.add(key, f"must be a whole number, not {value!r}.")
            return default or 0
        if not lo <= value <= hi:
            self.errors.add(key, f"must be from {lo} to {hi}, not {value}.")
        return value

    def optional_int(self, key: str, lo: int, hi: int) -> int | None:
        value = self.data.get(key)
        if value is None:
            return None
        if not isinstance(value, int) or isinstance(value, bool):
            self.errors.add(key, f"must be a whole number or null, not {value!r}.")
            return None
        if not lo <= value <= hi:
            self.errors.add(key, f"must be from {lo} to {hi}, not {value}.")
        return value

    def flag(self, key: str) -> bool:
        value = self.data.get(key, False)
        if not isinstance(value, bool):
            self.errors.add(key, f"must be true or false, not {value!r}.")
            return False
        return value

    def text(self, key: str, *, required: bool = False, limit: int = 2000) -> str:
        value = self.required(key) if required else self.data.get(key, "")
        if not isinstance(value, str):
            if value is not None or required:
                self.errors.add(key, f"must be text, not {value!r}.")
            return ""
        if required and not value.strip():
            self.errors.add(key, "must not be empty.")
        if len(value) > limit:
            self.errors.add(key, f"must be at most {limit} characters.")
        return value.strip()

    def choice(self, key: str, choices: Sequence[str], *, required: bool = True) -> str:
        value = self.required(key) if required else self.data.get(key, choices[0])
        if value not in choices:
            self.errors.add(key, f"must be one of {', '.join(choices)}, not {value!r}.")
            return choices[0]
        return str(value)

    def unused(self, keys: Iterable[str]) -> None:
        """Keys of another kind may be present only at their empty value (the admin form sends
        every key of every kind)."""
        for key in keys:
            if self.data.get(key) not in (None, False, 0, ""):
                self.errors.add(key, "does not apply to this kind of item.")


def _skills(reader: _Reader) -> tuple[Skill, ...]:
    value = reader.data.get("skills", [])
    if not isinstance(value, list):
        reader.errors.add("skills", f"must be a list, not {value!r}.")
        return ()
    skills: list[Skill] = []
    for index, raw in enumerate(value):
        if raw not in {s.value for s in Skill}:
            known = ", ".join(s.value for s in Skill)
            reader.errors.add(f"skills.{index}", f"must be one of {known}, not {raw!r}.")
        elif Skill(raw) in skills:
            reader.errors.add(f"skills.{index}", f"{raw} is listed twice.")
        else:
            skills.append(Skill(raw))
    return tuple(skills)


def profile_from_stats(
    *,
    slug: str,
    name: str,
    factions: Sequence[str],
    stats: Mapping[str, object],
    version: int = 1,
    sample: bool = False,
) -> Profile:
    """A printed army-list line from its row; raises ``SchemaError`` listing every problem."""
    r = _Reader(stats, _PROFILE_KEYS)
    profile = Profile(
        slug=slug,
        name=name,
        factions=tuple(factions),
        list=r.text("list", required=True, limit=80),
        type=r.text("type", required=True, limit=80),
        grade=Grade(r.choice("grade", [g.value for g in Grade])),
        rank=Rank(r.choice("rank", [k.value for k in Rank])),
        rank_order=r.integer("rank_order", 0, 9),
        b=r.integer("b", 1, 30),
        pw=r.integer("pw", 0, MAX_VALUE),
        tp=r.integer("tp", 1, 9),
        stk=r.integer("stk", 0, MAX_VALUE),
        ges=r.integer("ges", 0, MAX_VALUE),
        wik=r.integer("wik", 0, MAX_VALUE),
        skills=_skills(r),
        armour=r.text("armour", required=True, limit=80),
        points=r.integer("points", 0, MAX_POINTS),
        provisional=r.flag("provisional"),
        version=version,
        sample=sample,
    )
    if not slug.strip():
        r.errors.add("slug", "must not be empty.")
    if not name.strip():
        r.errors.add("name", "must not be empty.")
    if not factions:
        r.errors.add("factions", "must name at least one faction.")
    if profile.rank is Rank.SOLDIER and profile.rank_order:
        r.errors.add("rank_order", "only a leader has a rank order above 0.")
    r.errors.raise_if_any()
    return profile


def item_from_stats(
    *,
    slug: str,
    name: str,
    kind: str,
    cost: int,
    stats: Mapping[str, object],
    version: int = 1,
    sample: bool = False,
) -> Item:
    """An item (armour, weapon, variant, equipment, game type) from its row; raises
    ``SchemaError`` listing every problem."""
    r = _Reader(stats, _ITEM_KEYS)
    if kind not in {k.value for k in ItemKind}:
        known = ", ".join(k.value for k in ItemKind)
        r.errors.add("kind", f"must be one of {known}, not {kind!r}.")
        r.errors.raise_if_any()
    item_kind = ItemKind(kind)
    own = KIND_KEYS[item_kind]
    r.unused(key for key in _ITEM_KEYS - set(own) - {"provisional", "armour_breaker"})
    if item_kind not in (ItemKind.WEAPON, ItemKind.VARIANT):
        r.unused(["armour_breaker"])
    _check_row(r, slug=slug, name=name, cost=cost)
    common = {
        "slug": slug,
        "name": name,
        "provisional": r.flag("provisional"),
        "version": version,
        "sample": sample,
    }
    item = _ITEM_BUILDERS[item_kind](r, cost, common)
    r.errors.raise_if_any()
    return item


def _check_row(r: _Reader, *, slug: str, name: str, cost: int) -> None:
    if not isinstance(cost, int) or isinstance(cost, bool) or cost < 0:
        r.errors.add("cost", f"must be a whole number of at least 0, not {cost!r}.")
    if not slug.strip():
        r.errors.add("slug", "must not be empty.")
    if not name.strip():
        r.errors.add("name", "must not be empty.")


def _armour(r: _Reader, cost: int, common: Mapping[str, object]) -> Armour:
    return Armour(
        pw=r.integer("pw", 0, MAX_VALUE),
        b_reduction=r.integer("b_reduction", 0, BASE_MOVE_CM),
        cost=cost,
        **common,  # type: ignore[arg-type]
    )


def _variant(r: _Reader, cost: int, common: Mapping[str, object]) -> Variant:
    return Variant(
        nkw_bonus=r.integer("nkw_bonus", 0, 9),
        cost=cost,
        armour_breaker=r.flag("armour_breaker"),
        breaker_note=r.text("breaker_note"),
        breaker_note_en=r.text("breaker_note_en"),
        **common,  # type: ignore[arg-type]
    )


def _equipment(r: _Reader, cost: int, common: Mapping[str, object]) -> Equipment:
    return Equipment(
        effect=Effect(r.choice("effect", [e.value for e in Effect])),
        cost=cost,
        text=r.text("text"),
        text_en=r.text("text_en"),
        **common,  # type: ignore[arg-type]
    )


def _weapon(r: _Reader, cost: int, common: Mapping[str, object]) -> Weapon:
    kind = WeaponType(r.choice("type", [t.value for t in WeaponType]))
    weapon = Weapon(
        type=kind,
        fkw=r.optional_int("fkw", 0, MAX_VALUE),
        nkw=r.optional_int("nkw", 0, MAX_VALUE),
        cost=cost,
        category=r.text("category", limit=80),
        range_cm=r.optional_int("range_cm", 1, 999),
        range_stk_x=r.optional_int("range_stk_x", 1, 99),
        unlimited=r.flag("unlimited"),
        fkw_decided=r.flag("fkw_decided"),
        move_and_fight=r.flag("move_and_fight"),
        armour_breaker=r.flag("armour_breaker"),
        breaker_note=r.text("breaker_note"),
        burst=r.integer("burst", 0, 9, default=0),
        template_cm=r.integer("template_cm", 0, 99, default=0),
        burns_d4=r.flag("burns_d4"),
        ignores_armour=r.flag("ignores_armour"),
        pw_always_1=r.flag("pw_always_1"),
        row_bonus=r.integer("row_bonus", 0, 9, default=0),
        stun_from_e=r.flag("stun_from_e"),
        morale_test=r.flag("morale_test"),
        secondary_fkw=r.optional_int("secondary_fkw", 0, MAX_VALUE),
        one_rifle_shot=r.flag("one_rifle_shot"),
        no_burst_range_penalty=r.flag("no_burst_range_penalty"),
        special=r.text("special"),
        special_en=r.text("special_en"),
        **common,  # type: ignore[arg-type]
    )
    if weapon.fkw is None and weapon.nkw is None:
        r.errors.add("fkw", "a weapon has an FKW, an NKW or both.")
    if kind is WeaponType.MELEE:
        if weapon.fkw is not None:
            r.errors.add("fkw", "a melee weapon has no FKW.")
        if weapon.range_cm is not None or weapon.range_stk_x is not None or weapon.unlimited:
            r.errors.add("range_cm", "a melee weapon has no range.")
    elif weapon.fkw is None:
        r.errors.add("fkw", "a ranged or thrown weapon has an FKW.")
    else:
        ranges = (weapon.range_cm is not None) + (weapon.range_stk_x is not None) + weapon.unlimited
        if ranges != 1:
            r.errors.add("range_cm", "give exactly one of range, STK × range or unlimited.")
        if kind is WeaponType.THROW and weapon.range_stk_x is None:
            r.errors.add("range_stk_x", "a thrown weapon's range is STK × this many cm.")
    return weapon


def _game_type(r: _Reader, cost: int, common: Mapping[str, object]) -> GameType:
    game_type = GameType(
        min_points=r.integer("min_points", 0, 10_000),
        max_points=r.integer("max_points", 1, 10_000),
        hours=r.text("hours", limit=20),
        **common,  # type: ignore[arg-type]
    )
    if game_type.min_points > game_type.max_points:
        r.errors.add("max_points", "must be at least the minimum points.")
    if cost:
        r.errors.add("cost", "a game type is never bought: its cost is 0.")
    return game_type


_ITEM_BUILDERS: Final[Mapping[ItemKind, Callable[[_Reader, int, Mapping[str, object]], Item]]] = {
    ItemKind.ARMOUR: _armour,
    ItemKind.WEAPON: _weapon,
    ItemKind.VARIANT: _variant,
    ItemKind.EQUIPMENT: _equipment,
    ItemKind.GAME_TYPE: _game_type,
}


# --- Form text of the structured field ---------------------------------------------------------


def format_field(spec: FieldSpec, value: object) -> object:
    """Skills as comma-separated text; every other field passes through."""
    if spec.type == "skills" and isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return value


def parse_field(spec: FieldSpec, value: object) -> object:
    """The inverse of ``format_field`` (checked by ``profile_from_stats`` later)."""
    if spec.type == "skills":
        text = str(value or "")
        return [part.strip().lower() for part in text.split(",") if part.strip()]
    return value
