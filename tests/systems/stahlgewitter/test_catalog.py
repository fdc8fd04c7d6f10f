"""The Stahlgewitter catalogue as data: every printed army-list line, the armour table and the
weapon table exactly as printed (stahlgewitter.de.txt "Armeelisten" to "Allgemeine
Waffentabelle"), the standard armour that reproduces each printed PW and B, the provisional
costs, and the schema's refusals."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from apps.systems.core.rosters import CatalogData, CatalogEntry
from apps.systems.core.schema import SchemaError
from apps.systems.stahlgewitter.catalog import (
    Catalog,
    loadout,
    model_values,
    stahlgewitter_catalog,
    standard_armour_slug,
    upgraded,
)
from apps.systems.stahlgewitter.catalog_schema import (
    ITEM_FIELDS,
    PROFILE_FIELDS,
    item_from_stats,
    parse_field,
    profile_from_stats,
)
from apps.systems.stahlgewitter.catalog_types import Armour, Grade, Rank, Skill, Weapon, WeaponType
from apps.systems.stahlgewitter.system import StahlgewitterCatalogSchema

FIXTURE = Path(__file__).resolve().parents[3] / "fixtures" / "stahlgewitter" / "catalog.json"
RULEBOOK = Path("/work/shared/rules/stahlgewitter.de.txt")

PRINTED_LISTS = """Zivilisten
Zivilisten
Typ B PW TP STK GES WIK Fertigkeiten Ausrüstung
außerordentlich 12 3 3 3 3 7 - ?
ungewöhnlich 12 2 2 2 2 6 - ?
normal 12 1 1 1 1 5 - ?
Legion 666
Legion 666
Typ B PW TP STK GES WIK Fertigkeiten Ausrüstung
Kultist 12 0 1 1 1 6 Fanatiker ?
Kaplan 6 8 3 1 1 12 grausam, Psiter ?
Offizier (E) 6 8 3 3 3 11 Fanatiker, grausam ?
Offizier (V) 6 7 2 2 2 10 Fanatiker, grausam ?
Offizier 6 6 1 1 1 9 Fanatiker, grausam ?
Unteroffizier (E) 6 8 3 3 3 10 grausam ?
Unteroffizier (V) 6 7 2 2 2 9 grausam ?
Unteroffizier 6 6 1 1 1 8 grausam ?
Soldat (E) 6 8 3 3 3 9 - ?
Soldat (V) 6 7 2 2 2 8 - ?
Soldat 6 6 1 1 1 7 - ?
Ming-Imperium
Schwarze Garde
Typ B PW TP STK GES WIK Fertigkeiten Ausrüstung
Offizier (E) 8 6 3 3 3 11 - ?
Offizier (V) 8 5 2 2 2 10 - ?
Offizier 8 4 1 1 1 9 - ?
Unteroffizier (E) 8 6 3 3 3 10 - ?
Unteroffizier (V) 8 5 2 2 2 9 - ?
Unteroffizier 8 4 1 1 1 8 - ?
Soldat (E) 8 6 3 3 3 9 - ?
Soldat (V) 8 5 2 2 2 8 - ?
Soldat 8 4 1 1 1 7 - ?
Vigilen
Typ B PW TP STK GES WIK Fertigkeiten Ausrüstung
Offizier (E) 10 5 3 3 3 10 - ?
Offizier (V) 10 4 2 2 2 9 - ?
Offizier 10 3 1 1 1 8 - ?
Unteroffizier (E) 10 5 3 3 3 9 - ?
Unteroffizier (V) 10 4 2 2 2 8 - ?
Unteroffizier 10 3 1 1 1 7 - ?
Polizist (E) 10 5 3 3 3 8 - ?
Polizist (V) 10 4 2 2 2 7 - ?
Polizist 10 3 1 1 1 6 - ?
Miliztruppen
Miliz
Typ B PW TP STK GES WIK Fertigkeiten Ausrüstung
Offizier (E) 8 6 3 3 3 9 - ?
Offizier (V) 8 5 2 2 2 8 - ?
Offizier 8 4 1 1 1 7 - ?
Unteroffizier (E) 8 6 3 3 3 8 - ?
Unteroffizier (V) 8 5 2 2 2 7 - ?
Unteroffizier 8 4 1 1 1 6 - ?
Soldat (E) 8 6 3 3 3 7 - ?
Soldat (V) 8 5 2 2 2 6 - ?
Soldat 8 4 1 1 1 5 - ?
Piraten
Piraten
Typ B PW TP STK GES WIK Fertigkeiten Ausrüstung
Kapitän (E) 8 6 3 3 3 10 - ?
Kapitän (V) 8 5 2 2 2 9 - ?
Offizier (E) 9 5 3 3 3 9 - ?
Offizier (V) 9 4 2 2 2 8 - ?
Offizer 9 3 1 1 1 7 - ?
Pirat (E) 9 5 3 3 3 8 - ?
Pirat (V) 9 4 2 2 2 7 - ?
Pirat 9 3 1 1 1 6 - ?
PTI
InSic
Typ B PW TP STK GES WIK Fertigkeiten Ausrüstung
Agent (E) 12 4 3 3 3 11 - ?
Agent (V) 12 3 2 2 2 10 - ?
Agent 12 2 1 1 1 9 - ?
Polizei
Typ B PW TP STK GES WIK Fertigkeiten Ausrüstung
Offizier (E) 10 5 3 3 3 10 - ?
Offizier (V) 10 4 2 2 2 9 - ?
Offizier 10 3 1 1 1 8 - ?
Unteroffizier (E) 10 5 3 3 3 9 - ?
Unteroffizier (V) 10 4 2 2 2 8 - ?
Unteroffizier 10 3 1 1 1 7 - ?
Polizist (E) 10 5 3 3 3 8 - ?
Polizist (V) 10 4 2 2 2 7 - ?
Polizist 10 3 1 1 1 6 - ?
Rote Falken
Typ B PW TP STK GES WIK Fertigkeiten Ausrüstung
Offizier 8 6 3 3 3 11 - ?
Unteroffizier 8 6 3 3 3 10 - ?
Soldat 8 6 3 3 3 9 - ?
SEK
Typ B PW TP STK GES WIK Fertigkeiten Ausrüstung
Offizier (E) 8 6 3 3 3 11 - ?
Offizier (V) 8 5 2 2 2 10 - ?
Offizier 8 4 1 1 1 9 - ?
Unteroffizier (E) 8 6 3 3 3 10 - ?
Unteroffizier (V) 8 5 2 2 2 9 - ?
Unteroffizier 8 4 1 1 1 8 - ?
Soldat (E) 8 6 3 3 3 9 - ?
Soldat (V) 8 5 2 2 2 8 - ?
Soldat 8 4 1 1 1 7 - ?
Terranische Raummarine
Kreuzritter
Typ B PW TP STK GES WIK Fertigkeiten Ausrüstung
Gabrielsritter 6 8 3 1 1 12 Fanatiker, Psiter ?
Offizier (E) 6 8 3 3 3 12 Fanatiker ?
Offizier (V) 6 7 2 2 2 11 - ?
Offizier 6 6 1 1 1 10 - ?
Unteroffizier (E) 6 8 3 3 3 11 Fanatiker ?
Unteroffizier (V) 6 7 2 2 2 10 - ?
Unteroffizier 6 6 1 1 1 9 - ?
Soldat (E) 6 8 3 3 3 10 Fanatiker ?
Soldat (V) 6 7 2 2 2 9 - ?
Soldat 6 6 1 1 1 8 - ?
Samurai
Typ B PW TP STK GES WIK Fertigkeiten Ausrüstung
Offizier (E) 7 7 3 3 3 10 - ?
Offizier (V) 7 6 2 2 2 9 - ?
Offizier 7 5 1 1 1 8 - ?
Unteroffizier (E) 7 7 3 3 3 9 - ?
Unteroffizier (V) 7 6 2 2 2 8 - ?
Unteroffizier 7 5 1 1 1 7 - ?
Soldat (E) 7 7 3 3 3 8 - ?
Soldat (V) 7 6 2 2 2 7 - ?
Soldat 7 5 1 1 1 6 - ?
Wölfe des Mahdi
Typ B PW TP STK GES WIK Fertigkeiten Ausrüstung
Offizier (E) 8 6 3 3 3 9 Fanatiker ?
Offizier (V) 8 5 2 2 2 8 Fanatiker ?
Offizier 8 4 1 1 1 7 Fanatiker ?
Unteroffizier (E) 8 6 3 3 3 8 Fanatiker
Unteroffizier (V) 8 5 2 2 2 7 Fanatiker ?
Unteroffizier 8 4 1 1 1 6 - ?
Soldat (E) 8 6 3 3 3 7 Fanatiker ?
Soldat (V) 8 5 2 2 2 6 - ?
Soldat 8 4 1 1 1 5 - ?
Shark Investments
Shark-Truppen
Typ B PW TP STK GES WIK Fertigkeiten Ausrüstung
Offizier (E) 7 7 3 3 3 9 Fanatiker ?
Offizier (V) 8 5 2 2 2 8 - ?
Offizier 8 4 1 1 1 7 - ?
Unteroffizier (E) 7 7 3 3 3 8 Fanatiker ?
Unteroffizier (V) 8 5 2 2 2 7 - ?
Unteroffizier 8 4 1 1 1 6 - ?
Soldat (E) 7 7 3 3 3 7 Fanatiker ?
Soldat (V) 8 5 2 2 2 6 - ?
Soldat 8 4 1 1 1 5 - ?
Terrorist (E) 10 5 3 3 3 10 Fanatiker ?
Terrorist (V) 10 4 2 2 2 9 Fanatiker ?
Terrorist 10 3 1 1 1 8 Fanatiker ?"""

PRINTED_ARMOUR = """Rüstung PW B -
ungerüstet 0 0
Kevlar 1 0
Travellers Coat 1 0
Bollmann Kugelschutzweste 1 1
Bollman Kampfkombi 2 2
Scoutpanzerung 2 3
Bullinger Körperpanzer 2 3
Rockwell-Kampfpanzerung 3 4
TiPla-Teilpanzerung 3 4
Rebel-Yell-Deflektropanzerung 4 5
TiPla-Kampfpanzerung 5 6
Raumkampfanzug 6 10"""

PRINTED_WEAPONS = """Kategorie Art / Reichweite FKW NKW Bew./kämpfen Panzerknacker spezial
Äxte - - 4 ja nein
Bajonette - - 4 ja nein
Kampfhandschuhe 5) - - 2 ja nein
Kampfsport - - 2 ja nein
Kettensägen - - 4 ja nein
Keulen - - 3 ja nein
Kontaktstunner - - 3 ja nein alle Ergebnisse ab E = Verteidiger betäubt
Messer Wurf STK x 10 cm 2 2 ja nein
Schwerter - - 4 ja nein
Speere Wurf STK x 10 cm 4 4 ja nein
Energie-Varianten - - +1 ja nein
Vibro-Varianten - - +2 ja ja 1)
Armbrüste Gewehr 80 cm 4 - ja nein
Maschinenpistolen Gewehr 60 cm 4 4 ja nein 3 Angriffe/Runde
Sturmgewehre Gewehr 80 cm 5 - ja nein 2 Angriffe/Runde
Faustfeuerwaffen
- Automatikpistolen Pistole 40 cm 4 4 ja nein 2 Angriffe/Runde
- Bolzenpistolen Pistole 40 cm 4 4 ja nein
- EMP-Strahler Pistole 40 cm 0 - ja ja 45% Chance, elektr. Geräte zu zerstören
- Energiepistolen Pistole 40 cm 5 5 ja nein
- Granatpistolen Pistole 40 cm ? - ja ja 2) abhängig von Granatentyp
- Mikrowellenpistolen Pistole 40 cm 1 2 ja ja + PW aufd FKW und PW immer 1
- Nadler Pistole 40 cm 2 3 ja nein
Flammenwerfer Pistole 3) 40 cm 6 - ja nein 5 cm Schablone, Ziel brennt 1W4 Runden
Gewehre
- Bolzengewehre Gewehr 80 cm 5 - ja nein
- Dehydratorgewehre Gewehr 80 cm 5 - ja nein Kampf-Ergebniswurf +1
- Energiekarabiner Gewehr 80 cm 6 - ja nein
- Gewehre Gewehr 80 cm 5 - ja nein
- Mikrowellengewehre Gewehr 80 cm 2 - ja ja + PW aufd FKW und PW immer 1
- Schallgewehre Gewehr 80 cm 2 - ja nein 10 cm Schablone, sofortige Moralprobe
- Scharfschützengewehre Werfer unbegrenzt 7 - nein nein
Granatwerfer Werfer unbegrenzt ? - nein ja 2) FKW abhängig von Granatentyp
Maschinengewehre Gewehr 4) 80 cm 6 - nein nein 4 Angriffe/Runde
Plasmawaffen
- Plasmakarabiner Gewehr 60 cm 6 - nein ja ignoriert Rüstung
- Plasmapistolen Pistole 40 cm 5 - ja ja ignoriert Rüstung
Raketenwerfer Werfer unbegrenzt ? - nein ja 2) abhängig vom Raketentyp
Schrotwaffen
- Schrotflinten Pistole 40 cm 6 - ja nein 5 cm Schablone, Sekundärziele FKW 4
- Schrotpistolen Pistole 20 cm 5 - ja nein 5 cm Schablone, Sekundärziele FKW 3"""

LIST_FACTIONS = {
    "Zivilisten": "zivilisten",
    "Legion 666": "legion-666",
    "Schwarze Garde": "ming-imperium",
    "Vigilen": "ming-imperium",
    "Miliz": "tsu-miliz",
    "Piraten": "piraten",
    "InSic": "insic",
    "Polizei": "polizei",
    "Rote Falken": "rote-falken",
    "SEK": "sek",
    "Kreuzritter": "raummarine-kreuzritter",
    "Samurai": "raummarine-samurai",
    "Wölfe des Mahdi": "raummarine-woelfe-des-mahdi",
    "Shark-Truppen": "shark-investments",
}
HEADER = "Typ B PW TP STK GES WIK Fertigkeiten Ausrüstung"
ROW = re.compile(
    r"^(?P<type>.+?) (?P<b>\d+) (?P<pw>\d+) (?P<tp>\d+) (?P<stk>\d+) (?P<ges>\d+) (?P<wik>\d+) "
    r"(?P<skills>.+?)(?: \?)?$"
)


def printed_lines() -> list[tuple[str, dict[str, Any]]]:
    """(army list, values) of every printed army-list line."""
    rows: list[tuple[str, dict[str, Any]]] = []
    lines = PRINTED_LISTS.splitlines()
    current = ""
    for index, line in enumerate(lines):
        if line == HEADER:
            current = lines[index - 1]
            continue
        match = ROW.match(line)
        if match and current:
            values: dict[str, Any] = {
                k: int(match[k]) for k in ("b", "pw", "tp", "stk", "ges", "wik")
            }
            skills = match["skills"].strip()
            values["type"] = match["type"]
            values["skills"] = (
                [] if skills == "-" else [s.strip().lower() for s in skills.split(",")]
            )
            rows.append((current, values))
    return rows


def fixture() -> dict[str, Any]:
    return json.loads(FIXTURE.read_text(encoding="utf-8"))


def catalog_data(document: dict[str, Any] | None = None) -> CatalogData:
    document = document or fixture()
    return CatalogData(
        factions={f["slug"]: f["name"] for f in document["factions"]},
        profiles={
            p["slug"]: CatalogEntry(
                slug=p["slug"], name=p["name"], stats=p["stats"], factions=tuple(p["factions"])
            )
            for p in document["profiles"]
        },
        items={
            i["slug"]: CatalogEntry(
                slug=i["slug"], name=i["name"], stats=i["stats"], kind=i["kind"], cost=i["cost"]
            )
            for i in document["items"]
        },
    )


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return stahlgewitter_catalog(catalog_data())


def _section(start: str, end: str) -> str:
    lines = RULEBOOK.read_text(encoding="utf-8").splitlines()
    first = lines.index(start)
    last = lines.index(end, first)
    return "\n".join(line for line in lines[first:last] if line.strip())


@pytest.mark.skipif(not RULEBOOK.exists(), reason="the rulebook is not on this machine")
def test_the_printed_text_here_is_the_rulebooks() -> None:
    assert _section("Armeelisten", "Tabellenteil") == "Armeelisten\n" + PRINTED_LISTS
    assert _section("Rüstung PW B -", "Allgemeine Waffentabelle") == PRINTED_ARMOUR.strip()
    assert _section(
        PRINTED_WEAPONS.splitlines()[0], "1) nur zum Öffnen von Schotts, Luken, etc."
    ) == (PRINTED_WEAPONS)


@pytest.mark.parametrize(("army_list", "printed"), printed_lines(), ids=lambda v: str(v))
def test_every_printed_army_list_line_is_a_profile_with_its_exact_values(
    catalog: Catalog, army_list: str, printed: dict[str, Any]
) -> None:
    grade_match = re.fullmatch(r"(.+) \((V|E)\)", printed["type"])
    if army_list == "Zivilisten":
        type_ = printed["type"]
    else:
        type_ = grade_match[1] if grade_match else printed["type"]
    type_ = "Offizier" if type_ == "Offizer" else type_
    found = [
        p
        for p in catalog.profiles.values()
        if p.list == army_list
        and p.type == type_
        and (army_list == "Zivilisten" or p.grade_label == (grade_match[2] if grade_match else ""))
    ]
    assert len(found) == 1
    profile = found[0]
    values = {k: getattr(profile, k) for k in ("b", "pw", "tp", "stk", "ges", "wik")}
    assert values == {k: printed[k] for k in values}
    assert [s.value for s in profile.skills] == printed["skills"]
    assert profile.factions == (LIST_FACTIONS[army_list],)


def test_there_is_one_profile_per_printed_line_and_no_other(catalog: Catalog) -> None:
    assert len(printed_lines()) == len(catalog.profiles) == 113


def test_the_piraten_offizer_typo_is_read_as_offizier(catalog: Catalog) -> None:
    """Printed: "Offizer 9 3 1 1 1 7 - ?"."""
    officer = catalog.profiles["piraten-offizier"]
    assert (officer.type, officer.rank, officer.rank_order, officer.pw) == (
        "Offizier",
        Rank.LEADER,
        2,
        3,
    )


def test_the_woelfe_unteroffizier_e_line_without_question_mark_is_read(catalog: Catalog) -> None:
    """Printed: "Unteroffizier (E) 8 6 3 3 3 8 Fanatiker" (no "?" in the equipment column)."""
    nco = catalog.profiles["woelfe-des-mahdi-unteroffizier-e"]
    assert (nco.wik, nco.skills, nco.grade) == (8, (Skill.FANATIKER,), Grade.ELITE)


def test_the_shark_truppen_list_includes_the_terrorist_lines(catalog: Catalog) -> None:
    """Printed under Shark-Truppen: "Terrorist (E) 10 5 3 3 3 10 Fanatiker ?" and two more."""
    terrorists = [p for p in catalog.faction_profiles("shark-investments") if p.type == "Terrorist"]
    assert sorted(p.grade_label for p in terrorists) == ["", "E", "V"]
    assert all(p.fanatic and p.b == 10 for p in terrorists)


def test_zivilisten_grades_follow_their_values(catalog: Catalog) -> None:
    """außerordentlich 3/3/3, ungewöhnlich 2/2/2, normal 1/1/1: the E, V and regular values."""
    grades = {p.type: p.grade for p in catalog.faction_profiles("zivilisten")}
    assert grades == {
        "außerordentlich": Grade.ELITE,
        "ungewöhnlich": Grade.VETERAN,
        "normal": Grade.REGULAR,
    }


def test_leaders_and_their_rank_order() -> None:
    """Anführer: "ein Offizier oder Unteroffizier ... oder ein Bandenchef"; the highest-ranking
    leader is Kapitän/Kaplan/Gabrielsritter, then Offizier, then Unteroffizier."""
    data = catalog_data()
    parsed = stahlgewitter_catalog(data)
    orders = {p.type: (p.rank, p.rank_order) for p in parsed.profiles.values()}
    assert orders["Kapitän"] == orders["Kaplan"] == orders["Gabrielsritter"] == (Rank.LEADER, 3)
    assert orders["Offizier"] == (Rank.LEADER, 2)
    assert orders["Unteroffizier"] == (Rank.LEADER, 1)
    for soldier in ("Soldat", "Kultist", "Agent", "Polizist", "Pirat", "Terrorist", "normal"):
        assert orders[soldier] == (Rank.SOLDIER, 0)


def test_the_sixteen_listed_factions_and_the_four_unlisted_lists(catalog: Catalog) -> None:
    """ "Nun entscheidet sich jeder Spieler für eine der folgenden Fraktionen" (16), plus the
    printed lists Zivilisten, Piraten, Rote Falken and Shark Investments."""
    assert len(catalog.factions) == 20
    without = {slug for slug in catalog.factions if not catalog.faction_profiles(slug)}
    assert without == {
        "bup",
        "organisiertes-verbrechen",
        "oeko-terroristen",
        "rhu-ngur",
        "shark-rebellen",
        "tecnkai",
        "vhocons",
    }
    assert catalog.factions["tecnkai"] == "Tec´n`kaî"
    assert catalog.lists() == tuple(dict.fromkeys(LIST_FACTIONS))


def test_the_armour_table_is_as_printed(catalog: Catalog) -> None:
    """Rüstungswerte: "Rüstung PW B -", twelve lines."""
    printed = [re.fullmatch(r"(.+) (\d+) (\d+)", line) for line in PRINTED_ARMOUR.splitlines()[1:]]
    assert [(a.name, a.pw, a.b_reduction) for a in catalog.armours.values()] == [
        (m[1], int(m[2]), int(m[3])) for m in printed if m
    ]
    assert len(catalog.armours) == 12


WEAPON_LINE = re.compile(
    r"^(?:- )?(?P<name>\S+)(?: 5\))? "
    r"(?P<art>-|Wurf STK x 10 cm|\S+(?: \d\))? (?:\d+ cm|unbegrenzt)) "
    r"(?P<fkw>\S+) (?P<nkw>\S+) (?P<mf>ja|nein) (?P<ab>ja|nein)"
)


def test_every_weapon_line_is_as_printed(catalog: Catalog) -> None:
    """Allgemeine Waffentabelle: FKW, NKW, Bew./kämpfen and Panzerknacker of every line; "?"
    is a decided FKW; the two variants are variants."""
    seen = 0
    for line in PRINTED_WEAPONS.splitlines()[1:]:
        match = WEAPON_LINE.match(line)
        if match is None:
            continue
        seen += 1
        if match["name"].endswith("-Varianten"):
            variant = next(v for v in catalog.variants.values() if v.name == match["name"])
            assert f"+{variant.nkw_bonus}" == match["nkw"]
            assert variant.armour_breaker == (match["ab"] == "ja")
            continue
        weapon = next(w for w in catalog.weapons.values() if w.name == match["name"])
        if match["fkw"] == "?":
            assert weapon.fkw_decided and weapon.fkw is not None
        else:
            assert weapon.fkw == (None if match["fkw"] == "-" else int(match["fkw"]))
        assert weapon.nkw == (None if match["nkw"] == "-" else int(match["nkw"]))
        assert weapon.move_and_fight == (match["mf"] == "ja")
        assert weapon.armour_breaker == (match["ab"] == "ja")
        assert weapon.range_label() == re.sub(r" \d\)", "", match["art"])
    assert seen == 37 and len(catalog.weapons) == 35 and len(catalog.variants) == 2


@pytest.mark.parametrize(
    ("slug", "fkw"), [("granatpistolen", 5), ("granatwerfer", 6), ("raketenwerfer", 7)]
)
def test_question_mark_fkw_is_decided(catalog: Catalog, slug: str, fkw: int) -> None:
    weapon = catalog.weapons[slug]
    assert (weapon.fkw, weapon.fkw_decided, weapon.armour_breaker) == (fkw, True, True)


def test_weapon_specials_are_data(catalog: Catalog) -> None:
    w = catalog.weapons
    assert (
        w["maschinenpistolen"].burst,
        w["sturmgewehre"].burst,
        w["automatikpistolen"].burst,
    ) == (
        3,
        2,
        2,
    )
    assert w["maschinengewehre"].burst == 4 and w["maschinengewehre"].no_burst_range_penalty
    assert w["flammenwerfer"].template_cm == 5 and w["flammenwerfer"].burns_d4
    assert w["flammenwerfer"].one_rifle_shot
    assert w["schallgewehre"].template_cm == 10 and w["schallgewehre"].morale_test
    assert w["dehydratorgewehre"].row_bonus == 1
    assert w["kontaktstunner"].stun_from_e
    assert w["plasmakarabiner"].ignores_armour and w["plasmapistolen"].ignores_armour
    assert w["mikrowellenpistolen"].pw_always_1 and w["mikrowellengewehre"].pw_always_1
    assert (w["schrotflinten"].secondary_fkw, w["schrotpistolen"].secondary_fkw) == (4, 3)
    assert w["scharfschuetzengewehre"].unlimited and w["scharfschuetzengewehre"].launcher


def test_thrown_range_is_stk_times_10_cm_and_bursts_use_half_range(catalog: Catalog) -> None:
    """ "Wurf STK x 10 cm"; "innerhalb der halben Feuerstoß-Reichweite ... 30 cm für
    Maschinenpistolen"; MG: "kein Reichweitenabzug für Feuerstöße"."""
    assert catalog.weapons["speere"].range_for(3) == 30
    assert catalog.weapons["maschinenpistolen"].burst_range_for(1) == 30
    assert catalog.weapons["maschinengewehre"].burst_range_for(1) == 80
    assert catalog.weapons["raketenwerfer"].range_for(1) is None


