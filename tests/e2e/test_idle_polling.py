"""A quiet table asks less often (issue 16: "poll intervals may adapt, slower when idle").

Anna's tablet follows a Grundregeln match. While the match moves, or the tablet is touched, the
page asks the server every 1.5 s whether it moved; after a minute without either it asks every
5 s. A touch, or a move another device makes, brings it back to every 1.5 s at once. The
page's clock is Playwright's fake one, paused and stepped by the test; the polls go to the live
server, and each step waits until the polls it started are answered.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING

import pytest

from apps.catalog.models import GameSystem
from apps.matches import services
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

STEP_MS = 500


class Polls:
    """The page's polls, counted as they are sent and as they finish, and its fake clock, paused
    and moved on by the test only."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.sent = 0
        self.done = 0
        page.on("request", lambda request: self._count(request, "sent"))
        page.on("requestfinished", lambda request: self._count(request, "done"))
        page.on("requestfailed", lambda request: self._count(request, "done"))
        now = page.evaluate("() => Date.now()") / 1000
        page.clock.pause_at(datetime.fromtimestamp(now + 0.1, tz=UTC))

    def _count(self, request, what: str) -> None:  # noqa: ANN001 - Playwright's Request
        if "/poll/" in request.url:
            setattr(self, what, getattr(self, what) + 1)

    def _settle(self) -> None:
        """Until every poll sent has been answered, and a moment for the page to schedule the
        next one (its timer is set when the answer has been read)."""
        self.page.wait_for_function("() => true")  # one round trip to the page
        deadline = 200
        while self.done < self.sent and deadline:
            self.page.wait_for_timeout(25)
            deadline -= 1
        self.page.wait_for_timeout(10)

    def during(self, seconds: float, *, step_ms: int = STEP_MS) -> int:
        """The polls sent while the page's clock runs ``seconds`` on, ``step_ms`` at a time,
        each step once the polls it started are answered. Where the count is not asserted,
        longer steps."""
        before = self.sent
        for _ in range(round(seconds * 1000 / step_ms)):
            self.page.clock.run_for(step_ms)
            self._settle()
        return self.sent - before

    def until_a_poll(self) -> None:
        """On, in short steps, to just after the next poll."""
        before = self.sent
        while self.sent == before:
            self.during(0.1, step_ms=100)


def test_an_idle_table_is_asked_every_5_s_until_it_moves_or_is_touched(
    tablet_page: Page,
    live_server,  # noqa: ANN001
) -> None:
    from playwright.sync_api import expect

    page = tablet_page
    anna = UserFactory(username="anna")
    match = grund_match(anna, GameSystem.objects.get(slug="grundregeln"))
    log_in(page, live_server.url, "anna")
    page.clock.install()
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    expect(page.get_by_role("heading", name="Anna vs Ben")).to_be_visible()
    polls = Polls(page)

    # Fresh from a load: every 1.5 s (20 in 30 s).
    assert 19 <= polls.during(30) <= 20
    # Nothing happens: after a minute, every 5 s (6 in 30 s).
    polls.during(35, step_ms=2000)
    assert 5 <= polls.during(30) <= 6

    # A touch just after an idle poll (the next would be 5 s away): asked at once, then every
    # 1.5 s again. A key does the same.
    for touch in ("pointerdown", "keydown"):
        polls.until_a_poll()
        page.locator("#tracker").dispatch_event(touch)
        assert polls.during(0.1, step_ms=100) == 1, touch
        assert 9 <= polls.during(15) <= 10, touch
        polls.during(65, step_ms=2000)
        assert polls.during(15) <= 3, touch

    # Idle; then the other player's device moves the match.
    services.match_apply_command(
        user=anna,
        match_id=match.pk,
        command_type="roll",
        args={"dice": 1, "label": "elsewhere"},
        expected_seq=match.seq,
        idempotency_key=None,
    )
    moved = Match.objects.get(pk=match.pk).seq
    # Seen within one idle interval, and followed every 1.5 s from then on.
    polls.during(5.5)
    expect(page.locator("#tracker")).to_have_attribute("data-seq", str(moved))
    assert 9 <= polls.during(15) <= 10
