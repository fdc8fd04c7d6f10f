"""The season page's pieces built in Python (issue 16: a big season's first view after a
change): the standings guide and a result's status badges, in both languages."""

from __future__ import annotations

import pytest
from django.utils import translation

from apps.leagues.models import Result
from apps.leagues.standings import Entrant, HistoryItem, Row
from apps.leagues.standings_rows import guides
from apps.leagues.templatetags.leagues import result_status


def _row(entrant: int, name: str, history: list[HistoryItem]) -> Row:
    return Row(entrant=Entrant(id=entrant, name=name, dropped=False), history=history)


def _game(round_: int, result: str, opponent: int | None, vp: tuple[int, int]) -> HistoryItem:
    return HistoryItem(
        round=round_, result=result, opponent=opponent, vp_for=vp[0], vp_against=vp[1], points=0
    )


def test_the_guide_names_each_round_the_score_and_the_opponent() -> None:
    anna = _row(1, "Anna", [_game(1, "W", 2, (12, 7)), _game(2, "bye", None, (0, 0))])
    ben = _row(2, "Ben <b>", [_game(1, "L", 1, (7, 12))])
    with translation.override("en"):
        table = guides([anna, ben], [ben, anna])
    assert [row for row, _guide in table] == [ben, anna]
    assert table[0][1] == [("l", "L", "Round 1: 7–12 against Anna")]
    assert table[1][1] == [
        ("w", "W", "Round 1: 12–7 against Ben <b>"),
        ("bye", "B", "Round 2: bye"),
    ]


def test_the_guide_is_in_the_readers_language() -> None:
    anna = _row(1, "Anna", [_game(1, "D", 2, (5, 5)), _game(2, "bye", None, (0, 0))])
    ben = _row(2, "Ben", [])
    with translation.override("de"):
        ((_row_, guide), _ben) = guides([anna, ben], [anna, ben])
    assert [letter for _css, letter, _title in guide] == ["U", "F"]
    assert guide[0][2].startswith("Runde 1")


def _result(status: str, source: str = Result.Source.MANUAL) -> Result:
    return Result(status=status, source=source, outcome="a", vp_a=10, vp_b=3)


@pytest.mark.parametrize(
    ("status", "counts", "badge"),
    [
        (Result.Status.CONFIRMED, False, '<span class="badge ok">confirmed</span>'),
        (Result.Status.DECIDED, False, '<span class="badge ok">decided</span>'),
        (Result.Status.DISPUTED, True, '<span class="badge warn">disputed</span>'),
        (Result.Status.REPORTED, True, '<span class="badge ok">counts (not answered)</span>'),
        (Result.Status.REPORTED, False, '<span class="badge warn">awaiting confirmation</span>'),
    ],
)
def test_a_results_badge_says_where_it_stands(status: str, counts: bool, badge: str) -> None:
    with translation.override("en"):
        assert result_status(_result(status), counts) == badge


def test_a_tracked_result_says_so() -> None:
    with translation.override("en"):
        html = result_status(_result(Result.Status.REPORTED, Result.Source.TRACKED), False)
    assert html.endswith(' <span class="badge">recorded by the tracker</span>')


def test_the_badges_are_in_the_readers_language() -> None:
    with translation.override("de"):
        html = result_status(_result(Result.Status.CONFIRMED), False)
    assert "confirmed" not in html
    assert html.startswith('<span class="badge ok">')
