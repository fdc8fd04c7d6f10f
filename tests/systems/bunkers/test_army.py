"""Bunkers and Badasses' army restrictions (apps/systems/bunkers/army.py) and its roster rules
(roster.py): one named test per rule of the rulebook's army building."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from apps.systems.bunkers import SYSTEM
from apps.systems.bunkers.army import (
    Base,
    army_issues,
    deep_strikes,
    likely_walker,
    parse_base,
    reserve_limit,
    starting_cp,
)
from apps.systems.bunkers.battlescribe import army_units, parse_roster_file
from apps.systems.bunkers.roster import BunkersBuilderView, BunkersRosterRules
from apps.systems.core.errors import RuleViolation
from apps.systems.core.rosters import CatalogData, EntryInput, RosterInput, UnitInput

DATA = Path(__file__).resolve().parents[3].parent / "shared" / "test-data" / "battlescribe"
NO_CATALOG = CatalogData(factions={}, profiles={}, items={})
RULES = BunkersRosterRules()


def unit(name: str = "Intercessors", **fields: object) -> UnitInput:
    values: dict[str, object] = {"models": 5, "points": 100, "power": 5, "base": "round:32"}
    values.update(fields)
    return UnitInput(name=name, **values)  # type: ignore[arg-type]


def codes(units: list[UnitInput], **settings: object) -> list[str]:
    return [issue.code for issue in army_issues(units, **settings)]  # type: ignore[arg-type]


def roster(units: list[UnitInput], **settings: object) -> RosterInput:
    return RosterInput(faction="", settings=settings, entries=(), units=tuple(units))


# --- Aircraft and vehicles -------------------------------------------------------------------


def test_aircraft_are_not_allowed() -> None:
    """ "Flieger (Flugzeuge) und Fahrzeuge aller Art sind nicht erlaubt, immerhin handelt es sich
    um ein geschlossenes Gebäude." """
    stormraven = unit("Stormraven", keywords=("Vehicle", "Aircraft", "Fly"), base="oval:120x92")
    issues = army_issues([stormraven])
    assert [(issue.code, issue.entry) for issue in issues] == [("aircraft", 0)]
    assert "Stormraven" in issues[0].message
    assert codes([unit("Flyer", keywords=("Flyer",))]) == ["aircraft"]


def test_fly_is_not_an_aircraft() -> None:
    assert codes([unit("Jump Pack Intercessors", keywords=("Infantry", "Fly"))]) == []


def test_a_vehicle_is_not_allowed() -> None:
    """ "Flieger (Flugzeuge) und Fahrzeuge aller Art sind nicht erlaubt"."""
    rhino = unit("Rhino", keywords=("Vehicle", "Transport"), base="oval:120x92")
    assert codes([rhino]) == ["vehicle"]


def test_a_confirmed_walker_is_allowed() -> None:
    """ "Läufer wie z.B. Cybots, Sentinels, usw. sind erlaubt, allerdings ist ihre Basegröße
    beschränkt." """
    dreadnought = unit("Redemptor Dreadnought", keywords=("Vehicle", "Dreadnought"))
    assert codes([dreadnought]) == ["vehicle"]
    assert codes([replace(dreadnought, walker=True)]) == []


def test_walkers_are_preselected_by_name_or_keyword_only_for_vehicles() -> None:
    assert likely_walker("Redemptor Dreadnought", ("Vehicle",))
    assert likely_walker("Scout Sentinel", ("Vehicle",))
    assert likely_walker("Armiger Warglaive", ("Vehicle", "Titanic"))
    assert not likely_walker("Rhino", ("Vehicle",))
    assert not likely_walker("Grey Knight Terminators", ("Infantry",))


# --- Bases -----------------------------------------------------------------------------------


def test_round_bases_up_to_90_mm_are_allowed() -> None:
    """ "Die maximale Größe bei Rundbases beträgt 90mm"."""
    assert codes([unit(base="round:90")]) == []
    issues = army_issues([unit("Wraithlord", base="round:100")])
    assert [issue.code for issue in issues] == ["base_round_too_large"]
    assert issues[0].params == {"name": "Wraithlord", "base": "100 mm", "max": "90 mm"}


def test_oval_bases_up_to_120_by_92_mm_either_way_round_are_allowed() -> None:
    """ "... und bei Ovalbases 120x92mm. Alles andere passt nicht mehr in die Gänge." """
    assert codes([unit(base="oval:120x92")]) == []
    assert codes([unit(base="oval:92x120")]) == []
    assert codes([unit(base="oval:105x70")]) == []
    for too_large in ("oval:121x92", "oval:120x93", "oval:93x120", "oval:92x121", "oval:170x109"):
        assert codes([unit(base=too_large)]) == ["base_oval_too_large"], too_large


def test_a_unit_without_a_base_size_is_asked_for_one() -> None:
    assert codes([unit(base="")]) == ["base_unknown"]


