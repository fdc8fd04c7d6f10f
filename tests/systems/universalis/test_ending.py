"""Ends the table decides (issue 13): a player concedes at any moment, or the time is up and
the game is decided as a round's end would decide it (5.7), without the round limit."""

from __future__ import annotations

from django.utils import translation

from apps.matches.presenters import line_text
from apps.systems.universalis.match.state import Phase
from tests.systems.universalis.helpers import ENGINE, Game, finish_round, setup


def test_a_player_concedes_in_the_middle_of_a_phase_and_the_other_wins(game: Game) -> None:
    game.phase_of(0, 2)
    assert game.phase is Phase.ACTING
    game.do("concede", player=0)
    assert game.phase is Phase.OVER and game.state.missions_revealed
    result = ENGINE.result(game.state)
    assert result is not None
    assert (result["winners"], result["draw"], result["reason"]) == ([1], False, "conceded")


def test_the_rules_surrender_still_waits_for_the_round_end(game: Game) -> None:
    game.refused("surrender", "surrender_at_round_end", player=1)
    game.do("concede", player=1)
    assert game.state.result is not None and game.state.result.winners == (0,)


def test_the_time_being_up_without_a_mission_accomplished_is_a_draw(game: Game) -> None:
    game.do("end_on_time")
    assert game.state.result is not None
    assert (game.state.result.winners, game.state.result.draw) == ((), True)
    assert game.state.result.reason == "time"


def test_the_time_being_up_gives_the_win_to_an_accomplished_mission() -> None:
    # Kopfjagd for both: Anna's model takes Ben's leader out in the middle of the round.
    g = Game(setup(mode="kopfjagd")).to_round_one().phase_of(0, 2)
    g.dice(12, 1).do("auto_hit", unit=2, strength=20, damage=20)
    g.do("end_on_time")
    assert g.state.result is not None
    assert (g.state.result.winners, g.state.result.draw, g.state.result.reason) == (
        (0,),
        False,
        "time",
    )


def test_the_time_being_up_counts_only_the_rounds_confirmed_for_a_declared_mission() -> None:
    g = Game(setup(mode="durchbruch")).to_round_one()
    finish_round(g)
    g.do("end_on_time")
    # The round ended but nobody confirmed it held its condition: nothing is accomplished.
    assert g.state.result is not None and g.state.result.draw


def test_nothing_is_conceded_after_the_game(game: Game) -> None:
    game.do("end_on_time")
    game.refused("concede", "game_over", player=0)


def test_the_log_says_who_conceded_and_that_the_time_is_up() -> None:
    g = Game().to_round_one()
    (conceded,) = g.do("concede", player=1)
    line = ENGINE.timeline(g.state, conceded)
    assert line is not None
    with translation.override("de"):
        assert line_text(line) == "Ben gibt auf."
    g = Game().to_round_one()
    (ended,) = [e for e in g.do("end_on_time") if e.type == "game_over"]
    line = ENGINE.timeline(g.state, ended)
    assert line is not None
    with translation.override("en"):
        assert line_text(line) == "The game ends in a draw (the time is up)."
