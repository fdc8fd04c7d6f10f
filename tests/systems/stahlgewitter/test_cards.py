"""What goes on Stahlgewitter's printed cards (no database, no HTML): a unit card per unit with
its profile lines as worn, TP boxes, weapons and the results legend; the reference tables; the
roster sheet; the splitting of a unit too long for one card."""

from __future__ import annotations

from dataclasses import replace

from apps.systems.core.cards import Card
from apps.systems.core.registry import registry
from apps.systems.core.rosters import EntryInput, RosterInput
from apps.systems.stahlgewitter.cards import (
    BLANK_UNIT,
    BOX,
    DECOY_MARKERS,
    UNIT,
    UNKNOWN_PROFILE,
    StahlgewitterCardLayouts,
    UnitFace,
    split_unit,
)
from apps.systems.stahlgewitter.catalog import stahlgewitter_catalog
from apps.systems.stahlgewitter.table_cards import (
    CRT_CARD,
    LEADERS_CARD,
    RESULTS_CARD,
    CrtFace,
    LeadersFace,
    ResultsFace,
    legend_line,
)
from tests.systems.samples import shipped

LAYOUTS = StahlgewitterCardLayouts()
CATALOG_DATA, _MISSIONS = shipped("stahlgewitter")
CATALOG = stahlgewitter_catalog(CATALOG_DATA)
REFERENCE = [CRT_CARD, RESULTS_CARD, RESULTS_CARD, LEADERS_CARD]


def army() -> RosterInput:
    """Two units of Legion 666: a command squad (an officer heading two veterans and a
    chaplain) and eight cultists led by an NCO in a space suit."""
    return RosterInput(
        faction="legion-666",
        settings={"game_type": "gefecht", "points_limit": 600},
        entries=(
            EntryInput(
                "legion-666-offizier-e",
                ("plasmapistolen", "schwerter", "vibro-variante", "fahne"),
                name="Kommandotrupp Kurtz",
            ),
            EntryInput("legion-666-soldat-v", ("sturmgewehre", "bajonette"), count=2, attach_to=0),
            EntryInput("legion-666-kaplan", ("plasmapistolen", "sanitaeter"), attach_to=0),
            EntryInput(
                "legion-666-kultist", ("messer", "automatikpistolen", "khirf"), count=8, name="Kult"
            ),
            EntryInput(
                "legion-666-unteroffizier",
                ("maschinenpistolen", "raumkampfanzug", "motion-scanner"),
                attach_to=3,
            ),
        ),
    )


def unit_faces(roster: RosterInput | None = None) -> list[UnitFace]:
    printed = LAYOUTS.roster_print(roster or army(), CATALOG_DATA)
    return [card.face for card in printed.cards if isinstance(card.face, UnitFace)]


def test_the_system_prints_with_the_stahlgewitter_layouts() -> None:
    assert isinstance(registry().get("stahlgewitter").cards, StahlgewitterCardLayouts)


def test_one_card_per_unit_then_the_tables_for_each_player() -> None:
    """ "Einheit: Mehrere Modelle, die im Spielverlauf als Gruppe miteinander agieren" and "Die
    ... Tabellen ... sollten vor Spielbeginn kopiert und jedem Spieler ausgehändigt werden"."""
    printed = LAYOUTS.roster_print(army(), CATALOG_DATA)
    assert [(c.template, c.name) for c in printed.cards[:2]] == [
        (UNIT, "Kommandotrupp Kurtz"),
        (UNIT, "Kult"),
    ]
    assert [c.template for c in printed.cards[2:]] == REFERENCE


def test_a_unit_holds_its_head_and_the_entries_attached_to_it() -> None:
    command, cult = unit_faces()
    assert [line.profile for line in command.lines] == ["Offizier (E)", "Soldat (V)", "Kaplan"]
    assert command.models == 4 and cult.models == 9
    assert command.list_name == "Legion 666" and command.faction == "Legion 666"
    # The head entry's name is the unit's title, not repeated on its line.
    assert command.lines[0].name == ""


