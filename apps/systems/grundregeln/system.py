"""Grundregeln as the rest of the app sees it: the catalogue schema and the roster rules.

Team building (the rulebook has none; SPEC §2 leaves it to the table, so the app decides, and
its rules reference says so): a team is models of one faction, no NPCs, at least one model, an
optional points limit the players agree on; each model may carry items, at most one armour and
no item twice. Stable issue codes: ``unknown_faction``, ``unknown_profile``, ``unknown_item``,
``count_invalid``, ``no_models``, ``faction_mismatch``, ``npc_profile``, ``points_over``,
``armour_twice``, ``item_twice``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from apps.systems.core.i18n import gettext_noop
from apps.systems.core.rosters import (
    MAX_ENTRY_COUNT,
    CatalogData,
    CatalogEntry,
    EntryInput,
    RosterInput,
    RosterIssue,
    RosterOption,
    RosterReport,
    points_limit_settings,
)
from apps.systems.core.schema import FieldSpec, SchemaError
from apps.systems.grundregeln.catalog import (
    ITEM_FIELDS,
    ITEM_KIND_CHOICES,
    PROFILE_FIELDS,
    Catalog,
    Item,
    ItemKind,
    Profile,
    Weapon,
    format_field,
    item_from_stats,
    parse_field,
    profile_from_stats,
)


class GrundregelnCatalogSchema:
    profile_fields: tuple[FieldSpec, ...] = PROFILE_FIELDS
    item_fields: tuple[FieldSpec, ...] = ITEM_FIELDS
    item_kinds: tuple[tuple[str, str], ...] = ITEM_KIND_CHOICES

    def check_profile(
        self, *, slug: str, name: str, factions: Sequence[str], stats: Mapping[str, object]
    ) -> None:
        profile_from_stats(slug=slug, name=name, factions=tuple(factions), stats=stats)

    def check_item(
        self, *, slug: str, name: str, kind: str, cost: int, stats: Mapping[str, object]
    ) -> None:
        item_from_stats(slug=slug, name=name, kind=kind, cost=cost, stats=stats)

    def profile_summary(self, stats: Mapping[str, object]) -> dict[str, object]:
        return {
            "size": stats.get("size"),
            "points": stats.get("points"),
            "npc": bool(stats.get("npc", False)),
        }

    def item_summary(self, *, kind: str, stats: Mapping[str, object]) -> dict[str, object]:
        return {"defence_dice": stats.get("defence_dice", 0)}

    def format_field(self, spec: FieldSpec, value: object) -> object:
        return format_field(spec, value)

    def parse_field(self, spec: FieldSpec, value: object) -> object:
        return parse_field(spec, value)


def _profile(entry: CatalogEntry) -> Profile | None:
    try:
        return profile_from_stats(
            slug=entry.slug,
            name=entry.name,
            factions=entry.factions,
            stats=entry.stats,
            version=entry.version,
            sample=entry.sample,
        )
    except SchemaError:
        # Stored data that no longer fits the schema: the validator reports it as unknown.
        return None


def _item(entry: CatalogEntry) -> Item | None:
    try:
        return item_from_stats(
            slug=entry.slug,
            name=entry.name,
            kind=entry.kind,
            cost=entry.cost,
            stats=entry.stats,
            version=entry.version,
            sample=entry.sample,
        )
    except SchemaError:
        return None


def grundregeln_catalog(data: CatalogData) -> Catalog:
    profiles = {slug: p for slug, e in data.profiles.items() if (p := _profile(e)) is not None}
    items = {slug: i for slug, e in data.items.items() if (i := _item(e)) is not None}
    return Catalog(factions=dict(data.factions), profiles=profiles, items=items)


# --- The one validator -----------------------------------------------------------------------


def _issue(code: str, template: str, entry: int | None = None, **params: str | int) -> RosterIssue:
    return RosterIssue(code=code, template=template, params=params, entry=entry)


def points_limit(settings: Mapping[str, object]) -> int | None:
    limit = settings.get("points_limit")
    return limit if isinstance(limit, int) and not isinstance(limit, bool) else None


def entry_points(entry: EntryInput, catalog: Catalog) -> int:
    profile = catalog.profiles.get(entry.profile)
    if profile is None:
        return 0
    items = sum(catalog.items[s].cost for s in entry.items if s in catalog.items)
    return (profile.points + items) * max(entry.count, 0)


def entry_issues(
    index: int, entry: EntryInput, faction: str, catalog: Catalog
) -> list[RosterIssue]:
    issues = []
    profile = catalog.profiles.get(entry.profile)
    if profile is None:
        return [
            _issue(
                "unknown_profile",
                gettext_noop("There is no profile %(profile)s."),
                index,
                profile=entry.profile,
            )
        ]
    if not 1 <= entry.count <= 20:
        issues.append(
            _issue("count_invalid", gettext_noop("A model is fielded 1 to 20 times."), index)
        )
    if profile.npc:
        issues.append(
            _issue(
                "npc_profile",
                gettext_noop("%(name)s is an NPC: scenarios field NPCs, teams do not."),
                index,
                name=profile.name,
            )
        )
    elif faction and faction not in profile.factions:
        issues.append(
            _issue(
                "faction_mismatch",
                gettext_noop("%(name)s does not belong to the team's faction."),
                index,
                name=profile.name,
            )
        )
    armour = 0
    for position, slug in enumerate(entry.items):
        item = catalog.items.get(slug)
        if item is None:
            issues.append(
                _issue("unknown_item", gettext_noop("There is no item %(item)s."), index, item=slug)
            )
            continue
        if slug in entry.items[:position]:
            issues.append(
                _issue(
                    "item_twice",
                    gettext_noop("%(name)s carries %(item)s twice."),
                    index,
                    name=profile.name,
                    item=item.name,
                )
            )
        if item.kind is ItemKind.ARMOUR:
            armour += 1
            if armour == 2:
                issues.append(
                    _issue(
                        "armour_twice",
                        gettext_noop("%(name)s wears more than one armour."),
                        index,
                        name=profile.name,
                    )
                )
    return issues


def validate(roster: RosterInput, catalog: Catalog) -> list[RosterIssue]:
    issues = []
    if roster.faction not in catalog.factions:
        issues.append(
            _issue(
                "unknown_faction",
                gettext_noop("There is no faction %(faction)s."),
                faction=roster.faction,
            )
        )
    if not roster.entries:
        issues.append(_issue("no_models", gettext_noop("A team needs at least one model.")))
    for index, entry in enumerate(roster.entries):
        issues += entry_issues(index, entry, roster.faction, catalog)
    limit = points_limit(roster.settings)
    spent = sum(entry_points(entry, catalog) for entry in roster.entries)
    if limit is not None and spent > limit:
        issues.append(
            _issue(
                "points_over",
                gettext_noop(
                    "The team costs %(points)s points, %(over)s over the limit of %(limit)s."
                ),
                points=spent,
                over=spent - limit,
                limit=limit,
            )
        )
    return issues


def totals(roster: RosterInput, catalog: Catalog) -> dict[str, object]:
    limit = points_limit(roster.settings)
    spent = sum(entry_points(entry, catalog) for entry in roster.entries)
    return {
        "points": spent,
        "points_limit": limit,
        "points_left": None if limit is None else limit - spent,
        "models": sum(max(entry.count, 0) for entry in roster.entries),
    }


# --- The builder's view ----------------------------------------------------------------------


@dataclass(frozen=True)
class WeaponView:
    name: str
    melee: bool
    attack_dice: int
    range_inches: int
    reload: str


@dataclass(frozen=True)
class ItemView:
    slug: str
    name: str
    cost: int
    kind: str
    sample: bool
    detail: str


@dataclass(frozen=True)
class OptionView:
    slug: str
    name: str
    detail: str
    allowed: bool
    reason: RosterIssue | None = None
    sample: bool = False


@dataclass(frozen=True)
class FighterView:
    index: int
    display_name: str
    profile_name: str
    count: int
    sample: bool
    size: str
    move: int
    morale: int
    morale_dice: int
    lp: int
    defence_dice: int
    points: int
    weapons: tuple[WeaponView, ...]
    abilities: tuple[tuple[str, str], ...]
    reroll_ones: tuple[str, ...]
    items: tuple[ItemView, ...]
    item_options: tuple[OptionView, ...]
    issues: tuple[RosterIssue, ...]

    @property
    def can_buy(self) -> bool:
        return any(option.allowed for option in self.item_options)


@dataclass(frozen=True)
class Panel:
    options: tuple[OptionView, ...]


@dataclass(frozen=True)
class BuilderView:
    totals: Mapping[str, object]
    issues: tuple[RosterIssue, ...]
    fighters: tuple[FighterView, ...]
    panel: Panel

    @property
    def entries(self) -> tuple[FighterView, ...]:
        """One view per roster entry (``core.rosters.BuilderView``)."""
        return self.fighters


def weapon_view(weapon: Weapon) -> WeaponView:
    return WeaponView(
        weapon.name, weapon.melee, weapon.attack_dice, weapon.range_inches, weapon.reload.value
    )


def _item_detail(item: Item) -> str:
    if item.weapon is not None:
        kind = "NK" if item.weapon.melee else f'FK {item.weapon.range_inches}"'
        return f"{kind} · A {item.weapon.attack_dice}"
    if item.kind is ItemKind.ARMOUR:
        return f"+{item.defence_dice} D"
    return item.text[:60]


def _profile_detail(profile: Profile) -> str:
    return f'{profile.size.value} · B {profile.move}" · {profile.lp} LP · {profile.points} P'


def _item_refusal(
    item: Item, index: int, entry: EntryInput, profile: Profile, *, wears_armour: bool
) -> RosterIssue | None:
    """Why the model may not take ``item`` as well (no item twice, one armour), or None."""
    if item.slug in entry.items:
        return _issue(
            "item_twice",
            gettext_noop("%(name)s carries %(item)s twice."),
            index,
            name=profile.name,
            item=item.name,
        )
    if item.kind is ItemKind.ARMOUR and wears_armour:
        return _issue(
            "armour_twice",
            gettext_noop("%(name)s wears more than one armour."),
            index,
            name=profile.name,
        )
    return None


def _item_options(
    index: int, entry: EntryInput, profile: Profile, items: tuple[Item, ...], catalog: Catalog
) -> tuple[OptionView, ...]:
    """Every item of the catalogue, disabled with the reason where the model may not take it."""
    wears_armour = any(item.kind is ItemKind.ARMOUR for item in items)
    options = []
    for item in catalog.items.values():
        reason = _item_refusal(item, index, entry, profile, wears_armour=wears_armour)
        options.append(
            OptionView(
                slug=item.slug,
                name=item.name,
                detail=f"{item.cost} P · {_item_detail(item)}",
                allowed=reason is None,
                reason=reason,
                sample=item.sample,
            )
        )
    return tuple(options)


def _fighter(
    index: int, entry: EntryInput, profile: Profile, roster: RosterInput, catalog: Catalog
) -> FighterView:
    items = tuple(catalog.items[s] for s in entry.items if s in catalog.items)
    return FighterView(
        index=index,
        display_name=entry.name or profile.name,
        profile_name=profile.name,
        count=entry.count,
        sample=profile.sample,
        size=profile.size.value,
        move=profile.move,
        morale=profile.morale,
        morale_dice=profile.morale_dice,
        lp=profile.lp,
        defence_dice=profile.defence_dice + sum(i.defence_dice for i in items),
        points=entry_points(entry, catalog),
        weapons=tuple(
            weapon_view(w)
            for w in (*profile.weapons, *(i.weapon for i in items if i.weapon is not None))
        ),
        abilities=tuple((a.name, a.text) for a in profile.abilities),
        reroll_ones=tuple(kind.value for kind in profile.reroll_ones),
        items=tuple(
            ItemView(i.slug, i.name, i.cost, i.kind.value, i.sample, _item_detail(i)) for i in items
        ),
        item_options=_item_options(index, entry, profile, items, catalog),
        issues=tuple(entry_issues(index, entry, roster.faction, catalog)),
    )


def _unknown_fighter(
    index: int, entry: EntryInput, roster: RosterInput, catalog: Catalog
) -> FighterView:
    """An entry whose card is gone from the catalogue: shown with its problem, no stats."""
    return FighterView(
        index=index,
        display_name=entry.name or entry.profile,
        profile_name=entry.profile,
        count=entry.count,
        sample=False,
        size="?",
        move=0,
        morale=0,
        morale_dice=0,
        lp=0,
        defence_dice=0,
        points=0,
        weapons=(),
        abilities=(),
        reroll_ones=(),
        items=tuple(ItemView(s, s, 0, "", False, "") for s in entry.items),
        item_options=(),
        issues=tuple(entry_issues(index, entry, roster.faction, catalog)),
    )


def builder_view(roster: RosterInput, catalog: Catalog) -> BuilderView:
    fighters = tuple(
        _fighter(index, entry, profile, roster, catalog)
        if (profile := catalog.profiles.get(entry.profile)) is not None
        else _unknown_fighter(index, entry, roster, catalog)
        for index, entry in enumerate(roster.entries)
    )
    team = totals(roster, catalog)
    left = team["points_left"]
    options = []
    for profile in catalog.profiles.values():
        if profile.npc or roster.faction not in profile.factions:
            continue
        reason = None
        if isinstance(left, int) and profile.points > left:
            reason = _issue(
                "points_over",
                gettext_noop("%(points)s points: %(left)s left under the limit."),
                points=profile.points,
                left=left,
            )
        options.append(
            OptionView(
                slug=profile.slug,
                name=profile.name,
                detail=_profile_detail(profile),
                allowed=reason is None,
                reason=reason,
                sample=profile.sample,
            )
        )
    return BuilderView(
        totals=team,
        issues=tuple(validate(roster, catalog)),
        fighters=fighters,
        panel=Panel(options=tuple(options)),
    )


class GrundregelnRosterRules:
    # A profile may be fielded 1 to 20 times (``count_invalid``).
    max_count: int = MAX_ENTRY_COUNT
    options: tuple[RosterOption, ...] = ()

    def normalise_settings(self, settings: Mapping[str, object]) -> dict[str, object]:
        return points_limit_settings(settings)

    def report(self, roster: RosterInput, catalog: CatalogData) -> RosterReport:
        cards = grundregeln_catalog(catalog)
        return RosterReport(issues=tuple(validate(roster, cards)), totals=totals(roster, cards))

    def builder(self, roster: RosterInput, catalog: CatalogData) -> BuilderView:
        return builder_view(roster, grundregeln_catalog(catalog))
