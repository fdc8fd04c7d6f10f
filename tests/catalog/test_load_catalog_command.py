"""``manage.py load_catalog`` itself: it loads every shipped file, says what it loaded, and a
second run changes nothing (no card gets a new version)."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import Group
from django.core.management import CommandError, call_command

from apps.catalog.models import (
    Faction,
    GameSystem,
    Item,
    ItemRevision,
    Mission,
    Profile,
    ProfileRevision,
)
from apps.catalog.services import ORGANISERS, shipped_catalog_files
from apps.systems.core.registry import registry

# Each test starts from a database without any catalogue, as `make run` on a fresh checkout.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("empty_catalogue")]
KINDS = ("factions", "profiles", "items", "missions")


def load_catalog() -> str:
    out = StringIO()
    call_command("load_catalog", stdout=out)
    return out.getvalue()


def shipped() -> list[tuple[Path, dict[str, Any]]]:
    return [(path, json.loads(path.read_text())) for path in shipped_catalog_files()]


def state() -> dict[str, object]:
    """Everything a second run must leave as it was."""
    return {
        "profiles": sorted(Profile.objects.values_list("system__slug", "slug", "version")),
        "items": sorted(Item.objects.values_list("system__slug", "slug", "version")),
        "profile_revisions": ProfileRevision.objects.count(),
        "item_revisions": ItemRevision.objects.count(),
        "factions": sorted(Faction.objects.values_list("system__slug", "slug", "name", "sample")),
        "missions": Mission.objects.count(),
        "stamps": dict(GameSystem.objects.values_list("slug", "catalog_stamp")),
    }


def test_load_catalog_loads_every_shipped_file() -> None:
    files = shipped()
    assert {document["system"] for _path, document in files} >= {
        "deathmatch",
        "grundregeln",
        "universalis",
    }
    load_catalog()

    assert set(GameSystem.objects.values_list("slug", flat=True)) == {
        info.slug for info in registry().all()
    }
    for system in {document["system"] for _path, document in files}:
        of_system = [document for _path, document in files if document["system"] == system]
        for kind, model in zip(KINDS, (Faction, Profile, Item, Mission), strict=True):
            expected = {row["slug"] for document in of_system for row in document.get(kind, [])}
            loaded = set(model.objects.filter(system__slug=system).values_list("slug", flat=True))
            assert loaded == expected, (system, kind)
    assert not Profile.objects.exclude(version=1).exists()
    assert ProfileRevision.objects.count() == Profile.objects.count()
    organisers = Group.objects.get(name=ORGANISERS)
    assert organisers.permissions.filter(codename="change_profile").exists()


def test_load_catalog_prints_a_summary_line_per_file() -> None:
    output = load_catalog().splitlines()
    files = shipped()
    assert len(output) == len(files)
    for line, (path, document) in zip(output, files, strict=True):
        counts = {kind: len(document.get(kind, [])) for kind in KINDS}
        assert line == (
            f"{document['system']}: {counts['factions']} factions, "
            f"{counts['profiles']} profiles, {counts['items']} items, "
            f"{counts['missions']} missions ({path.name})"
        )
    assert "deathmatch: 4 factions, 29 profiles, 13 items, 0 missions (catalog.json)" in output


def test_running_load_catalog_twice_changes_no_version() -> None:
    first = load_catalog()
    before = state()
    second = load_catalog()
    assert state() == before
    assert second == first


def test_a_changed_card_is_loaded_as_a_new_version() -> None:
    load_catalog()
    profile = Profile.objects.get(system__slug="deathmatch", slug="organon-direktorin-ilva-syn")
    Profile.objects.filter(pk=profile.pk).update(name="Locally edited")
    load_catalog()
    profile.refresh_from_db()
    assert (profile.name, profile.version) == ("Direktorin Ilva Syn", 2)


def test_a_broken_file_is_a_command_error(monkeypatch, tmp_path) -> None:
    broken = tmp_path / "catalog.json"
    broken.write_text(json.dumps({"format": "skirmish-catalog/1", "system": "chess"}))
    monkeypatch.setattr(
        "apps.catalog.management.commands.load_catalog.shipped_catalog_files", lambda: [broken]
    )
    with pytest.raises(CommandError, match="unknown system 'chess'"):
        load_catalog()
