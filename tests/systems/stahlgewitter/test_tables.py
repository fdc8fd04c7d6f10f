"""The Stahlgewitter tables, cell by cell, against the printed rulebook.

The printed lines below are copied verbatim from stahlgewitter.de.txt ("Tabellenteil"); the
tests parse them and compare every cell with what ``tables.py`` reads from ``data/tables.json``.
When the rulebook file is at hand (the shared rules folder), a test also checks that these lines
are still word for word in it.
"""

from __future__ import annotations

import copy
import json
from importlib import resources
from pathlib import Path

import pytest

from apps.systems.core.errors import RuleViolation
from apps.systems.stahlgewitter import tables
from apps.systems.stahlgewitter.tables import (
    COLUMNS,
    ENGLISH_TEXTS,
    ROWS,
    Letter,
    TableError,
    crt_letter,
    leader_shots,
    outcome,
    row_label,
)

RULEBOOK = Path("/work/shared/rules/stahlgewitter.de.txt")

# "Kampf-Ergebnistabelle", as printed.
PRINTED_CRT = """W -3 -2 -1 0 1 2 3 4 5 6 7 8 9 10 11 12
1 A A A B B C C D D - - - - E E E
2 A A B B C C D D - E E E E F F F
3 A B B C C D D - E E F F F F G G
4 B B C C D D - E E F F G G G G H
5 B C C D D - E E F F G G H H H I
6 C C D D - E E F F G G H H I I J
7 C D D - E E F F G G H H I I J J
8 D D - E E F F G G H H I I J J J
9 D - E E F F G G H H I I J J J J
10 - E E F F G G H H I I J J J J J
10+1 E E F F G G H H I I J
10+2 E F F G G H H I I J
10+3 F F G G H H I I J
10+4 F G G H H I I J
10+5 G G H H I I J
10+6 G H H I I J
10+7 H H I I J
10+8 H I I J
10+9 I I J
10+10 I J"""

# "Mögliche Schüsse auf Anführer pro Salve", as printed (row: Angreifer, column: Verteidiger).
PRINTED_SHOTS = """Angreifer 1 2 3 4 5 6 7 8 9 10
1 1 1 1 1 - - - - - -
2 2 1 1 1 1 - - - - -
3 3 1 1 1 1 1 - - - -
4 4 2 1 1 1 1 1 - - -
5 5 2 1 1 1 1 1 1 - -
6 6 3 2 1 1 1 1 1 1 -
7 7 3 2 1 1 1 1 1 1 1
8 8 4 2 2 1 1 1 1 1 1
9 9 4 3 2 1 1 1 1 1 1
10 10 5 3 2 2 1 1 1 1 1"""

# The four result tables, as printed.
PRINTED_RESULTS = {
    (True, False): """Ergebnisse Nahkampf Infanterie
A = Angreifer getötet / 2
B = Angreifer getötet / 1
C = Angreifer betäubt
D = Angreifer zieht sich 5 cm zurück
- = daneben
E = Verteidiger zieht sich 5 cm zurück
F = Verteidiger betäubt
G = Verteidiger getötet / 1
H = Verteidiger getötet / 2
I = Verteidiger getötet / 3
J = Verteidiger ausgelöscht""",
    (True, True): """Ergebnisse Nahkampf Kavallerie
A = Angreifer getötet / 2
B = Angreifer getötet / 1
C = Angreifer betäubt
D = Angreifer zieht sich 5 cm zurück
- = daneben
E = Verteidiger zieht sich 5 cm zurück
F = Reittier unverletzt, Verteidiger betäubt
G = Reittier getötet, Verteidiger betäubt
H = Reittier unverletzt, Verteidiger getötet / 1
I = Reittier getötet, Verteidiger getötet / 2
J = Reittier getötet, Verteidiger getötet / 3""",
    (False, False): """Ergebnisse Fernkampf Infanterie
A = Waffenfehler, Angreifer betäubt
B = Waffenfehler, 1 Runde Reparatur
C = daneben
D = daneben
- = daneben
E = Verteidiger sucht Schutz
F = Verteidiger betäubt
G = Verteidiger getötet / 1
H = Verteidiger getötet / 2
I = Verteidiger getötet / 3
J = Verteidiger ausgelöscht""",
    (False, True): """Ergebnisse Fernkampf Kavallerie
A = Waffenfehler, Angreifer betäubt
B = Waffenfehler, 1 Runde Reparatur
C = daneben
D = daneben
- = daneben
E = Reittier getötet, Verteidiger unverletzt
F = Reittier unverletzt, Verteidiger betäubt
G = Reittier getötet, Verteidiger betäubt
H = Reittier unverletzt, Verteidiger getötet / 1
I = Reittier getötet, Verteidiger getötet / 1
J = Reittier unverletzt, Verteidiger getötet / 2""",
}


