"""The Deathmatch catalogue schema: stats JSON, field descriptions and the textarea formats."""

from __future__ import annotations

import copy

import pytest

from apps.systems.core.errors import RuleViolation
from apps.systems.deathmatch.catalog import (
    ITEM_FIELDS,
    KAMPFMESSER,
    MOVE_INCHES,
    PROFILE_FIELDS,
    Ability,
    Catalog,
    EquipmentCard,
    Faction,
    FieldError,
    FieldSpec,
    FieldType,
    FighterProfile,
    ItemKind,
    Movement,
    Rank,
    SchemaError,
    SpecialAction,
    Weapon,
    WeaponKind,
    catalog_document,
    catalog_from_document,
    format_abilities,
    format_field,
    format_special_action,
    format_weapons,
    item_from_stats,
    item_stats,
    parse_abilities,
    parse_field,
    parse_red_values,
    parse_special_action,
    parse_weapons,
    profile_from_stats,
    profile_stats,
)
from tests.systems.deathmatch.conftest import PISTOL

SIGMA_EDGE = Weapon(
    name="Sigma Edge",
    kind=WeaponKind.MELEE,
    paired=True,
    range_inches=0,
    combat_value=4,
    bonus_cards=1,
    strength=3,
    special_rules=("Handwaffe", "Schock"),
)
ANZI = FighterProfile(
    slug="anzi",
    name="Atalante C021 „Anzi“",
    factions=("organon",),
    rank=Rank.SPECIALIST,
    arp=2,
    command=1,
    reflex=8,
    resistance=4,
    lp=6,
    movement=Movement.FAST,
    abilities=(Ability("Zäh", "Verwundungsflips gegen das Modell werden um ⬡ erschwert."),),
    weapons=(SIGMA_EDGE, PISTOL),
    hero=True,
    red_values=("reflex", "weapon:0"),
    version=3,
    sample=True,
)
SPRUNGMODULE = EquipmentCard(
    slug="sprungmodule",
    name="Rüstungsupgrade Sprungmodule",
    cost=2,
    limit_per_model=1,
    kind=ItemKind.ARMOUR_UPGRADE,
    text="Das Modell erhält die folgende Aktion:",
    usage_limit="Einmal pro Aktivierung verwendbar.",
    special_action=SpecialAction("Sprung", 1, 'Das Modell wird innerhalb von 6" neu platziert.'),
    printed_version="V1.1",
)


def read_profile(stats: dict[str, object], **columns: object) -> FighterProfile:
    row: dict[str, object] = {
        "slug": "anzi",
        "name": "Anzi",
        "factions": ["organon"],
        "version": 1,
        "sample": False,
    }
    row.update(columns)
    return profile_from_stats(stats=stats, **row)  # type: ignore[arg-type]


def problems(error: pytest.ExceptionInfo[SchemaError]) -> dict[str, str]:
    return {error_.field: error_.message for error_ in error.value.errors}


# --- The dataclasses -------------------------------------------------------------------------


def test_movement_classes_are_five_four_and_six_inches() -> None:
    assert MOVE_INCHES == {Movement.NORMAL: 5, Movement.SLOW: 4, Movement.FAST: 6}


def test_fighter_without_a_melee_weapon_carries_the_kampfmesser() -> None:
    gunner = FighterProfile("g", "G", ("organon",), Rank.TROOPER, 1, 0, 6, 4, 4, weapons=(PISTOL,))
    assert gunner.melee_weapons_or_knife == (PISTOL, KAMPFMESSER)
    assert (KAMPFMESSER.range_inches, KAMPFMESSER.combat_value) == (0, 1)
    assert (KAMPFMESSER.bonus_cards, KAMPFMESSER.strength) == (2, 0)
    assert KAMPFMESSER.kind is WeaponKind.MELEE


def test_fighter_with_a_melee_weapon_carries_no_kampfmesser() -> None:
    assert ANZI.melee_weapons_or_knife == ANZI.weapons


def test_mech_ability_makes_a_mech() -> None:
    walker = FighterProfile(
        "w", "W", ("phalanx",), Rank.SPECIALIST, 1, 0, 5, 6, 8, abilities=(Ability("Mech"),)
    )
    assert walker.mech
    assert not ANZI.mech


def test_character_upgrade_is_the_card_kind() -> None:
    assert not SPRUNGMODULE.character_upgrade
    upgrade = EquipmentCard("stims", "Stims", 1, 2, ItemKind.CHARACTER_UPGRADE)
    assert upgrade.character_upgrade


def test_catalog_lists_faction_slugs() -> None:
    catalog = Catalog.build([Faction("organon", "Organon"), Faction("phalanx", "Phalanx")])
    assert catalog.faction_slugs() == ("organon", "phalanx")
    assert catalog.faction("phalanx") == Faction("phalanx", "Phalanx")
    assert catalog.faction("atlantis") is None