def test_the_unit_numbers_are_the_army_plans() -> None:
    """ "Auf seinem Armeeplan ordnet jeder Spieler jeder seiner Einheiten eine Nummer zu."""
    assert [face.number for face in unit_faces()] == [1, 2]


def test_a_profile_line_with_its_standard_armour_shows_the_printed_values() -> None:
    """Legion 666 "Offizier (E) 6 8 3 3 3 11 Fanatiker, grausam"."""
    officer = unit_faces()[0].lines[0]
    assert (officer.b, officer.pw, officer.tp, officer.stk, officer.ges, officer.wik) == (
        6,
        8,
        3,
        3,
        3,
        11,
    )
    assert officer.armour == "TiPla-Kampfpanzerung"
    assert (officer.armour_pw, officer.armour_b) == (5, 6)
    assert officer.skills == ("Fanatiker (fanatic)", "grausam (cruel)")
    assert officer.leader


def test_a_chosen_armour_changes_pw_and_b_as_worn() -> None:
    """ "Die Bewegungsweite kann durch besonders schwere Rüstungen um bis zu 6 cm reduziert
    werden": the Unteroffizier (B 6, PW 6 in TiPla-Kampfpanzerung) in a Raumkampfanzug (PW 6,
    B −10) has base PW 1 + 6 and B 6 + 6 − 10."""
    nco = unit_faces()[1].lines[1]
    assert (nco.pw, nco.b) == (7, 2)
    assert (nco.armour, nco.armour_pw, nco.armour_b) == ("Raumkampfanzug", 6, 10)


def test_tp_boxes_per_model_numbered_through_the_unit() -> None:
    """A model at 0 TP is dead; each model ticks its own TP."""
    command, cult = unit_faces()
    assert [track for line in command.lines for track in line.tracks] == [
        (1, BOX * 3),
        (2, BOX * 2),
        (3, BOX * 2),
        (4, BOX * 3),
    ]
    assert [n for n, _boxes in cult.lines[0].tracks] == list(range(1, 9))
    assert cult.lines[1].tracks == ((9, BOX),)


def test_a_burst_fires_at_half_range() -> None:
    """ "innerhalb der halben Feuerstoß-Reichweite ... also beispielsweise 30 cm für
    Maschinenpistolen". Beträgt die Feuerrate z.B. 3, so würfelt man drei Angriffe."""
    weapons = {w.name: w for w in unit_faces()[1].weapons}
    smg = weapons["Maschinenpistolen"]
    assert (smg.range, smg.fkw, smg.nkw, smg.burst) == ("60 cm", "4", "4", "3× 30 cm")


def test_a_thrown_weapon_reaches_stk_times_10_cm() -> None:
    """Messer "Wurf STK x 10 cm": the cultists have STK 1."""
    knife = {w.name: w for w in unit_faces()[1].weapons}["Messer"]
    assert (knife.range, knife.fkw, knife.nkw, knife.burst) == ("10 cm", "2", "2", "")


def test_a_vibro_variant_upgrades_the_melee_weapon_to_an_armour_breaker() -> None:
    """Vibro-Varianten "+2 ... Panzerknacker ja 1) nur zum Öffnen von Schotts, Luken, etc."."""
    sword = unit_faces()[0].weapons[1]
    assert sword.name == "Schwerter (Vibro-Varianten)"
    assert (sword.nkw, sword.fkw, sword.range) == ("6", "–", "–")
    assert sword.breaker and sword.breaker_note.startswith("nur zum Öffnen von Schotts")


def test_weapons_print_the_breaker_the_special_and_the_decided_fkw() -> None:
    """Raketenwerfer "Werfer unbegrenzt ? - nein ja 2) abhängig vom Raketentyp"."""
    roster = RosterInput(
        "legion-666", {}, (EntryInput("legion-666-soldat", ("raketenwerfer", "plasmapistolen")),)
    )
    rocket, plasma = unit_faces(roster)[0].weapons
    assert (rocket.range, rocket.fkw, rocket.stationary, rocket.breaker) == ("∞", "7*", True, True)
    assert rocket.decided and "Raketentyp" in rocket.special
    # The footnote is already in the special text: not printed twice.
    assert rocket.breaker_note == ""
    assert plasma.special == "ignoriert Rüstung" and not plasma.stationary


