"""The tracker without its cache: a Redis that is closed, hangs, or goes away mid-evening.

Polls are answered from the seq in Redis (apps.matches.seqcache), sessions are read from it
(cached_db), and unchanged tracker partials come from it (apps.matches.tracker_cache). None of
that may be needed: with Redis refused or hung every poll, tap and refresh still answers, through
the database, with the seq the database holds -- never a stale "unchanged" -- and a hung Redis
costs one socket timeout per process, not one per request (SharedRedisCache pauses).

What this cannot close: a seq written while Redis hung is lost, and the entry it should have
replaced is read by other processes until it expires (seqcache.TTL_SECONDS, 30 s). The process
that lost the write does not ask Redis for as long (PAUSE_SECONDS), so its own polls are right.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from apps.accounts import cache as shared_cache
from apps.matches import services
from apps.matches.models import Match
from tests.faults.conftest import RedisServer, timed
from tests.matches.factories import small_match

pytestmark = [pytest.mark.faults, pytest.mark.django_db]

# One socket timeout (0.5 s) for the first call, then none while the cache pauses. Generous for
# a loaded CI machine, far below what a wait per request (0.5 s x several calls) would add up to.
REQUEST_BOUND = 3.0
MANY_POLLS = 20
MANY_POLLS_BOUND = 5.0
REFRESH = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "tracker"}


@pytest.fixture
def cache_at(settings: Any, monkeypatch: pytest.MonkeyPatch) -> Callable[[str], None]:
    """The production cache configuration (settings.py with REDIS_URL) at ``url``."""

    def configure(url: str) -> None:
        settings.CACHES = {
            "default": {
                "BACKEND": "apps.accounts.cache.SharedRedisCache",
                "LOCATION": url,
                "KEY_PREFIX": "faults",
                "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
            }
        }
        settings.MATCH_SEQ_IN_CACHE = True
        settings.SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
        # The pause is per process: an earlier test's failure must not hide this one's.
        monkeypatch.setattr(shared_cache, "_unavailable_until", {})

    return configure


@pytest.fixture(params=["closed", "hung"])
def broken_redis(request: pytest.FixtureRequest, cache_at: Callable[[str], None]) -> str:
    if request.param == "closed":
        cache_at(request.getfixturevalue("closed_redis_url"))
    else:
        cache_at(request.getfixturevalue("hung_redis").url())
    return request.param


@pytest.fixture
def match(deathmatch: Any, user: Any, django_user_model: Any) -> Match:
    opponent = django_user_model.objects.create_user("opponent", password="opponent-password-1")
    created = small_match(user, deathmatch, opponent=opponent, gadgets=True)
    services.match_take_seat(user=opponent, match_id=created.pk, index=1)
    return created


def poll_url_in(html: str) -> str:
    found = re.search(r'data-poll-url="([^"]+)"', html)
    assert found is not None
    return found.group(1).replace("&amp;", "&")


def seq_in(html: str) -> int:
    found = re.search(r'data-seq="(\d+)"', html)
    assert found is not None
    return int(found.group(1))


def bounded(what: str, call: Callable[[], Any]) -> Any:
    response, seconds = timed(call)
    assert seconds < REQUEST_BOUND, f"{what} took {seconds:.1f} s"
    return response


def tap(client: Client, match: Match, capture: Any) -> int:
    """A command through the tracker (its on-commit write of the seq included); the new seq."""
    seq = Match.objects.get(pk=match.pk).seq
    with capture(execute=True):
        response = bounded(
            "a tap",
            lambda: client.post(
                f"/matches/{match.pk}/command/",
                {"command": "flip", "args.player:int": "0", "expected_seq": str(seq)},
                **REFRESH,
            ),
        )
    assert response.status_code == 200
    moved = seq_in(response.content.decode())
    assert moved > seq  # a flip may log more than one event
    return moved


def test_polls_taps_and_refreshes_go_through_the_database(
    broken_redis: str,
    match: Match,
    user: Any,
    request: pytest.FixtureRequest,
    django_capture_on_commit_callbacks: Any,
) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)  # the session is written to the database even so
    client.get(f"/matches/{match.pk}/")  # unbounded: the first in this process compiles it all
    page = bounded("the tracker page", lambda: client.get(f"/matches/{match.pk}/"))
    assert page.status_code == 200
    url, seq = poll_url_in(page.content.decode()), seq_in(page.content.decode())
    watcher = Client(HTTP_ACCEPT_LANGUAGE="en")
    watched = bounded(
        "a spectator", lambda: watcher.get(f"/matches/watch/{match.spectator_token}/")
    )
    spectator_url = poll_url_in(watched.content.decode())

    polls, seconds = timed(
        lambda: [client.get(url, HTTP_IF_NONE_MATCH=f'"{seq}"') for _ in range(MANY_POLLS)]
    )
    assert {response.status_code for response in polls} == {304}
    assert seconds < MANY_POLLS_BOUND, f"{MANY_POLLS} polls took {seconds:.1f} s ({broken_redis})"

    moved = tap(client, match, django_capture_on_commit_callbacks)
    for who, browser, poll_url in (("player", client, url), ("spectator", watcher, spectator_url)):
        answer = bounded(who, lambda b=browser, u=poll_url: b.get(u, HTTP_IF_NONE_MATCH=f'"{seq}"'))
        assert answer.status_code == 200, who
        assert answer.json() == {"seq": moved}, who
    for _ in range(2):  # drawn, and (nothing kept) drawn again
        refreshed = bounded("a refresh", lambda: client.get(f"/matches/{match.pk}/", **REFRESH))
        assert refreshed.status_code == 200
        assert seq_in(refreshed.content.decode()) == moved
    if broken_redis == "hung":
        # Each connection costs a timeout; the pause keeps it to a handful, not one a request.
        assert request.getfixturevalue("hung_redis").accepted <= 3


def test_a_redis_that_hangs_and_goes_away_mid_evening(
    redis_server: RedisServer,
    cache_at: Callable[[str], None],
    monkeypatch: pytest.MonkeyPatch,
    match: Match,
    user: Any,
    django_assert_num_queries: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    """A real Redis: the polls are cache reads; it freezes, is stopped, comes back empty; the
    polls never say "unchanged" after a tap, and they are cache reads again once it is back."""
    cache_at(redis_server.url())
    monkeypatch.setattr(shared_cache, "PAUSE_SECONDS", 1.0)  # to see it come back in the test
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    url = poll_url_in(client.get(f"/matches/{match.pk}/").content.decode())
    seq = tap(client, match, django_capture_on_commit_callbacks)
    with django_assert_num_queries(0):
        assert client.get(url, HTTP_IF_NONE_MATCH=f'"{seq}"').status_code == 304

    redis_server.freeze()
    try:
        seq = tap(client, match, django_capture_on_commit_callbacks)  # the write is lost
        answer = bounded("a poll, Redis frozen", lambda: client.get(url))
        assert answer.json() == {"seq": seq}
    finally:
        redis_server.thaw()

    redis_server.stop()
    seq = tap(client, match, django_capture_on_commit_callbacks)
    answer = bounded("a poll, Redis stopped", lambda: client.get(url))
    assert answer.json() == {"seq": seq}

    redis_server.start()  # empty: the sessions and seqs it had are gone
    monkeypatch.setattr(shared_cache, "_unavailable_until", {})  # the pause is over
    assert client.get(url).json() == {"seq": seq}  # the database path refills the seq
    with django_assert_num_queries(0):
        assert client.get(url, HTTP_IF_NONE_MATCH=f'"{seq}"').status_code == 304
    seq = tap(client, match, django_capture_on_commit_callbacks)
    with django_assert_num_queries(0):
        assert client.get(url, HTTP_IF_NONE_MATCH='"1"').json() == {"seq": seq}
