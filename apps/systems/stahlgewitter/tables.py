"""The printed tables of Stahlgewitter as data: the Kampf-Ergebnistabelle (combat results table),
its four result tables, the volley table for shots at leaders, cover, morale and fire constants
(stahlgewitter.de.txt, "Tabellenteil"; SPEC §4).

Every number lives in ``data/tables.json``, transcribed as printed; this module only reads it,
checks its shape once and answers look-ups. The English texts of the results are here because
translation extraction only finds ``gettext_noop`` calls in Python; the German ones are printed
data and stay in the JSON.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, fields
from enum import StrEnum
from functools import cache
from importlib import resources
from typing import Any, Final

from apps.systems.core.errors import RuleViolation
from apps.systems.core.i18n import gettext_noop as _


class Letter(StrEnum):
    """A cell of the combat results table, in the printed order of the result tables: from the
    attacker's worst (A) over the miss ("-") to the defender's worst (J)."""

    A = "A"
    B = "B"
    C = "C"
    D = "D"
    MISS = "-"
    E = "E"
    F = "F"
    G = "G"
    H = "H"
    I = "I"  # noqa: E741 - the printed letter
    J = "J"


class TableError(ValueError):
    """``data/tables.json`` does not have the shape this module reads: a packaging bug."""


@dataclass(frozen=True)
class Outcome:
    """One letter's meaning in one of the four result tables.

    ``attacker_tp``/``defender_tp`` are the TP lost ("getötet / N" = N TP, design decision);
    ``defender_wiped`` is "ausgelöscht" (dead whatever its TP); retreats are in cm;
    ``defender_takes_cover`` is the ranged E "Verteidiger sucht Schutz" (the defender goes prone);
    ``weapon_fault``/``repair_rounds`` the ranged A and B. ``text`` is the English line (marked
    for translation), ``text_de`` the printed German one.
    """

    letter: Letter
    miss: bool = False
    attacker_tp: int = 0
    attacker_stunned: bool = False
    attacker_retreat_cm: int = 0
    defender_tp: int = 0
    defender_wiped: bool = False
    defender_stunned: bool = False
    defender_retreat_cm: int = 0
    defender_takes_cover: bool = False
    mount_killed: bool = False
    weapon_fault: bool = False
    repair_rounds: int = 0
    text: str = ""
    text_de: str = ""


# The structured fields a JSON letter entry may set (everything but the letter and the texts).
_MEANING_FIELDS: Final = frozenset(
    f.name for f in fields(Outcome) if f.name not in {"letter", "text", "text_de"}
)

_KILLED_ATTACKER_2 = _("Attacker killed / 2: the attacker loses 2 TP")
_KILLED_ATTACKER_1 = _("Attacker killed / 1: the attacker loses 1 TP")
_ATTACKER_STUNNED = _("Attacker stunned")
_ATTACKER_RETREATS = _("The attacker retreats 5 cm")
_MISS = _("Miss")
_DEFENDER_RETREATS = _("The defender retreats 5 cm")
_DEFENDER_STUNNED = _("Defender stunned")
_DEFENDER_KILLED_1 = _("Defender killed / 1: the defender loses 1 TP")
_DEFENDER_KILLED_2 = _("Defender killed / 2: the defender loses 2 TP")
_DEFENDER_KILLED_3 = _("Defender killed / 3: the defender loses 3 TP")
_DEFENDER_WIPED = _("Defender wiped out")
_FAULT_STUNNED = _("Weapon fault, attacker stunned")
_FAULT_REPAIR = _("Weapon fault, 1 round of repair")
_TAKES_COVER = _("The defender takes cover (goes prone)")
_MOUNT_OK_STUNNED = _("Mount unhurt, defender stunned")
_MOUNT_DEAD_STUNNED = _("Mount killed, defender stunned")
_MOUNT_OK_KILLED_1 = _("Mount unhurt, defender killed / 1 (loses 1 TP)")
_MOUNT_OK_KILLED_2 = _("Mount unhurt, defender killed / 2 (loses 2 TP)")
_MOUNT_DEAD_KILLED_1 = _("Mount killed, defender killed / 1 (loses 1 TP)")
_MOUNT_DEAD_KILLED_2 = _("Mount killed, defender killed / 2 (loses 2 TP)")
_MOUNT_DEAD_KILLED_3 = _("Mount killed, defender killed / 3 (loses 3 TP)")
_MOUNT_DEAD_UNHURT = _("Mount killed, defender unhurt")

_MELEE_COMMON: Final = {
    "A": _KILLED_ATTACKER_2,
    "B": _KILLED_ATTACKER_1,
    "C": _ATTACKER_STUNNED,
    "D": _ATTACKER_RETREATS,
    "-": _MISS,
    "E": _DEFENDER_RETREATS,
}
_RANGED_COMMON: Final = {
    "A": _FAULT_STUNNED,
    "B": _FAULT_REPAIR,
    "C": _MISS,
    "D": _MISS,
    "-": _MISS,
}
_INFANTRY_HITS: Final = {
    "F": _DEFENDER_STUNNED,
    "G": _DEFENDER_KILLED_1,
    "H": _DEFENDER_KILLED_2,
    "I": _DEFENDER_KILLED_3,
    "J": _DEFENDER_WIPED,
}
ENGLISH_TEXTS: Final[Mapping[str, Mapping[str, str]]] = {
    "melee_infantry": _MELEE_COMMON | _INFANTRY_HITS,
    "melee_cavalry": _MELEE_COMMON
    | {
        "F": _MOUNT_OK_STUNNED,
        "G": _MOUNT_DEAD_STUNNED,
        "H": _MOUNT_OK_KILLED_1,
        "I": _MOUNT_DEAD_KILLED_2,
        "J": _MOUNT_DEAD_KILLED_3,
    },
    "ranged_infantry": _RANGED_COMMON | {"E": _TAKES_COVER} | _INFANTRY_HITS,
    "ranged_cavalry": _RANGED_COMMON
    | {
        "E": _MOUNT_DEAD_UNHURT,
        "F": _MOUNT_OK_STUNNED,
        "G": _MOUNT_DEAD_STUNNED,
        "H": _MOUNT_OK_KILLED_1,
        "I": _MOUNT_DEAD_KILLED_1,
        "J": _MOUNT_OK_KILLED_2,
    },
}


@dataclass(frozen=True)
class CrtRow:
    row: int
    label: str  # as printed: "7", "10+3"
    cells: tuple[Letter, ...]  # one per column, the blank cells filled by the design's decision
    printed: tuple[Letter, ...]  # the letters the rulebook prints in this row


@dataclass(frozen=True)
class RowRollRule:
    """How the row is rolled: ``die`` sides, the ``open_face`` that rolls the ``extra_die``."""

    die: int
    open_face: int
    extra_die: int


@dataclass(frozen=True)
class Extinguish:
    die: int
    target: int
    per_helper: int
    max_helpers: int


@dataclass(frozen=True)
class Morale:
    die: int
    pass_at: int
    ten_counts: int
    rerolls: int
    detached_specialist: int
    massacre: int
    rally_die: int
    rally_deserts_on: int
    execution_die: int
    mutiny_from: int
    start_die: int
    banner_surrender_face: int
    banner_extra_turn_face: int


@dataclass(frozen=True)
class FireBand:
    """Faces ``low``..``high`` of the fire die give ``result`` ("out", "burns", "spreads")."""

    low: int
    high: int
    result: str


@dataclass(frozen=True)
class Tables:
    columns: tuple[int, ...]
    rows: tuple[CrtRow, ...]
    roll: RowRollRule
    results: Mapping[tuple[bool, bool], Mapping[Letter, Outcome]]  # (melee, cavalry)
    leader_shots: tuple[tuple[int, ...], ...]  # [attackers - 1][defenders - 1]
    cover_shifts: Mapping[str, int]
    prone: Mapping[str, str]
    prone_exception_cm: int
    dash_cover: str
    ignore_retreat: frozenset[str]
    morale: Morale
    extinguish: Extinguish
    burn_die: int
    fire_die: int
    fire: tuple[FireBand, ...]

    @property
    def first_row(self) -> int:
        return self.rows[0].row

    @property
    def last_row(self) -> int:
        return self.rows[-1].row


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise TableError(f"data/tables.json: {message}")


def _letters(text: str, where: str) -> tuple[Letter, ...]:
    try:
        return tuple(Letter(cell) for cell in text.split())
    except ValueError as error:
        raise TableError(f"data/tables.json: {where}: {error}") from error


def _crt(data: Mapping[str, Any]) -> tuple[tuple[int, ...], tuple[CrtRow, ...]]:
    columns = tuple(int(c) for c in data["columns"].split())
    _require(
        columns == tuple(range(columns[0], columns[0] + len(columns))), "columns not contiguous"
    )
    rows = []
    for number, entry in enumerate(data["rows"], start=1):
        _require(entry["row"] == number, f"row {entry['row']} out of order")
        cells = _letters(entry["cells"], f"row {entry['label']}")
        printed = _letters(entry.get("printed", entry["cells"]), f"row {entry['label']}")
        _require(len(cells) == len(columns), f"row {entry['label']} has {len(cells)} cells")
        _require(cells[: len(printed)] == printed, f"row {entry['label']} differs from print")
        rows.append(CrtRow(row=number, label=entry["label"], cells=cells, printed=printed))
    return columns, tuple(rows)


def _results(data: Mapping[str, Any]) -> dict[tuple[bool, bool], Mapping[Letter, Outcome]]:
    results: dict[tuple[bool, bool], Mapping[Letter, Outcome]] = {}
    for key, table in data.items():
        _require(key in ENGLISH_TEXTS, f"unknown result table {key!r}")
        _require(set(table["letters"]) == set(Letter), f"{key} does not cover every letter")
        outcomes = {}
        for letter_text, entry in table["letters"].items():
            meaning = {name: value for name, value in entry.items() if name != "text_de"}
            _require(set(meaning) <= _MEANING_FIELDS, f"{key} {letter_text}: unknown {meaning}")
            letter = Letter(letter_text)
            outcomes[letter] = Outcome(
                letter=letter,
                text=ENGLISH_TEXTS[key][letter_text],
                text_de=entry["text_de"],
                **meaning,
            )
        results[(bool(table["melee"]), bool(table["cavalry"]))] = outcomes
    _require(len(results) == 4, "expected the four result tables")
    return results


def _leader_shots(data: Mapping[str, Any]) -> tuple[tuple[int, ...], ...]:
    defenders = len(data["defenders"].split())
    rows = tuple(
        tuple(0 if cell == "-" else int(cell) for cell in entry["shots"].split())
        for entry in data["rows"]
    )
    _require(all(len(row) == defenders for row in rows), "leader shots rows differ in length")
    return rows


def _fire(data: Mapping[str, Any]) -> tuple[FireBand, ...]:
    bands = tuple(FireBand(band["from"], band["to"], band["result"]) for band in data["results"])
    faces = [face for band in bands for face in range(band.low, band.high + 1)]
    _require(faces == list(range(1, data["die"] + 1)), "fire table does not cover the die")
    return bands


def parse(data: Mapping[str, Any]) -> Tables:
    """The tables from their JSON document; ``TableError`` when its shape is wrong."""
    try:
        columns, rows = _crt(data["crt"])
        roll = data["crt"]["roll"]
        cover = data["cover"]
        morale = data["morale"]
        fire = data["fire"]
        tables = Tables(
            columns=columns,
            rows=rows,
            roll=RowRollRule(roll["die"], roll["open_face"], roll["extra_die"]),
            results=_results(data["results"]),
            leader_shots=_leader_shots(data["leader_shots"]),
            cover_shifts=dict(cover["shifts"]),
            prone=dict(cover["prone"]),
            prone_exception_cm=cover["prone_exception_cm"],
            dash_cover=cover["dash_between_hard_cover"],
            ignore_retreat=frozenset(cover["ignore_retreat"]),
            morale=Morale(
                die=morale["die"],
                pass_at=morale["pass_at"],
                ten_counts=morale["ten_counts"],
                rerolls=morale["rerolls"],
                detached_specialist=morale["detached_specialist"],
                massacre=morale["massacre"],
                rally_die=morale["rally"]["die"],
                rally_deserts_on=morale["rally"]["deserts_on"],
                execution_die=morale["execution"]["die"],
                mutiny_from=morale["execution"]["mutiny_from"],
                start_die=morale["start"]["die"],
                banner_surrender_face=morale["banner_falls"]["surrender_face"],
                banner_extra_turn_face=morale["banner_falls"]["extra_turn_face"],
            ),
            extinguish=Extinguish(**fire["extinguish"]),
            burn_die=fire["burn_die"],
            fire_die=data["effects"]["fire"]["die"],
            fire=_fire(data["effects"]["fire"]),
        )
    except (KeyError, TypeError, AttributeError) as error:
        raise TableError(f"data/tables.json: missing or malformed {error}") from error
    _require(
        len(rows) == roll["die"] + roll["extra_die"], "rows must be one die plus the extra die"
    )
    _require(set(tables.prone.values()) <= set(tables.cover_shifts), "prone names a cover")
    return tables


@cache
def load() -> Tables:
    """The shipped tables, read once from the package data."""
    source = resources.files(__package__).joinpath("data", "tables.json")
    return parse(json.loads(source.read_text(encoding="utf-8")))


def _columns() -> tuple[int, ...]:
    return load().columns


COLUMNS: Final = range(_columns()[0], _columns()[-1] + 1)
ROWS: Final = range(load().first_row, load().last_row + 1)


def crt_letter(column: int, row: int) -> Letter:
    """The letter of the combat results table at ``column`` (−3..12) and ``row`` (1..20; 11..20
    are the printed 10+1..10+10)."""
    if column not in COLUMNS:
        raise RuleViolation("crt_column_invalid", f"No column {column} in the results table.")
    if row not in ROWS:
        raise RuleViolation("crt_row_invalid", f"No row {row} in the results table.")
    return load().rows[row - ROWS.start].cells[column - COLUMNS.start]


def row_label(row: int) -> str:
    """The row as printed ("7", "10+3")."""
    if row not in ROWS:
        raise RuleViolation("crt_row_invalid", f"No row {row} in the results table.")
    return load().rows[row - ROWS.start].label


def outcome(letter: Letter, *, melee: bool, cavalry: bool) -> Outcome:
    """What ``letter`` means against infantry or cavalry, in melee or at range."""
    return load().results[(melee, cavalry)][Letter(letter)]


def leader_shots(attackers: int, defenders: int) -> int:
    """How many shots of a volley may target a leader ("Mögliche Schüsse auf Anführer pro
    Salve"): both counts are read at the nearest printed one (1..10); no attackers, no shots."""
    if attackers < 1:
        return 0
    table = load().leader_shots
    a = min(attackers, len(table))
    d = min(max(defenders, 1), len(table[0]))
    return table[a - 1][d - 1]
