"""Deathmatch as the rest of the app sees it: its catalogue schema and roster rules.

The Django apps hand over stored rows (``CatalogData``) and roster documents
(``RosterInput``); this module turns them into the Deathmatch dataclasses, runs the one
validator, and describes the builder page. Nothing here touches a database.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

from apps.systems.core.errors import RuleViolation
from apps.systems.core.i18n import gettext_noop
from apps.systems.core.rosters import (
    CatalogData,
    CatalogEntry,
    RosterInput,
    RosterOption,
    RosterReport,
)
from apps.systems.core.schema import FieldSpec, SchemaError
from apps.systems.deathmatch.builder import BuilderView, builder_view, roster_issue
from apps.systems.deathmatch.catalog import (
    ITEM_FIELDS,
    ITEM_KIND_CHOICES,
    PROFILE_FIELDS,
    Catalog,
    EquipmentCard,
    Faction,
    FieldType,
    FighterProfile,
    ItemKind,
    format_field,
    item_from_stats,
    parse_field,
    profile_from_stats,
)
from apps.systems.deathmatch.roster import (
    GAME_SIZES,
    Roster,
    RosterEntry,
    totals,
    validate_roster,
)

_STRUCTURED = {
    FieldType.WEAPONS,
    FieldType.ABILITIES,
    FieldType.SPECIAL_ACTION,
    FieldType.RED_VALUES,
}
_SETTINGS = {"game_size", "last_man_standing"}


class DeathmatchCatalogSchema:
    profile_fields: tuple[FieldSpec, ...] = PROFILE_FIELDS
    item_fields: tuple[FieldSpec, ...] = ITEM_FIELDS
    item_kinds: tuple[tuple[str, str], ...] = ITEM_KIND_CHOICES

    def check_profile(
        self, *, slug: str, name: str, factions: Sequence[str], stats: Mapping[str, object]
    ) -> None:
        profile_from_stats(
            slug=slug, name=name, factions=tuple(factions), stats=stats, version=1, sample=False
        )

    def check_item(
        self, *, slug: str, name: str, kind: str, cost: int, stats: Mapping[str, object]
    ) -> None:
        item_from_stats(
            slug=slug, name=name, kind=kind, cost=cost, stats=stats, version=1, sample=False
        )

    def profile_summary(self, stats: Mapping[str, object]) -> dict[str, object]:
        return {
            "rank": stats.get("rank"),
            "arp": stats.get("arp"),
            "command": stats.get("command"),
            "hero": bool(stats.get("hero", False)),
        }

    def item_summary(self, *, kind: str, stats: Mapping[str, object]) -> dict[str, object]:
        return {
            "limit_per_model": stats.get("limit_per_model"),
            "character_upgrade": kind == ItemKind.CHARACTER_UPGRADE,
        }

    def format_field(self, spec: FieldSpec, value: object) -> object:
        return format_field(spec, value) if spec.type in _STRUCTURED else value

    def parse_field(self, spec: FieldSpec, value: object) -> object:
        if spec.type in _STRUCTURED:
            return parse_field(spec, str(value))
        return value


def _card_key(entry: CatalogEntry) -> str:
    """A cache key for a card's content: equal keys mean equal parsed cards."""
    return json.dumps(
        [
            entry.slug,
            entry.name,
            entry.version,
            entry.sample,
            entry.factions,
            entry.kind,
            entry.cost,
            entry.stats,
        ],
        sort_keys=True,
        default=str,
    )


# Parsing every card on every builder click would dominate its time; cards are immutable per
# version, so parsed cards are kept by content (bounded, cleared when full).
_PARSED: dict[str, FighterProfile | EquipmentCard | None] = {}
_CACHE_LIMIT = 8192
_T = TypeVar("_T", FighterProfile, EquipmentCard)


