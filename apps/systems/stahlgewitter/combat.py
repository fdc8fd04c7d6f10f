"""One attack of Stahlgewitter: the column from attack value, armour and cover, and the rolled row
(stahlgewitter.de.txt, "Fernkampf", "Deckung", "Liegende Ziele", "Erläuterungen"; SPEC §4).

Column: SPEC §4 decides attack value (GES + FKW or NKW) *minus* the defender's PW, although the
rulebook says "Dann teilt er seinen Angriffswert durch den Panzerungswert": the table's columns
run −3..12, which only a difference gives. Cover then moves the column left and the result is
clamped to the table.

Row: "Wird eine 10 gewürfelt, so darf ein weiterer W10 gewürfelt und addiert werden. Dabei zählt
eine 10 aber als 0." A first 10 always rolls the extra d10 (a higher row never harms the
attacker) and the row is 10 + that die, on which a 10 counts 0: rows 10+1..10+9, or row 10 after
a second 10; there is no third die. The printed row 10+10 is reached with a row bonus (the
Dehydratorgewehre's "Kampf-Ergebniswurf +1").
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from apps.systems.core.dice import roll_die
from apps.systems.core.errors import RuleViolation
from apps.systems.stahlgewitter.tables import (
    COLUMNS,
    ROWS,
    Letter,
    Outcome,
    crt_letter,
    load,
    outcome,
)


class Cover(StrEnum):
    OPEN = "open"
    SOFT = "soft"
    HARD = "hard"
    FORTIFIED = "fortified"


# "Hat sich der Feind ... von harter Deckung über offenes Gelände in harte Deckung bewegt, so
# wird der Schuß auf ihn durchgeführt, als befände er sich in weicher Deckung."
DASH_COVER: Final = Cover(load().dash_cover)


def cover_shift(cover: Cover) -> int:
    """How many columns left ``cover`` moves the attack: soft 1, hard 2, fortified 3."""
    return load().cover_shifts[Cover(cover)]


def effective_cover(cover: Cover, *, prone: bool, within_5cm: bool) -> Cover:
    """The cover a target counts as: "Liegende Ziele gelten im Offenen als in weicher Deckung und
    in weicher Deckung als in harter Deckung. Ausnahme: Der Gegner, der auf sie schießt, ist
    nicht weiter als 5 cm entfernt" (``within_5cm``: the shooter is at most 5 cm away). Prone
    targets in hard cover or fortified positions gain nothing more."""
    cover = Cover(cover)
    if not prone or within_5cm:
        return cover
    return Cover(load().prone.get(cover, cover))


def ignores_retreat(cover: Cover) -> bool:
    """Models in hard cover or fortified positions ignore retreat results."""
    return Cover(cover) in load().ignore_retreat


def attack_column(attack_value: int, defender_pw: int, cover: Cover) -> int:
    """The column: attack value − defender PW, moved left by the cover, then clamped to −3..12
    (so a difference far beyond 12 stays at 12 even in cover)."""
    column = attack_value - defender_pw - cover_shift(cover)
    return max(COLUMNS.start, min(COLUMNS.stop - 1, column))


@dataclass(frozen=True)
class RowRoll:
    """The dice as rolled (1..10 each; a second die only after a first 10), the ``bonus`` added
    and the final ``row`` (1..20)."""

    dice: tuple[int, ...]
    row: int
    bonus: int = 0


def row_of(dice: tuple[int, ...], bonus: int = 0) -> int:
    """The row that ``dice`` give: the first die, or 10 + the extra die (its 10 counting 0) after
    a first 10; a row bonus is added and the row stops at the table's last row (10+10)."""
    rule = load().roll
    first = dice[0]
    base = first if first != rule.open_face else rule.open_face + dice[1] % rule.extra_die
    return min(base + bonus, ROWS.stop - 1)


def roll_row(rng: random.Random, *, bonus: int = 0) -> RowRoll:
    """Roll the row of the combat results table; ``bonus`` is a row bonus such as the
    Dehydratorgewehre's "Kampf-Ergebniswurf +1"."""
    if bonus < 0:
        raise RuleViolation("row_bonus_invalid", f"A row bonus of {bonus} is not allowed.")
    rule = load().roll
    first = roll_die(rng, rule.die)
    dice = (first, roll_die(rng, rule.extra_die)) if first == rule.open_face else (first,)
    return RowRoll(dice=dice, row=row_of(dice, bonus), bonus=bonus)


@dataclass(frozen=True)
class Attack:
    """One resolved attack: the column used, the roll, the letter and its meaning."""

    column: int
    roll: RowRoll
    letter: Letter
    outcome: Outcome


def resolve(
    rng: random.Random, column: int, *, melee: bool, cavalry: bool, bonus: int = 0
) -> Attack:
    """Roll one attack at ``column`` and read its result."""
    roll = roll_row(rng, bonus=bonus)
    letter = crt_letter(column, roll.row)
    return Attack(
        column=column,
        roll=roll,
        letter=letter,
        outcome=outcome(letter, melee=melee, cavalry=cavalry),
    )
