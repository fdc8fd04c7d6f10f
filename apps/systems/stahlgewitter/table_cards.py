"""Stahlgewitter's reference cards, the tables the rulebook wants copied for every player ("Die
auf den letzten Seiten des Regelbuchs abgebildeten Tabellen ... sollten vor Spielbeginn kopiert
und jedem Spieler ausgehändigt werden"): the combat results table, the four result tables, the
shots at leaders per volley with the cover shifts, and the compact results legend every unit
card repeats. Pure data for ``templates/cards/stahlgewitter/``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from apps.systems.core.cards import Card
from apps.systems.core.i18n import gettext_noop
from apps.systems.stahlgewitter.tables import Letter, Outcome, load, outcome

DASH: Final = "–"

CRT_CARD: Final = "crt"
RESULTS_CARD: Final = "results"
LEADERS_CARD: Final = "leaders"

# The four result tables, as the rulebook titles them: (melee, cavalry) -> title.
RESULT_TITLES: Final[Mapping[tuple[bool, bool], str]] = {
    (False, False): gettext_noop("Ergebnisse Fernkampf Infanterie (ranged results, infantry)"),
    (True, False): gettext_noop("Ergebnisse Nahkampf Infanterie (melee results, infantry)"),
    (False, True): gettext_noop("Ergebnisse Fernkampf Kavallerie (ranged results, cavalry)"),
    (True, True): gettext_noop("Ergebnisse Nahkampf Kavallerie (melee results, cavalry)"),
}
COVER_LABELS: Final[Mapping[str, str]] = {
    "soft": gettext_noop("weiche Deckung (soft cover)"),
    "hard": gettext_noop("harte Deckung (hard cover)"),
    "fortified": gettext_noop("befestigte Stellung (fortified)"),
}
# The unit card's compact legend: what a letter does, in a few words.
_ATTACKER_TP: Final[Mapping[int, str]] = {
    1: gettext_noop("att. −1 TP"),
    2: gettext_noop("att. −2 TP"),
    3: gettext_noop("att. −3 TP"),
}
_DEFENDER_TP: Final[Mapping[int, str]] = {
    1: gettext_noop("def. −1 TP"),
    2: gettext_noop("def. −2 TP"),
    3: gettext_noop("def. −3 TP"),
}


@dataclass(frozen=True)
class LegendLine:
    """One line of the compact results legend: ``kind`` (ranged or melee) and the letters with
    what they do, equal meanings run together ("C D - miss")."""

    kind: str
    entries: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class CrtCell:
    letter: str
    printed: bool  # False: past the printed letters of a 10+k row, filled by the design


@dataclass(frozen=True)
class CrtRowView:
    label: str
    cells: tuple[CrtCell, ...]


@dataclass(frozen=True)
class CrtFace:
    columns: tuple[int, ...]
    rows: tuple[CrtRowView, ...]


@dataclass(frozen=True)
class ResultRow:
    """A letter's line of a result table: the printed German ``text`` and its English
    ``text_en`` (the ``localized`` template filter picks the reader's)."""

    letter: str
    text: str
    text_en: str


@dataclass(frozen=True)
class ResultTable:
    title: str
    rows: tuple[ResultRow, ...]


@dataclass(frozen=True)
class ResultsFace:
    tables: tuple[ResultTable, ...]


@dataclass(frozen=True)
class LeadersFace:
    """The volley table for shots at leaders, and the cover shifts of the column."""

    defenders: tuple[int, ...]
    rows: tuple[tuple[int, tuple[str, ...]], ...]  # attackers, shots per defender count
    cover: tuple[tuple[str, int], ...]  # label, columns to the left
    prone_cm: int


# --- The results legend and the reference cards ----------------------------------------------


def short_label(result: Outcome) -> str:
    """A letter's meaning in a few words (the unit card's legend), from the result table."""
    if result.weapon_fault:
        if result.attacker_stunned:
            return gettext_noop("jam, att. stunned")
        return gettext_noop("jam, 1 round repair")
    if result.miss:
        return gettext_noop("miss")
    if result.attacker_tp:
        return _ATTACKER_TP.get(result.attacker_tp, result.text)
    if result.attacker_stunned:
        return gettext_noop("att. stunned")
    if result.attacker_retreat_cm:
        return gettext_noop("att. falls back 5 cm")
    if result.defender_wiped:
        return gettext_noop("def. wiped out")
    if result.defender_tp:
        return _DEFENDER_TP.get(result.defender_tp, result.text)
    if result.defender_stunned:
        return gettext_noop("def. stunned")
    if result.defender_takes_cover:
        return gettext_noop("def. takes cover")
    if result.defender_retreat_cm:
        return gettext_noop("def. falls back 5 cm")
    return result.text


def legend_line(*, melee: bool) -> LegendLine:
    """The infantry result table of one kind of combat, equal meanings run together."""
    entries: list[tuple[str, str]] = []
    for letter in Letter:
        label = short_label(outcome(letter, melee=melee, cavalry=False))
        if entries and entries[-1][1] == label:
            entries[-1] = (f"{entries[-1][0]} {letter.value}", label)
        else:
            entries.append((letter.value, label))
    kind = gettext_noop("Nahkampf (melee)") if melee else gettext_noop("Fernkampf (ranged)")
    return LegendLine(kind, tuple(entries))


def legend() -> tuple[LegendLine, ...]:
    return (legend_line(melee=False), legend_line(melee=True))


def crt_face() -> CrtFace:
    tables = load()
    rows = tuple(
        CrtRowView(
            label=row.label,
            cells=tuple(
                CrtCell(letter.value, index < len(row.printed))
                for index, letter in enumerate(row.cells)
            ),
        )
        for row in tables.rows
    )
    return CrtFace(columns=tables.columns, rows=rows)


def result_table(*, melee: bool, cavalry: bool) -> ResultTable:
    rows = tuple(
        ResultRow(letter.value, result.text_de, result.text)
        for letter in Letter
        for result in (outcome(letter, melee=melee, cavalry=cavalry),)
    )
    return ResultTable(RESULT_TITLES[(melee, cavalry)], rows)


def leaders_face() -> LeadersFace:
    tables = load()
    shots = tables.leader_shots
    return LeadersFace(
        defenders=tuple(range(1, len(shots[0]) + 1)),
        rows=tuple(
            (attackers, tuple(str(n) if n else DASH for n in row))
            for attackers, row in enumerate(shots, start=1)
        ),
        cover=tuple(
            (COVER_LABELS[name], shift)
            for name, shift in tables.cover_shifts.items()
            if name in COVER_LABELS
        ),
        prone_cm=tables.prone_exception_cm,
    )


def reference_cards() -> tuple[Card, ...]:
    """The rulebook's tables, one set for each player."""
    return (
        Card(CRT_CARD, gettext_noop("Kampf-Ergebnistabelle"), crt_face()),
        Card(
            RESULTS_CARD,
            gettext_noop("Ergebnisse Infanterie"),
            ResultsFace(
                (result_table(melee=False, cavalry=False), result_table(melee=True, cavalry=False))
            ),
        ),
        Card(
            RESULTS_CARD,
            gettext_noop("Ergebnisse Kavallerie"),
            ResultsFace(
                (result_table(melee=False, cavalry=True), result_table(melee=True, cavalry=True))
            ),
        ),
        Card(LEADERS_CARD, gettext_noop("Schüsse auf Anführer, Deckung"), leaders_face()),
    )
