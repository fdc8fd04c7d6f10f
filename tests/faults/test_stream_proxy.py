"""The trackers' streams as deployed: nginx (deploy/nginx) in front of gunicorn and the stream
server (uvicorn on skirmish.asgi), one PostgreSQL and a Redis of the test's own, on loopback.

A tap sent through the proxy to gunicorn reaches a stream opened through the proxy at once:
the proxy passes each event on as it comes (unbuffered), and Redis carries the seq from the web
process to the stream server. A stream asked of gunicorn itself is refused (204): a sync worker
is never held by an open page.
"""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from apps.matches.models import Match
from tests.faults.conftest import RedisServer, closed_port, shared_services_env
from tests.faults.test_proxy import start_nginx, stop, wait_for_port
from tests.faults.test_scale_out import PASSWORD, Browser, poll_url_in, seq_in, tap
from tests.matches.factories import small_match

pytestmark = [pytest.mark.faults, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

PROJECT = Path(__file__).resolve().parents[2]
EVENT_SECONDS = 3.0


@dataclass
class Site:
    proxy: int
    gunicorn: int
    stream: int
    env: dict[str, str]


@pytest.fixture
def site(redis_server: RedisServer, tmp_path: Path) -> Iterator[Site]:
    env = shared_services_env(redis_server.url(), MATCH_STREAMS="true", GUNICORN_WORKERS="2")
    gunicorn_port, stream_port, proxy_port = closed_port(), closed_port(), closed_port()
    log = (tmp_path / "servers.log").open("wb")
    gunicorn = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py", "skirmish.wsgi"],
        cwd=PROJECT,
        env={**env, "GUNICORN_BIND": f"127.0.0.1:{gunicorn_port}"},
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    uvicorn = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "skirmish.asgi:application"]
        + ["--host", "127.0.0.1", "--port", str(stream_port), "--no-access-log"],
        cwd=PROJECT,
        env={**env, "DATABASE_CONN_MAX_AGE": "0"},  # as docker-compose.yml's stream service
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    proxy = start_nginx(tmp_path / "nginx", "http", proxy_port, gunicorn_port, stream_port)
    try:
        wait_for_port(gunicorn_port, gunicorn, "gunicorn", 60)
        wait_for_port(stream_port, uvicorn, "uvicorn", 60)
        wait_for_port(proxy_port, proxy, "nginx", 20)
        yield Site(proxy_port, gunicorn_port, stream_port, env)
    finally:
        stop(proxy)
        stop(uvicorn)
        stop(gunicorn, signal.SIGINT)
        log.close()
        print((tmp_path / "servers.log").read_text(errors="replace")[-3000:])


@pytest.fixture
def player(django_user_model: Any) -> Any:
    from django.contrib.auth.hashers import PBKDF2PasswordHasher

    hasher = PBKDF2PasswordHasher()
    return django_user_model.objects.create(
        username="stream-player", password=hasher.encode(PASSWORD, hasher.salt())
    )


class Stream:
    """A stream opened as an EventSource opens it, read event by event."""

    def __init__(self, port: int, path: str, cookies: dict[str, str]) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=EVENT_SECONDS)
        cookie = "; ".join(f"{name}={value}" for name, value in cookies.items())
        self.sock.sendall(
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
            f"Cookie: {cookie}\r\n\r\n".encode()
        )
        self.buffer = b""
        head = self._until(b"\r\n\r\n")
        self.status = int(head.split()[1])
        self.head = head.decode(errors="replace").lower()

    def _until(self, marker: bytes) -> bytes:
        while marker not in self.buffer:
            data = self.sock.recv(65536)
            if not data:
                raise EOFError(self.buffer)
            self.buffer += data
        found, _sep, self.buffer = self.buffer.partition(marker)
        return found

    def seq(self) -> int:
        """The next seq the stream tells (pings skipped), within EVENT_SECONDS."""
        while True:
            event = self._until(b"\n\n")
            if b"event: seq" in event:
                return int(event.rpartition(b"data: ")[2].split(b"\r\n")[0])

    def close(self) -> None:
        self.sock.close()


def test_the_stream_servers_healthcheck_passes(site: Site) -> None:
    """docker-compose.yml's check of the stream service: /healthz from uvicorn."""
    checked = subprocess.run(
        [sys.executable, "deploy/healthcheck.py", str(site.stream)],
        cwd=PROJECT,
        env=site.env,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert checked.returncode == 0, checked.stderr


def test_a_tap_reaches_a_stream_through_the_proxy_at_once(
    site: Site, player: Any, deathmatch: Any
) -> None:
    match: Match = small_match(player, deathmatch)
    phone = Browser()
    status, headers, _content = phone.request(
        site.proxy,
        "POST",
        "/accounts/login/",
        form={"login": player.username, "password": PASSWORD},
    )
    assert status == 302, headers
    _status, _headers, page = phone.request(site.proxy, "GET", f"/matches/{match.pk}/")
    assert 'data-stream="1"' in page
    stream_path = poll_url_in(page).replace("/poll/?", "/stream/?")
    seq = seq_in(page)

    # Asked of gunicorn itself: refused, the page would poll.
    assert phone.request(site.gunicorn, "GET", stream_path)[0] == 204

    tablet = Stream(site.proxy, stream_path, phone.cookies)
    try:
        assert tablet.status == 200
        assert "content-type: text/event-stream" in tablet.head
        for _tap in range(3):
            started = time.monotonic()
            seq = tap(phone, site.proxy, match, seq)
            assert tablet.seq() == seq
            # Through the proxy as it came (a buffering proxy would hold it until the 15 s
            # heartbeat or the end of the stream).
            assert time.monotonic() - started < 5
    finally:
        tablet.close()
