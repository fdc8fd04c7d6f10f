"""The JSON of Stahlgewitter's catalogue rows: the database keeps a few columns per row (slug,
name, factions, kind, cost, version, sample) and everything printed in ``stats``.
``profile_from_stats`` and ``item_from_stats`` check it and build the ``catalog_types``
dataclasses; ``PROFILE_FIELDS`` / ``ITEM_FIELDS`` describe every key for the admin (one form
serves every item kind, so each kind's keys are optional there and checked here per kind).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Final

from apps.systems.core.i18n import gettext_noop
from apps.systems.core.schema import FieldErrors, FieldSpec
from apps.systems.stahlgewitter.catalog_types import (
    BASE_MOVE_CM,
    MAX_POINTS,
    MAX_VALUE,
    Armour,
    Effect,
    Equipment,
    GameType,
    Grade,
    Item,
    ItemKind,
    Profile,
    Rank,
    Skill,
    Variant,
    Weapon,
    WeaponType,
)

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
