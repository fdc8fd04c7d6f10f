"""The hit and damage tables, cell by cell, against the rulebook.

The expected values are typed in from the German rulebook (grundregeln.de.txt, section
"Angriff und Verteidigung", Tabelle 0.1 "Treffertabelle" and Tabelle 0.2 "Schadenstabelle"):
the attacker's size is the row, the defender's size the column (SPEC §2).
"""

from __future__ import annotations

import pytest

from apps.systems.grundregeln.catalog import SIZES, Size
from apps.systems.grundregeln.tables import damage_value, hit_value

# The column header both tables print: "-  XS  S  M  L  XL".
PRINTED_SIZES = ("XS", "S", "M", "L", "XL")

# Tabelle 0.1: Treffertabelle, as printed (row = attacker).
TREFFERTABELLE = """
XS 4 3 2 2 2
S  5 4 3 2 2
M  6 5 4 3 2
L  6 6 5 4 3
XL 6 6 6 5 4
"""

# Tabelle 0.2: Schadenstabelle, as printed (row = attacker).
SCHADENSTABELLE = """
XS 4 5 6 6 6
S  3 4 5 6 6
M  2 3 4 5 6
L  2 2 3 4 5
XL 2 2 2 3 4
"""


def cells(printed: str) -> list[tuple[str, str, int]]:
    """(attacker, defender, value) for every cell of a printed table."""
    result = []
    for line in printed.strip().splitlines():
        row, *values = line.split()
        assert len(values) == len(PRINTED_SIZES)
        result += [
            (row, column, int(value)) for column, value in zip(PRINTED_SIZES, values, strict=True)
        ]
    return result


HIT_CELLS = cells(TREFFERTABELLE)
DAMAGE_CELLS = cells(SCHADENSTABELLE)


def test_the_tables_have_every_cell() -> None:
    assert len(HIT_CELLS) == len(DAMAGE_CELLS) == 25


def test_sizes_run_from_xs_to_xl_as_the_tables_print_them() -> None:
    # "Modelle sind in Größen (XS-XL eingeteilt)": the catalogue's sizes, in table order.
    assert tuple(str(size) for size in SIZES) == PRINTED_SIZES


@pytest.mark.parametrize(
    ("attacker", "defender", "expected"), HIT_CELLS, ids=[f"{a}-vs-{d}" for a, d, _ in HIT_CELLS]
)
def test_hit_value_cell(attacker: str, defender: str, expected: int) -> None:
    assert hit_value(Size(attacker), Size(defender)) == expected


@pytest.mark.parametrize(
    ("attacker", "defender", "expected"),
    DAMAGE_CELLS,
    ids=[f"{a}-vs-{d}" for a, d, _ in DAMAGE_CELLS],
)
def test_damage_value_cell(attacker: str, defender: str, expected: int) -> None:
    assert damage_value(Size(attacker), Size(defender)) == expected


def test_the_tables_are_not_symmetric_attacker_is_the_row() -> None:
    # A small attacker hits a big defender easily (XS vs XL: 2) but a big attacker hits a small
    # one badly (XL vs XS: 6); swapping row and column would flip these.
    assert hit_value(Size.XS, Size.XL) == 2
    assert hit_value(Size.XL, Size.XS) == 6
    assert damage_value(Size.XS, Size.XL) == 6
    assert damage_value(Size.XL, Size.XS) == 2