def test_every_weapon_of_a_unit_is_listed_once() -> None:
    command = unit_faces()[0]
    assert [w.name for w in command.weapons] == [
        "Plasmapistolen",
        "Schwerter (Vibro-Varianten)",
        "Sturmgewehre",
        "Bajonette",
    ]


def test_the_equipment_rules_go_on_the_unit_card() -> None:
    """Fahne: "darf sie eine mißlungene Moralprobe einmal wiederholen"."""
    command, cult = unit_faces()
    assert [rule.name for rule in command.rules] == ["Fahne", "Sanitäter"]
    assert [rule.name for rule in cult.rules] == ["Khirf", "Motion-Scanner"]


def test_the_legend_reads_the_infantry_result_tables() -> None:
    """Fernkampf Infanterie "C = daneben, D = daneben, - = daneben" run together; Nahkampf
    "A = Angreifer getötet / 2"."""
    ranged = dict(legend_line(melee=False).entries)
    assert ranged["C D -"] == "miss"
    assert ranged["A"] == "jam, att. stunned" and ranged["E"] == "def. takes cover"
    assert ranged["J"] == "def. wiped out"
    melee = dict(legend_line(melee=True).entries)
    assert melee["A"] == "att. −2 TP" and melee["-"] == "miss"
    assert melee["E"] == "def. falls back 5 cm" and melee["H"] == "def. −2 TP"
    assert unit_faces()[0].legend == (legend_line(melee=False), legend_line(melee=True))


def test_the_combat_results_table_marks_the_cells_it_does_not_print() -> None:
    """Row "10+1 E E F F G G H H I I J" prints 11 of 16 letters; the rest continue the
    diagonal (design decision) and are marked."""
    crt = LAYOUTS.roster_print(army(), CATALOG_DATA).cards[2].face
    assert isinstance(crt, CrtFace)
    assert crt.columns == tuple(range(-3, 13)) and len(crt.rows) == 20
    first = crt.rows[0]
    assert first.label == "1" and all(cell.printed for cell in first.cells)
    eleventh = crt.rows[10]
    assert eleventh.label == "10+1"
    assert [c.printed for c in eleventh.cells] == [True] * 11 + [False] * 5
    assert [c.letter for c in eleventh.cells[-5:]] == ["J"] * 5


def test_the_four_result_tables_print_german_and_english() -> None:
    cards = LAYOUTS.roster_print(army(), CATALOG_DATA).cards
    infantry, cavalry = cards[3].face, cards[4].face
    assert isinstance(infantry, ResultsFace) and isinstance(cavalry, ResultsFace)
    ranged, melee = infantry.tables
    assert ranged.title.startswith("Ergebnisse Fernkampf Infanterie")
    assert [r.letter for r in ranged.rows] == list("ABCD-EFGHIJ")
    assert ranged.rows[5].text == "Verteidiger sucht Schutz"
    assert melee.rows[0].text == "Angreifer getötet / 2"
    assert melee.rows[0].text_en.startswith("Attacker killed / 2")
    assert cavalry.tables[0].rows[5].text == "Reittier getötet, Verteidiger unverletzt"


def test_the_volley_table_and_cover() -> None:
    """ "Mögliche Schüsse auf Anführer pro Salve": 10 attackers against 2 defenders: 5."""
    face = LAYOUTS.roster_print(army(), CATALOG_DATA).cards[5].face
    assert isinstance(face, LeadersFace)
    assert face.rows[9] == (10, ("10", "5", "3", "2", "2", "1", "1", "1", "1", "1"))
    assert face.rows[0][1][4] == "–"
    assert [shift for _label, shift in face.cover] == [1, 2, 3]


