"""Standings (no database): scoring, the tie-breakers in the season's order, shared ranks."""

from __future__ import annotations

from apps.leagues.standings import (
    Bye,
    Entrant,
    Game,
    Outcome,
    Scoring,
    TieBreaker,
    standings,
)

A, B, C, D = (Entrant(i, name) for i, name in enumerate(["Anna", "Ben", "Cleo", "Dana"], 1))
PLAYERS = [A, B, C, D]


def order(rows) -> list[str]:  # noqa: ANN001
    return [row.entrant.name for row in rows]


def test_points_follow_the_scoring_with_a_bonus_for_a_big_win() -> None:
    scoring = Scoring(win=3, draw=1, loss=0, vp_bonus_points=1, vp_bonus_margin=10)
    games = [
        Game(1, 1, 2, Outcome.A, 20, 5),  # Anna wins by 15: 3 + 1
        Game(1, 3, 4, Outcome.DRAW, 8, 8),
    ]
    rows = {row.entrant.name: row for row in standings(PLAYERS, games, [], scoring)}
    assert rows["Anna"].points == 4
    assert (rows["Cleo"].points, rows["Dana"].points, rows["Ben"].points) == (1, 1, 0)


def test_a_bye_scores_a_win_with_the_configured_vp() -> None:
    rows = standings(PLAYERS, [], [Bye(1, 3)], Scoring(bye_vp=12))
    assert (rows[0].entrant, rows[0].points, rows[0].vp_for, rows[0].byes) == (C, 3, 12, 1)
    assert rows[0].history[0].result == "bye"


# Anna, Ben and Dana end on 3 points. Anna has the best VP difference (+19, Dana +1, Ben 0),
# Ben scored the most VP (41, Dana 31, Anna 30); head to head Ben beat Anna and Dana beat Ben.
LEVEL = [
    Game(1, 2, 1, Outcome.A, 11, 10),  # Ben beats Anna by 1
    Game(2, 1, 3, Outcome.A, 20, 0),  # Anna beats Cleo by 20
    Game(2, 2, 4, Outcome.B, 30, 31),  # Ben loses to Dana by 1
]


def test_vp_difference_first() -> None:
    rows = standings(PLAYERS, LEVEL, [], Scoring(), [TieBreaker.VP_DIFF])
    assert order(rows) == ["Anna", "Dana", "Ben", "Cleo"]
    assert [r.ahead_by for r in rows[:2]] == [TieBreaker.VP_DIFF, TieBreaker.VP_DIFF]
    assert [r.rank for r in rows] == [1, 2, 3, 4]


def test_vp_scored_first() -> None:
    rows = standings(PLAYERS, LEVEL, [], Scoring(), [TieBreaker.VP_FOR, TieBreaker.VP_DIFF])
    assert order(rows) == ["Ben", "Dana", "Anna", "Cleo"]
    assert rows[0].ahead_by == TieBreaker.VP_FOR


def test_head_to_head_first() -> None:
    """Among the three level players Ben and Dana have 3 head-to-head points, Anna none; VP
    difference then puts Dana ahead of Ben."""
    rows = standings(PLAYERS, LEVEL, [], Scoring(), [TieBreaker.HEAD_TO_HEAD, TieBreaker.VP_DIFF])
    assert order(rows) == ["Dana", "Ben", "Anna", "Cleo"]
    assert [r.h2h for r in rows] == [3, 3, 0, None]
    assert [r.ahead_by for r in rows[:3]] == [
        TieBreaker.VP_DIFF,
        TieBreaker.HEAD_TO_HEAD,
        None,
    ]


def test_strength_of_schedule_sums_the_opponents_points() -> None:
    rows = {r.entrant.name: r for r in standings(PLAYERS, LEVEL, [], Scoring())}
    # Anna met Ben (3) and Cleo (0); Ben met Anna (3) and Dana (3); Dana met Ben (3).
    assert (rows["Anna"].sos, rows["Ben"].sos, rows["Dana"].sos) == (3, 6, 3)
    ranked = standings(PLAYERS, LEVEL, [], Scoring(), [TieBreaker.SOS])
    assert order(ranked) == ["Ben", "Anna", "Dana", "Cleo"]
    assert [r.rank for r in ranked] == [1, 2, 2, 4]


def test_fewest_losses_puts_a_draw_ahead_of_a_win_and_a_loss() -> None:
    scoring = Scoring(win=2, draw=1, loss=0)
    games = [
        Game(1, 1, 2, Outcome.A, 5, 0),  # Anna 2
        Game(2, 1, 3, Outcome.B, 0, 5),  # Anna 0, one loss; Cleo 2
        Game(1, 4, 3, Outcome.DRAW, 5, 5),  # Dana 1, Cleo 1
        Game(2, 4, 2, Outcome.DRAW, 0, 0),  # Dana 1, Ben 1
    ]
    rows = standings(PLAYERS, games, [], scoring, [TieBreaker.FEWEST_LOSSES])
    level = [r for r in rows if r.points == 2]
    assert [r.entrant.name for r in level] == ["Dana", "Anna"]
    assert level[0].ahead_by == TieBreaker.FEWEST_LOSSES


def test_players_level_on_everything_share_a_rank_and_are_listed_by_name() -> None:
    rows = standings([D, B, A], [], [], Scoring())
    assert order(rows) == ["Anna", "Ben", "Dana"]
    assert [r.rank for r in rows] == [1, 1, 1]
    assert all(r.ahead_by is None for r in rows)


def test_history_lists_each_round_from_the_players_side() -> None:
    rows = {r.entrant.name: r for r in standings(PLAYERS, LEVEL, [], Scoring())}
    ben = rows["Ben"].history
    assert [(h.round, h.opponent, h.result, h.vp_for, h.vp_against) for h in ben] == [
        (1, 1, "W", 11, 10),
        (2, 4, "L", 30, 31),
    ]
