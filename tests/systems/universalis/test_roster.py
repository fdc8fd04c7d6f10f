"""The group builder's one validator: a named test per rule and issue code (SPEC §3)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from apps.systems.core.errors import RuleViolation
from apps.systems.core.rosters import EntryInput, RosterInput, points_limit_settings
from apps.systems.universalis.builder import builder_view
from apps.systems.universalis.catalog import Discipline, ModelType, Size
from apps.systems.universalis.roster import (
    ISSUE_CODES,
    Catalog,
    totals,
    validate_roster,
)
from apps.systems.universalis.system import UniversalisRosterRules
from tests.systems.universalis.helpers import power, soldier

LEADER = soldier("Chef", group_leader=True, points=50)
TROOPER = soldier("Soldat", points=30)
OPERATOR = soldier("Techniker", operator=1, points=35)
DRONE = replace(
    soldier("Drohne", points=20, size=Size.SMALL, ko=2),
    type=ModelType.TELEMATON,
    agi=None,
    nk=None,
    fk=None,
    eh=None,
)
MAGE = soldier("Magier", disciplines=(Discipline("Magie", 1),), points=40)
OTHER = soldier("Fremder", factions=("b",))
BOLT, SHIELD = power("Blitz"), power("Schild")
CATALOG = Catalog(
    factions={"a": "A", "b": "B"},
    cards={c.slug: c for c in (LEADER, TROOPER, OPERATOR, DRONE, MAGE, OTHER)},
    powers={p.slug: p for p in (BOLT, SHIELD)},
)


def roster(*entries: EntryInput, faction: str = "a", **settings: object) -> RosterInput:
    return RosterInput(faction=faction, settings=settings, entries=entries)


def e(card: object, *items: str, attach_to: int | None = None, count: int = 1) -> EntryInput:
    return EntryInput(profile=card.slug, items=items, attach_to=attach_to, count=count)  # type: ignore[attr-defined]


def codes(group: RosterInput) -> list[str]:
    return [issue.code for issue in validate_roster(group, CATALOG)]


def test_legal_group_has_no_issues() -> None:
    assert codes(roster(e(LEADER), e(TROOPER))) == []


def test_unknown_faction() -> None:
    assert "unknown_faction" in codes(roster(e(LEADER), e(TROOPER), faction="zz"))


def test_unknown_profile() -> None:
    group = roster(e(LEADER), e(TROOPER), EntryInput(profile="nobody"))
    assert "unknown_profile" in codes(group)


def test_unknown_item() -> None:
    assert "unknown_item" in codes(roster(e(LEADER), e(MAGE, "nothing")))


def test_wrong_faction() -> None:
    assert "wrong_faction" in codes(roster(e(LEADER), e(OTHER)))


def test_too_few_models() -> None:
    assert "too_few_models" in codes(roster(e(LEADER)))


def test_leader_count_none() -> None:
    assert "leader_count" in codes(roster(e(TROOPER), e(TROOPER)))


def test_leader_count_two() -> None:
    assert "leader_count" in codes(roster(e(LEADER), e(LEADER)))


def test_telematon_unassigned() -> None:
    assert "telematon_unassigned" in codes(roster(e(LEADER), e(OPERATOR), e(DRONE)))


def test_telematon_assigned_to_its_operator_is_legal() -> None:
    assert codes(roster(e(LEADER), e(OPERATOR), e(DRONE, attach_to=1))) == []


def test_attach_invalid_for_a_model_that_is_no_telematon() -> None:
    assert "attach_invalid" in codes(roster(e(LEADER), e(OPERATOR), e(TROOPER, attach_to=1)))


def test_attach_invalid_to_a_model_that_cannot_operate() -> None:
    assert "attach_invalid" in codes(roster(e(LEADER), e(TROOPER), e(DRONE, attach_to=1)))


def test_operator_capacity() -> None:
    group = roster(e(LEADER), e(OPERATOR), e(DRONE, attach_to=1), e(DRONE, attach_to=1))
    assert "operator_capacity" in codes(group)


def test_operator_count() -> None:
    group = roster(e(LEADER), e(OPERATOR, count=2), e(DRONE, attach_to=1))
    assert "operator_count" in codes(group)


def test_power_no_discipline() -> None:
    assert "power_no_discipline" in codes(roster(e(LEADER, "blitz"), e(TROOPER)))


def test_power_limit_is_the_discipline_level() -> None:
    assert "power_limit" in codes(roster(e(LEADER), e(MAGE, "blitz", "schild")))
    assert codes(roster(e(LEADER), e(MAGE, "blitz"))) == []


def test_power_duplicate() -> None:
    assert "power_duplicate" in codes(roster(e(LEADER), e(MAGE, "blitz", "blitz")))


def test_points_limit_only_when_set() -> None:
    assert codes(roster(e(LEADER), e(TROOPER))) == []
    assert "points_limit" in codes(roster(e(LEADER), e(TROOPER), points_limit=79))
    assert codes(roster(e(LEADER), e(TROOPER), points_limit=80)) == []


def test_every_issue_code_has_a_test() -> None:
    tested = {name.removeprefix("test_").split("_is_")[0] for name in globals()}
    assert {code for code in ISSUE_CODES if not any(t.startswith(code) for t in tested)} == set()


def test_totals_count_points_models_leaders_telematons_and_powers() -> None:
    sums = totals(roster(e(LEADER), e(OPERATOR), e(DRONE, attach_to=1), e(MAGE, "blitz")), CATALOG)
    assert sums.as_dict() == {
        "points": 145,
        "points_limit": None,
        "models": 4,
        "leaders": 1,
        "telematons": 1,
        "powers": 1,
    }


def test_settings_points_limit_is_optional_and_positive() -> None:
    assert points_limit_settings({}) == {}
    assert points_limit_settings({"points_limit": None}) == {}
    assert points_limit_settings({"points_limit": 300}) == {"points_limit": 300}
    for bad, code in (
        ({"points_limit": 0}, "points_limit"),
        ({"points_limit": "x"}, "points_limit"),
        ({"points_limit": 10_001}, "points_limit"),
        ({"game_size": 5}, "settings_invalid"),
    ):
        with pytest.raises(RuleViolation) as raised:
            points_limit_settings(bad)
        assert raised.value.code == code


def test_builder_disables_a_second_leader_and_powers_beyond_the_level() -> None:
    view = builder_view(roster(e(LEADER), e(MAGE, "blitz"), e(OPERATOR), e(DRONE)), CATALOG)
    leader = next(o for o in view.panel.options if o.slug == LEADER.slug)
    assert not leader.allowed and leader.reason
    mage = view.fighters[1]
    assert [o.allowed for o in mage.power_options] == [False, False]
    drone = view.fighters[3]
    assert [(o.name, o.allowed) for o in drone.operator_options] == [("Techniker", True)]


def test_roster_rules_report_totals_as_json() -> None:
    from apps.systems.core.rosters import CatalogData, CatalogEntry
    from apps.systems.universalis.catalog_stats import card_stats, power_stats

    data = CatalogData(
        factions={"a": "A"},
        profiles={
            c.slug: CatalogEntry(c.slug, c.name, card_stats(c), factions=c.factions)
            for c in (LEADER, TROOPER)
        },
        items={BOLT.slug: CatalogEntry(BOLT.slug, BOLT.name, power_stats(BOLT), kind="power")},
    )
    report = UniversalisRosterRules().report(roster(e(LEADER), e(TROOPER)), data)
    assert report.valid and report.totals["points"] == 80
