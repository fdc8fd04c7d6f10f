"""Two web servers, one PostgreSQL and one Redis: `docker compose up --scale web=2` on loopback.

Nothing a request relies on may live in one process: the seq a poll is answered from, the
sessions, the login lockout (django-axes) and the API throttles. Two gunicorn instances run with
deploy/gunicorn.conf.py and production settings (two workers each, so four processes), against
the test database and a redis-server of this test's own, and a client switches between them as
a load balancer would: a tap on one is seen by a poll on the other at once, a login on one holds
on the other (and a logout on one ends it on both), and the limits count across both.
"""

from __future__ import annotations

import http.client
import json
import re
import signal
import subprocess
import sys
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
import redis
from django.conf import settings
from django.contrib.auth.hashers import PBKDF2PasswordHasher

from apps.matches.models import Match
from tests.faults.conftest import RedisServer, closed_port, shared_services_env
from tests.faults.test_proxy import wait_for_port
from tests.matches.factories import small_match

pytestmark = [pytest.mark.faults, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

PROJECT = Path(__file__).resolve().parents[2]
WORKERS_EACH = 2
PASSWORD = "scale-out-password-1"
CSRF = "scaleoutcsrfsecret0123456789abcd"  # 32 characters, the form of Django's CSRF secret
HTMX = {"HX-Request": "true", "HX-Target": "tracker"}


@dataclass
class Browser:
    """One device's cookies, sent to whichever server it is given (a balancer's choice)."""

    cookies: dict[str, str] = field(default_factory=lambda: {"csrftoken": CSRF})

    def request(
        self,
        port: int,
        method: str,
        path: str,
        *,
        form: dict[str, str] | None = None,
        body: bytes = b"",
        headers: dict[str, str] | None = None,
    ) -> tuple[int, dict[str, str], str]:
        # The cookie's secret is also a valid token (a login rotates it: the new one then).
        csrf = self.cookies.get("csrftoken", CSRF)
        sent = {
            "Host": "127.0.0.1",
            "X-CSRFToken": csrf,
            "Accept-Language": "en",
            "Cookie": "; ".join(f"{name}={value}" for name, value in self.cookies.items()),
            **(headers or {}),
        }
        if form is not None:
            body = urlencode({"csrfmiddlewaretoken": csrf, **form}).encode()
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
        try:
            connection.request(method, path, body=body or None, headers=sent)
            response = connection.getresponse()
            content = response.read().decode()
            for name, value in response.getheaders():
                if name.lower() == "set-cookie":
                    cookie, _sep, _attributes = value.partition(";")
                    key, _eq, cookie_value = cookie.partition("=")
                    self.cookies[key.strip()] = cookie_value.strip().strip('"')
            return response.status, dict(response.getheaders()), content
        finally:
            connection.close()

    def token_login(self, port: int, username: str, password: str) -> tuple[int, dict[str, Any]]:
        status, _headers, content = self.request(
            port,
            "POST",
            "/api/v1/auth/token/",
            body=json.dumps({"username": username, "password": password}).encode(),
            headers={"Content-Type": "application/json"},
        )
        return status, json.loads(content)


@dataclass
class Cluster:
    ports: list[int]
    redis: RedisServer
    root: Path

    def logs(self) -> str:
        return "\n".join(
            f"--- {path.name}\n{path.read_text(errors='replace')[-3000:]}"
            for path in sorted(self.root.glob("gunicorn-*.log"))
        )


@pytest.fixture
def cluster(redis_server: RedisServer, tmp_path: Path) -> Iterator[Cluster]:
    env = shared_services_env(redis_server.url(), GUNICORN_WORKERS=str(WORKERS_EACH))
    ports = [closed_port(), closed_port()]
    processes = []
    for index, port in enumerate(ports):
        with (tmp_path / f"gunicorn-{index}.log").open("wb") as log:
            processes.append(
                subprocess.Popen(
                    [sys.executable, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py"]
                    + ["skirmish.wsgi"],
                    cwd=PROJECT,
                    env={**env, "GUNICORN_BIND": f"127.0.0.1:{port}"},
                    stdout=log,
                    stderr=subprocess.STDOUT,
                )
            )
    result = Cluster(ports, redis_server, tmp_path)
    try:
        for port, process in zip(ports, processes, strict=True):
            wait_for_port(port, process, "gunicorn", 60)
        yield result
    finally:
        for process in processes:
            process.send_signal(signal.SIGINT)  # the quick shutdown: no request is left
        for process in processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)
        print(result.logs())  # shown when the test fails


@pytest.fixture
def player(django_user_model: Any) -> Any:
    """A user whose password the servers can check: hashed as production hashes (the suite's
    own MD5 hasher is not among the servers' hashers)."""
    hasher = PBKDF2PasswordHasher()
    return django_user_model.objects.create(
        username="scale-out-player", password=hasher.encode(PASSWORD, hasher.salt())
    )


def seq_in(html: str) -> int:
    found = re.search(r'data-seq="(\d+)"', html)
    assert found is not None, html[:500]
    return int(found.group(1))


def poll_url_in(html: str) -> str:
    found = re.search(r'data-poll-url="([^"]+)"', html)
    assert found is not None, html[:500]
    return found.group(1).replace("&amp;", "&")


def tap(browser: Browser, port: int, match: Match, seq: int) -> int:
    status, _headers, content = browser.request(
        port,
        "POST",
        f"/matches/{match.pk}/command/",
        form={
            "command": "flip",
            "args.player:int": "0",
            "expected_seq": str(seq),
            "idempotency_key": uuid.uuid4().hex,
        },
        headers=HTMX,
    )
    assert status == 200, content[:500]
    return seq_in(content)


def test_a_tap_on_one_server_is_polled_from_the_other_at_once(
    cluster: Cluster, player: Any, deathmatch: Any
) -> None:
    first, second = cluster.ports
    match = small_match(player, deathmatch)
    browser = Browser()
    status, headers, _content = browser.request(
        first, "POST", "/accounts/login/", form={"login": player.username, "password": PASSWORD}
    )
    assert status == 302, headers  # logged in on the first server...
    status, _headers, page = browser.request(second, "GET", f"/matches/{match.pk}/")
    assert status == 200  # ...and the second knows the session
    tablet = Browser(cookies=dict(browser.cookies))  # a second device of the same login
    poll_url, seq = poll_url_in(page), seq_in(page)
    store = redis.Redis.from_url(cluster.redis.url())
    for round_ in range(6):
        tapped_on, polled_on = (first, second) if round_ % 2 == 0 else (second, first)
        moved = tap(browser, tapped_on, match, seq)
        assert moved > seq
        # The other server answers the poll from the seq in Redis: the new one, at once.
        status, _headers, content = tablet.request(
            polled_on, "GET", poll_url, headers={"If-None-Match": f'"{seq}"'}
        )
        assert status == 200 and json.loads(content) == {"seq": moved}, round_
        status, _headers, _content = tablet.request(
            polled_on, "GET", poll_url, headers={"If-None-Match": f'"{moved}"'}
        )
        assert status == 304
        seq = moved
        kept = [int(store.get(key)) for key in store.keys(f"*match-seq:{match.pk}:*")]
        assert kept == [seq], "the poll was not answered from the shared cache"
        status, _headers, partial = tablet.request(
            tapped_on, "GET", f"/matches/{match.pk}/", headers=HTMX
        )
        assert status == 200 and seq_in(partial) == seq

    # A logout on one server ends the login on both, and its poll token grants nothing more.
    status, _headers, _content = browser.request(second, "POST", "/accounts/logout/", form={})
    assert status == 302
    for port in cluster.ports:
        status, headers, _content = browser.request(port, "GET", f"/matches/{match.pk}/")
        assert status == 302 and "/accounts/login/" in headers["Location"], port
        assert browser.request(port, "GET", poll_url)[0] == 404, port


def test_login_lockout_and_api_throttles_count_across_servers(
    cluster: Cluster, player: Any
) -> None:
    """django-axes locks a user name after AXES_FAILURE_LIMIT failures in total, wherever they
    were tried; DRF's "auth" throttle (20 a minute per address) counts in Redis, not in each
    of the four worker processes (which would let through four times as many)."""
    limit = settings.AXES_FAILURE_LIMIT
    per_minute = int(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["auth"].split("/")[0])
    client = Browser()
    sent = 0
    for attempt in range(1, limit + 1):
        status, body = client.token_login(cluster.ports[attempt % 2], player.username, "wrong")
        sent += 1
        # The failure that reaches the limit is itself answered with the lockout.
        assert (status, body["code"] == "locked_out") == (
            (429, True) if attempt == limit else (400, False)
        ), (attempt, body)
    # The right password now, on either server: locked out.
    for port in cluster.ports:
        status, body = client.token_login(port, player.username, PASSWORD)
        sent += 1
        assert status == 429 and body["code"] == "locked_out", body
    # Other user names (no lockout) until the throttle answers: after exactly its rate in all.
    while sent < per_minute:
        status, body = client.token_login(cluster.ports[sent % 2], f"nobody-{sent}", "wrong")
        sent += 1
        assert status == 400, (sent, body)
    for port in cluster.ports:
        status, body = client.token_login(port, "nobody-else", "wrong")
        assert status == 429 and body["code"] != "locked_out", body
