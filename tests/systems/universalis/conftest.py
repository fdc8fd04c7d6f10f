"""Fixtures for the Universalis rules tests; the toolkit itself is ``helpers.py``."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.systems.universalis.helpers import PLAYED, Game


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
    """Anna (units 0 leader, 1 soldier) against Ben (2 leader, 3 soldier), round 1 begun."""
    return Game().to_round_one()
