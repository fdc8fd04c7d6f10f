"""The Deathmatch catalogue: fighter profiles, equipment cards and factions (SPEC §1.1).

The database keeps a few columns per entry (slug, name, factions, kind, cost, version, sample)
and everything else in a JSON column ``stats``. This module owns that JSON: ``profile_from_stats``
and ``item_from_stats`` check it and build the frozen dataclasses the rules work with,
``profile_stats`` and ``item_stats`` write it back (the round trip is exact), and
``PROFILE_FIELDS`` / ``ITEM_FIELDS`` describe every key so that the admin can offer one input per
field. The structured fields (weapons, abilities, special action, red values) also have a one
line per entry text format for a textarea (``format_weapons`` / ``parse_weapons`` ...).

Bad data raises ``SchemaError`` listing every problem at once, each with a dotted path
("weapons.1.strength"), so an organiser fixes a card in one go instead of one error at a time.

Strings are stripped when read, so a profile read from stats writes back the same stats and a
profile written out reads back equal; the characters that separate the text formats ("|", ";",
":" in ability names, line breaks) are refused where they would break those formats.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import partial
from typing import Final, TypeVar

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

_T = TypeVar("_T")


class Rank(StrEnum):
    LEADER = "leader"
    TROOPER = "trooper"
    SPECIALIST = "specialist"


# The order in which the rulebook picks a team (Anführer, Trooper, Spezialisten).
RANK_ORDER: Final = (Rank.LEADER, Rank.TROOPER, Rank.SPECIALIST)


class Movement(StrEnum):
    NORMAL = "normal"
    SLOW = "slow"
    FAST = "fast"


MOVE_INCHES: Final[Mapping[Movement, int]] = {
    Movement.NORMAL: 5,
    Movement.SLOW: 4,
    Movement.FAST: 6,
}


class WeaponKind(StrEnum):
    RANGED = "ranged"
    MELEE = "melee"


class ItemKind(StrEnum):
    WEAPON = "weapon"
    ARMOUR_UPGRADE = "armour_upgrade"
    CHARACTER_UPGRADE = "character_upgrade"
    GEAR = "gear"
    RESPAWN_FOCUS = "respawn_focus"


RANK_CHOICES: Final = (
    (Rank.LEADER.value, gettext_noop("Leader (Anführer)")),
    (Rank.TROOPER.value, gettext_noop("Trooper")),
    (Rank.SPECIALIST.value, gettext_noop("Specialist (Spezialist)")),
)
MOVEMENT_CHOICES: Final = (
    (Movement.NORMAL.value, gettext_noop('Normal (5")')),
    (Movement.SLOW.value, gettext_noop('Slow, Langsam (4")')),
    (Movement.FAST.value, gettext_noop('Fast, Schnell (6")')),
)
ITEM_KIND_CHOICES: Final = (
    (ItemKind.WEAPON.value, gettext_noop("Weapon (Waffe)")),
    (ItemKind.ARMOUR_UPGRADE.value, gettext_noop("Armour upgrade (Rüstungsupgrade)")),
    (ItemKind.CHARACTER_UPGRADE.value, gettext_noop("Character upgrade (Charakter-Upgrade)")),
    (ItemKind.GEAR.value, gettext_noop("Gear (Ausrüstung)")),
    (ItemKind.RESPAWN_FOCUS.value, gettext_noop("Respawn-Fokus")),
)
WEAPON_KIND_SYMBOLS: Final[Mapping[WeaponKind, str]] = {
    WeaponKind.RANGED: "P",
    WeaponKind.MELEE: "M",
}
# A hit flip can be boosted at most twice (⬠⬠), see core.deck.MAX_MODIFIER.
MAX_BONUS_CARDS: Final = 2
RED_REFLEX: Final = "reflex"
RED_WEAPON_PREFIX: Final = "weapon:"
MECH_ABILITY: Final = "Mech"


@dataclass(frozen=True)
class Weapon:
    """A weapon profile. ``paired`` is PP/MM (paired or two-handed); the boosted hit flip that
    brings is already counted in ``bonus_cards``. ``combat_value`` is FK (ranged) or NK (melee)."""

    name: str
    kind: WeaponKind
    paired: bool
    range_inches: int
    combat_value: int
    bonus_cards: int
    strength: int
    special_rules: tuple[str, ...] = ()

    @property
    def symbol(self) -> str:
        """P, PP, M or MM as printed after the weapon's name."""
        single = WEAPON_KIND_SYMBOLS[self.kind]
        return single * 2 if self.paired else single

    @property
    def combat_label(self) -> str:
        return "FK" if self.kind is WeaponKind.RANGED else "NK"


# Every fighter without a melee weapon carries one (rulebook "Kampfmesser"): RW 0", NK 1 ⬠⬠, S 0.
KAMPFMESSER: Final = Weapon(
    name="Kampfmesser",
    kind=WeaponKind.MELEE,
    paired=False,
    range_inches=0,
    combat_value=1,
    bonus_cards=2,
    strength=0,
)


@dataclass(frozen=True)
class Ability:
    """A rule of a profile card: ``text`` is the German original, ``text_en`` its English
    version (``apps.systems.core.i18n.localized_stats`` picks one for the reader)."""

    name: str
    text: str = ""
    text_en: str = ""


@dataclass(frozen=True)
class SpecialAction:
    """An extra action granted by a card, costing ``ap`` action points."""

    name: str
    ap: int
    text: str = ""
    text_en: str = ""


