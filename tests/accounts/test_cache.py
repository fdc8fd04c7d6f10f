"""The shared cache fails open: a Redis that is down or hung slows nothing for long and breaks
no page; the throttles just stop counting until it answers again."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator

import pytest

from apps.accounts import cache as cache_module
from apps.accounts.cache import SharedRedisCache

OPTIONS = {"socket_connect_timeout": 0.5, "socket_timeout": 0.5}


@pytest.fixture(autouse=True)
def _redis_counts_as_available() -> Iterator[None]:
    cache_module._unavailable_until.clear()
    yield
    cache_module._unavailable_until.clear()


@pytest.fixture
def hung_redis() -> Iterator[str]:
    """A server on 127.0.0.1 that accepts connections and never answers."""
    server = socket.create_server(("127.0.0.1", 0))
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                accepted.append(server.accept()[0])
            except TimeoutError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"redis://127.0.0.1:{server.getsockname()[1]}/0"
    stop.set()
    thread.join(timeout=2)
    for connection in accepted:
        connection.close()
    server.close()


def closed_port() -> int:
    with socket.create_server(("127.0.0.1", 0)) as probe:
        return probe.getsockname()[1]


def test_closed_redis_answers_as_empty_at_once() -> None:
    cache = SharedRedisCache(f"redis://127.0.0.1:{closed_port()}/0", {"OPTIONS": OPTIONS})
    started = time.monotonic()
    assert cache.get("throttle", []) == []
    assert cache.add("lock", True) is True  # a lock taker goes on instead of spinning
    cache.set("throttle", [1.0])
    assert cache.get_many(["a", "b"]) == {}
    assert cache.incr("n") == 1
    assert time.monotonic() - started < 1


def test_hung_redis_costs_one_timeout_then_nothing(hung_redis: str) -> None:
    cache = SharedRedisCache(hung_redis, {"OPTIONS": OPTIONS})
    started = time.monotonic()
    assert cache.get("throttle", "empty") == "empty"
    assert time.monotonic() - started < 2
    started = time.monotonic()
    for _ in range(20):
        assert cache.get("throttle", "empty") == "empty"
        cache.set("throttle", [1.0])
    assert time.monotonic() - started < 0.1


def test_redis_is_tried_again_after_the_pause(monkeypatch: pytest.MonkeyPatch) -> None:
    cache = SharedRedisCache(f"redis://127.0.0.1:{closed_port()}/0", {"OPTIONS": OPTIONS})
    cache.get("x")
    location = next(iter(cache_module._unavailable_until))
    assert cache_module._unavailable_until[location] > time.monotonic()
    calls: list[str] = []
    monkeypatch.setattr(
        cache_module.RedisCache, "get", lambda self, *args: calls.append("get") or "back"
    )
    assert cache.get("x", "empty") == "empty"  # still pausing
    cache_module._unavailable_until[location] = time.monotonic() - 1
    assert cache.get("x", "empty") == "back"
    assert calls == ["get"]


def test_one_redis_client_per_connection_pool() -> None:
    """A cache call reuses the client of its connection pool instead of building one per call
    (each build fills ~170 response callbacks); a new pool gets a client of its own."""
    cache = SharedRedisCache("redis://127.0.0.1:6379/15", {"OPTIONS": OPTIONS})
    client = cache._cache.get_client("a")
    assert cache._cache.get_client("b", write=True) is client
    assert client.connection_pool is cache._cache._get_connection_pool(False)
    cache._cache._pools.clear()  # as after a fork that dropped the pools
    fresh = cache._cache.get_client("a")
    assert fresh is not client and fresh.connection_pool is not client.connection_pool