def test_the_sheet_has_points_game_type_units_and_markers() -> None:
    """ "Außerdem darf jeder Spieler drei Marken mehr plazieren, als er Einheiten hat."""
    sheet = LAYOUTS.roster_print(army(), CATALOG_DATA).sheet
    faces = unit_faces()
    assert sheet.points == sum(face.points for face in faces)  # type: ignore[attr-defined]
    assert sheet.points_limit == 600  # type: ignore[attr-defined]
    assert sheet.game_type == "Gefecht"  # type: ignore[attr-defined]
    assert (sheet.min_points, sheet.max_points) == (400, 800)  # type: ignore[attr-defined]
    assert [u.number for u in sheet.units] == [1, 2]  # type: ignore[attr-defined]
    assert [u.models for u in sheet.units] == [4, 9]  # type: ignore[attr-defined]
    assert sheet.markers == 2 + DECOY_MARKERS  # type: ignore[attr-defined]
    assert sheet.provisional  # type: ignore[attr-defined]
    assert sheet.units[0].entries[1].weapons == ("Sturmgewehre", "Bajonette")  # type: ignore[attr-defined]


def test_the_sheet_lists_the_validators_issues() -> None:
    roster = replace(army(), settings={"points_limit": 50})
    sheet = LAYOUTS.roster_print(roster, CATALOG_DATA).sheet
    assert [i.code for i in sheet.issues] == ["points_limit"]  # type: ignore[attr-defined]
    assert not sheet.legal  # type: ignore[attr-defined]


def test_a_profile_gone_from_the_catalogue_prints_no_card_but_a_sheet_line() -> None:
    roster = RosterInput("legion-666", {}, (EntryInput("legion-666-gone", ("messer",)),))
    printed = LAYOUTS.roster_print(roster, CATALOG_DATA)
    assert printed.cards == ()
    entry = printed.sheet.units[0].entries[0]  # type: ignore[attr-defined]
    assert entry.profile == UNKNOWN_PROFILE and not entry.known


def test_a_long_unit_splits_its_rules_off_then_halves_its_entries() -> None:
    command = unit_faces()[0]
    card = Card(UNIT, command.name, command)
    halves = LAYOUTS.split(card)
    assert halves is not None
    profiles, rules = (c.face for c in halves)
    assert isinstance(profiles, UnitFace) and isinstance(rules, UnitFace)
    assert profiles.lines == command.lines and profiles.rules == () and profiles.continues
    assert rules.lines == () and rules.rules == command.rules and rules.continuation
    assert halves[1].part == 2
    first, second = split_unit(profiles) or (None, None)
    assert first is not None and second is not None
    assert [line.profile for line in first.lines] == ["Offizier (E)"]
    assert [w.name for w in first.weapons] == ["Plasmapistolen", "Schwerter (Vibro-Varianten)"]
    assert [line.profile for line in second.lines] == ["Soldat (V)", "Kaplan"]


def test_a_single_large_entry_splits_its_models() -> None:
    roster = RosterInput(
        "legion-666", {}, (EntryInput("legion-666-kultist", ("messer",), count=20),)
    )
    face = unit_faces(roster)[0]
    first, second = split_unit(face) or (None, None)
    assert first is not None and second is not None
    assert [n for n, _ in first.lines[0].tracks] == list(range(1, 11))
    assert [n for n, _ in second.lines[0].tracks] == list(range(11, 21))
    assert second.lines[0].continued and not first.lines[0].continued
    one = replace(face, lines=(replace(face.lines[0], tracks=face.lines[0].tracks[:1]),))
    assert split_unit(one) is None


def test_reference_and_blank_cards_do_not_split() -> None:
    for card in LAYOUTS.blank_cards():
        assert LAYOUTS.split(card) is None


def test_blank_cards_are_a_unit_card_and_the_tables() -> None:
    assert [c.template for c in LAYOUTS.blank_cards()] == [BLANK_UNIT, *REFERENCE]
