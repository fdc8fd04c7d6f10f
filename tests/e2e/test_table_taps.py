"""A turn at a real table, per system, on a tablet held landscape and on a phone.

Issue 13: "From the turn prompt, a common ranged attack with no decision takes three taps:
model, action, target" (Deathmatch; 5-6 taps and up to 3 scrolls before), "every result is
visible without scrolling after the tap that caused it", and "focus sits on the next prompt".
Every tap is counted; after each, the test checks what is in the viewport and where the
keyboard focus is, as a player (or a screen reader) would find it.
"""

from __future__ import annotations

import random
import re
from typing import TYPE_CHECKING, Any

import pytest

from apps.matches.models import Match
from tests.accounts.factories import PASSWORD, UserFactory
from tests.matches.tables import one_tablet_match
from tests.matches.test_universalis import drive
from tests.robustness.test_match_commands import _do as _apply

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Locator, Page

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

VIEWPORTS = {"tablet": {"width": 1180, "height": 820}, "phone": {"width": 390, "height": 844}}

# Is the element's top edge on screen, below the sticky scoreboard (not hidden under it)?
IN_SIGHT = """(el) => {
  const box = el.getBoundingClientRect();
  const board = document.querySelector('.scoreboard');
  const sticky = board && getComputedStyle(board).position === 'sticky';
  const floor = sticky ? board.getBoundingClientRect().bottom - 1 : 0;
  return box.top >= floor && box.top < window.innerHeight && box.height > 0;
}"""
# Is keyboard focus on the next step: inside the panel stack ("what to do now"), on a control
# of a card that is not a result?
FOCUS_ON_PROMPT = """() => {
  const stack = document.querySelector('#tracker .panel-stack');
  const focused = document.activeElement;
  return Boolean(stack && focused && stack.contains(focused) && !focused.closest('[data-result]'));
}"""