def test_a_variant_upgrades_the_melee_weapon(catalog: Catalog) -> None:
    """ "Vibro-Varianten - - +2 ja ja 1)": +2 NKW, an armour breaker only to open bulkheads."""
    sword = upgraded(catalog.weapons["schwerter"], [catalog.variants["vibro-variante"]])
    assert (sword.nkw, sword.armour_breaker) == (6, True)
    assert sword.breaker_note == "nur zum Öffnen von Schotts, Luken, etc."
    rifle = catalog.weapons["gewehre"]
    assert upgraded(rifle, [catalog.variants["energie-variante"]]) is rifle


def test_a_loadout_sorts_the_items_by_kind(catalog: Catalog) -> None:
    gear = loadout(("schwerter", "kevlar", "vibro-variante", "fahne", "gone"), catalog)
    assert [w.slug for w in gear.weapons] == ["schwerter"]
    assert gear.armour is not None and gear.armour.slug == "kevlar"
    assert gear.unknown == ("gone",) and gear.armed_weapons[0].nkw == 6


def test_the_standard_armour_reproduces_every_printed_pw_and_b(catalog: Catalog) -> None:
    """Design decision: printed PW = armour PW + grade; printed B = 12 − the armour's B."""
    for profile in catalog.profiles.values():
        values = catalog.values(profile)
        assert (values.pw, values.b) == (profile.pw, profile.b), profile.slug
        expected = standard_armour_slug(
            profile.b, profile.pw, profile.grade, catalog.armours.values()
        )
        assert profile.armour == expected, profile.slug


