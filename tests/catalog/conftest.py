"""Fixtures of the catalogue tests."""

from __future__ import annotations

import pytest


@pytest.fixture
def empty_catalogue(db: None) -> None:
    """A database without any catalogue, as before the first ``load_catalog``.

    The suite loads the shipped catalogue once per test database; the tests of loading it must
    start from nothing to prove what a load creates. The rows are deleted inside the test's
    transaction, so the rollback brings them back for the tests after it.
    """
    from apps.catalog.models import Faction, GameSystem, Item, Mission, Profile

    # Revisions and the profiles' factions go with their cards (CASCADE); the systems last,
    # as everything else PROTECTs them.
    for model in (Mission, Profile, Item, Faction, GameSystem):
        model.objects.all().delete()
    assert not GameSystem.objects.exists()
