"""Fixtures for the Deathmatch match engine tests; the toolkit itself is ``helpers.py``."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.systems.deathmatch.match.helpers import PLAYED, Game, setup


@pytest.fixture(autouse=True)
def every_game_replays() -> Iterator[None]:
    """After each test, every game it played replays from its log to the same state."""
    PLAYED.clear()
    yield
    games = list(PLAYED)
    PLAYED.clear()
    for game in games:
        game.assert_replays()


@pytest.fixture
def game() -> Game:
    """Last Man Standing, 3 plain fighters a side, round 1: Anna (units 0-2) begins, Ben (3-5)
    follows; nobody has command points."""
    g = Game(setup("last-man-standing"))
    g.to_round_one()
    return g
