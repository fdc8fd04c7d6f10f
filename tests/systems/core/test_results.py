"""Deciding a standing from scores when the table ends a game (core.results)."""

from __future__ import annotations

from apps.systems.core.results import Standing, standing


def test_the_one_leader_wins() -> None:
    assert standing({0: 3, 1: 5}) == Standing((1,), False)


def test_equal_leaders_are_a_draw_and_all_named() -> None:
    assert standing({0: 4, 1: 2, 2: 4}) == Standing((0, 2), True)


def test_only_the_contenders_named_count() -> None:
    assert standing({0: 9, 1: 2, 2: 1}, among=[1, 2]) == Standing((1,), False)


def test_nobody_left_to_contend_is_a_draw() -> None:
    assert standing({0: 1, 1: 1}, among=[]) == Standing((), True)