@dataclass(frozen=True)
class FighterProfile:
    """A fighter's profile card.

    ``red_values`` names the combat values printed red (lowered by respawn shock): "reflex" or
    "weapon:<index>" for the FK/NK of ``weapons[index]``. ``version`` is the catalogue's own
    revision counter; ``printed_version`` is what the card says ("V1.1"), if known.
    """

    slug: str
    name: str
    factions: tuple[str, ...]
    rank: Rank
    arp: int
    command: int
    reflex: int
    resistance: int
    lp: int
    respawner: bool = True
    movement: Movement = Movement.NORMAL
    abilities: tuple[Ability, ...] = ()
    weapons: tuple[Weapon, ...] = ()
    hero: bool = False
    mech: bool = False
    red_values: tuple[str, ...] = ()
    version: int = 1
    sample: bool = False
    printed_version: str = ""

    def __post_init__(self) -> None:
        # The Mech ability is what the rules look at (respawn shock, Last Man Standing ARP);
        # keeping the flag in step here means no caller has to check both.
        if not self.mech and any(_is_mech(ability) for ability in self.abilities):
            object.__setattr__(self, "mech", True)

    @property
    def move_inches(self) -> int:
        return MOVE_INCHES[self.movement]

    @property
    def melee_weapons_or_knife(self) -> tuple[Weapon, ...]:
        """The weapons the fighter fights with: its own, plus the Kampfmesser if none of them
        is a melee weapon."""
        if any(weapon.kind is WeaponKind.MELEE for weapon in self.weapons):
            return self.weapons
        return (*self.weapons, KAMPFMESSER)


def _is_mech(ability: Ability) -> bool:
    return ability.name.strip().casefold() == MECH_ABILITY.casefold()


@dataclass(frozen=True)
class EquipmentCard:
    """An equipment card bought with ARP. ``weapon`` is the profile of a weapon card;
    ``printed_version`` is what the card says ("V1.1"), ``version`` the catalogue's counter."""

    slug: str
    name: str
    cost: int
    limit_per_model: int
    kind: ItemKind
    text: str = ""
    text_en: str = ""
    usage_limit: str = ""
    usage_limit_en: str = ""
    special_action: SpecialAction | None = None
    weapon: Weapon | None = None
    version: int = 1
    sample: bool = False
    printed_version: str = ""

    @property
    def character_upgrade(self) -> bool:
        return self.kind is ItemKind.CHARACTER_UPGRADE


@dataclass(frozen=True)
class Faction:
    slug: str
    name: str
    sample: bool = False


@dataclass(frozen=True)
class Catalog:
    """Everything a team can be built from. Treat the mappings as read-only."""

    factions: tuple[Faction, ...]
    profiles: Mapping[str, FighterProfile]
    items: Mapping[str, EquipmentCard]

    @classmethod
    def build(
        cls,
        factions: Iterable[Faction],
        profiles: Iterable[FighterProfile] = (),
        items: Iterable[EquipmentCard] = (),
    ) -> Catalog:
        """A catalogue keyed by slug, in the order given."""
        return cls(
            factions=tuple(factions),
            profiles={profile.slug: profile for profile in profiles},
            items={item.slug: item for item in items},
        )

    def faction_slugs(self) -> tuple[str, ...]:
        return tuple(faction.slug for faction in self.factions)

    def faction(self, slug: str) -> Faction | None:
        return next((faction for faction in self.factions if faction.slug == slug), None)


# --- Errors ----------------------------------------------------------------------------------


# --- Field descriptions for forms ------------------------------------------------------------


class FieldType(StrEnum):
    INT = "int"
    BOOL = "bool"
    CHOICE = "choice"
    TEXT = "text"
    WEAPONS = "weapons"
    ABILITIES = "abilities"
    SPECIAL_ACTION = "special_action"
    RED_VALUES = "red_values"


_WEAPONS_HELP = gettext_noop(
    "One weapon per line: Name | P, PP, M or MM | RW 0 | FK 3 or NK 3 | ⬠ 0-2 | S 3 | "
    'special rules separated by ";". PP/MM: paired or two-handed, whose boosted hit flip '
    "is already in ⬠. Example: Sigma Edge | M | RW 0 | NK 4 | ⬠ 1 | S 3 | Handwaffe; Schock"
)

PROFILE_FIELDS: Final = (
    FieldSpec("rank", gettext_noop("Rank (Rang)"), FieldType.CHOICE, choices=RANK_CHOICES),
    FieldSpec(
        "arp",
        gettext_noop("Equipment points (ARP)"),
        FieldType.INT,
        minimum=0,
        help=gettext_noop("What the fighter adds to the team's equipment pool."),
    ),
    FieldSpec(
        "command",
        gettext_noop("Command points (◆)"),
        FieldType.INT,
        minimum=0,
        help=gettext_noop("What the fighter adds to the command pool every round."),
    ),
    FieldSpec("reflex", gettext_noop("Reflex"), FieldType.INT, minimum=0),
    FieldSpec("resistance", gettext_noop("Widerstand (Resistance)"), FieldType.INT, minimum=0),
    FieldSpec("lp", gettext_noop("Lebenspunkte (LP, life points)"), FieldType.INT, minimum=1),
    FieldSpec(
        "respawner",
        gettext_noop("Respawner"),
        FieldType.BOOL,
        required=False,
        default=True,
        help=gettext_noop("The fighter can respawn once."),
    ),
    FieldSpec(
        "movement",
        gettext_noop("Movement (Bewegung)"),
        FieldType.CHOICE,
        choices=MOVEMENT_CHOICES,
        default=Movement.NORMAL.value,
    ),
    FieldSpec(
        "abilities",
        gettext_noop("Abilities (Fähigkeiten)"),
        FieldType.ABILITIES,
        required=False,
        help=gettext_noop(
            'One ability per line: "Name: rule text | English rule text", or just the name '
            "for a rule of the rulebook (Mech, Stationär, Zäh, Schnell, Flieger, ...)."
        ),
    ),
    FieldSpec(
        "weapons",
        gettext_noop("Weapons (Waffen)"),
        FieldType.WEAPONS,
        required=False,
        help=_WEAPONS_HELP,
    ),
    FieldSpec(
        "hero",
        gettext_noop("Hero (Held)"),
        FieldType.BOOL,
        required=False,
        default=False,
        help=gettext_noop("At most once per team; takes no character upgrades."),
    ),
    FieldSpec(
        "mech",
        gettext_noop("Mech"),
        FieldType.BOOL,
        required=False,
        default=False,
        help=gettext_noop(
            "Ignores respawn shock; set automatically when an ability is called Mech."
        ),
    ),
    FieldSpec(
        "red_values",
        gettext_noop("Red values (respawn shock)"),
        FieldType.RED_VALUES,
        required=False,
        help=gettext_noop(
            'Combat values printed red, separated by commas: "weapon:0" for the FK/NK of the '
            "first weapon, weapon:1 for the second, ... Respawn shock lowers Reflex on every "
            'card without Mech, so the printed card marks it red anyway ("reflex" may be listed).'
        ),
    ),
    FieldSpec(
        "printed_version",
        gettext_noop("Printed card version"),
        FieldType.TEXT,
        required=False,
        default="",
        help=gettext_noop('As printed on the card, e.g. "V1.1".'),
    ),
)

