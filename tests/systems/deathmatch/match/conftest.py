"""Fixtures for the Deathmatch match engine tests; the toolkit itself is ``helpers.py``."""

from __future__ import annotations

import pytest

from tests.systems.deathmatch.match.helpers import Game, setup


@pytest.fixture
def game() -> Game:
    """Last Man Standing, 3 plain fighters a side, round 1: Anna (units 0-2) begins, Ben (3-5)
    follows; nobody has command points."""
    g = Game(setup("last-man-standing"))
    g.to_round_one()
    return g
