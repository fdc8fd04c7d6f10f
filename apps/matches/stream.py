"""Server-sent events for open trackers: the match's seq, sent the moment it moves.

An open tracker polls "has the match moved?" every second or two (apps.matches.poll). At a club
night of 200 tables that is 400 requests a second of "no", a third of the server's work (issue
16). Where the stream server runs (``MATCH_STREAMS``: docker-compose.yml's ``stream`` service,
uvicorn on ``skirmish.asgi``, with nginx sending ``/matches/<id>/stream/`` there unbuffered), a
tracker instead keeps one stream open (static/js/tracker.js) and is told each new seq; it then
refreshes as after a poll, and polls only while it has no working stream.

- **Who may listen** is the poll's rule: the page's signed poll token names the match and the
  viewer, and a user's token needs that user's session. A stream tells nothing a poll does not.
- **Where the seqs come from:** every seq the cache learns (apps.matches.seqcache) is published
  on the match's channel in the same atomic step (``SharedRedisCache.set_if_greater``). Each
  stream server process holds one Redis subscription for all its streams (``Hub``).
- **When the stream cannot be trusted, the page polls.** A stream that cannot start answers 204
  (an EventSource then gives up, and the page keeps polling): under a WSGI server (gunicorn's
  sync workers must never hold a connection open), without a shared Redis, with a token that
  is not this match's or a session that is not its user's. A stream that has started ends when
  Redis stops answering or its session is no longer the user's (a logout), and sends the
  current seq every ``HEARTBEAT_SECONDS``: a proxy that buffers or cuts idle connections shows
  as silence, and the page then polls again (static/js/tracker.js).
- **A seq the cache does not hold** (its entry expired on a quiet table, or a write to Redis was
  lost) is sent as ``event: check``: the page then asks the poll once, whose database path
  answers and fills the cache again (and so tells every stream of the match). A move whose
  write was lost while the cache kept an older seq is seen once that entry expires
  (``seqcache.TTL_SECONDS``), as a poll would see it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.core.cache import caches
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.views.decorators.http import require_GET
from redis import asyncio as redis_asyncio
from redis.exceptions import RedisError

from apps.accounts.cache import SharedRedisCache
from apps.matches import seqcache
from apps.matches.poll import SPECTATOR, session_store, token_claims

logger = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 15.0
# A stream ends after this and the browser opens it again (its token is checked again then).
STREAM_SECONDS = 10 * 60
# How long an EventSource waits before it opens a stream that ended again.
RETRY_MS = 3000
# A new stream waits this long at most for its process's subscription to Redis.
SUBSCRIBE_SECONDS = 2.0
REDIS_TIMEOUT_SECONDS = 1.0
# The name of this process's subscription in Redis's client list.
SUBSCRIBER_NAME = f"skirmish-streams-{os.getpid()}-{uuid.uuid4().hex[:8]}"


def streams_enabled() -> bool:
    """Are streams served (a stream server behind the proxy, one Redis for all processes)?"""
    return (
        bool(getattr(settings, "MATCH_STREAMS", False))
        and seqcache.enabled()
        and isinstance(caches["default"], SharedRedisCache)
    )


class HubDown(Exception):
    """Redis does not answer: no stream can be trusted to hear a move."""


class Hub:
    """The streams of one process and its one subscription to their channels: a message for a
    channel goes to the queue of every stream watching it. When the subscription breaks, every
    stream is ended (``None`` in its queue) and the hub subscribes again."""

    def __init__(self, url: str, pattern: str) -> None:
        self.loop = asyncio.get_running_loop()
        self._url = url
        self._pattern = pattern
        self._watchers: dict[str, set[asyncio.Queue[int | None]]] = {}
        self._subscribed = asyncio.Event()
        self._client = redis_asyncio.Redis.from_url(
            url,
            socket_connect_timeout=REDIS_TIMEOUT_SECONDS,
            socket_timeout=REDIS_TIMEOUT_SECONDS,
        )
        self._task = asyncio.create_task(self._listen())

    async def ready(self) -> None:
        """Return once subscribed; ``HubDown`` if that takes longer than SUBSCRIBE_SECONDS."""
        try:
            await asyncio.wait_for(self._subscribed.wait(), SUBSCRIBE_SECONDS)
        except TimeoutError:
            raise HubDown from None

    def watch(self, channel: str) -> asyncio.Queue[int | None]:
        """A queue of the seqs published on ``channel`` from now on."""
        queue: asyncio.Queue[int | None] = asyncio.Queue()
        self._watchers.setdefault(channel, set()).add(queue)
        return queue

    def unwatch(self, channel: str, queue: asyncio.Queue[int | None]) -> None:
        watchers = self._watchers.get(channel)
        if watchers is not None:
            watchers.discard(queue)
            if not watchers:
                del self._watchers[channel]

    @property
    def streams(self) -> int:
        return sum(len(queues) for queues in self._watchers.values())

    async def current(self, redis_key: str) -> int | None:
        """The seq the cache holds now (``None`` when it holds none); ``HubDown`` if Redis
        does not answer."""
        try:
            value = await self._client.get(redis_key)
        except (RedisError, OSError):
            raise HubDown from None
        return int(value) if value is not None and value.isdigit() else None

    def _dispatch(self, channel: bytes, data: bytes) -> None:
        queues = self._watchers.get(channel.decode())
        if queues and data.isdigit():
            for queue in queues:
                queue.put_nowait(int(data))

    def _end_all(self) -> None:
        for queues in self._watchers.values():
            for queue in queues:
                queue.put_nowait(None)
        self._watchers.clear()

    async def _listen(self) -> None:
        pause = 0.5
        while True:
            # No read timeout on the subscription: it is silent until a match moves.
            client = redis_asyncio.Redis.from_url(
                self._url,
                socket_connect_timeout=REDIS_TIMEOUT_SECONDS,
                client_name=SUBSCRIBER_NAME,
            )
            pubsub = client.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.psubscribe(self._pattern)
                self._subscribed.set()
                pause = 0.5
                async for message in pubsub.listen():
                    if message["type"] == "pmessage":
                        self._dispatch(message["channel"], message["data"])
            except (RedisError, OSError) as error:
                logger.warning("Match streams lost Redis (%s); they end and pages poll.", error)
            except Exception:
                # Never let the hub die unseen: every later stream would wait and be refused.
                logger.exception("Match streams' subscription failed; subscribing again.")
            finally:
                self._subscribed.clear()
                self._end_all()
                for closing in (pubsub.aclose, client.aclose):
                    with contextlib.suppress(RedisError, OSError):
                        await closing()
            await asyncio.sleep(pause)
            pause = min(pause * 2, 10.0)


_hub: Hub | None = None


def hub() -> Hub:
    """This process's hub, made on first use in the running event loop."""
    global _hub
    loop = asyncio.get_running_loop()
    if _hub is None or _hub.loop is not loop:
        shared = _shared_cache()
        url = shared.location.split(",")[0]  # Django's RedisCache writes to the first server
        _hub = Hub(url, shared.channel(seqcache.SEQ_KEY_STEM + "*"))
    return _hub