ITEM_FIELDS: Final = (
    FieldSpec(
        "limit_per_model",
        gettext_noop("Limit per model (Limit/Modell)"),
        FieldType.INT,
        minimum=1,
    ),
    FieldSpec(
        "text",
        gettext_noop("Description (Beschreibung)"),
        FieldType.TEXT,
        required=False,
        default="",
    ),
    FieldSpec(
        "text_en",
        gettext_noop("Description in English"),
        FieldType.TEXT,
        required=False,
        default="",
        help=gettext_noop("Shown instead of the German description in English."),
    ),
    FieldSpec(
        "usage_limit",
        gettext_noop("Usage limit (Limitierung der Anwendung)"),
        FieldType.TEXT,
        required=False,
        default="",
        help=gettext_noop('E.g. "Einmal pro Aktivierung verwendbar."'),
    ),
    FieldSpec(
        "usage_limit_en",
        gettext_noop("Usage limit in English"),
        FieldType.TEXT,
        required=False,
        default="",
        help=gettext_noop('E.g. "Usable once per activation."'),
    ),
    FieldSpec(
        "special_action",
        gettext_noop("Special action"),
        FieldType.SPECIAL_ACTION,
        required=False,
        help=gettext_noop(
            'One line: Name | AP | German rule text | English rule text, e.g. "Sprung | 1 | ..."'
        ),
    ),
    FieldSpec(
        "weapon",
        gettext_noop("Weapon profile"),
        FieldType.WEAPONS,
        maximum=1,
        required=False,
        help=_WEAPONS_HELP,
    ),
    FieldSpec(
        "printed_version",
        gettext_noop("Printed card version"),
        FieldType.TEXT,
        required=False,
        default="",
        help=gettext_noop('As printed on the card, e.g. "V1.1".'),
    ),
)

_WEAPON_KEYS: Final = (
    "name",
    "kind",
    "paired",
    "range_inches",
    "combat_value",
    "bonus_cards",
    "strength",
    "special_rules",
)
_WEAPON_REQUIRED: Final = frozenset({"name", "kind", "range_inches", "combat_value", "strength"})


# --- Reading raw values ----------------------------------------------------------------------


def _read_bool(errors: FieldErrors, value: object, path: str) -> bool:
    if not isinstance(value, bool):
        errors.add(path, f"must be true or false, not {value!r}.")
        return False
    return value


def _read_text(
    errors: FieldErrors,
    value: object,
    path: str,
    *,
    required: bool = True,
    multiline: bool = False,
    forbidden: str = "",
) -> str:
    """A stripped string; ``forbidden`` characters would break one of the text formats."""
    if not isinstance(value, str):
        errors.add(path, f"must be text, not {value!r}.")
        return ""
    text = value.strip()
    if required and not text:
        errors.add(path, "must not be empty.")
    if not multiline and ("\n" in text or "\r" in text):
        errors.add(path, "must be a single line.")
    bad = sorted({char for char in forbidden if char in text})
    if bad:
        errors.add(path, f"must not contain {' or '.join(repr(char) for char in bad)}.")
    return text


def _read_choice(
    errors: FieldErrors, value: object, path: str, choices: Iterable[tuple[str, str]]
) -> str:
    allowed = [key for key, _ in choices]
    if value not in allowed:
        errors.add(path, f"must be one of {', '.join(allowed)}, not {value!r}.")
        return allowed[0]
    assert isinstance(value, str)
    return value


def _read_object(
    errors: FieldErrors,
    value: object,
    path: str,
    keys: Sequence[str],
    required: Iterable[str],
) -> Mapping[str, object] | None:
    """``value`` as a mapping with only ``keys``; every unknown or missing key is reported."""
    if not isinstance(value, Mapping):
        errors.add(path, f"must be an object, not {value!r}.")
        return None
    for key in value:
        if key not in keys:
            errors.add(field_path(path, str(key)), "unknown field.")
    for key in required:
        if key not in value:
            errors.add(field_path(path, key), "is required.")
    return value


def _read_list(errors: FieldErrors, value: object, path: str) -> list[object]:
    if not isinstance(value, list | tuple):
        errors.add(path, f"must be a list, not {value!r}.")
        return []
    return list(value)


def _read_weapon(errors: FieldErrors, value: object, path: str) -> Weapon:
    data = _read_object(errors, value, path, _WEAPON_KEYS, _WEAPON_REQUIRED) or {}
    kind = _read_choice(
        errors,
        data.get("kind", WeaponKind.RANGED.value),
        field_path(path, "kind"),
        [(kind.value, kind.value) for kind in WeaponKind],
    )
    rules = tuple(
        _read_text(
            errors, rule, field_path(field_path(path, "special_rules"), index), forbidden="|;"
        )
        for index, rule in enumerate(
            _read_list(errors, data.get("special_rules", []), field_path(path, "special_rules"))
        )
    )
    return Weapon(
        name=_read_text(errors, data.get("name", "?"), field_path(path, "name"), forbidden="|"),
        kind=WeaponKind(kind),
        paired=_read_bool(errors, data.get("paired", False), field_path(path, "paired")),
        range_inches=read_int(
            errors, data.get("range_inches", 0), field_path(path, "range_inches"), 0, None
        ),
        combat_value=read_int(
            errors, data.get("combat_value", 0), field_path(path, "combat_value"), 0, None
        ),
        bonus_cards=read_int(
            errors, data.get("bonus_cards", 0), field_path(path, "bonus_cards"), 0, MAX_BONUS_CARDS
        ),
        strength=read_int(errors, data.get("strength", 0), field_path(path, "strength"), 0, None),
        special_rules=rules,
    )


