"""The Grundregeln catalogue: model profiles and items (SPEC §2).

A profile is a model's card: its size (XS-XL), move value B, morale value and morale dice, life
points, defence dice (armour), its weapons with their attack dice, and its points cost (the
app's team-building currency; the rulebook prints none). Items are bought per model: extra
weapons, armour (more defence dice) and gear. NPC profiles are flagged ``npc``: scenarios field
them, teams never do.

The database keeps slug, name, factions, kind, cost, version and sample per entry and the rest in
the JSON column ``stats``, which this module reads (``profile_from_stats``, ``item_from_stats``)
and writes (``profile_stats``, ``item_stats``); the round trip is exact. Weapons and the reroll
list have a one-line text format for the admin's textareas. Bad data raises ``SchemaError``
listing every problem at once, each with a dotted path ("weapons.1.attack_dice").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from apps.systems.core.i18n import gettext_noop, split_english, with_english
from apps.systems.core.schema import (
    FieldError,
    FieldErrors,
    FieldSpec,
    SchemaError,
    field_path,
    numbered_lines,
    read_int,
)


class Size(StrEnum):
    XS = "XS"
    S = "S"
    M = "M"
    L = "L"
    XL = "XL"


SIZES: Final = tuple(Size)


class WeaponKind(StrEnum):
    MELEE = "melee"
    RANGED = "ranged"


class Reload(StrEnum):
    """How a weapon is made ready again after a shot: never needed, Schnelles Nachladen (a
    simple action) or Langsames Nachladen (a complex one)."""

    NONE = "none"
    FAST = "fast"
    SLOW = "slow"


class ItemKind(StrEnum):
    WEAPON = "weapon"
    ARMOUR = "armour"
    GEAR = "gear"


class RollKind(StrEnum):
    """The rolls an ability may allow to reroll 1s in (each die once)."""

    ATTACK = "attack"  # hit and damage dice of the model's attacks
    DEFENCE = "defence"
    MORALE = "morale"
    MOVEMENT = "movement"


SIZE_CHOICES: Final = tuple((size.value, size.value) for size in Size)
ITEM_KIND_CHOICES: Final = (
    (ItemKind.WEAPON.value, gettext_noop("Weapon (Waffe)")),
    (ItemKind.ARMOUR.value, gettext_noop("Armour (Rüstung)")),
    (ItemKind.GEAR.value, gettext_noop("Gear (Gegenstand)")),
)
MAX_DICE: Final = 12


@dataclass(frozen=True)
class Weapon:
    """A weapon: melee weapons strike (Zuschlagen), ranged weapons shoot (Schießen) up to
    ``range_inches``. A weapon with a reload must be reloaded after every shot."""

    name: str
    kind: WeaponKind
    attack_dice: int
    range_inches: int = 0
    reload: Reload = Reload.NONE

    @property
    def melee(self) -> bool:
        return self.kind is WeaponKind.MELEE


@dataclass(frozen=True)
class Ability:
    """A rule of a profile: ``text`` is the German original, ``text_en`` its English version
    (``apps.systems.core.i18n.localized_stats`` picks one for the reader)."""

    name: str
    text: str = ""
    text_en: str = ""


@dataclass(frozen=True)
class Profile:
    slug: str
    name: str
    factions: tuple[str, ...]
    size: Size
    move: int
    morale: int
    morale_dice: int
    lp: int
    defence_dice: int
    points: int
    weapons: tuple[Weapon, ...] = ()
    abilities: tuple[Ability, ...] = ()
    reroll_ones: tuple[RollKind, ...] = ()
    npc: bool = False
    version: int = 1
    sample: bool = False


@dataclass(frozen=True)
class Item:
    """An item a model carries: ``weapon`` for weapon items, ``defence_dice`` added by armour."""

    slug: str
    name: str
    kind: ItemKind
    cost: int
    text: str = ""
    text_en: str = ""
    weapon: Weapon | None = None
    defence_dice: int = 0
    version: int = 1
    sample: bool = False


@dataclass(frozen=True)
class Catalog:
    factions: Mapping[str, str]  # slug -> name
    profiles: Mapping[str, Profile]
    items: Mapping[str, Item]


# --- Field descriptions for forms ------------------------------------------------------------

_WEAPONS_HELP = gettext_noop(
    "One weapon per line: Name | NK or FK | A 3 (attack dice) | RW 12 (range in inches, FK "
    "only) | Nachladen schnell or langsam (optional). Example: Armbrust | FK | A 2 | RW 18 | "
    "Nachladen langsam"
)
_REROLL_HELP = gettext_noop(
    "The rolls in which an ability lets this model reroll 1s, separated by commas: attack, "
    "defence, morale, movement."
)

PROFILE_FIELDS: Final = (
    FieldSpec("size", gettext_noop("Size (Größe)"), "choice", choices=SIZE_CHOICES),
    FieldSpec(
        "move", gettext_noop("Move value B (Bewegungswert, inches)"), "int", minimum=0, maximum=24
    ),
    FieldSpec(
        "morale",
        gettext_noop("Morale value (Moralwert)"),
        "int",
        minimum=0,
        maximum=12,
        help=gettext_noop("Added to the round start roll when it is the side's highest."),
    ),
    FieldSpec(
        "morale_dice",
        gettext_noop("Morale dice (Moralwürfel)"),
        "int",
        minimum=0,
        maximum=MAX_DICE,
    ),
    FieldSpec("lp", gettext_noop("Lebenspunkte (LP, life points)"), "int", minimum=1, maximum=30),
    FieldSpec(
        "defence_dice",
        gettext_noop("Defence dice (Rüstung)"),
        "int",
        minimum=0,
        maximum=MAX_DICE,
    ),
    FieldSpec(
        "points",
        gettext_noop("Points"),
        "int",
        minimum=0,
        maximum=1000,
        help=gettext_noop("What the model costs in a team with a points limit."),
    ),
    FieldSpec(
        "weapons", gettext_noop("Weapons (Waffen)"), "weapons", required=False, help=_WEAPONS_HELP
    ),
    FieldSpec(
        "abilities",
        gettext_noop("Abilities (Fähigkeiten)"),
        "abilities",
        required=False,
        help=gettext_noop('One ability per line: "Name: German rule text | English rule text".'),
    ),
    FieldSpec(
        "reroll_ones",
        gettext_noop("Reroll 1s in"),
        "rolls",
        required=False,
        help=_REROLL_HELP,
    ),
    FieldSpec(
        "npc",
        gettext_noop("NPC (non-player character)"),
        "bool",
        required=False,
        default=False,
        help=gettext_noop("Scenarios field NPCs; teams cannot take them."),
    ),
)

ITEM_FIELDS: Final = (
    FieldSpec(
        "text", gettext_noop("Description (Beschreibung)"), "text", required=False, default=""
    ),
    FieldSpec(
        "text_en",
        gettext_noop("Description in English"),
        "text",
        required=False,
        default="",
        help=gettext_noop("Shown instead of the German description in English."),
    ),
    FieldSpec(
        "weapon",
        gettext_noop("Weapon profile"),
        "weapons",
        maximum=1,
        required=False,
        help=_WEAPONS_HELP,
    ),
    FieldSpec(
        "defence_dice",
        gettext_noop("Extra defence dice (armour)"),
        "int",
        minimum=0,
        maximum=MAX_DICE,
        required=False,
        default=0,
    ),
)
_STRUCTURED: Final = frozenset({"weapons", "abilities", "rolls"})


# --- Reading ---------------------------------------------------------------------------------


def _text(
    errors: FieldErrors, value: object, path: str, *, required: bool, forbidden: str = ""
) -> str:
    if not isinstance(value, str):
        errors.add(path, f"must be text, not {value!r}.")
        return ""
    text = value.strip()
    if required and not text:
        errors.add(path, "must not be empty.")
    bad = sorted({char for char in forbidden if char in text})
    if bad:
        errors.add(path, f"must not contain {' or '.join(repr(char) for char in bad)}.")
    return text


def _bool(errors: FieldErrors, value: object, path: str) -> bool:
    if not isinstance(value, bool):
        errors.add(path, f"must be true or false, not {value!r}.")
        return False
    return value


def _choice(errors: FieldErrors, value: object, path: str, allowed: Sequence[str]) -> str:
    if value not in allowed:
        errors.add(path, f"must be one of {', '.join(allowed)}, not {value!r}.")
        return allowed[0]
    assert isinstance(value, str)
    return value


def _object(
    errors: FieldErrors, value: object, path: str, keys: Sequence[str], required: Iterable[str]
) -> Mapping[str, object]:
    if not isinstance(value, Mapping):
        errors.add(path, f"must be an object, not {value!r}.")
        return {}
    for key in value:
        if key not in keys:
            errors.add(field_path(path, str(key)), "unknown field.")
    for key in required:
        if key not in value:
            errors.add(field_path(path, key), "is required.")
    return value


def _list(errors: FieldErrors, value: object, path: str) -> list[object]:
    if not isinstance(value, list | tuple):
        errors.add(path, f"must be a list, not {value!r}.")
        return []
    return list(value)


_WEAPON_KEYS: Final = ("name", "kind", "attack_dice", "range_inches", "reload")


def _weapon(errors: FieldErrors, value: object, path: str) -> Weapon:
    data = _object(errors, value, path, _WEAPON_KEYS, ("name", "kind", "attack_dice"))
    kind = WeaponKind(
        _choice(
            errors,
            data.get("kind", "melee"),
            field_path(path, "kind"),
            [k.value for k in WeaponKind],
        )
    )
    range_inches = read_int(
        errors, data.get("range_inches", 0), field_path(path, "range_inches"), 0, 200
    )
    if kind is WeaponKind.RANGED and range_inches < 1 and "range_inches" in data:
        errors.add(field_path(path, "range_inches"), "a ranged weapon needs a range of at least 1.")
    return Weapon(
        name=_text(
            errors, data.get("name", "?"), field_path(path, "name"), required=True, forbidden="|"
        ),
        kind=kind,
        attack_dice=read_int(
            errors, data.get("attack_dice", 0), field_path(path, "attack_dice"), 0, MAX_DICE
        ),
        range_inches=range_inches,
        reload=Reload(
            _choice(
                errors,
                data.get("reload", "none"),
                field_path(path, "reload"),
                [r.value for r in Reload],
            )
        ),
    )


def _ability(errors: FieldErrors, value: object, path: str) -> Ability:
    data = _object(errors, value, path, ("name", "text", "text_en"), ("name",))
    return Ability(
        name=_text(
            errors, data.get("name", "?"), field_path(path, "name"), required=True, forbidden=":\n"
        ),
        text=_text(
            errors, data.get("text", ""), field_path(path, "text"), required=False, forbidden="\n"
        ),
        text_en=_text(
            errors,
            data.get("text_en", ""),
            field_path(path, "text_en"),
            required=False,
            forbidden="\n",
        ),
    )


def _rolls(errors: FieldErrors, value: object, path: str) -> tuple[RollKind, ...]:
    kinds: list[RollKind] = []
    for index, entry in enumerate(_list(errors, value, path)):
        kind = RollKind(
            _choice(errors, entry, field_path(path, index), [k.value for k in RollKind])
        )
        if kind in kinds:
            errors.add(field_path(path, index), f"{kind.value!r} is listed twice.")
        kinds.append(kind)
    return tuple(kinds)


class _Stats:
    """Reads the ``stats`` keys of ``specs``: unknown and missing required keys are errors,
    missing optional keys take their default."""

    def __init__(self, errors: FieldErrors, stats: object, specs: Sequence[FieldSpec], prefix: str):
        self.errors = errors
        self.prefix = prefix
        self.specs = {spec.name: spec for spec in specs}
        self.data = _object(
            errors,
            stats,
            prefix.removesuffix("."),
            tuple(self.specs),
            [spec.name for spec in specs if spec.required],
        )

    def _get(self, name: str) -> tuple[FieldSpec, str, object, bool]:
        spec = self.specs[name]
        present = name in self.data
        return spec, self.prefix + name, self.data.get(name, spec.default), present

    def integer(self, name: str) -> int:
        spec, path, value, present = self._get(name)
        if not present and spec.required:
            return 0
        return read_int(self.errors, value, path, spec.minimum, spec.maximum)

    def flag(self, name: str) -> bool:
        _spec, path, value, _present = self._get(name)
        return _bool(self.errors, value, path)

    def choice(self, name: str) -> str:
        spec, path, value, present = self._get(name)
        allowed = [key for key, _label in spec.choices]
        if not present and spec.required:
            return allowed[0]
        return _choice(self.errors, value, path, allowed)

    def text(self, name: str) -> str:
        _spec, path, value, _present = self._get(name)
        return _text(self.errors, value, path, required=False)

    def weapons(self, name: str) -> tuple[Weapon, ...]:
        _spec, path, value, present = self._get(name)
        items = _list(self.errors, value if present else [], path)
        return tuple(
            _weapon(self.errors, item, field_path(path, i)) for i, item in enumerate(items)
        )

    def weapon(self, name: str) -> Weapon | None:
        _spec, path, value, _present = self._get(name)
        return None if value is None else _weapon(self.errors, value, path)

    def abilities(self, name: str) -> tuple[Ability, ...]:
        _spec, path, value, present = self._get(name)
        items = _list(self.errors, value if present else [], path)
        return tuple(
            _ability(self.errors, item, field_path(path, i)) for i, item in enumerate(items)
        )

    def rolls(self, name: str) -> tuple[RollKind, ...]:
        _spec, path, value, present = self._get(name)
        return _rolls(self.errors, value if present else [], path)


def _factions(errors: FieldErrors, value: object, path: str) -> tuple[str, ...]:
    slugs: list[str] = []
    items = _list(errors, value, path)
    if not items and isinstance(value, list | tuple):
        errors.add(path, "must name at least one faction.")
    for index, item in enumerate(items):
        slug = _text(errors, item, field_path(path, index), required=True, forbidden=" ")
        if slug in slugs:
            errors.add(field_path(path, index), f"{slug!r} is listed twice.")
        slugs.append(slug)
    return tuple(slugs)


def profile_from_stats(
    *,
    slug: str,
    name: str,
    factions: Sequence[str],
    stats: Mapping[str, object],
    version: int = 1,
    sample: bool = False,
) -> Profile:
    """A profile from its database row; raises ``SchemaError`` listing every problem."""
    errors = FieldErrors()
    reader = _Stats(errors, stats, PROFILE_FIELDS, "")
    profile = Profile(
        slug=_text(errors, slug, "slug", required=True, forbidden=" "),
        name=_text(errors, name, "name", required=True),
        factions=_factions(errors, list(factions), "factions"),
        size=Size(reader.choice("size")),
        move=reader.integer("move"),
        morale=reader.integer("morale"),
        morale_dice=reader.integer("morale_dice"),
        lp=reader.integer("lp"),
        defence_dice=reader.integer("defence_dice"),
        points=reader.integer("points"),
        weapons=reader.weapons("weapons"),
        abilities=reader.abilities("abilities"),
        reroll_ones=reader.rolls("reroll_ones"),
        npc=reader.flag("npc"),
        version=version,
        sample=sample,
    )
    errors.raise_if_any()
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
    """An item from its database row; raises ``SchemaError`` listing every problem."""
    errors = FieldErrors()
    reader = _Stats(errors, stats, ITEM_FIELDS, "")
    item_kind = ItemKind(_choice(errors, kind, "kind", [k.value for k in ItemKind]))
    weapon = reader.weapon("weapon")
    defence = reader.integer("defence_dice")
    if item_kind is ItemKind.WEAPON and weapon is None:
        errors.add("weapon", "a weapon item needs a weapon profile.")
    if item_kind is not ItemKind.WEAPON and weapon is not None:
        errors.add("weapon", "only weapon items carry a weapon profile.")
    if item_kind is ItemKind.ARMOUR and defence < 1:
        errors.add("defence_dice", "armour adds at least 1 defence die.")
    if item_kind is not ItemKind.ARMOUR and defence:
        errors.add("defence_dice", "only armour adds defence dice.")
    item = Item(
        slug=_text(errors, slug, "slug", required=True, forbidden=" "),
        name=_text(errors, name, "name", required=True),
        kind=item_kind,
        cost=read_int(errors, cost, "cost", 0, 1000),
        text=reader.text("text"),
        text_en=reader.text("text_en"),
        weapon=weapon,
        defence_dice=defence,
        version=version,
        sample=sample,
    )
    errors.raise_if_any()
    return item


# --- Writing ---------------------------------------------------------------------------------


def weapon_stats(weapon: Weapon) -> dict[str, object]:
    return {
        "name": weapon.name,
        "kind": weapon.kind.value,
        "attack_dice": weapon.attack_dice,
        "range_inches": weapon.range_inches,
        "reload": weapon.reload.value,
    }


def profile_stats(profile: Profile) -> dict[str, object]:
    """The ``stats`` JSON of a profile: every key of ``PROFILE_FIELDS``, in that order."""
    return {
        "size": profile.size.value,
        "move": profile.move,
        "morale": profile.morale,
        "morale_dice": profile.morale_dice,
        "lp": profile.lp,
        "defence_dice": profile.defence_dice,
        "points": profile.points,
        "weapons": [weapon_stats(weapon) for weapon in profile.weapons],
        "abilities": [
            {"name": a.name, "text": a.text, "text_en": a.text_en} for a in profile.abilities
        ],
        "reroll_ones": [kind.value for kind in profile.reroll_ones],
        "npc": profile.npc,
    }


def item_stats(item: Item) -> dict[str, object]:
    return {
        "text": item.text,
        "text_en": item.text_en,
        "weapon": None if item.weapon is None else weapon_stats(item.weapon),
        "defence_dice": item.defence_dice,
    }


# --- Text formats for the admin's textareas --------------------------------------------------
#
# Weapons, one per line:  Name | NK or FK | A 3 | RW 12 | Nachladen schnell/langsam
# Abilities, one per line: Name: rule text | English rule text
# Rerolls: attack, defence, morale, movement (commas or spaces)

_KINDS: Final[Mapping[str, WeaponKind]] = {
    "NK": WeaponKind.MELEE,
    "M": WeaponKind.MELEE,
    "MELEE": WeaponKind.MELEE,
    "FK": WeaponKind.RANGED,
    "R": WeaponKind.RANGED,
    "RANGED": WeaponKind.RANGED,
}
_RELOADS: Final[Mapping[str, Reload]] = {
    "schnell": Reload.FAST,
    "fast": Reload.FAST,
    "langsam": Reload.SLOW,
    "slow": Reload.SLOW,
}
_VALUE = re.compile(r"(?P<label>A|RW)\s*[:=]?\s*(?P<value>-?\d+)\s*(?:\"|″|zoll)?", re.IGNORECASE)
_RELOAD = re.compile(r"(?:nachladen|reload)\s*[:=]?\s*(?P<speed>\w+)", re.IGNORECASE)


def format_weapon(weapon: Weapon) -> str:
    parts = [weapon.name, "NK" if weapon.melee else "FK", f"A {weapon.attack_dice}"]
    if not weapon.melee:
        parts.append(f"RW {weapon.range_inches}")
    if weapon.reload is not Reload.NONE:
        parts.append("Nachladen " + ("schnell" if weapon.reload is Reload.FAST else "langsam"))
    return " | ".join(parts)


def _parse_weapon_line(errors: FieldErrors, field: str, number: int, line: str) -> Weapon | None:
    name, *parts = [part.strip() for part in line.split("|")]
    if not parts:
        errors.add(field, "expected Name | NK or FK | A 3 | RW 12", number)
        return None
    kind = _KINDS.get(parts[0].upper())
    if kind is None:
        errors.add(field, f"the kind must be NK or FK, not {parts[0]!r}.", number)
        return None
    values: dict[str, int] = {}
    reload = Reload.NONE
    for part in parts[1:]:
        if (value := _VALUE.fullmatch(part)) is not None:
            values[value["label"].upper()] = int(value["value"])
        elif (speed := _RELOAD.fullmatch(part)) is not None and speed["speed"].lower() in _RELOADS:
            reload = _RELOADS[speed["speed"].lower()]
        else:
            errors.add(field, f"cannot read {part!r}.", number)
    if "A" not in values:
        errors.add(field, "missing A (attack dice).", number)
    if kind is WeaponKind.RANGED and "RW" not in values:
        errors.add(field, "a ranged weapon needs RW (range).", number)
    inner = FieldErrors()
    weapon = _weapon(
        inner,
        {
            "name": name,
            "kind": kind.value,
            "attack_dice": values.get("A", 0),
            "range_inches": values.get("RW", 0),
            "reload": reload.value,
        },
        "",
    )
    for error in inner.found:
        errors.add(field, f"{error.field.replace('_', ' ')} {error.message}", number)
    return None if inner.found else weapon


def parse_weapons(text: str, *, field: str = "weapons") -> tuple[Weapon, ...]:
    errors = FieldErrors()
    weapons = tuple(
        weapon
        for number, line in numbered_lines(text)
        if (weapon := _parse_weapon_line(errors, field, number, line)) is not None
    )
    errors.raise_if_any()
    return weapons


def format_field(spec: FieldSpec, value: object) -> object:
    """The textarea text of a structured field's ``stats`` value; plain fields pass through."""
    if spec.type not in _STRUCTURED:
        return value
    errors = FieldErrors()
    text = ""
    if spec.type == "weapons":
        if spec.maximum == 1:
            text = "" if value is None else format_weapon(_weapon(errors, value, spec.name))
        else:
            weapons = _list(errors, [] if value is None else value, spec.name)
            text = "\n".join(
                format_weapon(_weapon(errors, w, field_path(spec.name, i)))
                for i, w in enumerate(weapons)
            )
    elif spec.type == "abilities":
        abilities = _list(errors, [] if value is None else value, spec.name)
        text = "\n".join(
            f"{a.name}: {with_english(a.text, a.text_en)}" if a.text or a.text_en else a.name
            for a in (
                _ability(errors, v, field_path(spec.name, i)) for i, v in enumerate(abilities)
            )
        )
    else:
        text = ", ".join(
            kind.value for kind in _rolls(errors, [] if value is None else value, spec.name)
        )
    errors.raise_if_any()
    return text


def parse_field(spec: FieldSpec, value: object) -> object:
    """The ``stats`` value of a structured field's textarea text (see ``format_field``)."""
    if spec.type not in _STRUCTURED:
        return value
    text = str(value)
    if spec.type == "weapons":
        weapons = parse_weapons(text, field=spec.name)
        if spec.maximum == 1:
            if len(weapons) > 1:
                raise SchemaError([FieldError(spec.name, "at most 1 weapon.")])
            return weapon_stats(weapons[0]) if weapons else None
        return [weapon_stats(weapon) for weapon in weapons]
    if spec.type == "abilities":
        errors = FieldErrors()
        abilities = []
        for number, line in numbered_lines(text):
            name, _sep, rule = line.partition(":")
            if not name.strip():
                errors.add(spec.name, "an ability needs a name before the colon.", number)
            text, text_en = split_english(rule)
            abilities.append({"name": name.strip(), "text": text, "text_en": text_en})
        errors.raise_if_any()
        return abilities
    names = [name for name in re.split(r"[\s,;]+", text.strip()) if name]
    errors = FieldErrors()
    _rolls(errors, names, spec.name)
    errors.raise_if_any()
    return names
