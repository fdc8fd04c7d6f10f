"""A short Last Man Standing game on a tablet, from the setup form to the result, while the
opponent follows on a second device and sees every move within a poll or two.

Anna plays her Phalanx team against Ben's Shelzahav team, which Ben shared by link. The server's
randomness is a seeded ``random.Random`` so the game is the same on every run; to keep it short,
Anna first uses the tracker's hand correction to put Ben's fighters on 1 LP. From then on a
small "player" taps through the tracker as a person would: flips, activations, attacks with the
wizard, accepting flips, ending activations and scoring rounds, until the result shows.
"""

from __future__ import annotations

import random
import re
from typing import TYPE_CHECKING

import pytest

from apps.rosters import services as roster_services
from tests.accounts.factories import UserFactory
from tests.e2e.sessions import log_in
from tests.matches.factories import roster_for, small_team

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Locator, Page

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

MAX_TAPS = 400


def visible(page: Page, selector: str) -> bool:
    locator = page.locator(selector)
    return locator.count() > 0 and locator.first.is_visible()


def seq(page: Page) -> str:
    return page.locator("#tracker").get_attribute("data-seq") or ""


def htmx_settled(page: Page) -> None:
    """Wait until htmx has no request in flight and no swap settling: a swapped-in element
    listens for its triggers only once it is processed, so a change fired earlier is lost."""
    page.wait_for_function(
        "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
    )


def command(page: Page, button: Locator) -> None:
    """Tap a button that sends a command and wait until the board shows the new seq."""
    from playwright.sync_api import expect

    before = seq(page)
    button.click()
    expect(page.locator("#tracker")).not_to_have_attribute("data-seq", before)


def tap_once(page: Page) -> None:
    """One tap of a player who knows only the buttons on the screen."""
    from playwright.sync_api import expect

    tracker = page.locator("#tracker")
    if visible(page, "#tracker .flip-decision"):
        command(page, tracker.get_by_role("button", name="Accept", exact=True))
    elif visible(page, "#tracker .wizard .target-list"):
        tracker.locator(".target-list input[type=checkbox]").first.check()
        command(page, tracker.get_by_role("button", name="Flip", exact=True))
    elif visible(page, "#tracker .wizard .target-button"):
        command(page, tracker.locator(".target-button").first)
    elif visible(page, "#tracker .active-panel"):
        attacks = tracker.locator(
            ".active-panel a.button", has_text=re.compile(r"(Ranged|Melee) attack")
        )
        if attacks.count():
            attacks.first.click()
            expect(tracker.locator(".wizard")).to_be_visible()
        else:
            command(page, tracker.get_by_role("button", name="End activation"))
    elif tracker.get_by_role("button", name="Flip for initiative").count():
        command(page, tracker.get_by_role("button", name="Flip for initiative"))
    elif tracker.get_by_role("button", name=re.compile(" begins$")).count():
        command(page, tracker.get_by_role("button", name=re.compile(" begins$")).first)
    elif tracker.get_by_role("button", name="Score the round").count():
        command(page, tracker.get_by_role("button", name="Score the round"))
    elif visible(page, "#tracker .unit.can-activate"):
        unit = tracker.locator(".unit.can-activate").first
        name = unit.locator(".unit-name").inner_text()
        unit.locator(".unit-link").click()
        # Wait for the selection: until it shows, the panel of the model selected before (still
        # activatable) offers its own Activate, and a quick tap would activate that one.
        expect(tracker.locator(".selected-panel h2")).to_have_text(name)
        activate = tracker.locator(".selected-panel button", has_text=re.compile(r"\bActivate "))
        command(page, activate)
    else:
        raise AssertionError("the tracker offers nothing to tap")