def _read_weapons(
    errors: FieldErrors, value: object, path: str, maximum: int | None
) -> tuple[Weapon, ...]:
    items = _read_list(errors, value, path)
    if maximum is not None and len(items) > maximum:
        errors.add(path, f"at most {maximum} weapons, not {len(items)}.")
    return tuple(
        _read_weapon(errors, item, field_path(path, index)) for index, item in enumerate(items)
    )


def _read_ability(errors: FieldErrors, value: object, path: str) -> Ability:
    data = _read_object(errors, value, path, ("name", "text", "text_en"), ("name",)) or {}
    return Ability(
        name=_read_text(errors, data.get("name", "?"), field_path(path, "name"), forbidden=":"),
        text=_read_text(errors, data.get("text", ""), field_path(path, "text"), required=False),
        text_en=_read_text(
            errors, data.get("text_en", ""), field_path(path, "text_en"), required=False
        ),
    )


def _read_abilities(errors: FieldErrors, value: object, path: str) -> tuple[Ability, ...]:
    return tuple(
        _read_ability(errors, item, field_path(path, index))
        for index, item in enumerate(_read_list(errors, value, path))
    )


def _read_special_action(errors: FieldErrors, value: object, path: str) -> SpecialAction | None:
    if value is None:
        return None
    data = (
        _read_object(errors, value, path, ("name", "ap", "text", "text_en"), ("name", "ap")) or {}
    )
    return SpecialAction(
        name=_read_text(errors, data.get("name", "?"), field_path(path, "name"), forbidden="|"),
        ap=read_int(errors, data.get("ap", 0), field_path(path, "ap"), 0, None),
        text=_read_text(errors, data.get("text", ""), field_path(path, "text"), required=False),
        text_en=_read_text(
            errors, data.get("text_en", ""), field_path(path, "text_en"), required=False
        ),
    )


def _read_red_values(
    errors: FieldErrors, value: object, path: str, weapon_count: int
) -> tuple[str, ...]:
    names: list[str] = []
    for index, item in enumerate(_read_list(errors, value, path)):
        item_path = field_path(path, index)
        if not isinstance(item, str):
            errors.add(item_path, f"must be text, not {item!r}.")
            continue
        if item in names:
            errors.add(item_path, f"{item!r} is listed twice.")
        elif item != RED_REFLEX and _red_weapon_index(item) not in range(weapon_count):
            errors.add(
                item_path,
                f'must be "reflex" or "weapon:N" with N a weapon of this profile '
                f"(0 to {weapon_count - 1}), not {item!r}.",
            )
        names.append(item)
    return tuple(names)


def _red_weapon_index(name: str) -> int | None:
    if not name.startswith(RED_WEAPON_PREFIX):
        return None
    number = name.removeprefix(RED_WEAPON_PREFIX)
    # Only the canonical spelling ("weapon:2", not "weapon:02") so that names compare equal.
    return int(number) if number.isdigit() and str(int(number)) == number else None


class _StatsReader:
    """Reads the ``stats`` keys described by ``specs``: unknown keys and missing required keys
    are errors, missing optional keys take their default."""

    def __init__(
        self, errors: FieldErrors, stats: object, specs: Sequence[FieldSpec], prefix: str
    ) -> None:
        self.errors = errors
        self.prefix = prefix
        self.specs = {spec.name: spec for spec in specs}
        data = _read_object(
            errors,
            stats,
            prefix.removesuffix("."),
            tuple(self.specs),
            (spec.name for spec in specs if spec.required),
        )
        self.data: Mapping[str, object] = data or {}

    def _raw(self, name: str) -> tuple[FieldSpec, str, object] | None:
        """The spec, path and value of ``name``; None for a missing required key (already
        reported), the default for a missing optional one."""
        spec = self.specs[name]
        if name in self.data:
            return spec, self.prefix + name, self.data[name]
        if spec.required:
            return None
        if spec.type == FieldType.WEAPONS:
            default: object = None if spec.maximum == 1 else []
        elif spec.type in (FieldType.ABILITIES, FieldType.RED_VALUES):
            default = []
        else:
            default = spec.default
        return spec, self.prefix + name, default

    def integer(self, name: str) -> int:
        if (found := self._raw(name)) is None:
            return 0
        spec, path, value = found
        return read_int(self.errors, value, path, spec.minimum, spec.maximum)

    def flag(self, name: str) -> bool:
        if (found := self._raw(name)) is None:
            return False
        _, path, value = found
        return _read_bool(self.errors, value, path)

    def choice(self, name: str) -> str:
        if (found := self._raw(name)) is None:
            return self.specs[name].choices[0][0]
        spec, path, value = found
        return _read_choice(self.errors, value, path, spec.choices)

    def text(self, name: str) -> str:
        if (found := self._raw(name)) is None:
            return ""
        spec, path, value = found
        return _read_text(self.errors, value, path, required=spec.required, multiline=True)

    def weapons(self, name: str) -> tuple[Weapon, ...]:
        if (found := self._raw(name)) is None:
            return ()
        spec, path, value = found
        return _read_weapons(self.errors, value, path, spec.maximum)

    def weapon(self, name: str) -> Weapon | None:
        if (found := self._raw(name)) is None:
            return None
        _, path, value = found
        return None if value is None else _read_weapon(self.errors, value, path)

    def abilities(self, name: str) -> tuple[Ability, ...]:
        if (found := self._raw(name)) is None:
            return ()
        _, path, value = found
        return _read_abilities(self.errors, value, path)

    def special_action(self, name: str) -> SpecialAction | None:
        if (found := self._raw(name)) is None:
            return None
        _, path, value = found
        return _read_special_action(self.errors, value, path)

    def red_values(self, name: str, weapon_count: int) -> tuple[str, ...]:
        if (found := self._raw(name)) is None:
            return ()
        _, path, value = found
        return _read_red_values(self.errors, value, path, weapon_count)