def printed_crt() -> tuple[list[int], dict[str, list[str]]]:
    header, *lines = PRINTED_CRT.splitlines()
    columns = [int(cell) for cell in header.split()[1:]]
    return columns, {line.split()[0]: line.split()[1:] for line in lines}


def shipped_json() -> dict:
    source = resources.files("apps.systems.stahlgewitter").joinpath("data", "tables.json")
    return json.loads(source.read_text(encoding="utf-8"))


@pytest.mark.skipif(not RULEBOOK.exists(), reason="the shared rulebook is not at hand")
def test_printed_lines_here_are_the_rulebook_s_word_for_word() -> None:
    text = RULEBOOK.read_text(encoding="utf-8")
    assert PRINTED_CRT in text
    assert PRINTED_SHOTS in text
    for printed in PRINTED_RESULTS.values():
        assert printed in text


def test_columns_run_minus_3_to_12_as_printed() -> None:
    columns, _rows = printed_crt()
    assert list(COLUMNS) == columns == list(range(-3, 13))
    assert list(ROWS) == list(range(1, 21))


@pytest.mark.parametrize("row", range(1, 11))
def test_rows_1_to_10_match_the_print_cell_by_cell(row: int) -> None:
    columns, rows = printed_crt()
    printed = rows[str(row)]
    assert len(printed) == len(columns)
    assert [crt_letter(column, row) for column in columns] == [Letter(c) for c in printed]
    assert row_label(row) == str(row)


@pytest.mark.parametrize("k", range(1, 11))
def test_rows_10_plus_k_keep_every_printed_letter(k: int) -> None:
    columns, rows = printed_crt()
    printed = rows[f"10+{k}"]
    # The printed letters start at the first column; the rest of the row is blank.
    assert [crt_letter(column, 10 + k) for column in columns[: len(printed)]] == [
        Letter(c) for c in printed
    ]
    assert row_label(10 + k) == f"10+{k}"


@pytest.mark.parametrize("k", range(1, 11))
def test_row_10_plus_k_is_row_10_moved_k_columns_with_j_past_the_end(k: int) -> None:
    """The design's decision for the blank cells: row 10+k at column c equals row 10 at column
    c+k, and J past the last column; this reproduces every printed letter (test above)."""
    _columns, rows = printed_crt()
    row_10 = rows["10"]
    expected = [row_10[i + k] if i + k < len(row_10) else "J" for i in range(len(row_10))]
    assert [crt_letter(column, 10 + k) for column in COLUMNS] == [Letter(c) for c in expected]
    printed = rows[f"10+{k}"]
    assert expected[: len(printed)] == printed


def test_the_printed_rows_6_to_10_already_follow_the_same_diagonal() -> None:
    """The rule used for the blank cells continues the print: from row 6 on, one row down is one
    column right (the upper rows widen their runs and do not)."""
    for row in range(6, 10):
        for column in range(COLUMNS.start, COLUMNS.stop - 1):
            assert crt_letter(column, row + 1) == crt_letter(column + 1, row)


def test_the_blank_cells_and_the_open_roll_are_marked_as_decisions() -> None:
    crt = shipped_json()["crt"]
    assert crt["blank_cells"]["decided"] is True
    assert crt["roll"]["decided"] is True
    extended = [row for row in crt["rows"] if row["row"] > 10]
    _columns, rows = printed_crt()
    assert [row["printed"].split() for row in extended] == [rows[f"10+{k}"] for k in range(1, 11)]


def test_cells_outside_the_table_are_refused() -> None:
    with pytest.raises(RuleViolation):
        crt_letter(13, 5)
    with pytest.raises(RuleViolation):
        crt_letter(-4, 5)
    with pytest.raises(RuleViolation):
        crt_letter(0, 21)
    with pytest.raises(RuleViolation):
        crt_letter(0, 0)


@pytest.mark.parametrize(("melee", "cavalry"), list(PRINTED_RESULTS))
def test_result_tables_keep_the_printed_german_line_of_each_letter(
    melee: bool, cavalry: bool
) -> None:
    _title, *lines = PRINTED_RESULTS[(melee, cavalry)].splitlines()
    for line in lines:
        letter, text = line.split(" = ")
        result = outcome(Letter(letter), melee=melee, cavalry=cavalry)
        assert result.letter == Letter(letter)
        assert result.text_de == text
        assert result.text  # the English line, marked for translation


