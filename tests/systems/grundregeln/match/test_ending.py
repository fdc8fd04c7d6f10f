"""The time being up (issue 13): the game ends now and is decided as the scenario counts at its
end. Conceding is tested with the other rules (``test_rules.py``)."""

from __future__ import annotations

from django.utils import translation

from apps.matches.presenters import line_text
from apps.systems.grundregeln.match.state import Phase
from tests.systems.grundregeln.match.helpers import (
    ENGINE,
    Game,
    model,
    profile,
    scenario,
    setup,
)


def test_the_time_being_up_ends_the_game_won_by_the_most_vp() -> None:
    g = Game(setup()).begin()
    g.do("adjust_vp", player=1, points=3)
    g.do("end_on_time")
    assert g.phase is Phase.OVER
    assert ENGINE.result(g.state) == {"winners": [1], "draw": False, "reason": "time", "vp": [0, 3]}


def test_the_time_being_up_with_equal_vp_is_a_draw() -> None:
    g = Game(setup()).begin()
    g.do("end_on_time")
    assert ENGINE.result(g.state) == {"winners": [], "draw": True, "reason": "time", "vp": [0, 0]}


def test_the_time_being_up_in_last_standing_counts_the_models_left() -> None:
    teams = [[model(profile("Anna"))] * 2, [model(profile("Ben"))] * 2]
    g = Game(setup(teams, data=scenario("last_standing", rounds=3))).begin()
    g.do("adjust", unit=g.unit("Ben 1"), lp=0, note="fell")
    g.do("end_on_time")
    assert g.state.result is not None
    assert (g.state.result.winners, g.state.result.reason) == ((0,), "time")


def test_nothing_ends_on_time_after_the_game() -> None:
    g = Game(setup()).begin()
    g.do("concede", player=1)
    g.refused("end_on_time", "game_over")


def test_the_log_says_the_time_is_up() -> None:
    g = Game(setup()).begin()
    g.do("adjust_vp", player=0, points=1)
    (event,) = [e for e in g.do("end_on_time") if e.type == "game_ended"]
    line = ENGINE.timeline(g.state, event)
    assert line is not None
    with translation.override("en"):
        assert line_text(line) == "Game over: Anna wins (the time is up)."


def test_the_log_says_who_conceded_in_german() -> None:
    g = Game(setup()).begin()
    lines = [ENGINE.timeline(g.state, event) for event in g.do("concede", player=1)]
    with translation.override("de"):
        assert [line_text(line) for line in lines if line][0] == "Ben gibt auf."
