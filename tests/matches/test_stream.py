"""The tracker's stream (apps.matches.stream): each new seq pushed as a server-sent event, to the
viewers a poll would answer, over a real Redis; no stream where one cannot be trusted.

The streams are read through Django's ASGI client, each scenario on an event loop of its own in
a thread of its own (``run``): a browser test before it in the same process leaves Playwright's
loop running in the main thread. The server's side of the scenario uses database connections
of its own, so the tests commit (``transaction=True``) and commands run as they do in
production, with their commit callbacks (the seq published)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import pytest
import redis
from asgiref.sync import sync_to_async
from django.core.cache import caches
from django.db import connections
from django.test import AsyncClient, Client

from apps.accounts.cache import SharedRedisCache
from apps.matches import poll, seqcache, services, stream
from apps.matches.models import Match
from tests.matches.factories import small_match

pytestmark = pytest.mark.django_db(transaction=True)

NEXT_CHUNK_SECONDS = 5.0
T = TypeVar("T")


@pytest.fixture
def match(deathmatch: Any, user: Any) -> Match:
    return small_match(user, deathmatch)


def stream_url(match: Match, viewer: str) -> str:
    token = poll.poll_token(match.pk, match.spectator_token, viewer)
    return f"/matches/{match.pk}/stream/?t={token}"


def flip(user: Any, match: Match) -> int:
    """A command by another device, committed (so its seq is published): the new seq."""
    outcome = services.match_apply_command(
        user=user,
        match_id=match.pk,
        command_type="flip",
        args={"player": 0, "boost": 2},
        expected_seq=None,
        idempotency_key=None,
    )
    return outcome.match.seq


def run(scenario: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """The scenario on an event loop and in a thread of its own; the database connections it
    opened are closed at its end (the test database is dropped at the end of the run)."""

    async def closing() -> T:
        try:
            return await scenario()
        finally:
            await sync_to_async(connections.close_all)()

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, closing()).result(timeout=60)


async def next_chunk(chunks: AsyncGenerator[bytes]) -> bytes:
    return await asyncio.wait_for(anext(chunks), NEXT_CHUNK_SECONDS)


async def opened(client: AsyncClient, url: str) -> tuple[Any, AsyncGenerator[bytes]]:
    """The answer and its events; ``aclose()`` the events to hang up."""
    response = await client.get(url)
    assert response.streaming, response.status_code
    return response, aiter(response.streaming_content)


def test_a_wsgi_server_never_holds_a_stream(streams_on: None, match: Match, user: Any) -> None:
    """gunicorn's sync workers serve one request at a time: a stream there would hold a worker
    for as long as the page is open. Asked there, the stream answers 204 (the page polls)."""

    def asked_by_wsgi() -> int:
        client = Client()
        client.force_login(user)
        try:
            return client.get(stream_url(match, str(user.pk))).status_code
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=1) as pool:  # as a sync worker: no event loop running
        assert pool.submit(asked_by_wsgi).result(timeout=30) == 204


def test_the_stream_tells_each_seq_as_a_command_commits(
    streams_on: None, match: Match, user: Any
) -> None:
    async def scenario() -> tuple[list[bytes], int]:
        client = AsyncClient()
        await client.aforce_login(user)
        response, chunks = await opened(client, stream_url(match, str(user.pk)))
        assert response.status_code == 200
        assert response["Content-Type"] == "text/event-stream"
        assert response["X-Accel-Buffering"] == "no"
        told = [await next_chunk(chunks), await next_chunk(chunks)]
        seq = await sync_to_async(flip)(user, match)
        told.append(await next_chunk(chunks))
        await chunks.aclose()
        return told, seq

    (retry, first, moved), seq = run(scenario)
    assert retry == f"retry: {stream.RETRY_MS}\n\n".encode()
    # Nothing cached for this new match yet: the page is told to ask the poll once.
    assert first == b"event: check\ndata: \n\n"
    assert moved == f"event: seq\ndata: {seq}\n\n".encode()


def test_a_stream_ends_at_its_next_heartbeat_after_a_logout(
    streams_on: None, match: Match, user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A poll stops answering from the cache the moment its session ends; an open stream
    checks the session at each heartbeat and ends."""
    monkeypatch.setattr(stream, "HEARTBEAT_SECONDS", 0.05)

    async def scenario() -> tuple[bytes, bool]:
        client = AsyncClient()
        await client.aforce_login(user)
        response, chunks = await opened(client, stream_url(match, str(user.pk)))
        await next_chunk(chunks)
        await next_chunk(chunks)
        beat = await next_chunk(chunks)  # still logged in: the stream goes on
        await client.alogout()
        try:
            for _beat in range(20):  # a second of heartbeats at most
                await next_chunk(chunks)
        except StopAsyncIteration:
            return beat, True
        await chunks.aclose()
        return beat, False

    beat, ended = run(scenario)
    assert beat.startswith(b"event: ")
    assert ended


