"""What goes on Deathmatch's printed cards (no database, no HTML)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from apps.systems.core.cards import Card
from apps.systems.core.rosters import CatalogData, CatalogEntry, EntryInput, RosterInput
from apps.systems.deathmatch.cards import (
    BLANK_EQUIPMENT,
    BLANK_PROFILE,
    EQUIPMENT,
    PROFILE,
    AbilityLine,
    DeathmatchCardLayouts,
    EquipmentFace,
    ProfileFace,
)

SHIPPED = json.loads(
    (Path(__file__).resolve().parents[3] / "fixtures/deathmatch/catalog.json").read_text()
)
LAYOUTS = DeathmatchCardLayouts()


def shipped_catalog() -> CatalogData:
    return CatalogData(
        factions={f["slug"]: f["name"] for f in SHIPPED["factions"]},
        profiles={
            p["slug"]: CatalogEntry(
                slug=p["slug"],
                name=p["name"],
                stats=p["stats"],
                sample=p["sample"],
                factions=tuple(p["factions"]),
            )
            for p in SHIPPED["profiles"]
        },
        items={
            i["slug"]: CatalogEntry(
                slug=i["slug"],
                name=i["name"],
                stats=i["stats"],
                sample=i["sample"],
                kind=i["kind"],
                cost=i["cost"],
            )
            for i in SHIPPED["items"]
        },
    )


def team(*entries: EntryInput, faction: str = "organon") -> RosterInput:
    return RosterInput(faction=faction, settings={"game_size": 5}, entries=entries)


def faces(cards: tuple[Card, ...], template: str) -> list[object]:
    return [card.face for card in cards if card.template == template]


def test_a_profile_card_holds_every_field_of_the_profile() -> None:
    printed = LAYOUTS.roster_print(
        team(EntryInput("organon-direktorin-ilva-syn", items=("medkit",))), shipped_catalog()
    )
    face = printed.cards[0].face
    assert isinstance(face, ProfileFace)
    assert (face.name, face.rank_label, face.factions) == (
        "Direktorin Ilva Syn",
        "Leader",
        ("Organon",),
    )
    assert (face.arp, face.reflex, face.lp, face.lp_boxes) == (2, 7, 6, "☐" * 6)
    assert face.respawner
    assert face.reflex_red  # the shipped card marks Reflex red
    assert face.has_red
    assert face.version == "v1"
    # The leader's free Respawn-Fokus and the bought Medkit, as cards and on the profile.
    assert face.equipment == ("Respawn-Fokus", "Medkit")
    names = [card.name for card in printed.cards if card.template == EQUIPMENT]
    assert names == ["Respawn-Fokus", "Medkit"]


def test_a_fighter_without_melee_weapon_shows_the_kampfmesser() -> None:
    printed = LAYOUTS.roster_print(team(EntryInput("organon-konzernschuetze")), shipped_catalog())
    face = printed.cards[0].face
    assert isinstance(face, ProfileFace)
    knife = face.weapons[-1]
    assert (knife.name, knife.combat_label, knife.combat_value, knife.bonus) == (
        "Kampfmesser",
        "NK",
        1,
        "⬠⬠",
    )
    assert not knife.red


def test_red_values_mark_the_weapons_the_card_names() -> None:
    printed = LAYOUTS.roster_print(team(EntryInput("organon-atalante-klon")), shipped_catalog())
    face = printed.cards[0].face
    assert isinstance(face, ProfileFace)
    stats = shipped_stats("organon-atalante-klon")
    red = {int(v.split(":")[1]) for v in stats["red_values"] if v.startswith("weapon:")}
    assert {i for i, weapon in enumerate(face.weapons) if weapon.red} == red


def shipped_stats(slug: str) -> dict[str, object]:
    return next(p["stats"] for p in SHIPPED["profiles"] if p["slug"] == slug)


def test_a_mech_ignores_respawn_shock_so_nothing_is_red() -> None:
    mechs = [
        p["slug"]
        for p in SHIPPED["profiles"]
        if p["stats"].get("mech")
        or any(a["name"] == "Mech" for a in p["stats"].get("abilities", []))
    ]
    assert mechs
    catalog = shipped_catalog()
    for slug in mechs:
        factions = catalog.profiles[slug].factions
        printed = LAYOUTS.roster_print(team(EntryInput(slug), faction=factions[0]), catalog)
        face = printed.cards[0].face
        assert isinstance(face, ProfileFace)
        assert face.mech and not face.has_red


def test_every_copy_gets_its_own_cards_and_the_sheet_counts_them() -> None:
    printed = LAYOUTS.roster_print(
        team(
            EntryInput(
                "organon-konzernschuetze", items=("medkit", "medkit"), count=2, name="Zwilling"
            )
        ),
        shipped_catalog(),
    )
    profiles = faces(printed.cards, PROFILE)
    assert [face.name for face in profiles] == ["Zwilling 1", "Zwilling 2"]  # type: ignore[attr-defined]
    assert profiles[0].equipment == ("Medkit ×2",)  # type: ignore[attr-defined]
    medkits = faces(printed.cards, EQUIPMENT)
    assert [m.carried_by for m in medkits] == ["Zwilling 1"] * 2 + ["Zwilling 2"] * 2  # type: ignore[attr-defined]
    sheet = printed.sheet
    assert sheet.fighters[0].count == 2  # type: ignore[attr-defined]
    medkit_line = sheet.fighters[0].items[0]  # type: ignore[attr-defined]
    assert (medkit_line.name, medkit_line.count, medkit_line.cost) == ("Medkit", 2, 2)


def test_the_sheet_holds_totals_and_the_rules_problems() -> None:
    printed = LAYOUTS.roster_print(
        team(EntryInput("organon-direktorin-ilva-syn"), EntryInput("nobody")), shipped_catalog()
    )
    sheet = printed.sheet
    assert sheet.faction == "Organon"  # type: ignore[attr-defined]
    assert not sheet.legal  # type: ignore[attr-defined]
    codes = {issue.code for issue in sheet.issues}  # type: ignore[attr-defined]
    assert {"rank_count", "unknown_profile"} <= codes
    unknown = sheet.fighters[1]  # type: ignore[attr-defined]
    assert (unknown.name, unknown.known) == ("nobody", False)
    assert [card.name for card in printed.cards] == ["Direktorin Ilva Syn", "Respawn-Fokus"]


def test_blank_cards_are_one_of_each() -> None:
    cards = LAYOUTS.blank_cards()
    assert [card.template for card in cards] == [BLANK_PROFILE, BLANK_EQUIPMENT]
    assert len(cards[0].face.lp_boxes) == 10  # type: ignore[attr-defined]


def profile_card(abilities: tuple[AbilityLine, ...]) -> Card:
    printed = LAYOUTS.roster_print(team(EntryInput("organon-konzernschuetze")), shipped_catalog())
    card = printed.cards[0]
    return replace(card, face=replace(card.face, abilities=abilities))


def test_split_halves_the_abilities_and_marks_the_continuation() -> None:
    abilities = tuple(AbilityLine(f"A{n}", "text") for n in range(4))
    halves = LAYOUTS.split(profile_card(abilities))
    assert halves is not None
    head, tail = (card.face for card in halves)
    assert [a.name for a in head.abilities] == ["A0", "A1"]  # type: ignore[attr-defined]
    assert [a.name for a in tail.abilities] == ["A2", "A3"]  # type: ignore[attr-defined]
    assert head.continues and tail.continuation  # type: ignore[attr-defined]
    assert [card.part for card in halves] == [1, 2]


def test_split_cuts_one_long_ability_between_words_and_loses_nothing() -> None:
    text = "eins zwei drei vier fünf sechs sieben acht"
    halves = LAYOUTS.split(profile_card((AbilityLine("Lang", text),)))
    assert halves is not None
    head, tail = (card.face.abilities[0] for card in halves)  # type: ignore[attr-defined]
    assert f"{head.text} {tail.text}" == text
    assert tail.continued


def test_a_single_word_cannot_be_split() -> None:
    assert LAYOUTS.split(profile_card((AbilityLine("Wort", "x" * 500),))) is None


def test_split_equipment_text_keeps_the_action_on_the_last_part() -> None:
    printed = LAYOUTS.roster_print(
        team(EntryInput("organon-konzernschuetze", items=("medkit",))), shipped_catalog()
    )
    medkit = next(card for card in printed.cards if card.name == "Medkit")
    long = replace(medkit, face=replace(medkit.face, text="Wort " * 50))
    halves = LAYOUTS.split(long)
    assert halves is not None
    head, tail = (card.face for card in halves)
    assert isinstance(head, EquipmentFace) and isinstance(tail, EquipmentFace)
    assert head.special_action is None and tail.special_action is not None
    assert tail.usage_limit == "Einmal pro Spiel verwendbar."


@pytest.mark.parametrize("slug", [p["slug"] for p in SHIPPED["profiles"]])
def test_every_shipped_profile_prints(slug: str) -> None:
    catalog = shipped_catalog()
    faction = catalog.profiles[slug].factions[0]
    printed = LAYOUTS.roster_print(team(EntryInput(slug), faction=faction), catalog)
    assert printed.cards[0].template == PROFILE