def _read_slugs(errors: FieldErrors, value: object, path: str) -> tuple[str, ...]:
    slugs: list[str] = []
    items = _read_list(errors, value, path)
    if not items and isinstance(value, list | tuple):
        errors.add(path, "must name at least one faction.")
    for index, item in enumerate(items):
        slug = _read_text(errors, item, field_path(path, index), forbidden=" ")
        if slug in slugs:
            errors.add(field_path(path, index), f"{slug!r} is listed twice.")
        slugs.append(slug)
    return tuple(slugs)


def _read_profile(
    errors: FieldErrors,
    prefix: str,
    *,
    slug: object,
    name: object,
    factions: object,
    stats: object,
    version: object,
    sample: object,
) -> FighterProfile:
    stats_prefix = f"{prefix}stats." if prefix else ""
    reader = _StatsReader(errors, stats, PROFILE_FIELDS, stats_prefix)
    weapons = reader.weapons("weapons")
    return FighterProfile(
        slug=_read_text(errors, slug, prefix + "slug", forbidden=" "),
        name=_read_text(errors, name, prefix + "name"),
        factions=_read_slugs(errors, factions, prefix + "factions"),
        rank=Rank(reader.choice("rank")),
        arp=reader.integer("arp"),
        command=reader.integer("command"),
        reflex=reader.integer("reflex"),
        resistance=reader.integer("resistance"),
        lp=reader.integer("lp"),
        respawner=reader.flag("respawner"),
        movement=Movement(reader.choice("movement")),
        abilities=reader.abilities("abilities"),
        weapons=weapons,
        hero=reader.flag("hero"),
        mech=reader.flag("mech"),
        red_values=reader.red_values("red_values", len(weapons)),
        version=read_int(errors, version, prefix + "version", 1, None),
        sample=_read_bool(errors, sample, prefix + "sample"),
        printed_version=reader.text("printed_version"),
    )


def _read_item(
    errors: FieldErrors,
    prefix: str,
    *,
    slug: object,
    name: object,
    kind: object,
    cost: object,
    stats: object,
    version: object,
    sample: object,
) -> EquipmentCard:
    stats_prefix = f"{prefix}stats." if prefix else ""
    reader = _StatsReader(errors, stats, ITEM_FIELDS, stats_prefix)
    item_kind = ItemKind(_read_choice(errors, kind, prefix + "kind", ITEM_KIND_CHOICES))
    weapon = reader.weapon("weapon")
    # A kind that could not be read is reported as such, not also as a weapon card.
    kind_read = prefix + "kind" not in {error.field for error in errors.found}
    if item_kind is ItemKind.WEAPON and weapon is None and kind_read:
        errors.add(stats_prefix + "weapon", "a weapon card needs a weapon profile.")
    return EquipmentCard(
        slug=_read_text(errors, slug, prefix + "slug", forbidden=" "),
        name=_read_text(errors, name, prefix + "name"),
        cost=read_int(errors, cost, prefix + "cost", 0, None),
        limit_per_model=reader.integer("limit_per_model"),
        kind=item_kind,
        text=reader.text("text"),
        text_en=reader.text("text_en"),
        usage_limit=reader.text("usage_limit"),
        usage_limit_en=reader.text("usage_limit_en"),
        special_action=reader.special_action("special_action"),
        weapon=weapon,
        version=read_int(errors, version, prefix + "version", 1, None),
        sample=_read_bool(errors, sample, prefix + "sample"),
        printed_version=reader.text("printed_version"),
    )


# --- Stats: the JSON column ------------------------------------------------------------------


def profile_from_stats(
    *,
    slug: str,
    name: str,
    factions: Sequence[str],
    stats: Mapping[str, object],
    version: int,
    sample: bool,
) -> FighterProfile:
    """Build a profile from its database row; raises ``SchemaError`` listing every problem."""
    errors = FieldErrors()
    profile = _read_profile(
        errors,
        "",
        slug=slug,
        name=name,
        factions=factions,
        stats=stats,
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
    version: int,
    sample: bool,
) -> EquipmentCard:
    """Build an equipment card from its database row; raises ``SchemaError`` listing every
    problem."""
    errors = FieldErrors()
    item = _read_item(
        errors,
        "",
        slug=slug,
        name=name,
        kind=kind,
        cost=cost,
        stats=stats,
        version=version,
        sample=sample,
    )
    errors.raise_if_any()
    return item


def weapon_stats(weapon: Weapon) -> dict[str, object]:
    return {
        "name": weapon.name,
        "kind": weapon.kind.value,
        "paired": weapon.paired,
        "range_inches": weapon.range_inches,
        "combat_value": weapon.combat_value,
        "bonus_cards": weapon.bonus_cards,
        "strength": weapon.strength,
        "special_rules": list(weapon.special_rules),
    }


def _ability_stats(ability: Ability) -> dict[str, object]:
    return {"name": ability.name, "text": ability.text, "text_en": ability.text_en}


def _special_action_stats(action: SpecialAction | None) -> dict[str, object] | None:
    if action is None:
        return None
    return {"name": action.name, "ap": action.ap, "text": action.text, "text_en": action.text_en}


def profile_stats(profile: FighterProfile) -> dict[str, object]:
    """The ``stats`` JSON of a profile: every key of ``PROFILE_FIELDS``, in that order."""
    return {
        "rank": profile.rank.value,
        "arp": profile.arp,
        "command": profile.command,
        "reflex": profile.reflex,
        "resistance": profile.resistance,
        "lp": profile.lp,
        "respawner": profile.respawner,
        "movement": profile.movement.value,
        "abilities": [_ability_stats(ability) for ability in profile.abilities],
        "weapons": [weapon_stats(weapon) for weapon in profile.weapons],
        "hero": profile.hero,
        "mech": profile.mech,
        "red_values": list(profile.red_values),
        "printed_version": profile.printed_version,
    }


def item_stats(item: EquipmentCard) -> dict[str, object]:
    """The ``stats`` JSON of an equipment card: every key of ``ITEM_FIELDS``, in that order."""
    return {
        "limit_per_model": item.limit_per_model,
        "text": item.text,
        "text_en": item.text_en,
        "usage_limit": item.usage_limit,
        "usage_limit_en": item.usage_limit_en,
        "special_action": _special_action_stats(item.special_action),
        "weapon": None if item.weapon is None else weapon_stats(item.weapon),
        "printed_version": item.printed_version,
    }