# --- Stats round trips -----------------------------------------------------------------------


def test_profile_stats_round_trip_is_exact() -> None:
    stats = profile_stats(ANZI)
    again = profile_from_stats(
        slug=ANZI.slug,
        name=ANZI.name,
        factions=ANZI.factions,
        stats=stats,
        version=ANZI.version,
        sample=ANZI.sample,
    )
    assert again == ANZI
    assert profile_stats(again) == stats


def test_item_stats_round_trip_is_exact() -> None:
    for item in (SPRUNGMODULE, EquipmentCard("p", "P", 1, 1, ItemKind.WEAPON, weapon=PISTOL)):
        stats = item_stats(item)
        again = item_from_stats(
            slug=item.slug,
            name=item.name,
            kind=item.kind.value,
            cost=item.cost,
            stats=stats,
            version=item.version,
            sample=item.sample,
        )
        assert again == item
        assert item_stats(again) == stats


def test_stats_keys_are_exactly_the_field_specs() -> None:
    assert list(profile_stats(ANZI)) == [spec.name for spec in PROFILE_FIELDS]
    assert list(item_stats(SPRUNGMODULE)) == [spec.name for spec in ITEM_FIELDS]


def test_optional_stats_keys_take_their_defaults() -> None:
    profile = read_profile(
        {
            "rank": "trooper",
            "arp": 1,
            "command": 0,
            "reflex": 6,
            "resistance": 4,
            "lp": 4,
            "movement": "normal",
        }
    )
    assert profile.respawner
    assert (profile.weapons, profile.abilities, profile.red_values) == ((), (), ())
    assert not (profile.hero or profile.mech)
    assert profile.printed_version == ""


def test_strings_are_stripped_when_read() -> None:
    stats = profile_stats(ANZI)
    stats["abilities"] = [{"name": " Zäh ", "text": " erschwert. "}]
    profile = read_profile(stats, name="  Anzi ")
    assert profile.name == "Anzi"
    assert profile.abilities == (Ability("Zäh", "erschwert."),)


# --- Schema errors ---------------------------------------------------------------------------


def test_schema_error_lists_every_problem_with_dotted_paths() -> None:
    stats = profile_stats(ANZI)
    stats.update(
        rank="boss",
        arp=-1,
        lp=0,
        movement="teleport",
        respawner="yes",
        colour="red",
    )
    weapons = copy.deepcopy(stats["weapons"])
    assert isinstance(weapons, list)
    weapons[1]["strength"] = -2
    weapons[1]["bonus_cards"] = 3
    weapons[1]["calibre"] = 9
    stats["weapons"] = weapons
    with pytest.raises(SchemaError) as error:
        read_profile(stats, slug="", version=0)
    assert error.value.code == "invalid_stats"
    assert isinstance(error.value, RuleViolation)
    assert problems(error) == {
        "colour": "unknown field.",
        "rank": "must be one of leader, trooper, specialist, not 'boss'.",
        "arp": "must be at least 0, not -1.",
        "lp": "must be at least 1, not 0.",
        "respawner": "must be true or false, not 'yes'.",
        "movement": "must be one of normal, slow, fast, not 'teleport'.",
        "weapons.1.calibre": "unknown field.",
        "weapons.1.bonus_cards": "must be at most 2, not 3.",
        "weapons.1.strength": "must be at least 0, not -2.",
        "slug": "must not be empty.",
        "version": "must be at least 1, not 0.",
    }
    assert "weapons.1.strength: must be at least 0, not -2." in error.value.message


def test_missing_required_stats_are_reported_once_each() -> None:
    with pytest.raises(SchemaError) as error:
        read_profile({"rank": "leader"})
    assert [e.field for e in error.value.errors] == [
        "arp",
        "command",
        "reflex",
        "resistance",
        "lp",
        "movement",
    ]
    assert {e.message for e in error.value.errors} == {"is required."}


def test_true_is_not_a_number_and_one_is_not_true() -> None:
    stats = profile_stats(ANZI)
    stats.update(arp=True, hero=1)
    with pytest.raises(SchemaError) as error:
        read_profile(stats)
    assert set(problems(error)) == {"arp", "hero"}


def test_red_values_must_name_reflex_or_a_weapon_of_the_profile() -> None:
    stats = profile_stats(ANZI)
    stats["red_values"] = ["reflex", "weapon:2", "weapon:01", "strength", "reflex"]
    with pytest.raises(SchemaError) as error:
        read_profile(stats)
    assert set(problems(error)) == {
        "red_values.1",
        "red_values.2",
        "red_values.3",
        "red_values.4",
    }