def test_getoetet_n_means_n_tp_and_ausgeloescht_the_whole_model() -> None:
    """Design: "getötet / N" = N TP lost; "ausgelöscht" = the model dies whatever its TP."""
    for (melee, cavalry), printed in PRINTED_RESULTS.items():
        for line in printed.splitlines()[1:]:
            letter, text = line.split(" = ")
            result = outcome(Letter(letter), melee=melee, cavalry=cavalry)
            if "Angreifer getötet / " in text:
                assert result.attacker_tp == int(text.rsplit("/ ", 1)[1])
            if "Verteidiger getötet / " in text:
                assert result.defender_tp == int(text.rsplit("/ ", 1)[1])
            else:
                assert result.defender_tp == 0
            assert result.defender_wiped == ("ausgelöscht" in text)
            assert result.mount_killed == ("Reittier getötet" in text)
            assert result.defender_stunned == ("Verteidiger betäubt" in text)
            assert result.attacker_stunned == ("Angreifer betäubt" in text)
            assert result.miss == (text == "daneben")
            assert result.weapon_fault == text.startswith("Waffenfehler")
            assert result.attacker_retreat_cm == (5 if "Angreifer zieht sich 5 cm" in text else 0)
            assert result.defender_retreat_cm == (5 if "Verteidiger zieht sich 5 cm" in text else 0)


def test_ranged_a_b_and_e_mean_fault_repair_and_taking_cover() -> None:
    """ "A = Waffenfehler, Angreifer betäubt", "B = Waffenfehler, 1 Runde Reparatur",
    "E = Verteidiger sucht Schutz"."""
    a = outcome(Letter.A, melee=False, cavalry=False)
    assert a.weapon_fault and a.attacker_stunned and a.repair_rounds == 0
    b = outcome(Letter.B, melee=False, cavalry=False)
    assert b.weapon_fault and not b.attacker_stunned and b.repair_rounds == 1
    assert outcome(Letter.E, melee=False, cavalry=False).defender_takes_cover
    assert not outcome(Letter.E, melee=False, cavalry=True).defender_takes_cover
    assert not outcome(Letter.E, melee=True, cavalry=False).defender_takes_cover


def test_every_english_text_is_set_for_every_letter_of_every_table() -> None:
    for texts in ENGLISH_TEXTS.values():
        assert set(texts) == {letter.value for letter in Letter}
        assert all(texts.values())


def test_leader_shots_match_the_print_and_a_dash_is_none() -> None:
    header, *lines = PRINTED_SHOTS.splitlines()
    defenders = [int(cell) for cell in header.split()[1:]]
    for line in lines:
        attackers, *cells = line.split()
        for defender, cell in zip(defenders, cells, strict=True):
            expected = 0 if cell == "-" else int(cell)
            assert leader_shots(int(attackers), defender) == expected


def test_leader_shots_read_counts_beyond_the_table_at_its_edge() -> None:
    assert leader_shots(14, 1) == leader_shots(10, 1) == 10
    assert leader_shots(1, 30) == leader_shots(1, 10) == 0
    assert leader_shots(10, 0) == leader_shots(10, 1)
    assert leader_shots(0, 3) == 0


def test_cover_and_morale_constants_are_the_rulebook_s() -> None:
    data = shipped_json()
    assert data["cover"]["shifts"] == {"open": 0, "soft": 1, "hard": 2, "fortified": 3}
    morale = tables.load().morale
    assert (morale.pass_at, morale.ten_counts, morale.rerolls) == (10, 0, 1)
    assert (morale.detached_specialist, morale.massacre) == (1, 2)
    extinguish = tables.load().extinguish
    assert (extinguish.target, extinguish.per_helper, extinguish.max_helpers) == (6, 1, 3)
    assert tables.load().burn_die == 4


def test_the_fire_table_is_a_decision_the_rulebook_only_announces() -> None:
    """ "Autor: hierfür werden Effekt-Tabellen gemacht. Feuer breitet sich aus oder verlöscht"."""
    fire = shipped_json()["effects"]["fire"]
    assert fire["decided"] is True
    assert fire["note"]
    assert [(band.low, band.high, band.result) for band in tables.load().fire] == [
        (1, 3, "out"),
        (4, 8, "burns"),
        (9, 10, "spreads"),
    ]


@pytest.mark.parametrize(
    "break_it",
    [
        lambda d: d["crt"]["rows"][3].update(cells="A A A"),
        lambda d: d["crt"]["rows"][12].update(printed="J J J"),
        lambda d: d["crt"]["rows"][0].update(cells="A A A B B C C D D - - - - E E X"),
        lambda d: d["crt"]["rows"].pop(),
        lambda d: d["results"]["melee_infantry"]["letters"].pop("J"),
        lambda d: d["results"]["melee_infantry"]["letters"]["J"].update(damage=3),
        lambda d: d["leader_shots"]["rows"][2].update(shots="1 1"),
        lambda d: d["effects"]["fire"]["results"].pop(),
        lambda d: d.pop("morale"),
    ],
)
def test_a_malformed_table_file_is_refused_on_load(break_it) -> None:
    data = copy.deepcopy(shipped_json())
    break_it(data)
    with pytest.raises(TableError):
        tables.parse(data)


def test_the_tables_are_read_once() -> None:
    assert tables.load() is tables.load()