# --- Text formats for textareas --------------------------------------------------------------
#
# Weapons, one per line:  Name | P/PP/M/MM | RW 0 | FK 3 or NK 3 | ⬠ 1 | S 3 | Rule; Rule
#   After name and kind the parts may come in any order. RW, FK/NK and S are required, ⬠ is 0
#   when left out (also written "⬠⬠", "B 2" or "Bonus 2"), a colon or inch mark after a label or
#   number is ignored ("RW: 12\""), and the one part that is not a value holds the special
#   rules ("-" for none).
# Abilities, one per line:  Name: rule text | English rule text   (or just Name)
# Special action, one line: Name | AP | rule text | English rule text   ("1 AP" is fine too)
# Red values: reflex, weapon:0, ...   (commas or spaces)
# Blank lines are ignored everywhere.

_WEAPON_KINDS: Final[Mapping[str, tuple[WeaponKind, bool]]] = {
    "P": (WeaponKind.RANGED, False),
    "PP": (WeaponKind.RANGED, True),
    "M": (WeaponKind.MELEE, False),
    "MM": (WeaponKind.MELEE, True),
}
_STAT_PART = re.compile(
    r"(?P<label>RW|FK|NK|S|B|BONUS|⬠)\s*[:=]?\s*(?P<value>-?\d+)\s*(?:\"|″|''|”|“|zoll)?",
    re.IGNORECASE,
)
_BONUS_SYMBOLS = re.compile(r"⬠+")
_AP_PART = re.compile(r"(?P<value>-?\d+)\s*(?:AP)?", re.IGNORECASE)
_NO_RULES: Final = frozenset({"-", "–", "—"})


def format_weapons(weapons: Iterable[Weapon]) -> str:
    return "\n".join(_format_weapon(weapon) for weapon in weapons)


def _format_weapon(weapon: Weapon) -> str:
    parts = [
        weapon.name,
        weapon.symbol,
        f"RW {weapon.range_inches}",
        f"{weapon.combat_label} {weapon.combat_value}",
        f"⬠ {weapon.bonus_cards}",
        f"S {weapon.strength}",
    ]
    if weapon.special_rules:
        parts.append("; ".join(weapon.special_rules))
    return " | ".join(parts)


def parse_weapons(text: str, *, field: str = "weapons") -> tuple[Weapon, ...]:
    """Weapons from the text format (see above); raises ``SchemaError`` naming every bad
    line of ``field``."""
    errors = FieldErrors()
    weapons = tuple(
        weapon
        for number, line in numbered_lines(text)
        if (weapon := _parse_weapon_line(errors, field, number, line)) is not None
    )
    errors.raise_if_any()
    return weapons


@dataclass(frozen=True)
class _LineErrors:
    """Reports problems against one line of a textarea field."""

    errors: FieldErrors
    field: str
    number: int

    def add(self, message: str) -> None:
        self.errors.add(self.field, message, self.number)


def _parse_weapon_line(errors: FieldErrors, field: str, number: int, line: str) -> Weapon | None:
    line_errors = _LineErrors(errors, field, number)
    parts = [part.strip() for part in line.split("|")]
    if len(parts) < 2:
        line_errors.add("expected Name | P/PP/M/MM | RW .. | FK/NK .. | S ..")
        return None
    name, kind_symbol, *rest = parts
    kind_paired = _WEAPON_KINDS.get(kind_symbol.upper())
    if kind_paired is None:
        line_errors.add(f"the kind must be P, PP, M or MM, not {kind_symbol!r}.")
    # An unknown kind is reported once; the line is still read for its other problems.
    kind, paired = kind_paired or (WeaponKind.RANGED, False)
    values, rules = _weapon_parts(line_errors, rest, kind_symbol, kind_paired)
    labels = (("RW", "RW"), ("CV", "FK/NK"), ("S", "S"))
    missing = [label for key, label in labels if key not in values]
    if missing:
        line_errors.add(f"missing {', '.join(missing)}.")
    data: dict[str, object] = {
        "name": name,
        "kind": kind.value,
        "paired": paired,
        "range_inches": values.get("RW", 0),
        "combat_value": values.get("CV", 0),
        "bonus_cards": values.get("B", 0),
        "strength": values.get("S", 0),
        "special_rules": [rule for rule in rules if rule],
    }
    return _checked_line(errors, field, number, lambda inner: _read_weapon(inner, data, ""))


def _weapon_parts(
    errors: _LineErrors,
    parts: Sequence[str],
    kind_symbol: str,
    kind_paired: tuple[WeaponKind, bool] | None,
) -> tuple[dict[str, int], list[str]]:
    """The values of a weapon line after name and kind, by label ("CV" for FK/NK, "B" for ⬠),
    and its special rules: the one part that is no value."""
    values: dict[str, int] = {}
    rules: list[str] | None = None
    for part in parts:
        label, value = _weapon_value(part)
        if label is None:
            if rules is not None:
                errors.add(f"cannot read {part!r} (special rules are given once).")
            rules = [] if part in _NO_RULES else [rule.strip() for rule in part.split(";")]
            continue
        if label in ("FK", "NK"):
            _check_combat_label(errors, label, kind_symbol, kind_paired)
            label = "CV"
        if label in values:
            errors.add(f"{part!r} repeats a value given before.")
        values[label] = value
    return values, rules or []


def _check_combat_label(
    errors: _LineErrors, label: str, kind_symbol: str, kind_paired: tuple[WeaponKind, bool] | None
) -> None:
    """A ranged weapon has FK, a melee weapon NK (not checked when the kind is unknown)."""
    if kind_paired is None:
        return
    expected = "FK" if kind_paired[0] is WeaponKind.RANGED else "NK"
    if label != expected:
        errors.add(f"{kind_symbol} weapons have {expected}, not {label}.")


def _weapon_value(part: str) -> tuple[str | None, int]:
    if _BONUS_SYMBOLS.fullmatch(part):
        return "B", len(part)
    match = _STAT_PART.fullmatch(part)
    if match is None:
        return None, 0
    label = match["label"].upper()
    return ("B" if label in ("B", "BONUS", "⬠") else label), int(match["value"])


