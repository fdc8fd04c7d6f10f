"""The catalogue: shipped data loads idempotently; a changed card gets a new version."""

from __future__ import annotations

import pytest

from apps.catalog.models import Item, Profile, ProfileRevision
from apps.catalog.services import catalog_load, item_save, profile_save, shipped_catalog_files
from apps.systems.core.schema import SchemaError

pytestmark = pytest.mark.django_db


def test_shipped_catalogue_has_the_four_factions_and_samples_are_marked(deathmatch) -> None:
    assert set(deathmatch.factions.values_list("slug", flat=True)) == {
        "anaimaktos",
        "phalanx",
        "organon",
        "shelzahav",
    }
    assert not deathmatch.factions.filter(sample=True).exists()
    assert Profile.objects.filter(system=deathmatch, sample=False).count() == 0
    real_items = set(
        Item.objects.filter(system=deathmatch, sample=False).values_list("slug", flat=True)
    )
    assert real_items == {"respawn-fokus", "ruestungsupgrade-sprungmodule"}


def test_loading_twice_changes_no_version(empty_catalogue) -> None:
    for path in shipped_catalog_files():
        catalog_load(path)
    before = dict(Profile.objects.values_list("slug", "version"))
    revisions = ProfileRevision.objects.count()
    for path in shipped_catalog_files():
        catalog_load(path)
    assert dict(Profile.objects.values_list("slug", "version")) == before
    assert ProfileRevision.objects.count() == revisions


def test_changed_profile_gets_a_new_version_and_keeps_the_old_one(deathmatch) -> None:
    profile = Profile.objects.get(slug="phalanx-grenadier")
    stats = {**profile.stats, "lp": profile.stats["lp"] + 1}
    saved = profile_save(
        system=deathmatch,
        slug=profile.slug,
        name=profile.name,
        factions=list(profile.factions.all()),
        stats=stats,
        sample=True,
    )
    assert saved.version == profile.version + 1
    old = ProfileRevision.objects.get(profile=profile, version=profile.version)
    assert old.stats["lp"] == profile.stats["lp"]


def test_invalid_stats_are_refused_with_every_problem(deathmatch) -> None:
    profile = Profile.objects.get(slug="phalanx-grenadier")
    stats = {**profile.stats, "lp": 0, "reflex": "fast", "colour": "red"}
    with pytest.raises(SchemaError) as raised:
        profile_save(
            system=deathmatch,
            slug=profile.slug,
            name=profile.name,
            factions=list(profile.factions.all()),
            stats=stats,
            sample=True,
        )
    assert {error.field for error in raised.value.errors} >= {"lp", "reflex", "colour"}
    profile.refresh_from_db()
    assert profile.stats["lp"] != 0


def test_changed_item_gets_a_new_version(deathmatch) -> None:
    item = Item.objects.get(slug="medkit")
    saved = item_save(
        system=deathmatch,
        slug=item.slug,
        name=item.name,
        kind=item.kind,
        cost=item.cost + 1,
        stats=item.stats,
        sample=item.sample,
    )
    assert saved.version == item.version + 1