def test_the_heartbeat_sends_the_seq_the_cache_holds(
    streams_on: None, match: Match, user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every HEARTBEAT_SECONDS the stream sends the current seq: a page whose stream missed a
    move (Redis's pub/sub delivers at most once) is caught up, and a silent stream is a dead
    one (static/js/tracker.js then polls)."""
    monkeypatch.setattr(stream, "HEARTBEAT_SECONDS", 0.05)
    nonce = seqcache.nonce_of(match.spectator_token)
    # Stored without a message: as if the message had been lost.
    key = seqcache.seq_key(match.pk, nonce)
    caches["default"].set(key, 41, 30)

    async def scenario() -> bytes:
        client = AsyncClient()
        await client.aforce_login(user)
        response, chunks = await opened(client, stream_url(match, str(user.pk)))
        await next_chunk(chunks)  # retry
        await next_chunk(chunks)  # the seq at the start
        beat = await next_chunk(chunks)
        await chunks.aclose()
        return beat

    assert run(scenario) == b"event: seq\ndata: 41\n\n"


@pytest.mark.parametrize("whose", ["forged", "another match's", "another user's"])
def test_no_stream_for_a_token_the_poll_would_not_answer_from_the_cache(
    streams_on: None,
    match: Match,
    user: Any,
    opponent: Any,
    deathmatch: Any,
    whose: str,
) -> None:
    """The stream tells what the poll tells, to whom its token names: the signed token of a
    page for this match, with the session of the user it names."""
    viewer = str(user.pk)
    other = small_match(user, deathmatch)
    token = {
        "forged": "forged",
        "another match's": poll.poll_token(other.pk, other.spectator_token, viewer),
        "another user's": poll.poll_token(match.pk, match.spectator_token, viewer),
    }[whose]
    reader = opponent if whose == "another user's" else user

    async def statuses() -> tuple[int, int]:
        client = AsyncClient()
        await client.aforce_login(reader)
        refused = await client.get(f"/matches/{match.pk}/stream/?t={token}")
        # The control: the same reader with the token of a page of their own is served.
        response, chunks = await opened(client, stream_url(match, str(reader.pk)))
        await chunks.aclose()
        return refused.status_code, response.status_code

    assert run(statuses) == (204, 200)


def test_a_users_token_gets_no_stream_without_a_session(
    streams_on: None, match: Match, user: Any
) -> None:
    """A poll URL seen elsewhere (a screenshot, a shared screen) is no key: a user's token
    needs that user's session, as the poll's cheap path does."""

    async def status() -> int:
        response = await AsyncClient().get(stream_url(match, str(user.pk)))  # no session
        return response.status_code

    assert run(status) == 204


def test_a_spectator_stream_needs_no_session(streams_on: None, match: Match, user: Any) -> None:
    async def scenario() -> tuple[int, bytes, int]:
        client = AsyncClient()  # nobody logged in: the spectator link's page
        response, chunks = await opened(client, stream_url(match, poll.SPECTATOR))
        await next_chunk(chunks)
        await next_chunk(chunks)
        seq = await sync_to_async(flip)(user, match)
        moved = await next_chunk(chunks)
        await chunks.aclose()
        return response.status_code, moved, seq

    status, moved, seq = run(scenario)
    assert status == 200
    assert moved == f"event: seq\ndata: {seq}\n\n".encode()


def test_streams_end_when_their_redis_subscription_is_lost(
    streams_on: None, match: Match, user: Any, redis_cache_url: str
) -> None:
    """Without its subscription a stream would stay open and tell nothing: it ends, and the
    page polls until its EventSource opens a new one (the hub subscribes again)."""
    admin = redis.Redis.from_url(redis_cache_url)

    async def scenario() -> bool:
        client = AsyncClient()
        await client.aforce_login(user)
        response, chunks = await opened(client, stream_url(match, str(user.pk)))
        await next_chunk(chunks)
        await next_chunk(chunks)
        # This process's subscription only (others may share the Redis).
        ours = [c for c in admin.client_list() if c["name"] == stream.SUBSCRIBER_NAME]
        assert len(ours) == 1
        admin.client_kill_filter(_id=ours[0]["id"])
        try:
            await next_chunk(chunks)
        except StopAsyncIteration:
            return True
        finally:
            await chunks.aclose()
        return False

    assert run(scenario)


def test_the_cache_publishes_a_seq_only_when_it_grows(
    streams_on: None, redis_cache_url: str
) -> None:
    """Published in the same atomic step as it is stored: a listener never hears an older seq
    after a newer one, nor one the cache does not hold."""
    shared = caches["default"]
    assert isinstance(shared, SharedRedisCache)
    listener = redis.Redis.from_url(redis_cache_url).pubsub()
    listener.subscribe(shared.channel("match-seq:7:abc"))
    assert listener.get_message(timeout=2)["type"] == "subscribe"
    for seq in (3, 5, 4, 5, 6):
        shared.set_if_greater("match-seq:7:abc", seq, 30, publish=True)
    shared.set_if_greater("match-seq:7:abc", 9, 30)  # not published
    heard = []
    while (message := listener.get_message(timeout=0.5)) is not None:
        heard.append(int(message["data"]))
    listener.close()
    assert heard == [3, 5, 6]
    assert shared.get("match-seq:7:abc") == 9
