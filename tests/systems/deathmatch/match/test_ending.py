"""Ends the table decides (issue 13): a player concedes, or the time is up. Anna's units are
0-2, Ben's 3-5, Cleo's 6-8."""

from __future__ import annotations

from typing import Any

from django.utils import translation

from apps.matches.presenters import line_text
from apps.systems.deathmatch.match.state import Phase
from tests.systems.deathmatch.match.helpers import ENGINE, Game, one, setup, target


def result(g: Game) -> dict[str, Any] | None:
    return ENGINE.result(g.state)


def started(mode: str = "last-man-standing", **kwargs: Any) -> Game:
    g = Game(setup(mode, **kwargs))
    g.to_round_one()
    return g


def test_a_conceding_player_loses_and_the_other_wins(game: Game) -> None:
    game.do("adjust_vp", player=0, points=4)
    game.do("concede", player=0)
    assert game.state.phase is Phase.OVER
    assert result(game) == {"winners": [1], "draw": False, "reason": "conceded", "vp": [4, 0]}


def test_with_three_players_a_concession_ends_the_game_for_the_most_vp_among_the_others() -> None:
    g = started("mp-deathmatch", players=3)
    g.do("adjust_vp", player=0, points=9)
    g.do("adjust_vp", player=2, points=3)
    g.do("concede", player=0)
    assert result(g) == {"winners": [2], "draw": False, "reason": "conceded", "vp": [9, 0, 3]}


def test_with_three_players_a_concession_between_equal_others_is_a_draw() -> None:
    g = started("mp-deathmatch", players=3)
    g.do("concede", player=1)
    assert result(g) == {"winners": [0, 2], "draw": True, "reason": "conceded", "vp": [0, 0, 0]}


def test_the_time_being_up_ends_the_game_won_by_the_most_vp(game: Game) -> None:
    game.do("adjust_vp", player=1, points=2)
    game.do("end_on_time")
    assert result(game) == {"winners": [1], "draw": False, "reason": "time", "vp": [0, 2]}


def test_the_time_being_up_with_equal_vp_is_a_draw(game: Game) -> None:
    game.do("end_on_time")
    assert result(game) == {"winners": [0, 1], "draw": True, "reason": "time", "vp": [0, 0]}


def test_the_time_being_up_keeps_the_modes_tie_break() -> None:
    # Deathmatch: a tie goes to whoever reached the VP target first (SPEC 1.8).
    g = started("deathmatch")
    g.do("adjust_vp", player=1, points=9)
    g.do("adjust_vp", player=0, points=9)
    g.do("end_on_time")
    assert result(g) == {"winners": [1], "draw": False, "reason": "time", "vp": [9, 9]}


def test_the_time_being_up_scores_onslaught_core_damage_as_the_games_end_does() -> None:
    g = started("onslaught")
    g.do("adjust", unit=7, lp=4)  # Ben's core lost 8 of 12 LP: two full thirds
    events = g.do("end_on_time")
    assert one(events, "vp_scored") == {
        "player": 0,
        "points": 6,
        "reason": "core_damage",
        "detail": g.unit(7).name,
    }
    assert result(g) == {"winners": [0], "draw": False, "reason": "time", "vp": [6, 0]}


def test_the_time_being_up_ends_a_flip_in_progress(game: Game) -> None:
    game.do("adjust_cp", player=0, cp=2)  # with CP to reroll, the flip waits for a decision
    game.activate(0)
    game.stack(0, [5])
    game.do("ranged_attack", targets=[target(3)])
    assert game.state.attack is not None
    game.do("end_on_time")
    assert game.state.phase is Phase.OVER and game.state.attack is None


def test_nothing_is_conceded_or_ended_after_the_game(game: Game) -> None:
    game.do("concede", player=1)
    game.refused("concede", "game_over", player=0)
    game.refused("end_on_time", "game_over")


def test_only_the_seats_holder_concedes_for_it_and_anyone_playing_ends_on_time() -> None:
    specs = {spec.type: spec for spec in ENGINE.commands()}
    assert specs["concede"].own_seat_arg == "player"
    assert not specs["end_on_time"].own_seat_arg and not specs["end_on_time"].seat_arg


def test_the_log_says_who_conceded_and_why_the_game_ended_in_english_and_german(
    game: Game,
) -> None:
    events = game.do("concede", player=1)
    lines = [ENGINE.timeline(game.state, event) for event in events]
    with translation.override("en"):
        assert [line_text(line) for line in lines if line] == [
            "Ben concedes.",
            "Game over (conceded): Anna wins. VP: Anna 0, Ben 0.",
        ]
    with translation.override("de"):
        assert [line_text(line) for line in lines if line] == [
            "Ben gibt auf.",
            "Spielende (aufgegeben): Anna gewinnt. SP: Anna 0, Ben 0.",
        ]


def test_the_log_says_the_time_is_up(game: Game) -> None:
    (event,) = [e for e in game.do("end_on_time") if e.type == "game_ended"]
    line = ENGINE.timeline(game.state, event)
    assert line is not None
    with translation.override("en"):
        assert line_text(line) == "Game over (the time is up): a draw. VP: Anna 0, Ben 0."