def test_profile_needs_at_least_one_faction_listed_once() -> None:
    with pytest.raises(SchemaError) as error:
        read_profile(profile_stats(ANZI), factions=[])
    assert problems(error) == {"factions": "must name at least one faction."}
    with pytest.raises(SchemaError) as error:
        read_profile(profile_stats(ANZI), factions=["organon", "organon"])
    assert problems(error) == {"factions.1": "'organon' is listed twice."}


def test_characters_that_would_break_the_text_formats_are_refused() -> None:
    stats = profile_stats(ANZI)
    stats["abilities"] = [{"name": "Zäh: sehr", "text": "zwei\nZeilen"}]
    weapons = copy.deepcopy(stats["weapons"])
    assert isinstance(weapons, list)
    weapons[0]["name"] = "Sigma | Edge"
    weapons[0]["special_rules"] = ["Handwaffe; Schock"]
    stats["weapons"] = weapons
    with pytest.raises(SchemaError) as error:
        read_profile(stats)
    assert problems(error) == {
        "abilities.0.name": "must not contain ':'.",
        "abilities.0.text": "must be a single line.",
        "weapons.0.name": "must not contain '|'.",
        "weapons.0.special_rules.0": "must not contain ';'.",
    }


def test_item_errors_are_all_listed() -> None:
    stats = item_stats(SPRUNGMODULE)
    stats.update(limit_per_model=0, special_action={"name": "Sprung", "ap": -1, "extra": 1})
    with pytest.raises(SchemaError) as error:
        item_from_stats(
            slug="s", name="S", kind="amulet", cost=-1, stats=stats, version=1, sample=False
        )
    assert problems(error) == {
        "kind": (
            "must be one of weapon, armour_upgrade, character_upgrade, gear, respawn_focus, "
            "not 'amulet'."
        ),
        "limit_per_model": "must be at least 1, not 0.",
        "special_action.extra": "unknown field.",
        "special_action.ap": "must be at least 0, not -1.",
        "cost": "must be at least 0, not -1.",
    }


def test_weapon_card_needs_a_weapon_profile() -> None:
    with pytest.raises(SchemaError) as error:
        item_from_stats(
            slug="gun",
            name="Gun",
            kind="weapon",
            cost=1,
            stats={"limit_per_model": 1},
            version=1,
            sample=False,
        )
    assert problems(error) == {"weapon": "a weapon card needs a weapon profile."}


# --- Field descriptions ----------------------------------------------------------------------


def test_field_specs_give_the_admin_one_input_per_stats_key() -> None:
    types = {spec.name: spec.type for spec in PROFILE_FIELDS}
    assert types["rank"] is FieldType.CHOICE
    assert types["weapons"] is FieldType.WEAPONS
    assert types["red_values"] is FieldType.RED_VALUES
    labels = {spec.name: spec.label for spec in PROFILE_FIELDS}
    assert labels["reflex"] == "Reflex"
    assert labels["resistance"] == "Widerstand (Resistance)"
    assert {key for key, _ in next(s for s in PROFILE_FIELDS if s.name == "rank").choices} == {
        "leader",
        "trooper",
        "specialist",
    }
    # A required checkbox would have to be ticked: booleans are never required.
    assert not any(spec.required for spec in PROFILE_FIELDS + ITEM_FIELDS if spec.type == "bool")


def test_format_and_parse_field_edit_structured_stats_as_text() -> None:
    stats = profile_stats(ANZI)
    item = item_stats(EquipmentCard("p", "P", 1, 1, ItemKind.WEAPON, weapon=PISTOL))
    for spec, value in [(spec, stats[spec.name]) for spec in PROFILE_FIELDS] + [
        (spec, item[spec.name]) for spec in ITEM_FIELDS
    ]:
        if spec.type in ("weapons", "abilities", "special_action", "red_values"):
            assert parse_field(spec, format_field(spec, value)) == value
    weapon_spec = next(spec for spec in ITEM_FIELDS if spec.name == "weapon")
    assert parse_field(weapon_spec, "") is None
    with pytest.raises(SchemaError):
        parse_field(weapon_spec, format_weapons([PISTOL, SIGMA_EDGE]))


def test_format_field_is_only_for_structured_fields() -> None:
    with pytest.raises(ValueError):
        format_field(FieldSpec("arp", "ARP", FieldType.INT), 1)


# --- Text formats ----------------------------------------------------------------------------


def test_weapons_text_round_trip_is_exact() -> None:
    weapons = (SIGMA_EDGE, PISTOL, KAMPFMESSER)
    text = format_weapons(weapons)
    assert text.splitlines()[0] == ("Sigma Edge | MM | RW 0 | NK 4 | ⬠ 1 | S 3 | Handwaffe; Schock")
    assert parse_weapons(text) == weapons


