"""Fault injection on loopback: a Redis that is closed, a Redis that hangs, real Celery workers
that are killed, gunicorn behind nginx with slow clients.

Every fault test is bounded in time (socket timeouts, deadlines on every wait) and talks to
127.0.0.1 only. Tests that need a service the machine may lack (Redis, PostgreSQL, nginx) skip
locally with the reason and fail in CI (``skip_or_fail``).
"""

from __future__ import annotations

import contextlib
import os
import selectors
import shutil
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from celery.utils.imports import instantiate

from apps.pages import health
from skirmish.celery import app as celery_app
from tests.conftest import skip_or_fail


class HungServer:
    """A TCP server on 127.0.0.1 that accepts every connection, reads what it is sent and never
    answers: a Redis that hangs (issue 15: "accepts the connection and never answers")."""

    def __init__(self) -> None:
        self._listener = socket.create_server(("127.0.0.1", 0), backlog=128)
        self._listener.setblocking(False)
        self.port = self._listener.getsockname()[1]
        self.accepted = 0
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._listener, selectors.EVENT_READ)
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._serve, name="hung-server", daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stopping.is_set():
            for key, _ in self._selector.select(timeout=0.1):
                sock = key.fileobj
                if sock is self._listener:
                    with contextlib.suppress(BlockingIOError):
                        client, _ = self._listener.accept()
                        client.setblocking(False)
                        self._selector.register(client, selectors.EVENT_READ)
                        self.accepted += 1
                    continue
                try:
                    data = sock.recv(65536)  # type: ignore[union-attr]
                except (BlockingIOError, ConnectionError):
                    data = b"x"
                if not data:
                    self._selector.unregister(sock)
                    sock.close()  # type: ignore[union-attr]

    def close(self) -> None:
        self._stopping.set()
        self._thread.join(timeout=5)
        for key in list(self._selector.get_map().values()):
            key.fileobj.close()  # type: ignore[union-attr]
        self._selector.close()

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"


def production_env(**settings: str) -> dict[str, str]:
    """The environment of a server process as docker-compose.yml starts one: production
    settings (but the sources' static files: tests/faults/proxy_settings.py), none of this
    process's database, broker or cache, and ``settings`` on top."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("CELERY_BROKER_URL", "REDIS_URL", "DATABASE_URL")
    }
    env.update(
        {"DJANGO_SETTINGS_MODULE": "tests.faults.proxy_settings", "DJANGO_DEBUG": "false"},
        **settings,
    )
    return env


def shared_services_env(redis_url: str, **settings: str) -> dict[str, str]:
    """``production_env`` for servers that share the test's PostgreSQL database (skipped, or
    failed in CI, on SQLite) and the Redis at ``redis_url``, answering plain HTTP on loopback."""
    from django.db import connection

    from tests.workers import database_url

    if connection.vendor != "postgresql":
        skip_or_fail("the servers share the test's database: run with DATABASE_URL=postgres://")
    return production_env(
        DJANGO_HTTPS="false",
        DJANGO_SECRET_KEY="faults-test-only-0123456789abcdefghijklmnopqrstuvwxyz-0123456789",
        ALLOWED_HOSTS="127.0.0.1",
        DATABASE_URL=database_url(),
        REDIS_URL=redis_url,
        GUNICORN_LOG_LEVEL="warning",
        **settings,
    )


def closed_port() -> int:
    """A loopback port nothing listens on (connections are refused at once)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class RedisServer:
    """A redis-server of the test's own on a free loopback port (nothing saved to disk), which
    the test may stop, start again on the same port, or freeze (SIGSTOP: it keeps every
    connection and its data, and answers nothing until SIGCONT)."""

    def __init__(self, binary: str) -> None:
        self.binary = binary
        self.port = closed_port()
        self.process: subprocess.Popen[bytes] | None = None

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]
            + ["--appendonly", "no", "--protected-mode", "no"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as sock,
            ):
                sock.sendall(b"PING\r\n")
                if sock.recv(16).startswith(b"+PONG"):
                    return
            time.sleep(0.05)
        pytest.fail(f"redis-server did not answer on {self.port} within 10 s")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGCONT)  # a frozen server must be able to exit
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self.process = None

    def freeze(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGSTOP)

    def thaw(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGCONT)


@pytest.fixture
def redis_server() -> Iterator[RedisServer]:
    binary = shutil.which("redis-server")
    if binary is None:
        skip_or_fail("no redis-server (apt-get install redis-server)")
    server = RedisServer(str(binary))
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def hung_redis() -> Iterator[HungServer]:
    server = HungServer()
    try:
        yield server
    finally:
        server.close()


@pytest.fixture
def closed_redis_url() -> str:
    return f"redis://127.0.0.1:{closed_port()}/0"


@pytest.fixture(autouse=True)
def _fresh_health() -> Iterator[None]:
    health.forget_cached_state()
    yield
    health.forget_cached_state()


@pytest.fixture
def use_broker(settings: Any, monkeypatch: pytest.MonkeyPatch) -> Callable[..., None]:
    """Point this process at a broker as production does: tasks are sent, not run in-process,
    and (like production, where REDIS_URL defaults to the broker) the cache is that Redis too."""

    def configure(url: str, *, transport_options: dict[str, Any] | None = None) -> None:
        settings.CELERY_BROKER_URL = url
        settings.CACHES = {
            "default": {
                "BACKEND": "apps.accounts.cache.SharedRedisCache",
                "LOCATION": url,
                "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
            }
        }
        options = {**celery_app.conf.broker_transport_options, **(transport_options or {})}
        for key, value in {
            "task_always_eager": False,
            "broker_url": url,
            "broker_transport_options": options,
        }.items():
            monkeypatch.setitem(celery_app.conf, key, value)
        # The app's connection pool and routing tables were made for the earlier broker.
        monkeypatch.setattr(celery_app, "_pool", None)
        monkeypatch.setitem(
            celery_app.__dict__, "amqp", instantiate(celery_app.amqp_cls, app=celery_app)
        )

    return configure


class Hung(BaseException):
    """Raised into a call that outlived its hard deadline (not an Exception, so that code
    catching every error cannot swallow it)."""


def timed(call: Callable[[], Any], *, hard_limit: float = 30.0) -> tuple[Any, float]:
    """``call()`` and the seconds it took. A call still blocked after ``hard_limit`` seconds
    (a regression back to an unbounded wait) is interrupted, so the suite never hangs."""

    def interrupt(signum: int, frame: Any) -> None:
        raise Hung(f"still waiting after {hard_limit:.0f} s")

    previous = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, hard_limit)
    started = time.monotonic()
    try:
        result = call()
    except Hung as error:
        pytest.fail(f"the call never returned: {error}")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    return result, time.monotonic() - started