# How the text formats call the keys that a line's values end up in.
_LINE_LABELS: Final[Mapping[str, str]] = {
    "range_inches": "RW",
    "combat_value": "FK/NK",
    "bonus_cards": "⬠",
    "strength": "S",
    "ap": "AP",
}


def _checked_line(
    errors: FieldErrors, field: str, number: int, read: Callable[[FieldErrors], _T]
) -> _T | None:
    """Run a stats reader on one parsed line and report its problems against that line."""
    inner = FieldErrors()
    value = read(inner)
    for error in inner.found:
        key = error.field.split(".")[0]
        label = _LINE_LABELS.get(key, error.field.replace("_", " "))
        errors.add(field, f"{label} {error.message}", number)
    return None if inner.found else value


def format_abilities(abilities: Iterable[Ability]) -> str:
    return "\n".join(
        f"{ability.name}: {with_english(ability.text, ability.text_en)}"
        if ability.text or ability.text_en
        else ability.name
        for ability in abilities
    )


def parse_abilities(text: str, *, field: str = "abilities") -> tuple[Ability, ...]:
    """Abilities from "Name: text | English text" lines; raises ``SchemaError`` naming every
    bad line."""
    errors = FieldErrors()
    abilities: list[Ability] = []
    for number, line in numbered_lines(text):
        name, _, rule = line.partition(":")
        text, text_en = split_english(rule)
        data = {"name": name, "text": text, "text_en": text_en}
        ability = _checked_line(errors, field, number, partial(_read_ability, value=data, path=""))
        if ability is not None:
            abilities.append(ability)
    errors.raise_if_any()
    return tuple(abilities)


def format_special_action(action: SpecialAction | None) -> str:
    if action is None:
        return ""
    parts = [action.name, str(action.ap)]
    if action.text or action.text_en:
        parts.append(with_english(action.text, action.text_en))
    return " | ".join(parts)


def parse_special_action(text: str, *, field: str = "special_action") -> SpecialAction | None:
    """A special action from one "Name | AP | text" line, or None for an empty text."""
    errors = FieldErrors()
    lines = numbered_lines(text)
    action: SpecialAction | None = None
    if len(lines) > 1:
        errors.add(field, "a card grants one special action: give it on a single line.", 2)
    elif lines:
        number, line = lines[0]
        name, _, rest = line.partition("|")
        ap_part, _, rule = rest.partition("|")
        match = _AP_PART.fullmatch(ap_part.strip())
        if match is None:
            errors.add(
                field, f"expected Name | AP | text, the AP cost is {ap_part.strip()!r}.", number
            )
        else:
            text, text_en = split_english(rule)
            data = {"name": name, "ap": int(match["value"]), "text": text, "text_en": text_en}
            action = _checked_line(
                errors, field, number, lambda inner: _read_special_action(inner, data, "")
            )
    errors.raise_if_any()
    return action


def format_red_values(red_values: Iterable[str]) -> str:
    return ", ".join(red_values)


def parse_red_values(
    text: str, *, weapon_count: int | None = None, field: str = "red_values"
) -> tuple[str, ...]:
    """Red value names separated by commas or spaces. With ``weapon_count`` the weapon numbers
    are checked too (the form knows the weapons only when both fields are read)."""
    names = tuple(name for name in re.split(r"[\s,;]+", text.strip()) if name)
    errors = FieldErrors()
    for number, name in enumerate(names, start=1):
        index = _red_weapon_index(name)
        if name != RED_REFLEX and (
            index is None or (weapon_count is not None and index >= weapon_count)
        ):
            errors.add(
                field,
                f'value {number} must be "reflex" or "weapon:N" (N counts the weapons from 0), '
                f"not {name!r}.",
            )
        elif names.index(name) != number - 1:
            errors.add(field, f"{name!r} is listed twice.")
    errors.raise_if_any()
    return names


def format_field(spec: FieldSpec, value: object) -> str:
    """The textarea text for a structured field's ``stats`` value (a missing key is None).

    Only for the structured types (weapons, abilities, special_action, red_values); the others
    are plain inputs. Raises ``SchemaError`` when the stored value does not fit the schema.
    """
    errors = FieldErrors()
    text = ""
    if spec.type == FieldType.WEAPONS:
        if spec.maximum == 1:
            weapons: tuple[Weapon, ...] = (
                () if value is None else (_read_weapon(errors, value, spec.name),)
            )
        else:
            weapons = _read_weapons(errors, [] if value is None else value, spec.name, None)
        text = format_weapons(weapons)
    elif spec.type == FieldType.ABILITIES:
        text = format_abilities(_read_abilities(errors, [] if value is None else value, spec.name))
    elif spec.type == FieldType.SPECIAL_ACTION:
        text = format_special_action(_read_special_action(errors, value, spec.name))
    elif spec.type == FieldType.RED_VALUES:
        names = _read_list(errors, [] if value is None else value, spec.name)
        text = format_red_values(str(name) for name in names)
    else:
        raise ValueError(f"{spec.name} is a plain {spec.type} field, not a text format")
    errors.raise_if_any()
    return text


def parse_field(spec: FieldSpec, text: str) -> object:
    """The ``stats`` value for a structured field's textarea text (see ``format_field``).

    A weapons field with ``maximum`` 1 gives one weapon object or None. Red values are checked
    for their form only; ``profile_from_stats`` checks them against the weapons.
    """
    if spec.type == FieldType.WEAPONS:
        weapons = parse_weapons(text, field=spec.name)
        if spec.maximum is not None and len(weapons) > spec.maximum:
            raise SchemaError([FieldError(spec.name, f"at most {spec.maximum} weapon(s).")])
        if spec.maximum == 1:
            return weapon_stats(weapons[0]) if weapons else None
        return [weapon_stats(weapon) for weapon in weapons]
    if spec.type == FieldType.ABILITIES:
        return [_ability_stats(ability) for ability in parse_abilities(text, field=spec.name)]
    if spec.type == FieldType.SPECIAL_ACTION:
        return _special_action_stats(parse_special_action(text, field=spec.name))
    if spec.type == FieldType.RED_VALUES:
        return list(parse_red_values(text, field=spec.name))
    raise ValueError(f"{spec.name} is a plain {spec.type} field, not a text format")