def test_weapons_text_is_forgiving() -> None:
    text = (
        "\n"
        '  Pistole|p|FK:2|RW: 10"|S:2|Handwaffe  \n'
        "Sigma Edge | MM | NK 4 | RW 0 | ⬠⬠ | S 3 | -\n"
        'Granaten | P | RW 8 | FK 2 | Bonus 1 | S 3 | Flächenschaden 2"; Limitiert (3)\n'
    )
    pistol, edge, grenades = parse_weapons(text)
    assert pistol == PISTOL
    assert (edge.paired, edge.bonus_cards, edge.special_rules) == (True, 2, ())
    assert grenades.special_rules == ('Flächenschaden 2"', "Limitiert (3)")
    assert grenades.bonus_cards == 1


def test_weapons_text_errors_name_every_bad_line() -> None:
    text = (
        "Sigma Edge | M | RW 0 | NK 4 | S 3\n"
        "Pistole | Q | RW 10 | FK 2 | S 2\n"
        "Axt | M | RW 0 | FK 3 | ⬠ 3\n"
        "Nur ein Name\n"
    )
    with pytest.raises(SchemaError) as error:
        parse_weapons(text)
    assert [str(problem) for problem in error.value.errors] == [
        "weapons line 2: the kind must be P, PP, M or MM, not 'Q'.",
        "weapons line 3: M weapons have NK, not FK.",
        "weapons line 3: missing S.",
        "weapons line 3: ⬠ must be at most 2, not 3.",
        "weapons line 4: expected Name | P/PP/M/MM | RW .. | FK/NK .. | S ..",
    ]
    assert all(problem.field == "weapons" for problem in error.value.errors)


def test_abilities_text_round_trip_is_exact() -> None:
    abilities = (Ability("Mech"), Ability("Zäh", "Verwundungsflips: erschwert (⬡)."))
    text = format_abilities(abilities)
    assert text == "Mech\nZäh: Verwundungsflips: erschwert (⬡)."
    assert parse_abilities(text) == abilities


def test_abilities_text_error_names_the_line() -> None:
    with pytest.raises(SchemaError) as error:
        parse_abilities("Mech\n: kein Name")
    assert [str(problem) for problem in error.value.errors] == [
        "abilities line 2: name must not be empty."
    ]


def test_special_action_text_round_trip_is_exact() -> None:
    action = SPRUNGMODULE.special_action
    text = format_special_action(action)
    assert text == 'Sprung | 1 | Das Modell wird innerhalb von 6" neu platziert.'
    assert parse_special_action(text) == action
    assert parse_special_action("Sprung | 1 AP") == SpecialAction("Sprung", 1)
    assert parse_special_action("  ") is None
    assert format_special_action(None) == ""


def test_special_action_text_errors_name_the_line() -> None:
    with pytest.raises(SchemaError) as error:
        parse_special_action("Sprung | eins | weit")
    assert str(error.value.errors[0]) == (
        "special_action line 1: expected Name | AP | text, the AP cost is 'eins'."
    )
    with pytest.raises(SchemaError):
        parse_special_action("Sprung | 1\nRollen | 1")


def test_red_values_text_is_checked_against_the_weapons() -> None:
    assert parse_red_values("reflex, weapon:1") == ("reflex", "weapon:1")
    with pytest.raises(SchemaError) as error:
        parse_red_values("reflex weapon:1 speed", weapon_count=1)
    assert len(error.value.errors) == 2


# --- Catalogue documents ---------------------------------------------------------------------


def test_catalog_document_round_trip_is_exact() -> None:
    catalog = Catalog.build([Faction("organon", "Organon")], [ANZI], [SPRUNGMODULE])
    document = catalog_document(catalog, notes=["invented"])
    again = catalog_from_document(document)
    # Documents carry no version counters.
    assert again.profiles["anzi"] == FighterProfile(**{**vars(ANZI), "version": 1})
    assert catalog_document(again, notes=["invented"]) == document


def test_catalog_document_errors_are_all_listed() -> None:
    catalog = Catalog.build([Faction("organon", "Organon")], [ANZI], [SPRUNGMODULE])
    document = catalog_document(catalog)
    profiles = document["profiles"]
    assert isinstance(profiles, list)
    profiles.append(copy.deepcopy(profiles[0]))
    profiles[0]["factions"] = ["atlantis"]
    profiles[1]["stats"]["arp"] = -1
    document["format"] = "skirmish-catalog/0"
    with pytest.raises(SchemaError) as error:
        catalog_from_document(document)
    assert [problem.field for problem in error.value.errors] == [
        "format",
        "profiles.0.factions.0",
        "profiles.1.stats.arp",
        "profiles.1.slug",
    ]


def test_field_error_reads_as_a_sentence() -> None:
    assert str(FieldError("weapons.1.strength", "must be at least 0.")) == (
        "weapons.1.strength: must be at least 0."
    )
    assert str(FieldError("weapons", "missing S.", 2)) == "weapons line 2: missing S."
