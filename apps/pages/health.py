"""What ``/healthz`` checks: the database (required), the Celery broker and its workers.

Every check is bounded in time: a broker that accepts connections and never answers costs
``/healthz`` about a second (``BROKER_TIMEOUT``), and asking the workers another
(``WORKER_PING_TIMEOUT``). The broker's and the workers' answers are kept for a few seconds
(``QUEUE_CACHE_SECONDS``), so that many requests for ``/healthz`` cannot tie up the web
processes waiting on a broken broker or on workers that do not answer.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Final

from django.conf import settings
from django.db import DatabaseError, connection

BROKER_TIMEOUT: Final = 1.0
WORKER_PING_TIMEOUT: Final = 1.0
QUEUE_CACHE_SECONDS: Final = 5.0

NOT_CONFIGURED: Final = "not configured"  # no broker: tasks run in-process


@dataclass(frozen=True)
class Health:
    database: str  # "ok" | "unavailable"
    broker: str  # "ok" | "unreachable" | "not configured"
    workers: str  # "ok" | "none" (no worker answered) | "unknown" (no broker) | "not configured"

    @property
    def healthy(self) -> bool:
        """Whether this web process can serve pages; a missing worker only delays card PDFs."""
        return self.database == "ok"

    @property
    def status(self) -> str:
        if not self.healthy:
            return "unavailable"
        if self.broker == NOT_CONFIGURED:
            return "ok"
        return "ok" if (self.broker, self.workers) == ("ok", "ok") else "degraded"


def check_database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        return "unavailable"
    return "ok"


def _bounded_connection(timeout: float):  # noqa: ANN202 - a kombu Connection
    """A new connection to the configured broker whose every socket operation gives up after
    ``timeout`` seconds (the app's pool may hold connections with the workers' longer ones)."""
    from skirmish.celery import app

    return app.connection_for_write(
        url=settings.CELERY_BROKER_URL,
        connect_timeout=timeout,
        transport_options={"socket_connect_timeout": timeout, "socket_timeout": timeout},
    )


def _broker_answers(conn, timeout: float) -> bool:  # noqa: ANN001 - a kombu Connection
    try:
        # One attempt, no retry: kombu's default retry sleeps 2 s before its second attempt.
        conn.ensure_connection(max_retries=0, timeout=timeout)
        # Redis: the connection is made lazily; a command proves the broker answers.
        client = getattr(conn.default_channel, "client", None)
        if client is not None:
            client.ping()
    except Exception:  # kombu and redis-py raise transport-specific errors: all mean unreachable
        return False
    return True


def check_broker(timeout: float = BROKER_TIMEOUT) -> str:
    """Whether the broker answers within ``timeout`` seconds (not cached)."""
    if not settings.CELERY_BROKER_URL:
        return NOT_CONFIGURED
    with _bounded_connection(timeout) as conn:
        return "ok" if _broker_answers(conn, timeout) else "unreachable"


def check_queue(
    broker_timeout: float = BROKER_TIMEOUT, ping_timeout: float = WORKER_PING_TIMEOUT
) -> tuple[str, str]:
    """The broker's state and whether any worker answers a ping (not cached)."""
    if not settings.CELERY_BROKER_URL:
        return NOT_CONFIGURED, NOT_CONFIGURED
    from skirmish.celery import app

    with _bounded_connection(broker_timeout) as conn:
        if not _broker_answers(conn, broker_timeout):
            return "unreachable", "unknown"
        try:
            # The first worker to answer is enough; without one this waits the full timeout.
            replies = app.control.ping(timeout=ping_timeout, limit=1, connection=conn)
        except Exception:  # the broker went away between the two calls
            return "unreachable", "unknown"
    return "ok", ("ok" if replies else "none")


_cache_lock = threading.Lock()
_queue_cache: dict[str, tuple[float, tuple[str, str]]] = {}


def cached_queue_state() -> tuple[str, str]:
    """``check_queue()``, remembered for ``QUEUE_CACHE_SECONDS`` per broker URL."""
    key = settings.CELERY_BROKER_URL or ""
    now = time.monotonic()
    with _cache_lock:
        cached = _queue_cache.get(key)
        if cached is not None and now - cached[0] < QUEUE_CACHE_SECONDS:
            return cached[1]
        state = check_queue()
        _queue_cache[key] = (time.monotonic(), state)
        return state


def forget_cached_state() -> None:
    """Drop the remembered broker and worker states (tests, and after a configuration change)."""
    with _cache_lock:
        _queue_cache.clear()


def health_check() -> Health:
    broker, workers = cached_queue_state()
    return Health(database=check_database(), broker=broker, workers=workers)