@pytest.mark.parametrize(
    "text", ["square:40", "round:abc", "oval:60", "round:60x35", "round:5", "round:900", "40"]
)
def test_a_malformed_base_is_invalid(text: str) -> None:
    assert codes([unit(base=text)]) == ["base_invalid"]
    with pytest.raises(RuleViolation) as caught:
        parse_base(text)
    assert caught.value.code == "base_invalid"


def test_bases_parse_format_and_label() -> None:
    assert parse_base("") is None
    assert parse_base("round:32") == Base("round", 32, 32)
    assert parse_base("oval:120x92") == Base("oval", 120, 92)
    assert parse_base("Oval: 120×92") == Base("oval", 120, 92)
    assert parse_base("round:28.5") == Base("round", 28.5, 28.5)
    assert Base("round", 32, 32).format() == "round:32"
    assert Base("oval", 120, 92).format() == "oval:120x92"
    assert Base("round", 32, 32).label == "32 mm"
    assert Base("oval", 120, 92).label == "120×92 mm oval"
    assert Base("round", 28.5, 28.5).label == "28.5 mm"


# --- Reserves and deep strikes --------------------------------------------------------------


def test_reserve_limit_is_25_percent_of_the_units_rounded_up() -> None:
    """ "Es dürfen maximal 25% (aufgerundet) der Einheiten in Reserve bleiben." """
    assert [reserve_limit(n) for n in (0, 1, 4, 5, 8, 9, 12)] == [0, 1, 1, 2, 2, 3, 3]


def test_more_than_25_percent_in_reserve_is_refused_naming_the_limit() -> None:
    """ "Es dürfen maximal 25% (aufgerundet) der Einheiten in Reserve bleiben." """
    two_in_reserve = [unit(f"U{n}", reserve=n < 2) for n in range(5)]
    assert codes(two_in_reserve) == []
    three_in_reserve = [unit(f"U{n}", reserve=n < 3) for n in range(5)]
    (issue,) = army_issues(three_in_reserve)
    assert issue.code == "reserve_over"
    assert issue.params == {"reserve": 3, "units": 5, "limit": 2}
    assert "at most 2" in issue.message and "25 %" in issue.message


def test_one_deep_strike_is_free_every_further_one_needs_aus_dem_nichts() -> None:
    """ "Jeder Spieler darf eine seiner Einheiten die über die entsprechende Sonderregel verfügt
    und sich in Reserve befindet, so aufstellen. Jede weitere Einheit, die über diese Sonderregel
    aufgestellt werden soll, muss dazu die Gefechtsoption „Aus dem Nichts“ nutzen." """
    units = [unit(f"U{n}") for n in range(9)] + [
        unit("Assault Terminators", reserve=True, deep_strike=True),
        unit("Vanguard Veterans", reserve=True, deep_strike=True),
        unit("Inceptors", reserve=True, deep_strike=True),
        unit("Hellblasters", reserve=True),  # walks on from its own edge
        unit("Reivers", deep_strike=True),  # not in reserve
    ]
    assert codes(units) == []  # a cost during the game, not an illegal army
    strikes = deep_strikes(units)
    assert strikes.free == ("Assault Terminators",)
    assert strikes.needing_aus_dem_nichts == ("Vanguard Veterans", "Inceptors")
    assert strikes.aus_dem_nichts_cp == 4
    totals = RULES.report(roster(units), NO_CATALOG).totals
    assert totals["deep_strikes_free"] == 1
    assert totals["deep_strikes_needing_aus_dem_nichts"] == 2
    assert totals["aus_dem_nichts_units"] == ["Vanguard Veterans", "Inceptors"]
    assert (totals["reserve"], totals["reserve_limit"]) == (4, 4)


# --- Command points and limits -------------------------------------------------------------


@pytest.mark.parametrize(
    ("points", "cp"),
    [(0, 6), (500, 6), (1000, 6), (1001, 7), (1250, 7), (1251, 8), (1500, 8), (1501, 9), (3000, 9)],
)
def test_starting_command_points_by_points(points: int, cp: int) -> None:
    """ "Bis 1000 Punkte = 6 Befehlspunkte, Bis 1250 Punkte = 7, Bis 1500 Punkte = 8, Ab 1501
    Punkten = 9 Befehlspunkte" """
    assert starting_cp(points, None) == cp


@pytest.mark.parametrize(("power", "cp"), [(50, 6), (51, 7), (62, 7), (63, 8), (75, 8), (76, 9)])
def test_starting_command_points_by_power_level_a_pl_as_20_points(power: int, cp: int) -> None:
    """SPEC §5 decision: with power level, 1 PL counts as 20 points for the table."""
    assert starting_cp(None, power) == cp
    assert starting_cp(1000, power) == 6  # points win when both are given


def test_an_army_over_the_points_limit() -> None:
    """ "Jeder Spieler stellt eine Armee in Schlachtordnung bis zum vereinbarten Punktelimit
    zusammen." """
    units = [unit("A", points=600), unit("B", points=400)]
    assert codes(units, limit=1000) == []
    (issue,) = army_issues(units, limit=999)
    assert issue.code == "points_over"
    assert issue.params == {"total": 1000, "over": 1, "limit": 999}


