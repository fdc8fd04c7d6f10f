"""Fixtures shared by the match tests."""

from __future__ import annotations

import pytest

from apps.catalog.models import GameSystem
from apps.matches.models import Match
from tests.matches.factories import small_match


@pytest.fixture
def match(deathmatch: GameSystem, user) -> Match:  # noqa: ANN001 - the user factory's model
    """A small Deathmatch match between two of ``user``'s teams (a module may override it)."""
    return small_match(user, deathmatch)
