"""The shared cache the throttles count in: Django's RedisCache, failing open.

Login, sign-up and API throttles count in the cache so that every web process sees the same
counts. A throttle that cannot count must not take the site down with it: when Redis is down or
hung, a call gives up after the socket timeout (``OPTIONS`` in settings), the cache then answers
as if empty for ``PAUSE_SECONDS`` without touching the network, and pages keep working. The
lockout of an account after failed logins (django-axes) is kept in the database, so it holds
while Redis is away.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

PAUSE_SECONDS = 30.0

# Django's RedisSerializer stores an int as its plain decimal text, so Lua can compare it. A
# greater value is also published on ARGV[3] (when one is named), in the same atomic step: a
# listener never hears a value the key does not hold yet, nor an older one after a newer.
_SET_IF_GREATER = """
local current = tonumber(redis.call('GET', KEYS[1]))
if current == nil or current < tonumber(ARGV[1]) then
  redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
  if ARGV[3] ~= '' then
    redis.call('PUBLISH', ARGV[3], ARGV[1])
  end
end
return 0
"""

# The channel a counter kept with ``set_if_greater(..., publish=True)`` is published on: its
# Redis key (prefix and version included) under this stem.
CHANNEL_STEM = "moved:"

# Per process and Redis location; the cache objects themselves are per thread.
_unavailable_until: dict[str, float] = {}


class ReusedClientRedisCacheClient(RedisCacheClient):
    """Django's Redis cache client, keeping one ``redis.Redis`` per connection pool. Django
    builds a new one for every cache call, and each build fills a table of about 170 response
    callbacks: a third of the CPU of a poll answered from the cache (issue 16). A client only
    wraps its pool and is as thread-safe as the pool, so one per pool serves every call."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None or client.connection_pool is not pool:
            client = self._client(connection_pool=pool)
            self._clients[id(pool)] = client
        return client


class SharedRedisCache(RedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = ReusedClientRedisCacheClient
        self._location = server if isinstance(server, str) else ",".join(server)

    def _guarded(self, fallback: Any, method: str, *args: Any) -> Any:
        """``RedisCache.<method>(*args)``, or ``fallback`` while Redis does not answer."""
        return self._call(fallback, getattr(super(), method), *args)

    def _call(self, fallback: Any, function: Any, *args: Any) -> Any:
        if time.monotonic() < _unavailable_until.get(self._location, 0.0):
            return fallback
        try:
            return function(*args)
        except (RedisError, OSError) as error:
            _unavailable_until[self._location] = time.monotonic() + PAUSE_SECONDS
            logger.warning(
                "The Redis cache did not answer (%s); throttles do not count for %d s.",
                error,
                PAUSE_SECONDS,
            )
            return fallback

    def set_if_greater(self, key: Any, value: int, timeout: int, *, publish: bool = False) -> None:
        """Store the integer ``value`` unless the key holds a greater one already, in one atomic
        step (a Lua script): for counters that only ever grow, such as a match's seq
        (apps.matches.seqcache), written by several processes in any order. With ``publish``
        a value stored is also published on ``channel(key)`` (apps.matches.stream listens)."""
        redis_key = self.make_and_validate_key(key)
        channel = CHANNEL_STEM + redis_key if publish else ""
        client = self._cache.get_client(redis_key, write=True)
        self._call(
            None, client.eval, _SET_IF_GREATER, 1, redis_key, int(value), int(timeout), channel
        )

    def channel(self, key: Any) -> str:
        """The pub/sub channel of a key kept with ``set_if_greater(..., publish=True)``."""
        return CHANNEL_STEM + self.make_and_validate_key(key)

    @property
    def location(self) -> str:
        return self._location

    # Each fallback lets the caller go on: "added" (a lock is taken, a throttle finds no
    # history), nothing found, nothing stored.

    def add(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> Any:
        return self._guarded(True, "add", key, value, timeout, version)

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        return self._guarded(default, "get", key, default, version)

    def set(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> Any:
        return self._guarded(None, "set", key, value, timeout, version)

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> Any:
        return self._guarded(False, "touch", key, timeout, version)

    def delete(self, key: Any, version: Any = None) -> Any:
        return self._guarded(False, "delete", key, version)

    def get_many(self, keys: Any, version: Any = None) -> Any:
        return self._guarded({}, "get_many", keys, version)

    def has_key(self, key: Any, version: Any = None) -> Any:
        return self._guarded(False, "has_key", key, version)

    def incr(self, key: Any, delta: int = 1, version: Any = None) -> Any:
        return self._guarded(delta, "incr", key, delta, version)

    def set_many(self, data: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> Any:
        return self._guarded(list(data), "set_many", data, timeout, version)

    def delete_many(self, keys: Any, version: Any = None) -> Any:
        return self._guarded(None, "delete_many", keys, version)