@pytest.mark.parametrize(
    ("b", "armour"),
    [
        (10, "bollman-kampfkombi"),
        (9, "scoutpanzerung"),
        (8, "rockwell-kampfpanzerung"),
        (7, "rebel-yell-deflektropanzerung"),
        (6, "tipla-kampfpanzerung"),
    ],
)
def test_standard_armour_by_printed_b(catalog: Catalog, b: int, armour: str) -> None:
    assert {p.armour for p in catalog.profiles.values() if p.b == b} == {armour}


def test_b_12_wears_kevlar_only_above_the_grade_value(catalog: Catalog) -> None:
    assert catalog.profiles["insic-agent"].armour == "kevlar"  # PW 2 > regular 1
    assert catalog.profiles["legion-666-kultist"].armour == "ungeruestet"  # PW 0
    assert catalog.profiles["zivilisten-ausserordentlich"].armour == "ungeruestet"  # PW 3 = E


def test_another_armour_changes_pw_and_b_from_the_base(catalog: Catalog) -> None:
    """A Legion Soldat (B 6, PW 6 in TiPla-Kampfpanzerung 5/6) in Kevlar (1/0): PW 1 + 1 = 2,
    B 6 + 6 − 0 = 12; in a Raumkampfanzug (6/10) B would be 6 + 6 − 10 = 2."""
    soldier = catalog.profiles["legion-666-soldat"]
    kevlar = catalog.values(soldier, catalog.armours["kevlar"])
    assert (kevlar.base_pw, kevlar.pw, kevlar.b) == (1, 2, 12)
    suit = catalog.values(soldier, catalog.armours["raumkampfanzug"])
    assert (suit.pw, suit.b, suit.reduction) == (7, 2, 10)


