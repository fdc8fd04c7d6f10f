"""A quiet table asks less often (issue 16: "poll intervals may adapt, slower when idle").

Anna's tablet follows a Grundregeln match. While the match moves, or the tablet is touched, the
page asks the server every 1.5 s whether it moved; after a minute without either it asks every
5 s. A touch, or a move another device makes, brings it back to every 1.5 s at once. The
page's clock is Playwright's fake one, stepped by half seconds; the polls go to the live server.
"""

from __future__ import annotations

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
    """The page's polls, counted as they are sent, and its fake clock, stepped."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.count = 0
        page.on("request", self._sent)

    def _sent(self, request) -> None:  # noqa: ANN001 - Playwright's Request
        if "/poll/" in request.url:
            self.count += 1

    def during(self, seconds: float, *, step_ms: int = STEP_MS) -> int:
        """The polls made while the page's clock runs ``seconds`` on, ``step_ms`` at a time;
        after each step the test waits a moment of real time for a poll it started to finish
        (and so to schedule the next one). Where the count is not asserted, longer steps."""
        before = self.count
        for _ in range(round(seconds * 1000 / step_ms)):
            self.page.clock.run_for(step_ms)
            self.page.wait_for_timeout(25)
        return self.count - before


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

    # Fresh from a load: every 1.5 s (20 in 30 s; a poll finishing late shifts the next).
    assert polls.during(30) >= 12
    # Nothing happens: after a minute, every 5 s (6 in 30 s).
    polls.during(35, step_ms=2000)
    assert polls.during(30) <= 7

    # A touch: asked at once, then every 1.5 s again.
    page.locator("#tracker").dispatch_event("pointerdown")
    assert polls.during(1) >= 1
    assert polls.during(15) >= 6

    # Idle again; then the other player's device moves the match.
    polls.during(65, step_ms=2000)
    assert polls.during(15) <= 4
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
    polls.during(6)
    expect(page.locator("#tracker")).to_have_attribute("data-seq", str(moved))
    assert polls.during(15) >= 6
