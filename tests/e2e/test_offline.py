"""The tracker at a real table, where the network comes and goes.

Anna runs a Grundregeln match of her two teams on a tablet. The free roll ("Roll", for anything
the tracker does not model) is a tap she can make several times on one screen, each one its own
command and event. Offline her taps wait, in order, in the banner; when the network is back each
is applied once. A tap that another device made stale meanwhile is reported "not applied", and
nothing of it is stored. Installed as an app, a tracker reloaded offline shows the offline page.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from apps.catalog.models import GameSystem
from apps.matches import services
from apps.matches.models import Match, MatchEvent
from tests.accounts.factories import UserFactory
from tests.e2e.sessions import log_in
from tests.matches.grundregeln import grund_match

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from apps.accounts.models import User

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("catalogue"),
]


def open_tracker(page: Page, url: str) -> tuple[User, Match]:
    from playwright.sync_api import expect

    anna = UserFactory(username="anna")
    match = grund_match(anna, GameSystem.objects.get(slug="grundregeln"))
    log_in(page, url, "anna")
    page.goto(f"{url}/matches/{match.pk}/")
    expect(page.get_by_role("heading", name="Anna vs Ben")).to_be_visible()
    return anna, match


def free_roll(page: Page, dice: int, label: str) -> None:
    """One tap of the free roll: ``dice`` dice, noted as ``label``."""
    panel = page.locator("#tracker .free-flip")
    if panel.get_attribute("open") is None:
        panel.locator("summary").click()
    panel.get_by_label("Dice", exact=True).fill(str(dice))
    panel.get_by_label("What for (optional)").fill(label)
    panel.get_by_role("button", name="Roll").click()


def rolled(match: Match) -> list[str]:
    return [
        event.data.get("label", "")
        for event in MatchEvent.objects.filter(match=match, type="free_rolled").order_by("seq")
    ]


def test_taps_made_offline_wait_and_are_each_applied_once(tablet_page: Page, live_server) -> None:  # noqa: ANN001
    from playwright.sync_api import expect

    page = tablet_page
    _anna, match = open_tracker(page, live_server.url)
    seq = match.seq
    banner = page.locator("#offline-banner")
    expect(banner).to_be_hidden()

    page.context.set_offline(True)
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("You are offline")
    for dice, label in ((1, "first"), (2, "second"), (3, "third")):
        free_roll(page, dice, label)
    items = banner.locator("[data-queue] li")
    expect(items).to_have_count(3)
    expect(items.nth(0)).to_have_text("Roll (1, first) — waiting")
    expect(items.nth(1)).to_have_text("Roll (2, second) — waiting")
    expect(items.nth(2)).to_have_text("Roll (3, third) — waiting")
    # Nothing to dismiss while taps wait.
    expect(banner.get_by_role("button", name="Dismiss")).to_be_hidden()
    # Nothing has reached the server.
    assert rolled(match) == []

    page.context.set_offline(False)
    expect(banner).to_be_hidden()
    # The board is fetched again once the queue is empty: it shows the three rolls.
    expect(page.locator("#tracker")).to_have_attribute("data-seq", str(seq + 3))
    assert rolled(match) == ["first", "second", "third"]
    assert Match.objects.get(pk=match.pk).seq == seq + 3

    # A reload sends nothing again: the queue is gone, and so is the banner.
    page.reload()
    expect(page.locator("#tracker")).to_have_attribute("data-seq", str(seq + 3))
    expect(banner).to_be_hidden()
    assert rolled(match) == ["first", "second", "third"]


def test_a_tap_made_stale_offline_is_reported_and_not_stored(
    tablet_page: Page,
    live_server,  # noqa: ANN001
) -> None:
    from playwright.sync_api import expect

    page = tablet_page
    anna, match = open_tracker(page, live_server.url)
    banner = page.locator("#offline-banner")

    page.context.set_offline(True)
    expect(banner).to_be_visible()
    free_roll(page, 1, "mine")
    free_roll(page, 2, "mine too")
    expect(banner.locator("[data-queue] li")).to_have_count(2)
    # Meanwhile another device moves the match.
    services.match_apply_command(
        user=anna,
        match_id=match.pk,
        command_type="roll",
        args={"dice": 1, "label": "other device"},
        expected_seq=match.seq,
        idempotency_key="other-device",
    )

    page.context.set_offline(False)
    items = banner.locator("[data-queue] li")
    expect(items.nth(0)).to_contain_text("Roll (1, mine) — not applied: Another device moved first")
    expect(items.nth(1)).to_contain_text("Roll (2, mine too) — not applied: Not sent")
    # The board shows the match as it is now, and the player can dismiss the report.
    expect(page.locator("#tracker")).to_have_attribute("data-seq", str(match.seq + 1))
    assert rolled(match) == ["other device"]
    banner.get_by_role("button", name="Dismiss").click()
    expect(banner).to_be_hidden()


def test_installed_app_shows_the_offline_page_for_a_tracker_reloaded_offline(
    tablet_page: Page,
    live_server,  # noqa: ANN001
) -> None:
    from playwright.sync_api import expect

    page = tablet_page
    open_tracker(page, live_server.url)
    manifest = page.request.get(live_server.url + "/manifest.webmanifest")
    assert manifest.headers["content-type"] == "application/manifest+json"
    worker = page.request.get(live_server.url + "/sw.js")
    assert worker.headers["content-type"] == "application/javascript"
    # install.js registers the worker. Once it is active it controls every page loaded after
    # (the one open now too, unless its load began while the worker was still installing).
    page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")

    page.context.set_offline(True)
    page.reload()
    # Not the browser's error page: the app's own, in both languages.
    expect(page.locator("div[lang=en] h1")).to_have_text(
        "You are offline — the tracker comes back when the network does."
    )
    expect(page.locator("div[lang=de] h1")).to_have_text(
        "Du bist offline – der Tracker ist wieder da, sobald das Netz zurück ist."
    )

    page.context.set_offline(False)
    page.locator("div[lang=en]").get_by_role("link", name="Try again").click()
    expect(page.get_by_role("heading", name="Anna vs Ben")).to_be_visible()
