"""Fixtures shared by the match tests."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache

from apps.catalog.models import GameSystem
from apps.matches import services
from apps.matches.models import Match
from tests.matches.factories import small_match


@pytest.fixture
def match(deathmatch: GameSystem, user) -> Match:  # noqa: ANN001 - the user factory's model
    """A small Deathmatch match between two of ``user``'s teams (a module may override it)."""
    return small_match(user, deathmatch)


@pytest.fixture
def opponent(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("opponent", password="opponent-password-1")


@pytest.fixture
def seated_match(deathmatch: GameSystem, user: Any, opponent: Any) -> Match:
    """``user`` against ``opponent``, each holding their own seat."""
    created = small_match(user, deathmatch, opponent=opponent, gadgets=True)
    services.match_take_seat(user=opponent, match_id=created.pk, index=1)
    return created


@pytest.fixture
def production_caching(settings: Any) -> None:
    """As in production with Redis: the seq kept in the cache, sessions read from the cache."""
    settings.MATCH_SEQ_IN_CACHE = True
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
    cache.clear()