def hub_streams() -> int:
    """How many streams this process serves now."""
    return _hub.streams if _hub is not None else 0


def forget_hub() -> None:
    """Let the next stream make a new hub (a test's event loop has ended)."""
    global _hub
    _hub = None


def _shared_cache() -> SharedRedisCache:
    shared = caches["default"]
    assert isinstance(shared, SharedRedisCache)
    return shared


def _event(seq: int | None) -> bytes:
    if seq is None:
        # Not in the cache: the page asks the poll once (see the module's docstring).
        return b"event: check\ndata: \n\n"
    return f"event: seq\ndata: {seq}\n\n".encode()


@dataclass(frozen=True)
class _Listener:
    channel: str
    redis_key: str
    viewer: str  # a user id, or SPECTATOR
    session_key: str | None  # the session that must be the viewer's (a user's stream)


async def _allowed(listener: _Listener) -> bool:
    """A spectator's token is enough; a user's needs the session of that user, now."""
    if listener.viewer == SPECTATOR:
        return True
    if not listener.session_key:
        return False
    session = session_store(listener.session_key)
    return str(await session.aget(SESSION_KEY, "")) == listener.viewer


async def _events(listening: Hub, listener: _Listener) -> AsyncIterator[bytes]:
    loop = asyncio.get_running_loop()
    # Watched before the current seq is read: a move in between is in the queue, not lost.
    queue = listening.watch(listener.channel)
    try:
        yield f"retry: {RETRY_MS}\n\n".encode()
        yield _event(await listening.current(listener.redis_key))
        deadline = loop.time() + STREAM_SECONDS
        while loop.time() < deadline:
            try:
                seq = await asyncio.wait_for(queue.get(), HEARTBEAT_SECONDS)
            except TimeoutError:
                if not await _allowed(listener):  # logged out since
                    return
                seq = await listening.current(listener.redis_key)
            else:
                if seq is None:  # the hub lost Redis
                    return
            yield _event(seq)
    except HubDown:
        return
    finally:
        listening.unwatch(listener.channel, queue)


def _no_stream() -> HttpResponse:
    # 204: an EventSource stops reconnecting, and the page polls.
    return HttpResponse(status=204)


@require_GET
async def match_stream(request: HttpRequest, match_id: int) -> HttpResponse:
    """The seq of the match whenever it moves, as server-sent events (``event: seq``)."""
    if not isinstance(request, ASGIRequest) or not streams_enabled():
        return _no_stream()
    claims = token_claims(request, match_id, request.GET.get("t", ""))
    if claims is None:
        return _no_stream()
    viewer, nonce = claims
    key = seqcache.seq_key(match_id, nonce)
    shared = _shared_cache()
    listener = _Listener(
        shared.channel(key), shared.make_and_validate_key(key), viewer, request.session.session_key
    )
    if not await _allowed(listener):
        return _no_stream()
    listening = hub()
    try:
        await listening.ready()
    except HubDown:
        return _no_stream()
    response = StreamingHttpResponse(_events(listening, listener), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    # nginx passes each event on at once (deploy/nginx/locations.conf says so too).
    response["X-Accel-Buffering"] = "no"
    return response
