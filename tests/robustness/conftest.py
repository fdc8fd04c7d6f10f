"""The robustness tests send hundreds of requests; the API's rate limits (anonymous validation,
token requests) count them in the cache, so each test starts and ends with an empty one and
leaves no throttle history to the tests after it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def fresh_throttle_history() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()
