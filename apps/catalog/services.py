"""Writes to the catalogue: versioned saves and loading the shipped data."""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.models import Group, Permission
from django.db import transaction

from apps.catalog.models import (
    Faction,
    GameSystem,
    Item,
    ItemRevision,
    Mission,
    Profile,
    ProfileRevision,
)
from apps.systems.core.errors import RuleViolation
from apps.systems.core.registry import registry

FIXTURES = Path(settings.BASE_DIR) / "fixtures"


def game_systems_sync() -> dict[str, GameSystem]:
    """One GameSystem row per registered rule system (idempotent)."""
    rows = {}
    for info in registry().all():
        row, _ = GameSystem.objects.update_or_create(slug=info.slug, defaults={"name": info.name})
        rows[info.slug] = row
    return rows


ORGANISERS = "Organisers"
ORGANISER_MODELS = ("faction", "profile", "item", "mission")


@transaction.atomic
def organisers_group_ensure() -> Group:
    """The group whose staff members edit the catalogue in the admin (idempotent)."""
    group, _ = Group.objects.get_or_create(name=ORGANISERS)
    permissions = Permission.objects.filter(
        content_type__app_label="catalog", content_type__model__in=ORGANISER_MODELS
    ) | Permission.objects.filter(content_type__app_label="catalog", codename="view_gamesystem")
    group.permissions.add(*permissions)
    return group


def catalog_changed(system: GameSystem) -> None:
    """Record that the system's catalogue changed (call inside the writing transaction)."""
    GameSystem.objects.filter(pk=system.pk).update(catalog_stamp=uuid.uuid4())


def _check_profile(
    system: GameSystem, *, slug: str, name: str, factions: Sequence[str], stats: Mapping[str, Any]
) -> None:
    schema = registry().get(system.slug).catalog
    if schema is not None:
        schema.check_profile(slug=slug, name=name, factions=factions, stats=stats)


def _check_item(
    system: GameSystem, *, slug: str, name: str, kind: str, cost: int, stats: Mapping[str, Any]
) -> None:
    schema = registry().get(system.slug).catalog
    if schema is not None:
        schema.check_item(slug=slug, name=name, kind=kind, cost=cost, stats=stats)


@transaction.atomic
def profile_save(
    *,
    system: GameSystem,
    slug: str,
    name: str,
    factions: Sequence[Faction],
    stats: Mapping[str, Any],
    sample: bool,
    profile: Profile | None = None,
) -> Profile:
    """Create or change a profile; any change of its card makes a new version.

    Raises ``SchemaError`` (a ``RuleViolation``) with every problem of the stats.
    """
    faction_slugs = sorted(faction.slug for faction in factions)
    _check_profile(system, slug=slug, name=name, factions=faction_slugs, stats=stats)
    if profile is None:
        profile = Profile.objects.filter(system=system, slug=slug).first()
    if profile is None:
        profile = Profile(system=system, slug=slug, version=1)
        changed = True
    else:
        current = sorted(profile.factions.values_list("slug", flat=True))
        changed = (profile.name, current, profile.stats, profile.sample) != (
            name,
            faction_slugs,
            dict(stats),
            sample,
        )
        if changed:
            profile.version += 1
    if not changed:
        return profile
    profile.slug, profile.name, profile.stats, profile.sample = slug, name, dict(stats), sample
    profile.full_clean(exclude=["factions"])
    profile.save()
    profile.factions.set(factions)
    catalog_changed(system)
    ProfileRevision.objects.create(
        profile=profile,
        version=profile.version,
        name=name,
        factions=faction_slugs,
        stats=dict(stats),
        sample=sample,
    )
    return profile


@transaction.atomic
def item_save(
    *,
    system: GameSystem,
    slug: str,
    name: str,
    kind: str,
    cost: int,
    stats: Mapping[str, Any],
    sample: bool,
    item: Item | None = None,
) -> Item:
    """Create or change an item; any change of its card makes a new version."""
    _check_item(system, slug=slug, name=name, kind=kind, cost=cost, stats=stats)
    if item is None:
        item = Item.objects.filter(system=system, slug=slug).first()
    if item is None:
        item = Item(system=system, slug=slug, version=1)
    elif (item.name, item.kind, item.cost, item.stats, item.sample) == (
        name,
        kind,
        cost,
        dict(stats),
        sample,
    ):
        return item
    else:
        item.version += 1
    item.slug, item.name, item.kind, item.cost = slug, name, kind, cost
    item.stats, item.sample = dict(stats), sample
    item.full_clean()
    item.save()
    catalog_changed(system)
    ItemRevision.objects.create(
        item=item,
        version=item.version,
        name=name,
        kind=kind,
        cost=cost,
        stats=dict(stats),
        sample=sample,
    )
    return item


@dataclass(frozen=True)
class LoadResult:
    system: str
    factions: int
    profiles: int
    items: int
    missions: int


class CatalogFileError(RuleViolation):
    def __init__(self, path: Path, message: str) -> None:
        super().__init__("catalog_file_invalid", f"{path}: {message}")


@transaction.atomic
def catalog_load(path: Path) -> LoadResult:
    """Load one shipped catalogue file; idempotent (an unchanged card keeps its version)."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        raise CatalogFileError(path, str(error)) from None
    if document.get("format") != "skirmish-catalog/1":
        raise CatalogFileError(path, "format must be skirmish-catalog/1")
    systems = game_systems_sync()
    system = systems.get(document.get("system", ""))
    if system is None:
        raise CatalogFileError(path, f"unknown system {document.get('system')!r}")

    factions = {f.slug: f for f in Faction.objects.filter(system=system)}
    for row in document.get("factions", []):
        wanted = {"name": row["name"], "sample": bool(row.get("sample", False))}
        faction = factions.get(row["slug"])
        if faction is None or (faction.name, faction.sample) != (wanted["name"], wanted["sample"]):
            faction, _ = Faction.objects.update_or_create(
                system=system, slug=row["slug"], defaults=wanted
            )
            factions[faction.slug] = faction
            catalog_changed(system)
    for row in document.get("profiles", []):
        unknown = [slug for slug in row["factions"] if slug not in factions]
        if unknown:
            raise CatalogFileError(path, f"profile {row['slug']}: unknown factions {unknown}")
        profile_save(
            system=system,
            slug=row["slug"],
            name=row["name"],
            factions=[factions[slug] for slug in row["factions"]],
            stats=row.get("stats", {}),
            sample=bool(row.get("sample", False)),
        )
    for row in document.get("items", []):
        item_save(
            system=system,
            slug=row["slug"],
            name=row["name"],
            kind=row["kind"],
            cost=int(row["cost"]),
            stats=row.get("stats", {}),
            sample=bool(row.get("sample", False)),
        )
    for row in document.get("missions", []):
        Mission.objects.update_or_create(
            system=system,
            slug=row["slug"],
            defaults={
                "name": row["name"],
                "number": row.get("number"),
                "data": row.get("data", {}),
            },
        )
    return LoadResult(
        system=system.slug,
        factions=len(document.get("factions", [])),
        profiles=len(document.get("profiles", [])),
        items=len(document.get("items", [])),
        missions=len(document.get("missions", [])),
    )


def shipped_catalog_files() -> list[Path]:
    return sorted(FIXTURES.glob("*/*.json"))