def test_a_power_level_army_is_held_to_a_power_limit() -> None:
    units = [unit("A", points=600, power=30), unit("B", points=400, power=21)]
    assert codes(units, scale="power", limit=51) == []
    (issue,) = army_issues(units, scale="power", limit=50)
    assert issue.code == "points_over" and "power level" in issue.message


def test_an_army_needs_units() -> None:
    assert codes([]) == ["no_units"]


# --- Roster rules --------------------------------------------------------------------------


def test_the_system_registers_its_roster_rules() -> None:
    assert isinstance(SYSTEM.rosters, BunkersRosterRules)
    assert [option.key for option in RULES.options] == ["power_level"]


def test_settings_are_normalised() -> None:
    assert RULES.normalise_settings({}) == {"power_level": False}
    assert RULES.normalise_settings({"points_limit": None}) == {"power_level": False}
    assert RULES.normalise_settings({"points_limit": 50, "power_level": True}) == {
        "power_level": True,
        "points_limit": 50,
    }


@pytest.mark.parametrize(
    ("settings", "code"),
    [
        ({"mode": "x"}, "settings_invalid"),
        ({"power_level": "yes"}, "settings_invalid"),
        ({"power_level": 1}, "settings_invalid"),
        ({"points_limit": 0}, "points_limit"),
        ({"points_limit": 10_001}, "points_limit"),
        ({"points_limit": True}, "points_limit"),
        ({"points_limit": "1000"}, "points_limit"),
    ],
)
def test_bad_settings_are_refused(settings: dict[str, object], code: str) -> None:
    with pytest.raises(RuleViolation) as caught:
        RULES.normalise_settings(settings)
    assert caught.value.code == code


def test_catalogue_entries_are_an_issue() -> None:
    entries = (EntryInput(profile="captain"),)
    report = RULES.report(
        RosterInput(faction="", settings={}, entries=entries, units=(unit(),)), NO_CATALOG
    )
    assert [issue.code for issue in report.issues] == ["catalogue_entry"]


def test_the_necrons_list_is_over_its_500_point_limit() -> None:
    path = DATA / "necrons-patrol-over-limit.ros"
    if not path.is_file():
        pytest.skip("the shared BattleScribe test data is not here")
    units = army_units(parse_roster_file(path.read_bytes(), path.name))
    report = RULES.report(roster(list(units), points_limit=500), NO_CATALOG)
    assert report.totals["points"] == 620
    assert report.totals["points_left"] == -120
    assert report.totals["starting_cp"] == 6
    over = [issue for issue in report.issues if issue.code == "points_over"]
    assert [issue.params for issue in over] == [{"total": 620, "over": 120, "limit": 500}]
    # BattleScribe has no base sizes: every unit is asked for one.
    assert {issue.code for issue in report.issues} == {"points_over", "base_unknown"}
    view = RULES.builder(roster(list(units), points_limit=500), NO_CATALOG)
    assert isinstance(view, BunkersBuilderView)
    assert (view.entries, view.panel) == ((), "")
    assert len(view.units) == 6
    assert [issue.code for issue in view.army_issues] == ["points_over"]
    assert [issue.code for issue in view.units[0].issues] == ["base_unknown"]


def test_report_totals() -> None:
    units = [
        unit("Captain", models=1, points=100, power=5, base="round:40"),
        unit("Dreadnought", keywords=("Vehicle",), walker=True, base="round:60", models=1),
        unit("Terminators", reserve=True, deep_strike=True, points=200, power=10),
    ]
    report = RULES.report(roster(units, points_limit=1250), NO_CATALOG)
    assert report.valid
    assert report.totals == {
        "units": 3,
        "models": 7,
        "points": 400,
        "power": 20,
        "scale": "points",
        "points_limit": 1250,
        "points_left": 850,
        "starting_cp": 7,
        "reserve": 1,
        "reserve_limit": 1,
        "deep_strikes_free": 1,
        "deep_strikes_needing_aus_dem_nichts": 0,
        "deep_strike_free_units": ["Terminators"],
        "aus_dem_nichts_units": [],
        "aus_dem_nichts_cp": 0,
    }
    rows = RULES.builder(roster(units), NO_CATALOG).units
    assert [row.base_label for row in rows] == ["40 mm", "60 mm", "32 mm"]
    assert [row.free_deep_strike for row in rows] == [False, False, True]
    assert rows[1].vehicle and not rows[1].issues


def test_starting_cp_follow_the_army_without_a_limit() -> None:
    units = [unit(points=1100, power=63)]  # 63 PL count as 1260 points
    assert RULES.report(roster(units), NO_CATALOG).totals["starting_cp"] == 7
    assert RULES.report(roster(units, power_level=True), NO_CATALOG).totals["starting_cp"] == 8
