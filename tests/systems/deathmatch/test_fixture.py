"""The shipped catalogue fixtures/deathmatch/catalog.json: readable, complete and honest about
what is invented."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from apps.systems.deathmatch.catalog import (
    Catalog,
    ItemKind,
    Movement,
    Rank,
    SpecialAction,
    catalog_document,
    catalog_from_document,
    item_stats,
    profile_stats,
)
from apps.systems.deathmatch.roster import Roster, RosterEntry, totals, validate_roster

FIXTURE = Path(__file__).resolve().parents[3] / "fixtures" / "deathmatch" / "catalog.json"
REAL_FACTIONS = {
    "anaimaktos": "Anaimaktos",
    "phalanx": "Phalanx",
    "organon": "Organon",
    "shelzahav": "Shelzahav",
}
REAL_ITEMS = {"respawn-fokus", "ruestungsupgrade-sprungmodule"}


@pytest.fixture(scope="module")
def document() -> dict[str, object]:
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


@pytest.fixture(scope="module")
def shipped(document: dict[str, object]) -> Catalog:
    return catalog_from_document(document)


def test_fixture_parses_with_the_schema_and_stores_exactly_the_stats(
    document: dict[str, object], shipped: Catalog
) -> None:
    assert document["format"] == "skirmish-catalog/1"
    assert document["system"] == "deathmatch"
    rows = document["profiles"]
    assert isinstance(rows, list)
    for row in rows:
        assert row["stats"] == profile_stats(shipped.profiles[row["slug"]])
        assert "version" not in row and "version" not in row["stats"]
    items = document["items"]
    assert isinstance(items, list)
    for row in items:
        assert row["stats"] == item_stats(shipped.items[row["slug"]])
    notes = document["notes"]
    assert isinstance(notes, list)
    assert catalog_document(shipped, notes=notes) == document


def test_the_four_factions_of_the_rulebook_are_real(shipped: Catalog) -> None:
    assert {faction.slug: faction.name for faction in shipped.factions} == REAL_FACTIONS
    assert not any(faction.sample for faction in shipped.factions)


def test_every_faction_has_a_leader_three_troopers_and_three_specialists(
    shipped: Catalog,
) -> None:
    for faction in REAL_FACTIONS:
        ranks = Counter(
            profile.rank for profile in shipped.profiles.values() if faction in profile.factions
        )
        assert ranks[Rank.LEADER] >= 1, faction
        assert ranks[Rank.TROOPER] >= 3, faction
        assert ranks[Rank.SPECIALIST] >= 3, faction


def test_every_invented_entry_is_flagged_as_a_sample(shipped: Catalog) -> None:
    # The rulebook prints no fighter profile with numbers, so every profile is invented.
    assert all(profile.sample for profile in shipped.profiles.values())
    assert {slug for slug, item in shipped.items.items() if not item.sample} == REAL_ITEMS


def test_anzi_is_an_organon_hero_from_her_bio(shipped: Catalog) -> None:
    anzi = shipped.profiles["atalante-c021-anzi"]
    assert anzi.hero and anzi.sample
    assert anzi.factions == ("organon",)
    assert [weapon.name for weapon in anzi.weapons] == ["Syn-Tek Sigma Edge"]
    names = " ".join(ability.name for ability in anzi.abilities)
    for gear in ("Tactical Flex-Lite", "Energieschild-Emitter", "Adrenalinpumpe"):
        assert gear in names


def test_sample_catalogue_has_heroes_a_mech_and_a_veteran(shipped: Catalog) -> None:
    profiles = list(shipped.profiles.values())
    hero_factions = {profile.factions[0] for profile in profiles if profile.hero}
    assert len(hero_factions) >= 2
    assert any(
        profile.mech and profile.movement is Movement.SLOW and "phalanx" in profile.factions
        for profile in profiles
    )
    assert any(
        len(profile.factions) >= 2 and profile.rank is not Rank.LEADER for profile in profiles
    )
    assert any(profile.red_values for profile in profiles)


def test_sample_cards_cover_weapons_armour_and_character_upgrades(shipped: Catalog) -> None:
    samples = [item for item in shipped.items.values() if item.sample]
    assert len(samples) >= 8
    kinds = {item.kind for item in samples}
    assert {ItemKind.WEAPON, ItemKind.ARMOUR_UPGRADE, ItemKind.CHARACTER_UPGRADE} <= kinds
    assert all(item.weapon is not None for item in samples if item.kind is ItemKind.WEAPON)


def test_the_rulebooks_cards_are_as_printed(shipped: Catalog) -> None:
    jump = shipped.items["ruestungsupgrade-sprungmodule"]
    assert (jump.name, jump.cost, jump.limit_per_model) == ("Rüstungsupgrade Sprungmodule", 2, 1)
    assert jump.kind is ItemKind.ARMOUR_UPGRADE
    # The printed German text stays the original; the English version sits beside it.
    assert jump.special_action == SpecialAction(
        "Sprung",
        1,
        'Das Modell wird innerhalb von 6" neu platziert.',
        'The model is placed anew within 6".',
    )
    assert jump.usage_limit == "Einmal pro Aktivierung verwendbar."
    assert jump.usage_limit_en == "Usable once per activation."
    assert jump.printed_version == "V1.1"
    focus = shipped.items["respawn-fokus"]
    assert (focus.kind, focus.cost, focus.limit_per_model) == (ItemKind.RESPAWN_FOCUS, 0, 1)
    assert "2 Zoll" in focus.text or '2"' in focus.text


def test_a_team_from_the_shipped_catalogue_is_legal(shipped: Catalog) -> None:
    roster = Roster(
        "organon",
        5,
        (
            RosterEntry("organon-direktorin-ilva-syn", ("ruestungsupgrade-sprungmodule",)),
            RosterEntry("organon-atalante-klon", name="Vortex Eins"),
            RosterEntry("phalanx-linienschuetze", ("zweite-pistole",)),
            RosterEntry("atalante-c021-anzi"),
            RosterEntry("organon-syntek-techniker", ("kampfstimulanzien",)),
        ),
    )
    assert validate_roster(roster, shipped) == ()
    assert totals(roster, shipped).mercenaries == 1
