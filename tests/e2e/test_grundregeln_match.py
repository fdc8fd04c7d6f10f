"""A short Grundregeln game on a tablet, from the new-match form to the result.

Anna opens a "Letzte Stellung" match (last side standing) of her Eisenfaust team against Ben's
Moorvolk team, which Ben shared by link. The server's dice come from a seeded random source, so
the game is the same on every run; to keep it short, Anna first puts Ben's models on 1 LP with
the tracker's hand correction (logged). From then on a small "player" taps only what the page
offers: the round start roll, who begins, a model, its attack, the target, the reactions'
resolution, until one side has no model left and the result shows.
"""

from __future__ import annotations

import random
import re
from typing import TYPE_CHECKING

import pytest

from apps.rosters import services as roster_services
from tests.accounts.factories import UserFactory
from tests.e2e.sessions import log_in
from tests.matches.grundregeln import grund_roster

if TYPE_CHECKING:
    from playwright.sync_api import Locator, Page

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

MAX_TAPS = 300
ATTACKS = re.compile(r"Zuschlagen \(strike\)|Schießen \(shoot\)")


def visible(locator: Locator) -> bool:
    return locator.count() > 0 and locator.first.is_visible()


def command(page: Page, button: Locator) -> None:
    """Tap a button that sends a command and wait for the board with the new seq."""
    from playwright.sync_api import expect

    before = page.locator("#tracker").get_attribute("data-seq") or ""
    button.click()
    expect(page.locator("#tracker")).not_to_have_attribute("data-seq", before)


def navigate(page: Page, link: Locator, shows: str) -> None:
    """Tap a link that only changes the selection (no command) and wait until the board is
    swapped for the new one and ``shows`` is on it: the old board may show ``shows`` too (the
    previous model's panel), so seeing it alone proves nothing."""
    from playwright.sync_api import expect

    tracker = page.locator("#tracker")
    tracker.evaluate("board => { board.dataset.old = '1'; }")
    link.click()
    expect(tracker).not_to_have_attribute("data-old", "1")
    expect(page.locator(shows).first).to_be_visible()


def tap_once(page: Page) -> str:
    """One tap of a player who knows only the buttons on the screen; says what it tapped."""
    tracker = page.locator("#tracker")
    fight = tracker.locator(".selected-panel .grund-actions a.button")
    if visible(tracker.get_by_role("button", name="Roll for the round start")):
        command(page, tracker.get_by_role("button", name="Roll for the round start"))
        return "round start"
    elif visible(tracker.get_by_role("button", name=re.compile(" begins$"))):
        command(page, tracker.get_by_role("button", name=re.compile(" begins$")).first)
        return "starter"
    elif visible(tracker.locator(".pending-panel")):
        command(page, tracker.get_by_role("button", name=re.compile("^Resolve the ")))
        return "resolve"
    elif visible(tracker.locator(".wizard .target-button:not([disabled])")):
        command(page, tracker.locator(".wizard .target-button:not([disabled])").first)
        return "target"
    elif visible(tracker.get_by_role("button", name=re.compile("^Test morale"))):
        command(page, tracker.get_by_role("button", name=re.compile("^Test morale")))
        return "morale"
    elif visible(tracker.get_by_role("button", name=re.compile("^Moral wiederherstellen"))):
        command(page, tracker.get_by_role("button", name=re.compile("^Moral wiederherstellen")))
        return "rally"
    elif visible(attack := fight.filter(has_text=ATTACKS)):
        navigate(page, attack.first, "#tracker .wizard")
        return "attack"
    else:
        for label, name in (("switch", "Waffe wechseln"), ("walk", "Laufen (walk)")):
            button = tracker.locator(".selected-panel button", has_text=name)
            if visible(button):
                command(page, button.first)
                return label
        ready = tracker.locator(".prompt .ready-list a")
        if not visible(ready):
            raise AssertionError("the tracker offers nothing to tap")
        navigate(page, ready.first, "#tracker .selected-panel")
        return "select"


@pytest.mark.usefixtures("catalogue")
def test_a_short_grundregeln_game_on_a_tablet(tablet_page: Page, live_server, monkeypatch) -> None:  # noqa: ANN001
    from playwright.sync_api import expect

    anna, ben = UserFactory(username="anna"), UserFactory(username="ben")
    annas = grund_roster(anna, "eisenfaust")
    bens = grund_roster(ben, "moorvolk")
    shared = roster_services.roster_share(owner=ben, roster_id=bens.pk, enabled=True)
    seeded = random.Random(20261122)
    monkeypatch.setattr("apps.matches.services._server_rng", lambda: seeded)
    url = live_server.url
    page = tablet_page
    failures: list[str] = []
    page.on(
        "response", lambda r: failures.append(f"{r.status} {r.url}") if r.status >= 500 else None
    )

    log_in(page, url, "anna")
    page.get_by_role("link", name="Matches").click()
    page.get_by_role("link", name="New Grundregeln match").click()
    page.locator("#id_name_0").fill("Anna")
    page.locator("#id_roster_0").select_option(value=str(annas.pk))
    page.locator("#id_name_1").fill("Ben")
    page.locator("#id_share_1").fill(f"{url}/rosters/shared/{shared.share_token}/")
    page.get_by_label("Game mode").select_option(value="letzte-stellung")
    page.get_by_role("button", name="Open the match").click()
    expect(page).to_have_url(re.compile(r"/matches/\d+/$"))
    expect(page.get_by_role("heading", name="Anna vs Ben")).to_be_visible()
    # The shell's heading: the scenario, the round (no limit here) and the phase.
    expect(page.locator(".tracker-head p")).to_contain_text("Letzte Stellung · Round 1 ·")
    expect(page.locator(".tracker-head .phase")).to_have_text("Round start")
    expect(page.get_by_role("button", name="Roll for the round start")).to_be_visible()

    # Ben's models go to 1 LP by hand (logged), so the game stays short.
    for index in range(3):
        unit = page.locator(".team[data-player='1'] .unit").nth(index)
        navigate(page, unit.locator(".unit-link"), "#tracker .selected-panel")
        page.locator(".selected-panel summary", has_text="Correct by hand").click()
        page.locator("#adj-lp").fill("1")
        command(page, page.get_by_role("button", name="Save the correction"))
    page.goto(page.url.split("?")[0])

    # The round start roll shows its dice and the odds it had.
    command(page, page.get_by_role("button", name="Roll for the round start"))
    expect(page.locator(".dice-panel .die").first).to_be_visible()
    expect(
        page.locator(".dice-panel").get_by_text(re.compile(r"P\(winning the roll"))
    ).to_have_count(2)

    taps: list[str] = []
    for _ in range(MAX_TAPS):
        if visible(page.locator(".result-panel")):
            break
        taps.append(tap_once(page))
    else:
        raise AssertionError(f"the game did not end; the last taps: {taps[-12:]}")

    expect(page.locator(".result-panel h2")).to_contain_text(re.compile("wins|draw"))
    expect(page.locator(".log")).to_contain_text("Removed from the table")
    expect(page.locator(".log")).to_contain_text("attacks")
    assert not failures, failures
