"""A short Universalis game on one shared tablet, from the new-match form to the result.

Anna holds both groups (the Eisenwacht and the Nebelzirkel of the sample catalogue), so both
players take the tablet in turn for their secret steps: each opens "choose your mission in
secret", taps a mission, and the page hides it again. Then the deployment roll-off, the secret
picks and the initiative roll, a shot whose roll panel shows the dice and the exact odds, an
automatic hit from the table tools that eliminates Ben's group leader, the panic tests it
triggers, and the round end, where Anna's Kopfjagd is accomplished. The server's dice are a
seeded ``random.Random``. Before the shot, its exact odds show and follow the form's fields.
"""

from __future__ import annotations

import random
import re
from typing import TYPE_CHECKING

import pytest

from apps.rosters import services as roster_services
from tests.accounts.factories import UserFactory
from tests.e2e.test_match_tracker import command, htmx_settled, log_in, visible
from tests.matches.test_universalis import group

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

MAX_TAPS = 120
MISSIONS = {"Anna": "Kopfjagd (Headhunt)", "Ben": "Vernichtung (Annihilation)"}


def secret_step(page: Page) -> bool:
    """A player's secret step: open it, choose, and see the page hide it again."""
    from playwright.sync_api import expect

    tracker = page.locator("#tracker")
    steps = tracker.locator(
        ".secret-steps li", has=page.locator("a.button", has_text=re.compile("in secret"))
    )
    if not steps.count():
        return False
    # The player's name stands in front of the step's button (once: "Anna: Choose ...").
    name = steps.first.locator("strong").inner_text()
    steps.first.locator("a.button").click()
    options = tracker.locator(".secret-options button")
    expect(options.first).to_be_visible()
    mission = "mission" in page.locator(".secret-steps").inner_text()
    first_mission = mission and "mission chosen" not in page.locator(".secret-steps").inner_text()
    if mission:
        command(page, options.filter(has_text=MISSIONS[name]).first)
    else:
        command(page, options.first)
    expect(tracker.locator(".secret-options")).to_have_count(0)
    if first_mission:
        # Until the other player has chosen too, the shared screen shows no mission.
        assert MISSIONS[name] not in tracker.inner_text()
    return True


@pytest.mark.usefixtures("catalogue")
def test_a_short_universalis_game_on_a_shared_tablet(
    tablet_page: Page,
    live_server,  # noqa: ANN001
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from playwright.sync_api import expect

    anna = UserFactory(username="anna")
    eisenwacht = roster_services.roster_import(owner=anna, document=group("eisenwacht"))
    nebelzirkel = roster_services.roster_import(owner=anna, document=group("nebelzirkel"))
    seeded = random.Random(20261122)
    monkeypatch.setattr("apps.matches.services._server_rng", lambda: seeded)
    page = tablet_page
    failures: list[str] = []
    page.on(
        "response", lambda r: failures.append(f"{r.status} {r.url}") if r.status >= 500 else None
    )

    log_in(page, live_server.url, "anna")
    page.get_by_role("link", name="Matches").click()
    page.get_by_role("link", name="New Universalis match").click()
    page.locator("#id_name_0").fill("Anna")
    page.locator("#id_roster_0").select_option(value=str(eisenwacht.pk))
    page.locator("#id_name_1").fill("Ben")
    page.locator("#id_roster_1").select_option(value=str(nebelzirkel.pk))
    page.get_by_role("button", name="Open the match").click()
    tracker = page.locator("#tracker")
    expect(tracker).to_contain_text("Each player picks a mission in secret.")
    # The header (with the prompt) comes before the board and its stylesheet: wait for the board.
    expect(tracker.locator(".secret-steps a.button").first).to_be_visible()

    shot = finished = False
    for _tap in range(MAX_TAPS):
        if visible(page, "#tracker .result-panel"):
            finished = True
            break
        if secret_step(page):
            continue
        for label in ("Roll for deployment", "Deployed: start round 1"):
            button = tracker.get_by_role("button", name=label)
            if button.count():
                command(page, button)
                break
        else:
            if tracker.get_by_role("button", name="It does not perceive it").count():
                command(page, tracker.get_by_role("button", name="It does not perceive it").first)
            elif tracker.get_by_role("button", name="Check the missions and go on").count():
                command(page, tracker.get_by_role("button", name="Check the missions and go on"))
            elif visible(page, "#tracker .active-panel"):
                active = tracker.locator(".active-panel").first
                leader = tracker.locator(".team").nth(1).locator(".unit").first
                if not shot and active.get_by_role("button", name="Fire", exact=True).count():
                    # The shot's exact odds show before it is made and follow the form.
                    preview = active.locator("output[id^=preview-shoot]")
                    expect(preview).to_contain_text("Hit ")
                    distance = active.locator('input[name="args.targets.0.distance:int"]')
                    distance.fill("499")
                    distance.dispatch_event("change")
                    expect(preview).to_contain_text("out of the weapon's range")
                    htmx_settled(page)
                    distance.fill("10")
                    distance.dispatch_event("change")
                    expect(preview).to_contain_text("Hit ")
                    # So do the odds of an object's attribute roll.
                    use = active.locator("details", has_text="Use an object").first
                    use.locator("summary").click()
                    expect(use.locator("output")).to_contain_text("No roll")
                    htmx_settled(page)
                    use.locator('select[name="args.attribute"]').select_option("ko")
                    expect(use.locator("output")).to_contain_text("Success ")
                    command(page, active.get_by_role("button", name="Fire", exact=True))
                    expect(tracker.locator(".roll-panel .die").first).to_be_visible()
                    expect(tracker.locator(".roll-panel")).to_contain_text("chance")
                    shot = True
                elif (
                    shot
                    and "Ysra" not in active.inner_text()
                    and "is-out" not in (leader.get_attribute("class") or "")
                ):
                    tracker.locator(".team").nth(1).locator(".unit-link").first.click()
                    expect(tracker.locator(".selected-panel")).to_be_visible()
                    tracker.locator(".selected-panel .correction summary").click()
                    tools = tracker.locator(".selected-panel .correction")
                    tools.locator('input[name="args.strength:int"]').fill("30")
                    tools.locator('input[name="args.damage:int"]').fill("20")
                    command(
                        page,
                        tracker.get_by_role("button", name="Automatic hit (wound against armour)"),
                    )
                else:
                    command(page, tracker.get_by_role("button", name="End the initiative phase"))
            else:
                raise AssertionError("the tracker offers nothing to tap")
    assert finished, "the game did not end"
    expect(tracker.locator(".result-panel")).to_contain_text("Anna wins (mission accomplished)")
    expect(tracker.locator(".teams")).to_contain_text("Kopfjagd (Headhunt)")
    assert shot
    assert not failures, failures
