"""Reads of rosters: permission-checked fetches, lists, and the rules' view of a roster."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.db.models import Prefetch, QuerySet
from django.http import Http404

from apps.accounts.models import User
from apps.catalog.models import Faction, GameSystem, Item, ItemRevision, Profile, ProfileRevision
from apps.rosters.models import ArmyUnit, Roster, RosterEntry, RosterEntryItem
from apps.systems.core.registry import registry
from apps.systems.core.rosters import (
    CatalogData,
    CatalogEntry,
    EntryInput,
    RosterInput,
    RosterReport,
    UnitInput,
)


def _with_contents(queryset: QuerySet[Roster]) -> QuerySet[Roster]:
    items = RosterEntryItem.objects.select_related("item").order_by("position")
    entries = (
        RosterEntry.objects.select_related("profile")
        .prefetch_related(Prefetch("items", queryset=items))
        .order_by("position")
    )
    return queryset.select_related("system", "faction", "owner").prefetch_related(
        Prefetch("entries", queryset=entries), "units"
    )


def roster_for_owner(user: User, roster_id: int) -> Roster:
    """The user's own roster with its entries and items, or 404 (other people's rosters are
    not revealed to exist). Writes lock the row in ``services`` instead."""
    if not user.is_authenticated:
        raise Http404
    roster = _with_contents(Roster.objects.filter(owner=user)).filter(pk=roster_id).first()
    if roster is None:
        raise Http404
    return roster


def roster_by_share_token(token: str) -> Roster:
    roster = _with_contents(Roster.objects.filter(share_token=token)).first() if token else None
    if roster is None:
        raise Http404
    return roster


def roster_list_for_user(user: User) -> QuerySet[Roster]:
    return Roster.objects.filter(owner=user).select_related("system", "faction")


# Every builder click needs the whole catalogue; it changes only when an organiser edits it,
# which renews ``GameSystem.catalog_stamp``, so each process keeps the last one it read.
_CATALOG_CACHE: dict[int, tuple[UUID, CatalogData]] = {}


def catalog_data(system: GameSystem, roster: Roster | None = None) -> CatalogData:
    """The system's catalogue as the rules see it: current cards, except that cards a roster
    uses are given at the version its entries were built with."""
    cached = _CATALOG_CACHE.get(system.pk)
    if cached is None or cached[0] != system.catalog_stamp:
        # Read the stamp first: a change racing with the read makes the next call re-read.
        stamp = GameSystem.objects.values_list("catalog_stamp", flat=True).get(pk=system.pk)
        cached = (stamp, _catalog_read(system))
        _CATALOG_CACHE[system.pk] = cached
    current = cached[1]
    if roster is None:
        return current
    profiles, items = dict(current.profiles), dict(current.items)
    _pin_versions(roster, profiles, items)
    return CatalogData(factions=current.factions, profiles=profiles, items=items)


def _catalog_read(system: GameSystem) -> CatalogData:
    factions = {f.slug: f.name for f in Faction.objects.filter(system=system)}
    profiles = {
        p.slug: CatalogEntry(
            slug=p.slug,
            name=p.name,
            stats=p.stats,
            version=p.version,
            sample=p.sample,
            factions=tuple(f.slug for f in p.factions.all()),
        )
        for p in Profile.objects.filter(system=system).prefetch_related("factions")
    }
    items = {
        i.slug: CatalogEntry(
            slug=i.slug,
            name=i.name,
            stats=i.stats,
            version=i.version,
            sample=i.sample,
            kind=i.kind,
            cost=i.cost,
        )
        for i in Item.objects.filter(system=system)
    }
    return CatalogData(factions=factions, profiles=profiles, items=items)


def _pin_versions(
    roster: Roster, profiles: dict[str, CatalogEntry], items: dict[str, CatalogEntry]
) -> None:
    """Replace the cards the roster uses at an older version by that version's revision."""
    entries = list(roster.entries.all())
    old_profiles = {
        (e.profile_id, e.profile_version): e.profile.slug
        for e in entries
        if e.profile_version != e.profile.version
    }
    for rev in ProfileRevision.objects.filter(profile_id__in={k[0] for k in old_profiles}):
        if slug := old_profiles.get((rev.profile_id, rev.version)):
            profiles[slug] = _entry_of(rev, slug, factions=tuple(rev.factions))
    old_items = {
        (row.item_id, row.item_version): row.item.slug
        for e in entries
        for row in e.items.all()
        if row.item_version != row.item.version
    }
    for item_rev in ItemRevision.objects.filter(item_id__in={k[0] for k in old_items}):
        if slug := old_items.get((item_rev.item_id, item_rev.version)):
            items[slug] = _entry_of(item_rev, slug, kind=item_rev.kind, cost=item_rev.cost)


def _entry_of(revision: ProfileRevision | ItemRevision, slug: str, **extra: Any) -> CatalogEntry:
    return CatalogEntry(
        slug=slug,
        name=revision.name,
        stats=revision.stats,
        version=revision.version,
        sample=revision.sample,
        **extra,
    )


def roster_input(roster: Roster) -> RosterInput:
    entries = list(roster.entries.all())
    index = {entry.pk: position for position, entry in enumerate(entries)}
    return RosterInput(
        faction=roster.faction.slug if roster.faction else "",
        settings=roster.settings,
        entries=tuple(
            EntryInput(
                profile=entry.profile.slug,
                items=tuple(row.item.slug for row in entry.items.all()),
                name=entry.name,
                count=entry.count,
                attach_to=index.get(entry.attach_to_id) if entry.attach_to_id else None,
            )
            for entry in entries
        ),
        units=tuple(unit_input(unit) for unit in roster.units.all()),
    )


def unit_input(unit: ArmyUnit) -> UnitInput:
    """An outside army's unit as the rules see it."""
    return UnitInput(
        name=unit.name,
        models=unit.model_count,
        points=unit.points,
        power=unit.power,
        keywords=tuple(str(keyword) for keyword in unit.keywords),
        wounds=unit.wounds,
        base=unit.base,
        walker=unit.walker,
        reserve=unit.reserve,
        deep_strike=unit.deep_strike,
    )


def roster_report(roster: Roster, catalog: CatalogData | None = None) -> RosterReport:
    """Every issue and the totals, from the system's one validator."""
    rules = registry().get(roster.system.slug).rosters
    if rules is None:
        return RosterReport(issues=(), totals={})
    return rules.report(roster_input(roster), catalog or catalog_data(roster.system, roster))
