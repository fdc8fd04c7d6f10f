"""Stahlgewitter's morale, rally, execution, fire and start rolls (stahlgewitter.de.txt, "Moral",
"Sammelphase", "Grausame Anführer", "Flammenschäden", "Spielablauf"; SPEC §4)."""

from __future__ import annotations

import random

import pytest

from apps.systems.core.errors import RuleViolation
from apps.systems.stahlgewitter.morale import (
    BannerRoll,
    BurnRoll,
    MoraleRoll,
    RallyRoll,
    StartRoll,
    banner_falls,
    burn_rounds,
    detached_specialist_bonus,
    execution,
    extinguish,
    fire_marker,
    massacre_bonus,
    morale_test,
    rally_test,
    start_roll,
)


class ScriptedRandom(random.Random):
    """Hands out scripted faces and checks that each is a roll of the die asked for."""

    def __init__(self, *faces: int) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        assert self.faces, "the roll asked for more dice than scripted"
        face = self.faces.pop(0)
        assert a == 1 and 1 <= face <= b
        return face


def test_a_morale_test_passes_at_10_or_more() -> None:
    """ "Ist das Ergebnis 10 oder höher, so ist die Probe gelungen. Ein Ergebnis von 1 bis 9
    zeigt an, daß die Probe gescheitert ist.\""""
    assert morale_test(ScriptedRandom(3), 7) == MoraleRoll(dice=(3,), passed=True, rerolled=False)
    assert morale_test(ScriptedRandom(2), 7) == MoraleRoll(dice=(2,), passed=False, rerolled=False)


def test_a_rolled_10_in_a_morale_test_is_always_a_zero() -> None:
    """ "eine gewürfelte 10 bei einer Moralprobe stets eine Null darstellt"."""
    assert not morale_test(ScriptedRandom(10), 9).passed
    assert morale_test(ScriptedRandom(1), 9).passed
    assert morale_test(ScriptedRandom(10), 10).passed
    assert morale_test(ScriptedRandom(10), 9).dice == (10,)  # logged as rolled


def test_commander_or_banner_rerolls_a_failed_test_once() -> None:
    """ "so darf sie eine mißlungene Moralprobe einmal wiederholen"."""
    assert morale_test(ScriptedRandom(1, 5), 6, reroll=True) == MoraleRoll(
        dice=(1, 5), passed=True, rerolled=True
    )
    assert morale_test(ScriptedRandom(1, 2), 6, reroll=True) == MoraleRoll(
        dice=(1, 2), passed=False, rerolled=True
    )
    # A passed test is not rolled again.
    assert morale_test(ScriptedRandom(8), 6, reroll=True).dice == (8,)


def test_a_detached_specialist_gets_plus_1() -> None:
    """ "Falls abgespaltene Spezialisten eine Moralprobe durchführen müssen, erhalten sie +1"."""
    assert detached_specialist_bonus() == 1
    assert not morale_test(ScriptedRandom(2), 7).passed
    assert morale_test(ScriptedRandom(2), 7, detached_specialist_bonus()).passed


def test_a_massacre_gives_the_survivors_plus_2() -> None:
    """ "erhalten alle verbleibenden Einheiten der Massakrierten für den Rest des Spiels +2 auf
    ihre Moral"."""
    assert massacre_bonus() == 2
    assert morale_test(ScriptedRandom(1), 7, massacre_bonus()).passed


def test_the_sammelprobe_rallies_on_at_most_the_morale_value() -> None:
    """ "Wird dabei maximal der entsprechende Moralwert gewürfelt, so gilt die Einheit als
    gesammelt ... Mißlingt die Probe, so bleibt die Einheit in Panik\""""
    assert rally_test(ScriptedRandom(7), 7) == RallyRoll(dice=(7,), rallied=True, deserted=False)
    assert rally_test(ScriptedRandom(8), 7) == RallyRoll(dice=(8,), rallied=False, deserted=False)


def test_a_sammelprobe_failing_with_a_10_deserts() -> None:
    """ "Scheitert die Sammelprobe mit einer 10, so desertieren die Angehörigen der Einheit"; a
    10 that is at most the morale value rallies."""
    assert rally_test(ScriptedRandom(10), 9) == RallyRoll(dice=(10,), rallied=False, deserted=True)
    assert rally_test(ScriptedRandom(10), 10).rallied


