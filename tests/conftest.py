"""Fixtures shared by the whole suite."""

from __future__ import annotations

import os

import pytest
from rest_framework.test import APIClient

from tests.accounts.factories import UserFactory

# In CI the real services are started before the suite; a test that needs one must not skip there.
REQUIRE_SERVICES = os.environ.get("SKIRMISH_REQUIRE_SERVICES") == "1"


def skip_or_fail(reason: str) -> None:
    """Skip locally when an external service is missing; fail in CI, where it must be there."""
    if REQUIRE_SERVICES:
        pytest.fail(f"{reason} (SKIRMISH_REQUIRE_SERVICES=1: CI must provide it)")
    pytest.skip(reason)


@pytest.fixture
def deathmatch(db: None):  # noqa: ANN201
    """The shipped Deathmatch catalogue, loaded as `make run` loads it; returns the system row."""
    from apps.catalog.models import GameSystem
    from apps.catalog.services import catalog_load, shipped_catalog_files

    for path in shipped_catalog_files():
        catalog_load(path)
    return GameSystem.objects.get(slug="deathmatch")


@pytest.fixture
def api_client() -> APIClient:
    # English unless a test asks otherwise: messages are asserted in English.
    return APIClient(HTTP_ACCEPT_LANGUAGE="en")


@pytest.fixture
def user(db: None):  # noqa: ANN201 - factory_boy returns the model instance
    return UserFactory()