def _parsed(kind: type[_T], entry: CatalogEntry, parse: Callable[[CatalogEntry], _T]) -> _T | None:
    key = f"{kind.__name__}:{_card_key(entry)}"
    if key not in _PARSED:
        if len(_PARSED) >= _CACHE_LIMIT:
            _PARSED.clear()
        try:
            _PARSED[key] = parse(entry)
        except SchemaError:
            # Stored data that no longer fits the schema: the validator reports it as unknown.
            _PARSED[key] = None
    card = _PARSED[key]
    return card if isinstance(card, kind) else None


def _profile(entry: CatalogEntry) -> FighterProfile | None:
    return _parsed(
        FighterProfile,
        entry,
        lambda e: profile_from_stats(
            slug=e.slug,
            name=e.name,
            factions=e.factions,
            stats=e.stats,
            version=e.version,
            sample=e.sample,
        ),
    )


def _item(entry: CatalogEntry) -> EquipmentCard | None:
    return _parsed(
        EquipmentCard,
        entry,
        lambda e: item_from_stats(
            slug=e.slug,
            name=e.name,
            kind=e.kind,
            cost=e.cost,
            stats=e.stats,
            version=e.version,
            sample=e.sample,
        ),
    )


def deathmatch_catalog(data: CatalogData) -> Catalog:
    """The Deathmatch catalogue of stored rows (parsed cards are cached per card version)."""
    profiles = [p for p in map(_profile, data.profiles.values()) if p is not None]
    items = [i for i in map(_item, data.items.values()) if i is not None]
    factions = [Faction(slug=slug, name=name) for slug, name in data.factions.items()]
    return Catalog.build(factions, profiles, items)


def deathmatch_roster(roster: RosterInput) -> Roster:
    game_size = roster.settings.get("game_size", 0)
    return Roster(
        faction=roster.faction,
        game_size=game_size if isinstance(game_size, int) else 0,
        entries=tuple(
            RosterEntry(profile=e.profile, items=e.items, name=e.name, count=e.count)
            for e in roster.entries
        ),
    )


class DeathmatchRosterRules:
    # A team is 3, 5 or 7 fighters built one by one: each has its own nickname and its own
    # equipment from the team's ARP pool (SPEC §1.2), so the builder offers no count.
    max_count: int = 1
    options: tuple[RosterOption, ...] = (
        RosterOption(
            key="last_man_standing",
            label=gettext_noop("For Last Man Standing"),
            help=gettext_noop("Game mode 0: the team gets 0.5 ARP per Mech, rounded up."),
        ),
    )

    def normalise_settings(self, settings: Mapping[str, object]) -> dict[str, object]:
        unknown = sorted(set(settings) - _SETTINGS)
        if unknown:
            raise RuleViolation("settings_invalid", f"Unknown settings: {', '.join(unknown)}.")
        game_size = settings.get("game_size")
        if (
            not isinstance(game_size, int)
            or isinstance(game_size, bool)
            or (game_size not in GAME_SIZES)
        ):
            raise RuleViolation(
                "game_size",
                gettext_noop("The game size must be 3, 5 or 7 fighters.")
                if game_size is not None
                else gettext_noop("The game size (3, 5 or 7) is missing."),
            )
        normalised: dict[str, object] = {"game_size": game_size}
        last_man_standing = settings.get("last_man_standing", False)
        if not isinstance(last_man_standing, bool):
            raise RuleViolation("settings_invalid", "last_man_standing must be true or false.")
        if last_man_standing:
            normalised["last_man_standing"] = True
        return normalised

    def report(self, roster: RosterInput, catalog: CatalogData) -> RosterReport:
        team = deathmatch_roster(roster)
        cards = deathmatch_catalog(catalog)
        lms = roster.settings.get("last_man_standing") is True
        return RosterReport(
            issues=tuple(
                roster_issue(i) for i in validate_roster(team, cards, last_man_standing=lms)
            ),
            totals=totals(team, cards, last_man_standing=lms).as_dict(),
        )

    def builder(self, roster: RosterInput, catalog: CatalogData) -> BuilderView:
        lms = roster.settings.get("last_man_standing") is True
        return builder_view(
            deathmatch_roster(roster), deathmatch_catalog(catalog), last_man_standing=lms
        )
