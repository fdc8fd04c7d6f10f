"""Bunkers and Badasses: Gefährliches Gelände (hazardous terrain) with its exact odds
recorded before the dice fall."""

from __future__ import annotations

from fractions import Fraction

from apps.systems.bunkers.match.hazard import hazard_odds, wound_chance
from apps.systems.bunkers.match.tables import Phase
from tests.systems.bunkers.test_match_support import Dice, code, run, start, to_battle, to_phase


def test_one_model_loses_a_wound_on_a_one_and_a_failed_save() -> None:
    """ "Jedes Modell der Einheit muss einen W6 werfen und bei einem Ergebnis von 1 einen
    Rüstungswurf ablegen. Verpatzt es diesen, verliert es einen Lebenspunkt." """
    assert wound_chance(3) == Fraction(1, 6) * Fraction(2, 6)
    assert wound_chance(7) == Fraction(1, 6)  # no save
    expected, unharmed = hazard_odds(5, 3)
    assert expected == Fraction(5, 18) and unharmed == Fraction(17, 18) ** 5


def test_a_hazard_roll_records_its_odds_and_takes_the_wounds() -> None:
    state = to_phase(to_battle(start()), Phase.MOVEMENT, player=0)
    assert code(state, "hazard_roll", unit=4) == "not_your_turn"
    # Five Intercessors (Sv 3+): dice 1 1 4 5 1, saves 2 (failed) 6 (passed) 1 (failed).
    state, events = run(state, "hazard_roll", Dice(1, 1, 4, 5, 1, 2, 6, 1), unit=1, save=3)
    rolled = events[0].data
    assert rolled["odds"] == [["expected", "5/18"], ["unharmed", "1419857/1889568"]]
    assert (rolled["dice"], rolled["saves"], rolled["lost"]) == ([1, 1, 4, 5, 1], [2, 6, 1], 2)
    assert [e.type for e in events[1:]] == ["unit_changed", "unit_changed"]
    assert (state.units[1].models, state.units[1].wounds) == (4, 8)
    state = to_phase(state, Phase.SHOOTING, player=0)
    assert code(state, "hazard_roll", unit=1) == "wrong_phase"
