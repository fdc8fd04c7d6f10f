"""Building a Stahlgewitter army: one named test per rule of the validator, its stable codes,
the units (a head entry and the entries attached to it), costs, totals, settings and the builder
view (stahlgewitter.de.txt "Zusammenstellung der Streitkräfte", "Armeelisten", SPEC §4)."""

from __future__ import annotations

from typing import Any

import pytest

from apps.systems.core.errors import RuleViolation
from apps.systems.core.rosters import EntryInput, RosterInput
from apps.systems.stahlgewitter.builder import builder_view
from apps.systems.stahlgewitter.catalog import Catalog, stahlgewitter_catalog
from apps.systems.stahlgewitter.roster import (
    ISSUE_CODES,
    entry_cost,
    normalise_settings,
    totals,
    units,
    validate_roster,
)
from apps.systems.stahlgewitter.system import StahlgewitterRosterRules
from tests.systems.stahlgewitter.test_catalog import catalog_data, fixture


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return stahlgewitter_catalog(catalog_data())


def entry(profile: str, *items: str, **kw: Any) -> EntryInput:
    return EntryInput(profile=profile, items=items, **kw)


def army(*entries: EntryInput, faction: str = "legion-666", **settings: object) -> RosterInput:
    return RosterInput(faction=faction, settings=settings, entries=entries)


LEGAL = (
    entry("legion-666-offizier", "sturmgewehre", name="Trupp 1"),
    entry("legion-666-soldat", "sturmgewehre", count=6, attach_to=0),
)


def codes(roster: RosterInput, catalog: Catalog) -> list[str]:
    return [issue.code for issue in validate_roster(roster, catalog)]


def test_a_legal_army_has_no_issues(catalog: Catalog) -> None:
    assert codes(army(*LEGAL, game_type="scharmuetzel"), catalog) == []


def test_every_issue_code_is_listed() -> None:
    assert len(set(ISSUE_CODES)) == len(ISSUE_CODES) == 15


def test_unknown_faction(catalog: Catalog) -> None:
    assert codes(army(*LEGAL, faction="klingonen"), catalog) == ["unknown_faction"]


def test_no_army_list_for_a_faction_the_rulebook_prints_none_for(catalog: Catalog) -> None:
    """ "Anhand der Armeelisten (ab Seite XX) sucht sich dann jeder Spieler Einheiten aus": BUP
    has no printed list."""
    found = codes(army(faction="bup"), catalog)
    assert found[:2] == ["no_army_list", "empty_roster"]


def test_empty_roster(catalog: Catalog) -> None:
    assert codes(army(), catalog) == ["empty_roster"]


def test_unknown_profile(catalog: Catalog) -> None:
    assert codes(army(*LEGAL, entry("legion-666-drache", "messer")), catalog) == ["unknown_profile"]


def test_wrong_faction(catalog: Catalog) -> None:
    """Each player picks units from his faction's army list."""
    assert codes(army(*LEGAL, entry("sek-soldat", "gewehre")), catalog) == ["wrong_faction"]


def test_both_ming_lists_belong_to_ming_imperium(catalog: Catalog) -> None:
    roster = army(
        entry("schwarze-garde-offizier", "gewehre"),
        entry("vigilen-polizist", "keulen", attach_to=0),
        faction="ming-imperium",
    )
    assert codes(roster, catalog) == []


def test_unknown_item(catalog: Catalog) -> None:
    assert codes(army(entry("legion-666-soldat", "gewehre", "laserschwert")), catalog) == [
        "unknown_item"
    ]


def test_item_kind_a_game_type_is_never_carried(catalog: Catalog) -> None:
    assert codes(army(entry("legion-666-soldat", "gewehre", "gefecht")), catalog) == ["item_kind"]


def test_item_duplicate_equipment_or_variant_twice(catalog: Catalog) -> None:
    roster = army(entry("legion-666-soldat", "gewehre", "fahne", "fahne"))
    assert codes(roster, catalog) == ["item_duplicate"]


