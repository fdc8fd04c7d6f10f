"""The unit card schema: every field of SPEC §3, the derived values, and the sample catalogue."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from apps.systems.core.schema import SchemaError
from apps.systems.universalis.catalog import Armour, Equipment, ModelType, Size
from apps.systems.universalis.catalog_stats import card_from_stats, card_stats
from apps.systems.universalis.match.missions import MISSIONS
from apps.systems.universalis.system import UniversalisCatalogSchema
from tests.systems.universalis.helpers import FIXTURE, RIFLE, colossus, fixture_cards, soldier

MISSIONS_FIXTURE = FIXTURE.parent / "missions.json"


def test_perception_range_is_wn_times_5_cm() -> None:
    assert soldier(wn=4).perception_cm == 20


def test_danger_zone_is_12_minus_eh_cm() -> None:
    assert soldier(eh=6).danger_zone_cm == 6


def test_telematon_has_no_danger_zone() -> None:
    assert soldier(type=ModelType.TELEMATON, eh=None).danger_zone_cm is None


def test_carrying_capacity_is_ko_squared_kg() -> None:
    assert soldier(ko=5).capacity_kg == 25


def test_colossus_carrying_capacity_is_double_ko_squared() -> None:
    assert colossus(ko=5).capacity_kg == 100


@pytest.mark.parametrize(
    ("load", "penalty"), [(25, 0), (26, 1), (50, 1), (51, 2), (75, 2), (76, 3)]
)
def test_overload_costs_1_agi_and_gk_per_started_multiple_of_the_capacity(
    load: int, penalty: int
) -> None:
    card = soldier(ko=5, weapons=(replace(RIFLE, weight=load),), armour=None)
    assert card.overload == penalty
    assert card.effective_agi == 5 - penalty
    assert card.effective_speed == 10 - penalty


def test_self_supporting_armour_weighs_nothing() -> None:
    card = soldier(
        ko=2,
        weapons=(),
        armour=Armour(name="Exo", protection=6, weight=50, self_supporting=True),
        equipment=(Equipment(name="Seil", weight=3),),
    )
    assert card.load_kg == 3 and card.overload == 0


def test_unarmed_melee_is_ko_strength_ko_thirds_damage_and_wk_by_size() -> None:
    assert soldier(ko=4).unarmed.strength == 4
    assert soldier(ko=4).unarmed.damage == 2
    assert soldier(size=Size.LARGE).unarmed.wk == 2
    assert colossus().unarmed.wk == 3


def test_colossus_zones_have_two_thirds_of_the_torso_rounded_up() -> None:
    assert colossus(hp=9, hp_critical=3).zone_hp == (6, 2)
    assert colossus(hp=8, hp_critical=4).zone_hp == (5, 3)
    assert colossus(hp=10, hp_critical=3).zone_hp == (7, 2)


def test_a_colossus_zone_holds_two_thirds_of_the_torsos_total_rounded_up() -> None:
    for hp in range(1, 21):
        for critical in range(0, 21 - hp):
            normal, zone_critical = colossus(hp=hp, hp_critical=critical).zone_hp
            assert normal + zone_critical == -(-(hp + critical) * 2 // 3)
            assert zone_critical == -(-critical * 2 // 3)


def _stats(**changes: object) -> dict[str, object]:
    stats = card_stats(soldier())
    stats.update(changes)
    return stats


def _errors(stats: dict[str, object]) -> set[str]:
    with pytest.raises(SchemaError) as caught:
        card_from_stats(slug="x", name="X", factions=("a",), stats=stats)
    return {error.field for error in caught.value.errors}


def test_hit_points_are_at_most_20_in_total() -> None:
    assert "hp_critical" in _errors(_stats(hp=15, hp_critical=6))


def test_a_telematon_has_no_own_agi_nk_fk_or_eh() -> None:
    assert {"agi", "nk", "fk", "eh"} <= _errors(_stats(type="telematon"))


def test_a_standard_model_needs_every_attribute() -> None:
    stats = _stats()
    del stats["agi"]
    assert "agi" in _errors(stats)


def test_a_colossus_is_large_or_huge() -> None:
    assert "size" in _errors(_stats(type="colossus", size="medium"))


def test_weapon_fields_are_checked_with_their_path() -> None:
    weapons = [{"name": "Kanone", "wk": 7, "range": "20/x", "strength": 5, "damage": 2}]
    assert {"weapons.0.wk", "weapons.0.range"} <= _errors(_stats(weapons=weapons))


def test_unknown_effects_are_refused() -> None:
    weapons = [{"name": "G", "wk": 1, "range": "NK", "strength": 1, "damage": 1, "effects": ["x"]}]
    assert "weapons.0.effects.0" in _errors(_stats(weapons=weapons))


def test_profile_summary_lists_the_derived_values() -> None:
    summary = UniversalisCatalogSchema().profile_summary(card_stats(soldier()))
    assert summary["perception_cm"] == 20 and summary["danger_zone_cm"] == 6
    assert summary["capacity_kg"] == 16 and summary["overload"] == 0


def test_structured_fields_round_trip_through_their_form_text() -> None:
    schema = UniversalisCatalogSchema()
    spec = next(s for s in schema.profile_fields if s.name == "weapons")
    stats = card_stats(soldier())
    assert schema.parse_field(spec, schema.format_field(spec, stats["weapons"])) == stats["weapons"]
    with pytest.raises(SchemaError):
        schema.parse_field(spec, "[{")


@pytest.mark.parametrize("text", ["[" * 100_000, "9" * 5_000])
def test_a_structured_field_too_deep_or_too_long_for_the_parser_is_a_field_error(text: str) -> None:
    """The admin's card editor hands the text to the parser: Python's own limits (stack depth,
    digits in an integer) become a field error, never a server error."""
    schema = UniversalisCatalogSchema()
    spec = next(s for s in schema.profile_fields if s.name == "weapons")
    with pytest.raises(SchemaError) as error:
        schema.parse_field(spec, text)
    assert error.value.errors[0].field == "weapons"


def test_every_fixture_card_reads_and_writes_back_exactly() -> None:
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    cards, powers = fixture_cards()
    for row in data["profiles"]:
        assert card_stats(cards[row["slug"]]) == row["stats"]
    assert len(powers) == len(data["items"])


def test_sample_catalogue_has_what_the_issue_asks_for() -> None:
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    cards, _powers = fixture_cards()
    assert len(data["factions"]) >= 2
    assert all(row["sample"] for row in [*data["factions"], *data["profiles"], *data["items"]])
    for faction in data["factions"]:
        own = [c for c in cards.values() if faction["slug"] in c.factions]
        assert sum(c.group_leader for c in own) >= 1 and len(own) >= 5
    every = list(cards.values())
    assert any(c.colossus for c in every)
    assert any(c.telematon for c in every) and any(c.operator for c in every)
    assert any(c.camouflage for c in every)
    assert any(c.disciplines for c in every)


def test_mission_fixture_matches_the_missions_the_tracker_knows() -> None:
    data = json.loads(Path(MISSIONS_FIXTURE).read_text(encoding="utf-8"))
    shipped = {row["slug"]: row for row in data["missions"]}
    assert list(shipped) == [m.slug for m in MISSIONS]
    for goal in MISSIONS:
        row = shipped[goal.slug]
        assert (row["name"], row["number"]) == (goal.name, goal.number)
        assert row["data"]["victory"] == goal.victory
        assert row["data"]["rounds_needed"] == goal.rounds_needed
        assert row["data"]["summary"] == goal.summary
        assert row["data"]["sample"] is True