def test_movement_is_at_least_1_cm() -> None:
    heavy = Armour(slug="x", name="x", pw=9, b_reduction=12)
    none = Armour(slug="u", name="u", pw=0, b_reduction=0)
    profile = profile_from_stats(
        slug="p",
        name="p",
        factions=("f",),
        stats={**fixture()["profiles"][0]["stats"]},
    )
    assert model_values(profile, none, heavy).b == 1


def test_every_cost_is_provisional_and_nothing_is_sample() -> None:
    document = fixture()
    assert all(p["stats"]["provisional"] for p in document["profiles"])
    assert all(i["stats"]["provisional"] for i in document["items"])
    assert not any(
        row.get("sample") for key in ("factions", "profiles", "items") for row in document[key]
    )


def test_profile_points_follow_the_noted_scheme(catalog: Catalog) -> None:
    """4 + 3 × (TP + STK + GES) + max(0, WIK − 5) + skills (Fanatiker 1, Psiter 5) + the
    standard armour's cost (2 × PW)."""
    skill_cost = {Skill.FANATIKER: 1, Skill.GRAUSAM: 0, Skill.PSITER: 5}
    for p in catalog.profiles.values():
        expected = (
            4
            + 3 * (p.tp + p.stk + p.ges)
            + max(0, p.wik - 5)
            + sum(skill_cost[s] for s in p.skills)
            + catalog.standard_armour(p).cost
        )
        assert p.points == expected, p.slug
    assert all(a.cost == 2 * a.pw for a in catalog.armours.values())