# --- The shipped catalogue document ----------------------------------------------------------

DOCUMENT_FORMAT: Final = "skirmish-catalog/1"
SYSTEM_SLUG: Final = "deathmatch"
_DOCUMENT_KEYS: Final = ("format", "system", "notes", "factions", "profiles", "items")
_FACTION_KEYS: Final = ("slug", "name", "sample")
_PROFILE_KEYS: Final = ("slug", "name", "factions", "sample", "stats")
_ITEM_KEYS: Final = ("slug", "name", "kind", "cost", "sample", "stats")


def catalog_from_document(document: object) -> Catalog:
    """Read a ``skirmish-catalog/1`` document (the shipped fixture, an organiser's export).

    Documents carry no version counters (the database keeps them), so every entry reads as
    version 1. Raises ``SchemaError`` listing every problem, with paths like
    "profiles.3.stats.weapons.0.strength"; slugs must be unique and profiles may only name
    factions of the document.
    """
    errors = FieldErrors()
    data = _document_header(errors, document)
    factions = _document_factions(errors, data.get("factions", []))
    faction_slugs = [faction.slug for faction in factions]
    profiles = _document_profiles(errors, data.get("profiles", []), faction_slugs)
    items = _document_items(errors, data.get("items", []))
    for section, slugs in (
        ("factions", faction_slugs),
        ("profiles", [profile.slug for profile in profiles]),
        ("items", [item.slug for item in items]),
    ):
        _check_unique_slugs(errors, section, slugs)
    errors.raise_if_any()
    return Catalog.build(factions, profiles, items)


def _document_header(errors: FieldErrors, document: object) -> Mapping[str, object]:
    """The document as a mapping, its format, system and notes checked."""
    data = _read_object(errors, document, "", _DOCUMENT_KEYS, _DOCUMENT_KEYS[:2]) or {}
    if "format" in data and data["format"] != DOCUMENT_FORMAT:
        errors.add("format", f"must be {DOCUMENT_FORMAT!r}, not {data['format']!r}.")
    if "system" in data and data["system"] != SYSTEM_SLUG:
        errors.add("system", f"must be {SYSTEM_SLUG!r}, not {data['system']!r}.")
    for index, note in enumerate(_read_list(errors, data.get("notes", []), "notes")):
        _read_text(errors, note, field_path("notes", index), multiline=True)
    return data


def _document_factions(errors: FieldErrors, value: object) -> list[Faction]:
    factions: list[Faction] = []
    for index, entry in enumerate(_read_list(errors, value, "factions")):
        path = f"factions.{index}."
        row = _read_object(errors, entry, path[:-1], _FACTION_KEYS, _FACTION_KEYS) or {}
        factions.append(
            Faction(
                slug=_read_text(errors, row.get("slug", ""), path + "slug", forbidden=" "),
                name=_read_text(errors, row.get("name", ""), path + "name"),
                sample=_read_bool(errors, row.get("sample", False), path + "sample"),
            )
        )
    return factions


def _document_profiles(
    errors: FieldErrors, value: object, faction_slugs: Sequence[str]
) -> list[FighterProfile]:
    """The profiles, each naming only factions of the document."""
    profiles: list[FighterProfile] = []
    for index, entry in enumerate(_read_list(errors, value, "profiles")):
        path = f"profiles.{index}."
        row = _read_object(errors, entry, path[:-1], _PROFILE_KEYS, _PROFILE_KEYS) or {}
        profile = _read_profile(
            errors,
            path,
            slug=row.get("slug", ""),
            name=row.get("name", ""),
            factions=row.get("factions", []),
            stats=row.get("stats", {}),
            version=1,
            sample=row.get("sample", False),
        )
        for number, slug in enumerate(profile.factions):
            if slug and slug not in faction_slugs:
                errors.add(f"{path}factions.{number}", f"there is no faction {slug!r}.")
        profiles.append(profile)
    return profiles


def _document_items(errors: FieldErrors, value: object) -> list[EquipmentCard]:
    items: list[EquipmentCard] = []
    for index, entry in enumerate(_read_list(errors, value, "items")):
        path = f"items.{index}."
        row = _read_object(errors, entry, path[:-1], _ITEM_KEYS, _ITEM_KEYS) or {}
        items.append(
            _read_item(
                errors,
                path,
                slug=row.get("slug", ""),
                name=row.get("name", ""),
                kind=row.get("kind", ""),
                cost=row.get("cost", 0),
                stats=row.get("stats", {}),
                version=1,
                sample=row.get("sample", False),
            )
        )
    return items


def _check_unique_slugs(errors: FieldErrors, section: str, slugs: Sequence[str]) -> None:
    """Every slug after its first use is reported (an empty slug is reported elsewhere)."""
    for index, slug in enumerate(slugs):
        if slug and slugs.index(slug) != index:
            errors.add(f"{section}.{index}.slug", f"{slug!r} is used twice.")


def catalog_document(catalog: Catalog, *, notes: Sequence[str] = ()) -> dict[str, object]:
    """The ``skirmish-catalog/1`` document of ``catalog`` (versions are left out)."""
    document: dict[str, object] = {"format": DOCUMENT_FORMAT, "system": SYSTEM_SLUG}
    if notes:
        document["notes"] = list(notes)
    document["factions"] = [
        {"slug": faction.slug, "name": faction.name, "sample": faction.sample}
        for faction in catalog.factions
    ]
    document["profiles"] = [
        {
            "slug": profile.slug,
            "name": profile.name,
            "factions": list(profile.factions),
            "sample": profile.sample,
            "stats": profile_stats(profile),
        }
        for profile in catalog.profiles.values()
    ]
    document["items"] = [
        {
            "slug": item.slug,
            "name": item.name,
            "kind": item.kind.value,
            "cost": item.cost,
            "sample": item.sample,
            "stats": item_stats(item),
        }
        for item in catalog.items.values()
    ]
    return document