def test_two_weapons_of_a_kind_are_allowed(catalog: Catalog) -> None:
    assert codes(army(entry("legion-666-soldat", "messer", "messer")), catalog) == []


def test_armour_count_at_most_one_armour(catalog: Catalog) -> None:
    roster = army(entry("legion-666-soldat", "gewehre", "kevlar", "scoutpanzerung"))
    assert codes(roster, catalog) == ["armour_count"]


def test_variant_without_melee(catalog: Catalog) -> None:
    """Energie-/Vibro-Varianten upgrade a melee weapon ("- - +1")."""
    roster = army(entry("legion-666-soldat", "gewehre", "energie-variante"))
    assert codes(roster, catalog) == ["variant_without_melee"]


def test_unarmed_a_model_needs_a_weapon(catalog: Catalog) -> None:
    assert codes(army(entry("legion-666-soldat", "kevlar")), catalog) == ["unarmed"]


@pytest.mark.parametrize("target", [5, -1, 0, 1])
def test_attach_invalid_only_to_another_unit_head(catalog: Catalog, target: int) -> None:
    """A unit is a head and the entries attached to it; units do not nest."""
    roster = army(
        entry("legion-666-offizier", "gewehre"),
        entry("legion-666-soldat", "gewehre", attach_to=0 if target != 0 else None),
        entry("legion-666-soldat", "gewehre", attach_to=target),
    )
    expected = [] if target == 0 else ["attach_invalid"]
    assert codes(roster, catalog) == expected


def test_points_limit(catalog: Catalog) -> None:
    """ "Armeepunkte repräsentieren die Kosten der Einheiten, die jeder Spieler verbrauchen
    darf"."""
    assert codes(army(*LEGAL, points_limit=100), catalog) == ["points_limit"]


def test_the_game_type_maximum_is_the_limit_without_an_agreed_one(catalog: Catalog) -> None:
    many = entry("legion-666-soldat-e", "raketenwerfer", count=10)
    assert codes(army(*LEGAL, many, game_type="scharmuetzel"), catalog) == ["points_limit"]


def test_game_type_range_points_below_the_minimum(catalog: Catalog) -> None:
    assert codes(army(*LEGAL, game_type="schlacht"), catalog) == ["game_type_range"]


def test_game_type_range_a_points_limit_outside_the_range(catalog: Catalog) -> None:
    assert codes(army(*LEGAL, game_type="gefecht", points_limit=300), catalog) == [
        "game_type_range"
    ]


def test_game_type_unknown(catalog: Catalog) -> None:
    assert codes(army(*LEGAL, game_type="weltkrieg"), catalog) == ["game_type_unknown"]


def test_an_entry_costs_count_times_profile_and_items(catalog: Catalog) -> None:
    """Soldat 25 + Sturmgewehre 8 = 33, six of them 198."""
    assert entry_cost(LEGAL[1], catalog) == 6 * 33


def test_an_armour_replaces_the_standard_one_and_pays_the_difference(catalog: Catalog) -> None:
    """Legion Soldat (25, TiPla-Kampfpanzerung 10) in Kevlar (2): 25 + 5 (Schwerter) − 8."""
    assert entry_cost(entry("legion-666-soldat", "schwerter", "kevlar"), catalog) == 22


def test_totals(catalog: Catalog) -> None:
    roster = army(*LEGAL, entry("legion-666-kultist", "messer", count=4), game_type="gefecht")
    assert totals(roster, catalog).as_dict() == {
        "points": 28 + 8 + 6 * 33 + 4 * 18,
        "points_limit": 800,
        "models": 11,
        "units": 2,
        "leaders": 1,
        "game_type": "gefecht",
        "min_points": 400,
        "max_points": 800,
    }


def test_units_group_heads_and_attached_entries(catalog: Catalog) -> None:
    roster = army(
        entry("legion-666-kultist", "messer"),
        entry("legion-666-offizier", "gewehre"),
        entry("legion-666-soldat", "gewehre", attach_to=1),
        entry("legion-666-soldat", "gewehre", attach_to=0),
    )
    assert units(roster) == {0: (0, 3), 1: (1, 2)}