@pytest.mark.usefixtures("catalogue")
def test_last_man_standing_on_a_tablet_with_a_second_device_following(
    browser: Browser,
    tablet_page: Page,
    live_server,  # noqa: ANN001
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from playwright.sync_api import expect

    anna, ben = UserFactory(username="anna"), UserFactory(username="ben")
    annas = roster_for(anna, small_team("phalanx"))
    bens = roster_for(ben, small_team("shelzahav"))
    shared = roster_services.roster_share(owner=ben, roster_id=bens.pk, enabled=True)
    seeded = random.Random(20261122)
    monkeypatch.setattr("apps.matches.services._server_rng", lambda: seeded)
    url = live_server.url
    page = tablet_page
    failures: list[str] = []
    page.on(
        "response", lambda r: failures.append(f"{r.status} {r.url}") if r.status >= 500 else None
    )

    # Anna opens a match: her team against Ben's shared team, Last Man Standing, no gadgets.
    log_in(page, url, "anna")
    page.get_by_role("link", name="Matches").click()
    page.get_by_role("link", name="New Deathmatch match").click()
    page.locator("#id_name_0").fill("Anna")
    page.locator("#id_roster_0").select_option(value=str(annas.pk))
    page.locator("#id_name_1").fill("Ben")
    page.locator("#id_share_1").fill(f"{url}/rosters/shared/{shared.share_token}/")
    page.get_by_label("Game mode").select_option(value="last-man-standing")
    page.get_by_label("Game size").select_option(label="Small (3 fighters)")
    page.get_by_label("Play with gadgets").uncheck()
    page.get_by_role("button", name="Open the match").click()
    expect(page).to_have_url(re.compile(r"/matches/\d+/$"))
    match_url = page.url
    expect(page.get_by_role("heading", name="Anna vs Ben")).to_be_visible()
    expect(page.locator(".setup-panel .arena-map svg")).to_be_visible()
    expect(page.get_by_text("The game ends the moment a team has no model left")).to_be_visible()

    # Ben follows on his own device.
    context = browser.new_context(viewport={"width": 820, "height": 1180}, locale="en-GB")
    follower = context.new_page()
    log_in(follower, url, "ben")
    follower.goto(match_url)
    # Anna used Ben's share link: the seat is his once he takes it on his own login.
    follower.get_by_role("button", name="Take my seat").click()
    expect(follower.get_by_role("heading", name="Anna vs Ben")).to_be_visible()

    # Setup: deployment flip, first deployer, round 1.
    page.get_by_role("button", name="Flip for deployment").click()
    page.get_by_role("button", name=re.compile(" first$")).first.click()
    page.get_by_role("button", name="Start round 1").click()
    expect(page.get_by_role("button", name="Flip for initiative")).to_be_visible()
    expect(follower.get_by_role("button", name="Flip for initiative")).to_be_visible(timeout=4000)

    # A short game: Ben's fighters are put on 1 LP by hand (logged as corrections).
    for index in range(3):
        fighter = page.locator(".team[data-player='1'] .unit").nth(index)
        name = fighter.locator(".unit-name").inner_text()
        fighter.locator(".unit-link").click()
        expect(page.locator(".selected-panel h2")).to_have_text(name)
        page.locator(".correction summary").click()
        page.locator("#adj-lp").fill("1")
        page.get_by_role("button", name="Save the correction").click()
        expect(page.locator(".team[data-player='1'] .unit").nth(index)).to_contain_text("1/")
    expect(follower.locator(".team[data-player='1'] .lp-bar").first).to_contain_text(
        "1/", timeout=4000
    )

    # Play until the tracker shows the result; the follower sees the first activation.
    seen_activation = False
    for _ in range(MAX_TAPS):
        if visible(page, "#tracker .result-panel"):
            break
        try:
            tap_once(page)
        except Exception:
            page.screenshot(path="test-results/match-tracker-stuck.png", full_page=True)
            print("server errors:", failures)
            raise
        if not seen_activation and visible(page, "#tracker .unit.is-active"):
            expect(follower.locator("#tracker .unit.is-active")).to_be_visible(timeout=4000)
            seen_activation = True
    else:
        pytest.fail(f"no result after {MAX_TAPS} taps")

    result = page.locator(".result-panel")
    expect(result.get_by_role("heading", name=re.compile("wins!$"))).to_be_visible()
    expect(page.locator(".team[data-player='1'] .unit.is-out")).to_have_count(3)
    expect(follower.locator(".result-panel")).to_be_visible(timeout=4000)
    expect(page.locator(".log")).to_contain_text("knocked out")
    assert seen_activation
    context.close()
