"""Fixtures shared by the whole suite.

The shipped catalogue (every ``fixtures/<system>/*.json``) takes about 1,300 queries to load, so
it is loaded once into each test database (once per xdist worker) rather than once per test:
a test runs inside a transaction that is rolled back, so it finds the catalogue as shipped
whatever the tests before it changed. Tests that commit (``transaction=True``, ``live_server``)
end with a flush of every table; the catalogue is loaded again right after such a test, so
every test starts with it, whatever order the tests run in.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest
from django.test import override_settings
from rest_framework.test import APIClient

from tests.accounts.factories import UserFactory

if TYPE_CHECKING:
    from pytest_django import DjangoDbBlocker

    from apps.catalog.models import GameSystem

# The test systems (tests/probe): fixtures that register them for one test.
pytest_plugins = ["tests.probe.fixtures"]

# In CI the real services are started before the suite; a test that needs one must not skip there.
REQUIRE_SERVICES = os.environ.get("SKIRMISH_REQUIRE_SERVICES") == "1"


def skip_or_fail(reason: str) -> None:
    """Skip locally when an external service is missing; fail in CI, where it must be there."""
    if REQUIRE_SERVICES:
        pytest.fail(f"{reason} (SKIRMISH_REQUIRE_SERVICES=1: CI must provide it)")
    pytest.skip(reason)


def catalogue_load() -> None:
    """Load every shipped catalogue file as ``make run`` does (idempotent)."""
    from apps.catalog.services import catalog_load, shipped_catalog_files

    for path in shipped_catalog_files():
        catalog_load(path)


def catalogue_restore() -> None:
    """Load the shipped catalogue again if a flush removed it; one query when it is there.

    Between tests the database holds either the catalogue as shipped (a rolled-back test) or
    nothing (a flushed one), so whether any profile exists tells the two apart.
    """
    from apps.catalog.models import Profile

    if not Profile.objects.exists():
        catalogue_load()


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """Under xdist (`make test`: -n auto) the browser tests run on one worker, one after another.

    A single Chromium, and no two browser journeys competing for the CPU against their
    timeouts; the other workers share the rest of the suite test by test meanwhile, as with
    ``--dist load``. (``--dist loadgroup`` with ``xdist_group`` marks would say the same, but
    pytest-xdist 3.8 cannot group on pytest 9.2: pytest-dev/pytest-xdist#1386.)
    """
    if config.getvalue("dist") != "load":
        return None  # an explicit other --dist is obeyed
    from xdist.scheduler import LoadScopeScheduling

    class BrowserTestsTogether(LoadScopeScheduling):
        # Scopes are sent largest first, so the browser tests start at once and the other
        # workers fill in around them instead of waiting for them at the end.
        def _split_scope(self, nodeid: str) -> str:
            return "tests/e2e" if nodeid.startswith("tests/e2e/") else nodeid

    return BrowserTestsTogether(config, log)


# The blocker of the session's test database, kept once it exists, so that the hook below may
# reach the database between two tests.
_test_database: list[DjangoDbBlocker] = []


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None, django_db_blocker: DjangoDbBlocker) -> None:
    """pytest-django's test database, with the shipped catalogue loaded into it."""
    with django_db_blocker.unblock():
        catalogue_load()
    _test_database.append(django_db_blocker)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[Any]:
    # After the test's own teardown, which is where a transactional test flushes the tables.
    result = yield
    if _test_database and nextitem is not None:
        with _test_database[0].unblock():
            catalogue_restore()
    return result


@pytest.fixture(scope="session", autouse=True)
def _fast_password_hashing() -> Iterator[None]:
    """Hash passwords with MD5 in the tests, as Django's testing docs advise.

    The production hasher (PBKDF2, a million rounds) takes about 0.3 s a password by design;
    every user a test creates pays it, which made creating users the largest setup cost left.
    No test is about the hashing algorithm; logging in still checks the password.
    """
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.fixture(autouse=True)
def _fresh_catalog_cache() -> None:
    """Each test reads the catalogue afresh, as it did when every test loaded its own.

    The builder's per-process cache is keyed by the catalogue stamp, which is now the same in
    every test; a test that changes cards without renewing the stamp would otherwise leave its
    change in the cache for the tests after it.
    """
    from apps.rosters.selectors import _CATALOG_CACHE

    _CATALOG_CACHE.clear()


@pytest.fixture
def catalogue(db: None) -> None:
    """The shipped catalogue of every system, as ``make run`` loads it.

    It is already in the test database (see ``django_db_setup``); a test asks for this fixture
    to say that it relies on it.
    """


@pytest.fixture
def deathmatch(catalogue: None) -> GameSystem:
    """The shipped Deathmatch catalogue (with every other system's); returns the system row."""
    from apps.catalog.models import GameSystem

    return GameSystem.objects.get(slug="deathmatch")


@pytest.fixture
def api_client() -> APIClient:
    # English unless a test asks otherwise: messages are asserted in English.
    return APIClient(HTTP_ACCEPT_LANGUAGE="en")


@pytest.fixture
def user(db: None):  # noqa: ANN201 - factory_boy returns the model instance
    return UserFactory()


@pytest.fixture
def redis_cache_url() -> str:
    """The Redis the tests may use as a cache (``SKIRMISH_TEST_REDIS_URL``; skipped without one
    locally, failed in CI)."""
    import redis

    url = os.environ.get("SKIRMISH_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
    try:
        redis.Redis.from_url(url, socket_connect_timeout=1).ping()
    except redis.RedisError:
        skip_or_fail(f"no Redis at {url}")
    return url


def shared_cache(url: str, prefix: str) -> dict[str, dict[str, object]]:
    """``CACHES`` as production sets them, on the Redis at ``url``, under a prefix of the
    test's own (parallel tests share the Redis)."""
    return {
        "default": {
            "BACKEND": "apps.accounts.cache.SharedRedisCache",
            "LOCATION": url,
            "KEY_PREFIX": prefix,
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }


@pytest.fixture
def streams_on(settings: Any, redis_cache_url: str) -> Iterator[None]:
    """As in production with a stream server: Redis is the cache (a prefix of this test's own),
    the seq is kept there, sessions are read from it, and trackers stream
    (apps.matches.stream)."""
    import uuid

    from apps.accounts import cache
    from apps.matches import stream

    cache._unavailable_until.clear()  # a Redis pause of an earlier test would drop the writes
    settings.CACHES = shared_cache(redis_cache_url, f"test-stream-{uuid.uuid4().hex}")
    settings.MATCH_SEQ_IN_CACHE = True
    settings.MATCH_STREAMS = True
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
    yield
    stream.forget_hub()  # its event loop ends with the test
