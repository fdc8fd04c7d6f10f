"""The BattleScribe import (apps/systems/bunkers/battlescribe.py): the shared test rosters read
to their exact totals, and hostile or broken files refused with their code and nothing else.

The rosters are read from ../shared/test-data/battlescribe/ (never copied into the project);
malicious files are built here in memory."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apps.systems.bunkers.battlescribe import (
    LIMITS,
    REFUSALS,
    BattleScribeRefused,
    Costs,
    ImportedArmy,
    ImportedUnit,
    army_units,
    parse_roster_file,
)

DATA = Path(__file__).resolve().parents[3].parent / "shared" / "test-data" / "battlescribe"
BLOOD_ANGELS = "bloodangels-patrol.ros"
SALAMANDERS = "salamanders-battalion.ros"
NECRONS = "necrons-patrol-over-limit.ros"
NAMESPACE = b'xmlns="http://www.battlescribe.net/schema/rosterSchema"'


def roster_bytes(name: str) -> bytes:
    path = DATA / name
    if not path.is_file():
        pytest.skip(f"the shared BattleScribe test data is not here ({path})")
    return path.read_bytes()


def imported(name: str) -> ImportedArmy:
    return parse_roster_file(roster_bytes(name), name)


def unit_named(army: ImportedArmy, name: str, nth: int = 0) -> ImportedUnit:
    return [unit for unit in army.units if unit.name == name][nth]


def zipped(members: dict[str, bytes], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=method) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def refused(data: bytes, filename: str = "army.ros") -> str:
    with pytest.raises(BattleScribeRefused) as caught:
        parse_roster_file(data, filename)
    error = caught.value
    assert error.code in REFUSALS
    assert error.message == REFUSALS[error.code] % dict(error.params)
    return error.code


def small_roster(selections: str, *, root: str = "roster", extra: str = "") -> bytes:
    """A hand-made roster: one force with ``selections``, elements in an unusual order."""
    return (
        f'<?xml version="1.0" encoding="utf-8"?><{root} name="Small" gameSystemName="40k" '
        f'xmlns="http://www.battlescribe.net/schema/rosterSchema">{extra}<forces>'
        '<force name="Patrol" catalogueName="Orks"><unknownThing a="1"/>'
        f"<selections>{selections}</selections></force></forces>"
        '<costs><cost name="pts" typeId="points" value="10"/></costs></' + root + ">"
    ).encode()


def unit_xml(name: str = "Boyz", points: str = "10", number: str = "1", **attrs: str) -> str:
    more = "".join(f' {key}="{value}"' for key, value in attrs.items())
    return (
        f'<selection type="unit" name="{name}" number="{number}"{more}>'
        '<selections><selection type="model" name="Boy" number="10"><costs>'
        f'<cost typeId="points" value="{points}"/></costs></selection></selections></selection>'
    )


# --- The shared rosters ------------------------------------------------------------------------


def test_blood_angels_patrol_imports_to_its_declared_totals() -> None:
    """README: "Patrol Detachment -2CP | 625 pts / 30 PL / 1 CP"."""
    army = imported(BLOOD_ANGELS)
    assert army.name == "BloodAngels test"
    assert army.game_system == "Warhammer 40,000 9th Edition"
    assert [force.catalogue for force in army.forces] == [
        "Imperium - Adeptus Astartes - Blood Angels"
    ]
    assert army.declared == Costs(points=625, power=30, cp=1)
    assert army.computed == army.declared
    assert not army.totals_differ
    assert army.limits is None
    assert not army.compressed


def test_salamanders_battalion_imports_to_its_declared_totals() -> None:
    """README: "Battalion Detachment 0CP | 625 pts / 32 PL / 6 CP"."""
    army = imported(SALAMANDERS)
    assert army.declared == Costs(points=625, power=32, cp=6)
    assert army.computed == army.declared
    assert [force.name for force in army.forces] == ["Battalion Detachment 0CP"]


def test_necrons_patrol_is_620_points_against_a_500_point_limit() -> None:
    """README: "620 pts against a 500 pts limit"."""
    army = imported(NECRONS)
    assert army.computed == Costs(points=620, power=31, cp=3)
    assert army.declared == army.computed
    assert army.limits == Costs(points=500)
    assert army.computed.points > army.limits.points


def test_units_and_their_model_counts() -> None:
    army = imported(BLOOD_ANGELS)
    assert [unit.name for unit in army.units] == [
        "Primaris Lieutenant",
        "Lieutenant in Phobos Armour",
        "Assault Intercessor Squad",
        "Bladeguard Veteran Squad",
        "Bladeguard Veteran Squad",
        "Outrider Squad",
    ]
    # Models filed as upgrades with a "Unit" profile: a sergeant and four intercessors.
    assert unit_named(army, "Assault Intercessor Squad").models == 5
    assert unit_named(army, "Outrider Squad").models == 3
    necrons = imported(NECRONS)
    assert unit_named(necrons, "Necron Warriors").models == 20
    assert unit_named(necrons, "Cryptothralls").models == 2  # a unit inside an upgrade
    assert len(necrons.units) == 6
    assert len(imported(SALAMANDERS).units) == 5


def test_unit_costs_are_summed_over_its_selections_without_multiplying() -> None:
    army = imported(BLOOD_ANGELS)
    assert unit_named(army, "Assault Intercessor Squad").costs == Costs(points=95, power=5)
    # 75 points for the model, 15 for its neo-volkite pistol; 4 + 1 PL.
    assert unit_named(army, "Primaris Lieutenant").costs == Costs(points=90, power=5)
    assert sum(unit.costs.points for unit in army.units) == 625


def test_characters_are_single_model_units_with_the_wrapper_s_slot() -> None:
    army = imported(BLOOD_ANGELS)
    lieutenant = unit_named(army, "Lieutenant in Phobos Armour")
    assert lieutenant.models == 1
    assert lieutenant.primary_category == "HQ"  # the "Lieutenants" upgrade's slot
    assert "Character" in lieutenant.categories
    captain = unit_named(imported(SALAMANDERS), "Captain")
    assert (captain.models, captain.wounds, captain.primary_category) == (1, 5, "HQ")


def test_categories_and_the_primary_one() -> None:
    squad = unit_named(imported(SALAMANDERS), "Tactical Squad")
    assert squad.primary_category == "Troops"
    assert "Infantry" in squad.categories
    assert "Faction: Adeptus Astartes" in squad.categories


def test_wounds_are_the_highest_w_of_the_profiles() -> None:
    salamanders = imported(SALAMANDERS)
    assert unit_named(salamanders, "Redemptor Dreadnought").wounds == 13  # "13", "N/A", "N/A"
    assert unit_named(salamanders, "Tactical Squad").wounds == 2
    assert unit_named(imported(NECRONS), "Necron Warriors").wounds == 1


def test_a_vehicle_walker_is_detected_and_preselected() -> None:
    """ "Läufer wie z.B. Cybots, Sentinels, usw. sind erlaubt"."""
    dreadnought = unit_named(imported(SALAMANDERS), "Redemptor Dreadnought")
    assert dreadnought.vehicle and dreadnought.likely_walker and not dreadnought.aircraft
    assert not unit_named(imported(SALAMANDERS), "Captain").vehicle


def test_a_deep_strike_like_rule_is_found_by_name() -> None:
    """ "Die entsprechende Sonderregel ist bei jedem Volk anders benannt"."""
    army = imported(BLOOD_ANGELS)
    assert unit_named(army, "Lieutenant in Phobos Armour").deep_strike_rules == (
        "Death from Above",
    )
    assert not unit_named(army, "Outrider Squad").deep_strike


def test_army_units_map_to_unit_inputs() -> None:
    units = army_units(imported(SALAMANDERS))
    dreadnought = units[3]
    assert dreadnought.name == "Redemptor Dreadnought"
    assert (dreadnought.models, dreadnought.points, dreadnought.power) == (1, 175, 9)
    assert not dreadnought.walker  # the player confirms walkers on the builder page
    assert "Vehicle" in dreadnought.keywords
    assert not any(keyword.startswith("Faction:") for keyword in dreadnought.keywords)
    assert all(unit.base == "" and not unit.reserve for unit in units)
    assert sum(unit.points for unit in units) == 625


def test_a_rosz_built_from_a_roster_imports_identically() -> None:
    data = roster_bytes(NECRONS)
    packed = zipped({"Necron June 2021 2.ros": data})
    army = parse_roster_file(packed, "necrons.rosz")
    assert army.compressed
    assert army.units == imported(NECRONS).units
    assert army.computed == imported(NECRONS).computed


def test_the_format_is_told_by_content_not_by_name() -> None:
    data = roster_bytes(NECRONS)
    assert parse_roster_file(zipped({"a.ros": data}), "necrons.ros").compressed
    assert not parse_roster_file(data, "necrons.rosz").compressed


def test_a_roster_without_namespace_and_with_a_bom_imports() -> None:
    data = b"\xef\xbb\xbf" + roster_bytes(SALAMANDERS).replace(NAMESPACE, b"")
    assert parse_roster_file(data, "s.ros").computed.points == 625


def test_declared_totals_that_differ_are_reported_not_refused() -> None:
    """README: "Roster-level totals can be stale ... recompute and report"."""
    data = roster_bytes(BLOOD_ANGELS).replace(b'value="625"', b'value="600"', 1)
    army = parse_roster_file(data, "ba.ros")
    assert army.totals_differ
    assert (army.declared.points if army.declared else 0, army.computed.points) == (600, 625)


def test_unknown_elements_any_order_and_custom_names_are_read() -> None:
    data = small_roster(unit_xml(customName="Da Boyz", points="85"), extra="<whatever/>")
    army = parse_roster_file(data, "small.ros")
    (unit,) = army.units
    assert (unit.name, unit.entry_name, unit.models, unit.wounds) == ("Da Boyz", "Boyz", 10, 1)
    assert army.computed == Costs(points=85)
    assert army.totals_differ  # the hand-made roster declares 10


def test_nested_forces_are_read() -> None:
    inner = (
        f'<forces><force name="Inner" catalogueName="Orks"><selections>{unit_xml("Grots")}'
        "</selections></force></forces><x"
    )
    data = small_roster(unit_xml()).replace(b"<unknownThing", inner.encode())
    army = parse_roster_file(data, "nested.ros")
    assert [force.name for force in army.forces] == ["Patrol", "Inner"]
    assert [(unit.name, unit.force) for unit in army.units] == [("Boyz", 0), ("Grots", 1)]


# --- Refusals -------------------------------------------------------------------------------


def test_a_zip_bomb_is_refused_before_it_is_unpacked() -> None:
    bomb = zipped({"army.ros": b"<roster>" + b"\0" * (40 * 1024 * 1024)})
    assert len(bomb) < LIMITS.rosz_bytes
    assert refused(bomb, "army.rosz") == "zip_bomb"


def test_a_zip_bomb_is_never_opened(monkeypatch: pytest.MonkeyPatch) -> None:
    bomb = zipped({"army.ros": b"<roster>" + b"\0" * (40 * 1024 * 1024)})

    def no_opening(*args: object, **kwargs: object) -> None:
        raise AssertionError("the member was opened")

    monkeypatch.setattr(zipfile.ZipFile, "open", no_opening)
    assert refused(bomb, "army.rosz") == "zip_bomb"


def test_a_zip_whose_header_lies_about_the_size_is_refused() -> None:
    packed = bytearray(zipped({"army.ros": b"<roster>" + b" " * 50_000 + b"</roster>"}))
    local, central = packed.index(b"PK\x03\x04"), packed.index(b"PK\x01\x02")
    packed[local + 22 : local + 26] = (100).to_bytes(4, "little")
    packed[central + 24 : central + 28] = (100).to_bytes(4, "little")
    assert refused(bytes(packed), "army.rosz") == "zip_invalid"


def test_a_suspiciously_well_compressed_roster_is_refused() -> None:
    small_bomb = zipped({"army.ros": b" " * (LIMITS.ros_bytes - 10)})
    assert refused(small_bomb, "army.rosz") == "zip_bomb"


def test_a_zip_with_too_many_members_or_rosters_is_refused() -> None:
    roster = small_roster(unit_xml())
    assert refused(zipped({f"{n}.txt": b"x" for n in range(4)} | {"a.ros": roster})) == (
        "zip_members"
    )
    assert refused(zipped({"a.ros": roster, "b.ros": roster})) == "zip_members"
    assert refused(zipped({"readme.txt": b"hello"})) == "zip_no_roster"


def test_a_damaged_zip_is_refused() -> None:
    packed = zipped({"a.ros": small_roster(unit_xml())})
    assert refused(packed[:40]) == "zip_invalid"
    assert refused(b"PK\x03\x04" + b"\xff" * 100) == "zip_invalid"


def test_files_over_the_size_limits_are_refused() -> None:
    assert refused(b"<roster>" + b" " * LIMITS.ros_bytes) == "file_too_large"
    noise = zipped({"a.ros": bytes(range(256)) * 5000}, zipfile.ZIP_STORED)
    assert len(noise) > LIMITS.rosz_bytes
    assert refused(noise, "a.rosz") == "file_too_large"


def test_billion_laughs_is_refused() -> None:
    lol = (
        b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
        b'<!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">'
        b'<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>'
        b"<roster>&lol3;</roster>"
    )
    assert refused(lol) == "xml_dtd"


def test_an_external_entity_is_refused() -> None:
    xxe = (
        b'<?xml version="1.0"?><!DOCTYPE roster [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>'
        b'<roster name="&xxe;"/>'
    )
    assert refused(xxe) == "xml_dtd"
    assert refused(b'<!DOCTYPE roster SYSTEM "http://example.com/x.dtd"><roster/>') == "xml_dtd"


def test_an_undeclared_entity_is_malformed_xml() -> None:
    assert refused(b"<roster>&nothing;</roster>") == "xml_invalid"


def test_deep_nesting_is_refused() -> None:
    depth = LIMITS.depth + 1
    assert refused(b"<roster>" + b"<a>" * depth + b"</a>" * depth + b"</roster>") == (
        "xml_too_deep"
    )
    assert refused(b"<a>" * 100_000) == "xml_too_deep"


def test_too_many_elements_are_refused() -> None:
    assert refused(b"<roster>" + b"<a/>" * LIMITS.elements + b"</roster>") == (
        "xml_too_many_elements"
    )


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"   ",
        b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR" + b"\0" * 40,
        b'{"roster": {"name": "army"}}',
        b"GIF89a",
    ],
    ids=["empty", "blank", "png", "json", "gif"],
)
def test_files_that_are_not_rosters_at_all_are_refused(data: bytes) -> None:
    assert refused(data) == "file_type"


def test_xml_that_is_not_a_roster_is_refused() -> None:
    assert refused(b"<html><body/></html>") == "not_roster"
    assert refused(b'<roster xmlns="urn:something-else"/>') == "not_roster"
    assert refused(small_roster(unit_xml(), root="catalogue")) == "not_roster"


def test_truncated_xml_is_refused() -> None:
    data = roster_bytes(BLOOD_ANGELS)
    assert refused(data[: len(data) // 2]) == "xml_invalid"


def test_a_roster_without_units_is_refused() -> None:
    assert refused(small_roster('<selection type="upgrade" name="Battle Size"/>')) == "no_units"
    assert refused(b"<roster/>") == "no_units"


def test_a_cost_that_is_not_a_number_is_refused() -> None:
    assert refused(small_roster(unit_xml(points="abc"))) == "cost_invalid"
    assert refused(small_roster(unit_xml(points="nan"))) == "cost_invalid"
    data = roster_bytes(NECRONS).replace(b'value="620"', b'value="abc"', 1)
    assert refused(data) == "cost_invalid"


def test_absurd_numbers_are_refused() -> None:
    assert refused(small_roster(unit_xml(points="1000000"))) == "cost_too_large"
    assert refused(small_roster(unit_xml(number="1001"))) == "number_invalid"
    assert refused(small_roster(unit_xml(number="-1"))) == "number_invalid"
    assert refused(small_roster(unit_xml(number="many"))) == "number_invalid"
    assert refused(small_roster(unit_xml(number="²"))) == "number_invalid"
    # int() of thousands of digits raises ValueError; it must be a refusal, never a crash.
    assert refused(small_roster(unit_xml(number="1" * 5000))) == "number_invalid"


def test_a_unit_larger_than_a_roster_holds_is_refused_naming_it() -> None:
    """Numbers a roster cannot store are refused here, not half-saved later."""
    assert refused(small_roster(unit_xml(points="20000"))) == "unit_out_of_range"
    assert refused(small_roster(unit_xml(points="-5"))) == "unit_out_of_range"


@pytest.mark.parametrize("encoding", ["bogus", "Shift_JIS", "UTF-7"])
def test_an_encoding_expat_cannot_read_is_refused(encoding: str) -> None:
    data = small_roster(unit_xml()).replace(b'encoding="utf-8"', f'encoding="{encoding}"'.encode())
    assert refused(data) == "xml_invalid"


FUZZ = settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)


def _only_refusals(data: bytes) -> None:
    try:
        parse_roster_file(data, "fuzz.ros")
    except BattleScribeRefused as error:
        assert error.code in REFUSALS


@FUZZ
@given(st.binary(max_size=2000))
def test_random_bytes_raise_nothing_but_refusals(data: bytes) -> None:
    _only_refusals(data)
    _only_refusals(b"<roster>" + data)
    _only_refusals(b"PK\x03\x04" + data)


@FUZZ
@given(st.lists(st.tuples(st.floats(0, 1), st.binary(min_size=0, max_size=8)), max_size=6))
def test_mutated_rosters_raise_nothing_but_refusals(edits: list[tuple[float, bytes]]) -> None:
    data = bytearray(roster_bytes(NECRONS))
    for where, new in edits:
        at = int(where * (len(data) - 1))
        data[at : at + len(new)] = new
    _only_refusals(bytes(data))
    _only_refusals(zipped({"a.ros": bytes(data)}))
