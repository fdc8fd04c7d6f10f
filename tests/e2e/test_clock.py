"""The chess clock on a tablet: set it up, watch it count down, pass the turn by tapping it."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.accounts.factories import UserFactory
from tests.e2e.test_match_tracker import log_in
from tests.matches.factories import small_match

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_chess_clock_starts_and_passes_the_turn_on_a_tablet(
    tablet_page: Page,
    live_server,  # noqa: ANN001
    deathmatch,  # noqa: ANN001
) -> None:
    from playwright.sync_api import expect

    page = tablet_page
    anna = UserFactory(username="anna")
    match = small_match(anna, deathmatch)
    log_in(page, live_server.url, "anna")
    page.goto(f"{live_server.url}/matches/{match.pk}/")

    clock = page.locator("#clock")
    clock.get_by_text("Clock (optional)").click()
    clock.get_by_role("radio", name="Chess clock").check()
    clock.get_by_label("Minutes").fill("2")
    clock.get_by_role("button", name="Start the clock").click()

    anna_face = clock.locator("[data-clock-face]").nth(0)
    ben_face = clock.locator("[data-clock-face]").nth(1)
    expect(anna_face).to_have_attribute("aria-pressed", "true")
    # Anna's time counts down on the page by itself, Ben's stands at the full two minutes.
    expect(anna_face.locator("[data-digits]")).to_have_text("1:58", timeout=5_000)
    expect(ben_face.locator("[data-digits]")).to_have_text("2:00")

    anna_face.click()  # Anna taps her clock: the turn passes to Ben
    expect(page.locator("#clock [data-clock-face]").nth(1)).to_have_attribute(
        "aria-pressed", "true"
    )
    expect(page.locator("#clock [data-clock-face]").nth(0)).to_have_attribute(
        "aria-pressed", "false"
    )
    match.refresh_from_db()
    assert match.clock["turn"] == 1 and match.clock["used_ms"][0] >= 2_000

    page.locator("#clock").get_by_role("button", name="Pause").click()
    expect(page.locator("#clock .clock-paused")).to_be_visible()
    # Nothing on the tracker is wider than the screen.
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"]