def test_game_types_carry_the_spec_ranges(catalog: Catalog) -> None:
    """ "XXX-XXX Scharmützel 1-2 Stunden": the ranges are SPEC §4's decision."""
    ranges = {g.slug: (g.min_points, g.max_points, g.hours) for g in catalog.game_types.values()}
    assert ranges == {
        "scharmuetzel": (200, 400, "1-2"),
        "gefecht": (400, 800, "3-4"),
        "schlacht": (800, 1500, "4-6"),
    }


def test_every_shipped_row_passes_the_schema_and_every_key_is_an_admin_field() -> None:
    schema = StahlgewitterCatalogSchema()
    document = fixture()
    profile_keys = {spec.name for spec in PROFILE_FIELDS}
    item_keys = {spec.name for spec in ITEM_FIELDS}
    for row in document["profiles"]:
        schema.check_profile(
            slug=row["slug"], name=row["name"], factions=row["factions"], stats=row["stats"]
        )
        assert set(row["stats"]) <= profile_keys
    for row in document["items"]:
        schema.check_item(
            slug=row["slug"],
            name=row["name"],
            kind=row["kind"],
            cost=row["cost"],
            stats=row["stats"],
        )
        assert set(row["stats"]) <= item_keys


def _profile_stats(**changes: object) -> dict[str, object]:
    return {**fixture()["profiles"][4]["stats"], **changes}


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"grade": "X"}, "grade"),
        ({"skills": ["mutig"]}, "skills.0"),
        ({"skills": ["grausam", "grausam"]}, "skills.1"),
        ({"tp": 0}, "tp"),
        ({"b": "zwölf"}, "b"),
        ({"rank": "soldier"}, "rank_order"),
        ({"laune": 3}, "laune"),
    ],
)
def test_profile_schema_refusals(changes: dict[str, object], field: str) -> None:
    with pytest.raises(SchemaError) as refused:
        profile_from_stats(slug="p", name="P", factions=("f",), stats=_profile_stats(**changes))
    assert field in [error.field for error in refused.value.errors]