@pytest.mark.parametrize("face", range(1, 11))
def test_a_cruel_leader_s_example_rallies_on_1_to_9_and_a_10_mutinies(face: int) -> None:
    """ "Bei einem Ergebnis von 1 bis 9 ist die Einheit gesammelt ... Zeigt der Würfel eine 10,
    so meutern die Angehörigen gegen den grausamen Anführer\""""
    roll = execution(ScriptedRandom(face))
    assert roll.dice == (face,)
    assert roll.rallied == (face <= 9)
    assert roll.mutiny == (face == 10)


def test_putting_out_flames_needs_6_on_1d10() -> None:
    """ "Hierzu muß mit 1W10 ein Ergebnis von mindestens 6 erzielt werden.\""""
    assert extinguish(ScriptedRandom(6), 0).extinguished
    assert not extinguish(ScriptedRandom(5), 0).extinguished


def test_each_helper_adds_1_to_put_out_flames_at_most_3() -> None:
    """ "Für jeden Kameraden in direktem Kontakt, der beim Löschen hilft ... wird +1 auf den Wurf
    addiert (maximal +3).\""""
    assert extinguish(ScriptedRandom(5), 1).extinguished
    assert extinguish(ScriptedRandom(3), 3).bonus == 3
    assert extinguish(ScriptedRandom(3), 3).extinguished
    roll = extinguish(ScriptedRandom(2), 5)
    assert (roll.dice, roll.bonus, roll.extinguished) == ((2,), 3, False)
    with pytest.raises(RuleViolation):
        extinguish(ScriptedRandom(2), -1)


@pytest.mark.parametrize("face", range(1, 5))
def test_a_flamer_target_burns_1d4_rounds(face: int) -> None:
    """ "Ziel brennt 1W4 Runden"."""
    assert burn_rounds(ScriptedRandom(face)) == BurnRoll(dice=(face,), rounds=face)


@pytest.mark.parametrize(
    ("face", "result"),
    [(1, "out"), (3, "out"), (4, "burns"), (8, "burns"), (9, "spreads"), (10, "spreads")],
)
def test_the_decided_fire_table(face: int, result: str) -> None:
    """Decided effect table: each burning marker at the start of a round, 1-3 out, 4-8 burns
    on, 9-10 spreads to a model in contact."""
    roll = fire_marker(ScriptedRandom(face))
    assert (roll.dice, roll.result) == ((face,), result)


def test_the_start_roll_rerolls_ties_and_keeps_every_die() -> None:
    """ "wirft jeder Spieler 1W10; bei Gleichstand werden die Würfe wiederholt\""""
    assert start_roll(ScriptedRandom(4, 4, 2, 2, 3, 9)) == StartRoll(
        dice=((4, 4), (2, 2), (3, 9)), bonus=(0, 0), first=1
    )
    assert start_roll(ScriptedRandom(8, 1)).first == 0


def test_the_optional_start_roll_adds_the_best_leader_s_wik() -> None:
    """ "Beide Spieler addieren zu dem Wurf ... die Willenskraft (WIK) ihres besten Anführers.\""""
    assert start_roll(ScriptedRandom(4, 5), (9, 7)).first == 0
    assert start_roll(ScriptedRandom(5, 3, 6, 1), (7, 9)) == StartRoll(
        dice=((5, 3), (6, 1)), bonus=(7, 9), first=0
    )


def test_when_the_banner_falls_a_wik_test_decides_panic_surrender_or_an_extra_action() -> None:
    """ "Fällt Fahne, dann WIK-Probe. Mißlungen = Panik, mißlungen mit 0 = ergibt sich, gelungen =
    sofortiger Zusatzangriff, gelungen mit 9 = sofortiger Zusatzzug.\""""
    assert banner_falls(ScriptedRandom(2), 7).result == "panic"
    assert banner_falls(ScriptedRandom(10), 7) == BannerRoll(dice=(10,), result="surrender")
    assert banner_falls(ScriptedRandom(5), 7).result == "extra_attack"
    assert banner_falls(ScriptedRandom(9), 7).result == "extra_turn"
    assert banner_falls(ScriptedRandom(10), 10).result == "extra_attack"  # 0 + 10 passes