def test_settings_take_a_points_limit_and_a_game_type() -> None:
    assert normalise_settings({"points_limit": 500, "game_type": "gefecht"}) == {
        "points_limit": 500,
        "game_type": "gefecht",
    }
    assert normalise_settings({"points_limit": None, "game_type": ""}) == {}
    assert normalise_settings({"points_limit": "600"}) == {"points_limit": 600}


@pytest.mark.parametrize(
    ("settings", "code"),
    [
        ({"points_limit": 0}, "points_limit"),
        ({"points_limit": True}, "points_limit"),
        ({"points_limit": 10_001}, "points_limit"),
        ({"game_type": ["gefecht"]}, "settings_invalid"),
        ({"game_type": "Gefecht!"}, "settings_invalid"),
        ({"game_size": 5}, "settings_invalid"),
    ],
)
def test_settings_refusals(settings: dict[str, object], code: str) -> None:
    with pytest.raises(RuleViolation) as refused:
        normalise_settings(settings)
    assert refused.value.code == code


def test_the_roster_rules_offer_the_catalogues_game_types_with_their_ranges() -> None:
    """SPEC §4: the game types' ranges are catalogue data an organiser edits; a game type added
    in the admin is offered like the printed three, smallest range first."""
    option = StahlgewitterRosterRules.options[0]
    assert option.key == "game_type"
    document = fixture()
    document["items"].append(
        {
            "slug": "patrouille",
            "name": "Patrouille",
            "kind": "game_type",
            "cost": 0,
            "stats": {"min_points": 100, "max_points": 200},
        }
    )
    choices = option.catalog_choices(catalog_data(document))
    assert [c.value for c in choices] == ["", "patrouille", "scharmuetzel", "gefecht", "schlacht"]
    gefecht = choices[3]
    assert gefecht.label % dict(gefecht.params) == "Gefecht (400-800 points)"
    assert StahlgewitterRosterRules.max_count == 20


def test_the_builder_shows_values_as_worn_and_the_reduction(catalog: Catalog) -> None:
    roster = army(*LEGAL, entry("legion-666-soldat-v", "schwerter", "vibro-variante", "kevlar"))
    view = builder_view(roster, catalog)
    veteran = view.entries[2]
    assert veteran.model is not None
    assert (veteran.model.b, veteran.model.pw, veteran.model.reduction) == (12, 3, 0)
    assert (veteran.model.printed_b, veteran.model.printed_pw) == (6, 7)
    assert not veteran.model.standard_armour
    assert veteran.weapons[0].nkw == "6" and veteran.weapons[0].fkw == "-"
    assert [item.kind for item in veteran.items] == ["weapon", "variant", "armour"]
    assert [u.head for u in view.unit_groups] == [0, 2]
    assert view.unit_groups[0].models == 7 and view.entries[1].unit_name == "Trupp 1"


def test_the_builder_explains_disabled_options(catalog: Catalog) -> None:
    view = builder_view(army(entry("legion-666-soldat", "gewehre", "kevlar")), catalog)
    groups = {group.label: group.options for group in view.entries[0].item_groups}
    armour = {o.slug: o for o in groups["Armour"]}
    variants = {o.slug: o for o in groups["Variants"]}
    assert not armour["scoutpanzerung"].allowed and armour["scoutpanzerung"].reason
    assert not variants["vibro-variante"].allowed


def test_the_builder_says_when_a_faction_has_no_printed_list(catalog: Catalog) -> None:
    panel = builder_view(army(faction="vhocons"), catalog).panel
    assert panel.no_army_list and not panel.lists
    assert "Legion 666" in panel.factions_with_lists and "Vhocons" not in panel.factions_with_lists


def test_the_panel_lists_each_printed_list_leaders_first(catalog: Catalog) -> None:
    panel = builder_view(army(faction="ming-imperium"), catalog).panel
    assert [p.name for p in panel.lists] == ["Schwarze Garde", "Vigilen"]
    assert panel.lists[0].options[0].name.startswith("Offizier")