def test_a_profile_without_stats_lists_every_missing_field() -> None:
    with pytest.raises(SchemaError) as refused:
        profile_from_stats(slug="p", name="P", factions=(), stats={})
    fields = {error.field for error in refused.value.errors}
    assert {"list", "type", "grade", "b", "pw", "wik", "armour", "points", "factions"} <= fields


@pytest.mark.parametrize(
    ("kind", "stats", "field"),
    [
        ("weapon", {"type": "melee"}, "fkw"),
        ("weapon", {"type": "melee", "nkw": 3, "range_cm": 40}, "range_cm"),
        ("weapon", {"type": "rifle", "nkw": 3}, "fkw"),
        ("weapon", {"type": "rifle", "fkw": 3}, "range_cm"),
        ("weapon", {"type": "throw", "fkw": 3, "range_cm": 40}, "range_stk_x"),
        ("armour", {"pw": 1, "b_reduction": 0, "fkw": 4}, "fkw"),
        ("armour", {"pw": 1, "b_reduction": 13}, "b_reduction"),
        ("variant", {"nkw_bonus": 1, "effect": "banner"}, "effect"),
        ("equipment", {"effect": "teleporter"}, "effect"),
        ("game_type", {"min_points": 500, "max_points": 400, "hours": "1"}, "max_points"),
        ("vehicle", {}, "kind"),
    ],
)
def test_item_schema_refusals(kind: str, stats: dict[str, object], field: str) -> None:
    with pytest.raises(SchemaError) as refused:
        item_from_stats(
            slug="i", name="I", kind=kind, cost=1 if kind != "game_type" else 0, stats=stats
        )
    assert field in [error.field for error in refused.value.errors]


