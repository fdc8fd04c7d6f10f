"""A tracker follows its match by the stream where one is served, and polls where none is
(issue 16: "server-sent events ... welcome; the tracker must keep working through a plain
proxy").

The site runs on uvicorn (skirmish.asgi, as docker-compose.yml's stream service runs it) in a
thread of the test, with Redis as the cache; another device's command is committed by the test.
With a working stream the page shows the move without asking the server once. Where the stream
is refused (a WSGI server answers 204), the page polls as it always did.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
from django.core.asgi import get_asgi_application
from django.db import connection

from apps.catalog.models import GameSystem
from apps.matches import services, stream
from apps.matches.models import Match
from tests.accounts.factories import UserFactory
from tests.e2e.sessions import log_in
from tests.matches.grundregeln import grund_match

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("catalogue"),
]


class Requests:
    """The page's polls and stream openings, counted as they are sent."""

    def __init__(self, page: Page) -> None:
        self.polls = 0
        self.streams = 0
        page.on("request", self._count)

    def _count(self, request: Any) -> None:
        if "/poll/" in request.url:
            self.polls += 1
        elif "/stream/" in request.url:
            self.streams += 1


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def asgi_site(streams_on: None) -> Iterator[str]:
    """The site on uvicorn, with Redis as its cache and streams on; its address."""
    import uvicorn

    before = database_sessions()
    port = free_port()
    app = ASGIStaticFilesHandler(get_asgi_application())
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="off")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="uvicorn", daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start within 15 s"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=15)
    close_server_connections(before)


def database_sessions() -> set[int]:
    """The PostgreSQL sessions on the test database (none to track on SQLite)."""
    if connection.vendor != "postgresql":
        return set()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pid FROM pg_stat_activity WHERE datname = current_database()")
        return {pid for (pid,) in cursor.fetchall()}


def close_server_connections(before: set[int]) -> None:
    """End the sessions the server's threads opened. Django's ASGI handler runs the views in
    threads of asgiref's that keep their connection after the request; in a server process
    they end with it, in this thread they would outlive the test and keep the test database
    from being dropped at the end of the run."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (own,) = cursor.fetchone()
        for pid in database_sessions() - before - {own}:
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])


def another_device_rolls(user: Any, match: Match) -> int:
    services.match_apply_command(
        user=user,
        match_id=match.pk,
        command_type="roll",
        args={"dice": 1, "label": "elsewhere"},
        expected_seq=Match.objects.get(pk=match.pk).seq,
        idempotency_key=None,
    )
    return Match.objects.get(pk=match.pk).seq


def test_a_streaming_page_shows_each_move_without_polling(
    asgi_site: str,
    tablet_page: Page,  # closed first: its stream ends before the server does
) -> None:
    from playwright.sync_api import expect

    page = tablet_page
    anna = UserFactory(username="anna")
    match = grund_match(anna, GameSystem.objects.get(slug="grundregeln"))
    log_in(page, asgi_site, "anna")
    requests = Requests(page)
    with page.expect_response(lambda response: "/stream/" in response.url):
        page.goto(f"{asgi_site}/matches/{match.pk}/")
    tracker = page.locator("#tracker")
    expect(tracker).to_have_attribute("data-stream", "1")
    # A new match's seq is not in the cache yet: the stream's first event has the page ask the
    # poll once (which fills it). From then on the stream tells every move.
    page.wait_for_timeout(500)
    assert requests.polls <= 1
    requests.polls = 0
    for _move in range(3):
        page.wait_for_timeout(2000)  # longer than a poll interval
        moved = another_device_rolls(anna, match)
        expect(tracker).to_have_attribute("data-seq", str(moved), timeout=3000)
    assert requests.streams == 1
    assert requests.polls == 0
    page.goto("about:blank")  # the stream ends before the server does
    deadline = time.monotonic() + 10
    while stream.hub_streams():
        assert time.monotonic() < deadline, "the stream was not ended when its page went"
        time.sleep(0.05)


def test_a_page_whose_stream_is_refused_polls(
    tablet_page: Page,
    live_server: Any,
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The live server is a WSGI server, like gunicorn: its stream answers 204, and the page,
    told to stream, polls instead."""
    from playwright.sync_api import expect

    monkeypatch.setattr("apps.matches.views.streams_enabled", lambda: True)
    page = tablet_page
    anna = UserFactory(username="anna")
    match = grund_match(anna, GameSystem.objects.get(slug="grundregeln"))
    log_in(page, live_server.url, "anna")
    requests = Requests(page)
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    tracker = page.locator("#tracker")
    expect(tracker).to_have_attribute("data-stream", "1")
    moved = another_device_rolls(anna, match)
    expect(tracker).to_have_attribute("data-seq", str(moved), timeout=5000)
    assert requests.streams == 1
    assert requests.polls >= 1