class Table:
    """A player at the tablet: counts every tap and checks the screen after each."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.taps = 0

    def seq(self) -> str:
        return self.page.locator("#tracker").get_attribute("data-seq") or ""

    def command(self, button: Locator) -> None:
        """A tap that sends a command: the board moves, its result and next prompt show."""
        from playwright.sync_api import expect

        before = self.seq()
        button.click()
        self.taps += 1
        expect(self.page.locator("#tracker")).not_to_have_attribute("data-seq", before)
        self.settled()
        result = self.page.locator("#tracker [data-result]").first
        expect(result).to_be_visible()
        if not result.evaluate(IN_SIGHT):
            self.page.screenshot(path=f"test-results/taps-{self.taps}.png")
            where = result.evaluate(
                "(el) => [el.getBoundingClientRect().top, window.innerHeight, window.scrollY,"
                " document.querySelector('.scoreboard').getBoundingClientRect().bottom]"
            )
            raise AssertionError(f"tap {self.taps}: the result is out of sight: {where}")
        self.focus_on_prompt()

    def look(self, link: Locator, shows: str) -> None:
        """A tap that opens a screen (a model, a wizard): the new screen is in sight."""
        from playwright.sync_api import expect

        link.click()
        self.taps += 1
        expect(self.page.locator(shows).first).to_be_visible()
        self.settled()
        assert self.page.locator(shows).first.evaluate(IN_SIGHT), f"tap {self.taps}: {shows}"
        self.focus_on_prompt()

    def settled(self) -> None:
        self.page.wait_for_function(
            "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
        )

    def focus_on_prompt(self) -> None:
        assert self.page.evaluate(FOCUS_ON_PROMPT), (
            f"tap {self.taps}: focus is on "
            + self.page.evaluate("() => document.activeElement.outerHTML.slice(0, 120)")
        )

    def no_sideways_scroll(self) -> None:
        width = self.page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= self.page.viewport_size["width"], width


def _table(browser: Browser, live_server: Any, viewport: str, username: str, match: Match) -> Table:
    context = browser.new_context(
        viewport=VIEWPORTS[viewport], locale="en-GB", has_touch=viewport == "phone"
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    return Table(page)


@pytest.mark.usefixtures("catalogue")
@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_deathmatch_ranged_attack_takes_three_taps_from_the_turn_prompt(
    browser: Browser, live_server: Any, viewport: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from playwright.sync_api import expect

    monkeypatch.setattr("apps.matches.services._server_rng", lambda: random.Random(7))
    anna = UserFactory()
    match = one_tablet_match("deathmatch", anna)
    for step in ("deployment_flip", "choose_first_deployer", "start_game", "flip_initiative"):
        args = {"player": 0} if step == "choose_first_deployer" else {}
        assert _apply(match, anna, step, **args) or step == "choose_first_deployer"
    for _ in range(8):  # ties flip again; a player may hold a reroll decision
        if _apply(match, anna, "choose_starter", player=0):
            break
        _apply(match, anna, "accept") or _apply(match, anna, "flip_initiative")
    table = _table(browser, live_server, viewport, anna.username, match)
    # This device's player turned off "stop after each flip so I can reroll" earlier (it is
    # remembered per device): the attack needs no decision.
    table.page.evaluate("() => localStorage.setItem('skirmish.confirmFlips', '0')")
    table.page.reload()
    tracker = table.page.locator("#tracker")
    expect(tracker.locator(".activation-chips button").first).to_be_visible()
    table.no_sideways_scroll()

    table.command(tracker.locator(".activation-chips button").first)  # 1: the model
    ranged = tracker.locator(".active-panel a.button", has_text="Ranged attack")
    expect(ranged).to_be_visible()
    assert ranged.evaluate(IN_SIGHT), "after activating, Ranged attack is out of sight"
    table.look(ranged, "#tracker .wizard .target-button:not([disabled])")  # 2: the action
    table.command(tracker.locator(".target-button:not([disabled])").first)  # 3: the target

    assert table.taps == 3
    expect(tracker.locator(".last-result")).to_contain_text(re.compile(r"attacks .* with "))
    expect(tracker.locator(".flip-decision")).to_have_count(0)
    table.no_sideways_scroll()
    table.page.context.close()


@pytest.mark.usefixtures("catalogue")
@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_grundregeln_attack_shows_its_dice_in_sight(
    browser: Browser, live_server: Any, viewport: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from playwright.sync_api import expect

    monkeypatch.setattr("apps.matches.services._server_rng", lambda: random.Random(7))
    anna = UserFactory()
    match = one_tablet_match("grundregeln", anna)
    assert _apply(match, anna, "roll_round_start")
    assert _apply(match, anna, "choose_starter", player=0) or _apply(
        match, anna, "choose_starter", player=1
    )
    table = _table(browser, live_server, viewport, anna.username, match)
    tracker = table.page.locator("#tracker")
    fighters = tracker.locator(".prompt .ready-list a")
    expect(fighters.first).to_be_visible()
    table.no_sideways_scroll()

    attacks = re.compile(r"Zuschlagen \(strike\)|Schießen \(shoot\)")
    for index in range(fighters.count()):  # a model with an attack of its own
        table.look(tracker.locator(".prompt .ready-list a").nth(index), "#tracker .selected-panel")
        attack = tracker.locator(".selected-panel a.button", has_text=attacks)
        if attack.count():
            break
    table.look(attack.first, "#tracker .wizard .target-button:not([disabled])")
    table.command(tracker.locator(".wizard .target-button:not([disabled])").first)
    resolve = tracker.get_by_role("button", name=re.compile("^Resolve the "))
    if resolve.count():  # the defender's reactions come first
        table.command(resolve)
    expect(tracker.locator(".dice-panel .die").first).to_be_visible()
    table.no_sideways_scroll()
    table.page.context.close()


@pytest.mark.usefixtures("catalogue")
@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_universalis_shot_shows_its_rolls_in_sight(
    browser: Browser, live_server: Any, viewport: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from playwright.sync_api import expect

    monkeypatch.setattr("apps.matches.services._server_rng", lambda: random.Random(7))
    anna = UserFactory()
    match = one_tablet_match("universalis", anna)
    drive(match, anna, "choose_mission", player=0, mission="vernichtung")
    drive(match, anna, "choose_mission", player=1, mission="vernichtung")
    drive(match, anna, "roll_deployment", 12, 1)
    drive(match, anna, "start_game")
    # Both picked in secret: Anna her Hauptfrau (a pistol), Ben his Zirkelmeisterin; Anna's
    # order roll wins, so her Hauptfrau takes her phase first.
    drive(match, anna, "pick", player=0, unit=0)
    drive(match, anna, "pick", 12, 1, player=1, unit=4)
    table = _table(browser, live_server, viewport, anna.username, match)
    tracker = table.page.locator("#tracker")
    fire = tracker.get_by_role("button", name="Fire", exact=True)
    expect(fire.first).to_be_visible()
    table.no_sideways_scroll()
    table.command(fire.first)
    expect(tracker.locator(".roll-panel .die").first).to_be_visible()
    table.no_sideways_scroll()
    table.page.context.close()
