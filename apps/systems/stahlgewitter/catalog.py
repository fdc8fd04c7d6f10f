"""The Stahlgewitter catalogue as the builder, the tracker and the cards read it: every row
parsed (``catalog_schema``) into ``Catalog``, a model's equipment (``loadout``) and its values
as worn.

The standard armour (the shared design's decision): a printed profile line already wears an
armour, the one whose PW and movement reduction make its printed PW and B come out. A model's
base PW is its printed PW minus that armour's PW; wearing another armour X gives PW = base + X.pw
and B = printed B + standard reduction − X's reduction (at least 1). ``model_values`` does this
maths, so with its standard armour a model shows exactly the printed values.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Final, TypeVar

from apps.systems.core.rosters import CatalogData, CatalogEntry
from apps.systems.core.schema import SchemaError
from apps.systems.stahlgewitter.catalog_schema import item_from_stats, profile_from_stats
from apps.systems.stahlgewitter.catalog_types import (
    BASE_MOVE_CM,
    GRADE_VALUE,
    MIN_MOVE_CM,
    Armour,
    Effect,
    Equipment,
    GameType,
    Grade,
    Item,
    ItemKind,
    Profile,
    Variant,
    Weapon,
)

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


def _parsed(kind: str, entry: CatalogEntry, parse: Callable[[], Profile | Item]) -> object:
    """The row parsed once per version (``None``: it does not fit the schema)."""
    key = _cache_key(kind, entry)
    if key not in _PARSED:
        if len(_PARSED) >= _CACHE_LIMIT:
            _PARSED.clear()
        try:
            _PARSED[key] = parse()
        except SchemaError:
            _PARSED[key] = None
    return _PARSED[key]


def _parsed_profile(entry: CatalogEntry) -> Profile | None:
    found = _parsed(
        "profile",
        entry,
        lambda: profile_from_stats(
            slug=entry.slug,
            name=entry.name,
            factions=entry.factions,
            stats=entry.stats,
            version=entry.version,
            sample=entry.sample,
        ),
    )
    return found if isinstance(found, Profile) else None


def _parsed_item(entry: CatalogEntry) -> Item | None:
    found = _parsed(
        "item",
        entry,
        lambda: item_from_stats(
            slug=entry.slug,
            name=entry.name,
            kind=entry.kind,
            cost=entry.cost,
            stats=entry.stats,
            version=entry.version,
            sample=entry.sample,
        ),
    )
    return None if found is None or isinstance(found, Profile) else found  # type: ignore[return-value]
