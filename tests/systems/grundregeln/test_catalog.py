"""The Grundregeln catalogue schema, its text formats and the shipped sample catalogue."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from apps.systems.core.schema import SchemaError
from apps.systems.grundregeln.catalog import (
    ITEM_FIELDS,
    PROFILE_FIELDS,
    Reload,
    WeaponKind,
    format_field,
    item_from_stats,
    item_stats,
    parse_field,
    profile_from_stats,
    profile_stats,
)
from apps.systems.grundregeln.scenario import Behaviour, Victory, scenario_from_data

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "grundregeln"
WEAPONS = next(spec for spec in PROFILE_FIELDS if spec.name == "weapons")
ONE_WEAPON = next(spec for spec in ITEM_FIELDS if spec.name == "weapon")
STATS = {
    "size": "L",
    "move": 5,
    "morale": 3,
    "morale_dice": 3,
    "lp": 7,
    "defence_dice": 2,
    "points": 45,
    "weapons": [
        {"name": "Keule", "kind": "melee", "attack_dice": 4, "range_inches": 0, "reload": "none"},
        {
            "name": "Armbrust",
            "kind": "ranged",
            "attack_dice": 2,
            "range_inches": 18,
            "reload": "slow",
        },
    ],
    "abilities": [{"name": "Zäh", "text": "Steht wieder auf.", "text_en": "Gets back up."}],
    "reroll_ones": ["morale"],
    "npc": False,
}


def test_a_profile_reads_and_writes_back_exactly() -> None:
    profile = profile_from_stats(slug="oger", name="Oger", factions=("a",), stats=STATS)
    assert profile.weapons[1].kind is WeaponKind.RANGED and profile.weapons[1].reload is Reload.SLOW
    assert profile_stats(profile) == STATS


def test_a_profile_reports_every_problem_at_once() -> None:
    bad = {
        **STATS,
        "size": "XXL",
        "lp": 0,
        "weapons": [{"name": "X", "kind": "ranged", "attack_dice": -1}],
        "colour": "red",
    }
    with pytest.raises(SchemaError) as caught:
        profile_from_stats(slug="x", name="X", factions=("a",), stats=bad)
    fields = {error.field for error in caught.value.errors}
    assert {"size", "lp", "weapons.0.attack_dice", "colour"} <= fields


def test_optional_fields_take_their_defaults() -> None:
    minimal = {
        k: STATS[k]
        for k in ("size", "move", "morale", "morale_dice", "lp", "defence_dice", "points")
    }
    profile = profile_from_stats(slug="m", name="M", factions=("a",), stats=minimal)
    assert profile.weapons == () and not profile.npc and profile.reroll_ones == ()


def test_the_weapon_text_format_round_trips() -> None:
    text = format_field(WEAPONS, STATS["weapons"])
    assert text == "Keule | NK | A 4\nArmbrust | FK | A 2 | RW 18 | Nachladen langsam"
    assert parse_field(WEAPONS, text) == STATS["weapons"]


def test_the_weapon_text_format_names_the_bad_line() -> None:
    with pytest.raises(SchemaError) as caught:
        parse_field(WEAPONS, "Keule | NK | A 4\nBogen | FK | A 2")
    assert caught.value.errors[0].line == 2


def test_an_item_weapon_and_armour_are_checked_by_kind() -> None:
    weapon = parse_field(ONE_WEAPON, "Axt | NK | A 3")
    item = item_from_stats(slug="axt", name="Axt", kind="weapon", cost=8, stats={"weapon": weapon})
    assert item_stats(item)["weapon"] == weapon
    with pytest.raises(SchemaError):
        item_from_stats(slug="s", name="Schild", kind="armour", cost=5, stats={})
    with pytest.raises(SchemaError):
        item_from_stats(slug="a", name="Axt", kind="weapon", cost=8, stats={})


def test_the_shipped_catalogue_is_valid_and_all_sample() -> None:
    doc = json.loads((FIXTURES / "catalog.json").read_text(encoding="utf-8"))
    factions = {f["slug"] for f in doc["factions"]}
    assert len(factions - {"npc"}) >= 2
    for row in doc["profiles"]:
        profile = profile_from_stats(
            slug=row["slug"], name=row["name"], factions=row["factions"], stats=row["stats"]
        )
        assert set(row["factions"]) <= factions and row["sample"] is True
        assert profile.npc == (row["factions"] == ["npc"])
    for row in doc["items"]:
        item_from_stats(
            slug=row["slug"],
            name=row["name"],
            kind=row["kind"],
            cost=row["cost"],
            stats=row["stats"],
        )
        assert row["sample"] is True
    assert all(f["sample"] for f in doc["factions"])


def test_the_shipped_scenarios_are_valid_and_copy_the_catalogues_npcs() -> None:
    catalog = json.loads((FIXTURES / "catalog.json").read_text(encoding="utf-8"))
    npcs = {p["slug"]: p for p in catalog["profiles"] if p["stats"]["npc"]}
    missions = json.loads((FIXTURES / "scenarios.json").read_text(encoding="utf-8"))["missions"]
    kinds = set()
    for mission in missions:
        scenario = scenario_from_data(mission["slug"], mission["name"], mission["data"])
        kinds.add(scenario.victory)
        assert scenario.sample
        for row in mission["data"]["npcs"]:
            assert row["stats"] == npcs[row["profile"]]["stats"]
            assert row["name"] == npcs[row["profile"]]["name"]
    assert kinds == set(Victory)


def test_a_scenario_reports_every_problem() -> None:
    data = {
        "players": [2, 2],
        "victory": "objectives",
        "rounds": 0,
        "objectives": 0,
        "vp_objective": 0,
        "npcs": [{"behaviour": "angry"}],
        "x": 1,
    }
    with pytest.raises(SchemaError) as caught:
        scenario_from_data("s", "S", data)
    fields = {error.field for error in caught.value.errors}
    assert {"rounds", "objectives", "vp_objective", "npcs.0.behaviour", "x"} <= fields


def test_last_side_standing_keeps_no_vp() -> None:
    data = {"players": [2, 2], "victory": "last_standing", "rounds": 0, "vp_kill": 3}
    scenario = scenario_from_data("s", "S", data)
    assert scenario.vp_kill == 0 and not scenario.scores_vp and scenario.npcs == ()


def test_npc_behaviours() -> None:
    assert {b.value for b in Behaviour} == {"active", "passive"}
