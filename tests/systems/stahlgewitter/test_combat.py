"""One Stahlgewitter attack: column, cover and the rolled row (stahlgewitter.de.txt, "Fernkampf",
"Deckung", "Liegende Ziele", "Erläuterungen"; SPEC §4 and the design's row decision)."""

from __future__ import annotations

import random

import pytest

from apps.systems.core.errors import RuleViolation
from apps.systems.stahlgewitter.combat import (
    DASH_COVER,
    Cover,
    RowRoll,
    attack_column,
    cover_shift,
    effective_cover,
    ignores_retreat,
    resolve,
    roll_row,
    row_of,
)
from apps.systems.stahlgewitter.tables import Letter


class ScriptedRandom(random.Random):
    """Hands out scripted faces and checks that each is a roll of the die asked for."""

    def __init__(self, *faces: int) -> None:
        super().__init__(0)
        self.faces = list(faces)
        self.sides: list[int] = []

    def randint(self, a: int, b: int) -> int:
        assert self.faces, "the roll asked for more dice than scripted"
        face = self.faces.pop(0)
        assert a == 1 and 1 <= face <= b
        self.sides.append(b)
        return face


def test_column_is_attack_value_minus_pw_not_the_quotient() -> None:
    """ "Dann teilt er seinen Angriffswert durch den Panzerungswert" -- SPEC §4 decides the
    difference, the only reading that fills columns −3..12: GES 3 + FKW 6 against PW 4 is column
    5, where 9 / 4 would be 2."""
    assert attack_column(9, 4, Cover.OPEN) == 5
    assert attack_column(6, 6, Cover.OPEN) == 0
    assert attack_column(2, 5, Cover.OPEN) == -3


def test_soft_cover_moves_one_column_left() -> None:
    """ "Wenn Modelle in weicher Deckung beschossen werden, wird für das Kampfergebnis eine
    Spalte nach links gerückt.\""""
    assert attack_column(9, 4, Cover.SOFT) == 4
    assert cover_shift(Cover.SOFT) == 1


def test_hard_cover_moves_two_columns_left() -> None:
    """ "... in harter Deckung beschossen werden, wird für das Kampfergebnis zwei Spalten nach
    links gerückt.\""""
    assert attack_column(9, 4, Cover.HARD) == 3


def test_fortified_positions_move_three_columns_left() -> None:
    """ "... in befestigten Stellungen beschossen werden, wird für das Kampfergebnis drei Spalten
    nach links gerückt.\""""
    assert attack_column(9, 4, Cover.FORTIFIED) == 2
    assert cover_shift(Cover.OPEN) == 0


def test_the_column_is_clamped_to_the_table_after_cover() -> None:
    assert attack_column(30, 0, Cover.OPEN) == 12
    assert attack_column(30, 0, Cover.FORTIFIED) == 12
    assert attack_column(0, 8, Cover.OPEN) == -3
    assert attack_column(1, 2, Cover.FORTIFIED) == -3


def test_prone_targets_count_open_as_soft_and_soft_as_hard() -> None:
    """ "Liegende Ziele gelten im Offenen als in weicher Deckung und in weicher Deckung als in
    harter Deckung.\""""
    assert effective_cover(Cover.OPEN, prone=True, within_5cm=False) == Cover.SOFT
    assert effective_cover(Cover.SOFT, prone=True, within_5cm=False) == Cover.HARD
    assert effective_cover(Cover.HARD, prone=True, within_5cm=False) == Cover.HARD
    assert effective_cover(Cover.FORTIFIED, prone=True, within_5cm=False) == Cover.FORTIFIED


def test_prone_gives_nothing_against_a_shooter_within_5_cm() -> None:
    """ "Ausnahme: Der Gegner, der auf sie schießt, ist nicht weiter als 5 cm entfernt (=
    Exekution).\""""
    assert effective_cover(Cover.OPEN, prone=True, within_5cm=True) == Cover.OPEN
    assert effective_cover(Cover.SOFT, prone=True, within_5cm=True) == Cover.SOFT


def test_standing_targets_keep_their_cover() -> None:
    for cover in Cover:
        assert effective_cover(cover, prone=False, within_5cm=False) == cover


def test_a_target_dashing_between_hard_cover_is_shot_at_as_in_soft_cover() -> None:
    """ "... von harter Deckung über offenes Gelände in harte Deckung bewegt, so wird der Schuß
    auf ihn durchgeführt, als befände er sich in weicher Deckung.\""""
    assert DASH_COVER == Cover.SOFT


def test_hard_cover_and_fortified_positions_ignore_retreat_results() -> None:
    """ "Modelle hinter harter Deckung ignorieren Rückzugsergebnisse"."""
    assert ignores_retreat(Cover.HARD) and ignores_retreat(Cover.FORTIFIED)
    assert not ignores_retreat(Cover.OPEN) and not ignores_retreat(Cover.SOFT)


@pytest.mark.parametrize("face", range(1, 10))
def test_a_first_die_below_10_is_the_row(face: int) -> None:
    rng = ScriptedRandom(face)
    assert roll_row(rng) == RowRoll(dice=(face,), row=face)
    assert rng.sides == [10]


@pytest.mark.parametrize("extra", range(1, 10))
def test_a_10_rolls_one_more_d10_for_rows_10_plus_1_to_10_plus_9(extra: int) -> None:
    """ "Wird eine 10 gewürfelt, so darf ein weiterer W10 gewürfelt und addiert werden." The
    extra die is always rolled (a higher row never harms the attacker); no third die."""
    rng = ScriptedRandom(10, extra)
    assert roll_row(rng) == RowRoll(dice=(10, extra), row=10 + extra)
    assert rng.sides == [10, 10]
    assert not rng.faces


def test_a_10_on_the_extra_die_counts_0() -> None:
    """ "Dabei zählt eine 10 aber als 0.": 10 then 10 is row 10, and both dice are logged."""
    rng = ScriptedRandom(10, 10)
    assert roll_row(rng) == RowRoll(dice=(10, 10), row=10)
    assert not rng.faces


def test_the_printed_row_10_plus_10_needs_a_row_bonus() -> None:
    """Dehydratorgewehre: "Kampf-Ergebniswurf +1"."""
    assert roll_row(ScriptedRandom(9), bonus=1) == RowRoll(dice=(9,), row=10, bonus=1)
    assert roll_row(ScriptedRandom(10, 3), bonus=1).row == 14
    assert row_of((10, 9)) == 19
    assert row_of((10, 9), 1) == 20
    assert row_of((10, 9), 2) == 20  # the table ends at 10+10


def test_a_negative_row_bonus_is_refused() -> None:
    with pytest.raises(RuleViolation):
        roll_row(ScriptedRandom(5), bonus=-1)


def test_resolve_reads_the_letter_and_its_meaning() -> None:
    attack = resolve(ScriptedRandom(1), -3, melee=True, cavalry=False)
    assert attack.letter == Letter.A
    assert attack.outcome.attacker_tp == 2
    attack = resolve(ScriptedRandom(10, 10), 12, melee=False, cavalry=False)
    assert attack.roll.dice == (10, 10)
    assert attack.letter == Letter.J and attack.outcome.defender_wiped
    attack = resolve(ScriptedRandom(7), 0, melee=False, cavalry=False)
    assert attack.letter == Letter.MISS and attack.outcome.miss


def test_a_seeded_roll_is_replayable() -> None:
    rng, again = random.Random(17), random.Random(17)
    assert [roll_row(rng) for _ in range(50)] == [roll_row(again) for _ in range(50)]
