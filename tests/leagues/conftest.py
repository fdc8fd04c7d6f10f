"""League tests read the services' messages in English, and play two test systems without
rosters ("plain" and "other", tests/probe) besides Deathmatch.

They create many players; the suite-wide fast password hasher (tests/conftest.py) keeps that
quick."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.utils import translation


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    with translation.override("en"):
        yield


@pytest.fixture(autouse=True)
def _systems_without_rosters(plain_systems: None) -> None:
    """Leagues of systems whose results are reported by hand."""