def test_a_game_type_is_never_bought() -> None:
    with pytest.raises(SchemaError):
        item_from_stats(
            slug="g",
            name="G",
            kind="game_type",
            cost=5,
            stats={"min_points": 1, "max_points": 2, "hours": "1"},
        )


def test_the_admin_form_leaves_other_kinds_keys_empty() -> None:
    """The admin sends every field of every kind: empty or false ones are accepted."""
    item = item_from_stats(
        slug="kevlar",
        name="Kevlar",
        kind="armour",
        cost=2,
        stats={
            "pw": 1,
            "b_reduction": 0,
            "unlimited": False,
            "burns_d4": False,
            "type": "",
            "fkw": None,
            "provisional": True,
        },
    )
    assert isinstance(item, Armour)


def test_skills_are_edited_as_comma_separated_text() -> None:
    skills = next(spec for spec in PROFILE_FIELDS if spec.name == "skills")
    schema = StahlgewitterCatalogSchema()
    assert schema.format_field(skills, ["fanatiker", "grausam"]) == "fanatiker, grausam"
    assert parse_field(skills, "Fanatiker, grausam") == ["fanatiker", "grausam"]
    assert parse_field(skills, "") == []


def test_a_row_that_no_longer_fits_is_left_out_of_the_parsed_catalogue() -> None:
    document = fixture()
    document["profiles"][0]["stats"] = {"b": 12}
    document["items"][0]["stats"] = {"pw": "viel"}
    parsed = stahlgewitter_catalog(catalog_data(document))
    assert len(parsed.profiles) == 112 and len(parsed.armours) == 11


def test_summaries_for_the_api() -> None:
    schema = StahlgewitterCatalogSchema()
    stats = fixture()["profiles"][4]["stats"]
    assert schema.profile_summary(stats)["rank"] == "leader"
    assert schema.profile_summary({}) == {}
    assert schema.item_summary(kind="armour", stats={"pw": 5, "b_reduction": 6}) == {
        "pw": 5,
        "b_reduction": 6,
    }
    weapon = schema.item_summary(kind="weapon", stats={"type": "melee", "nkw": 4})
    assert weapon == {"type": WeaponType.MELEE.value, "fkw": None, "nkw": 4}
    assert isinstance(
        item_from_stats(
            slug="a", name="A", kind="weapon", cost=1, stats={"type": "melee", "nkw": 4}
        ),
        Weapon,
    )
