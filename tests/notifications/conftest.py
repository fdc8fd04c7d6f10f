"""Notification tests read texts in English and play leagues of the test system "plain",
whose results are reported by hand (as tests/leagues does)."""

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
