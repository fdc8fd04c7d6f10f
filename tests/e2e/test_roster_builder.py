"""Building a Deathmatch team on a tablet: a legal Standard team with a Söldner and equipment,
breaking a rule and fixing it, then sharing the team and opening the link logged out.

The profiles are from the shipped catalogue (fixtures/deathmatch/catalog.json), team Phalanx:
Hauptmann Brandt (leader, ARP 3), Linienschütze (trooper, ARP 2), Dünenläufer (a Shelzahav
trooper, so a Söldner, ARP 2), Brandmeister and Harpunier (specialists, ARP 2 each): an ARP pool
of 11, spent on a Medkit (1 ARP).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest

from tests.accounts.factories import PASSWORD, UserFactory

if TYPE_CHECKING:
    from playwright.sync_api import Locator, Page

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

TEAM = "Eiserne Wacht"
FIGHTERS = ["Hauptmann Brandt", "Linienschütze", "Dünenläufer", "Brandmeister", "Harpunier"]
LEGAL = "No problems: this team is legal."


def counter(page: Page, label: str) -> Locator:
    """The value of one of the team totals, e.g. "1/2" for the Troopers."""
    term = page.get_by_role("term").filter(has_text=re.compile(rf"^{re.escape(label)}$"))
    totals = page.get_by_label("Team totals")
    return totals.locator("div").filter(has=term).get_by_role("definition")


def add_fighter(page: Page, name: str) -> None:
    page.get_by_role("button", name=f"Add {name}", exact=True).click()


@pytest.mark.usefixtures("catalogue")
def test_build_a_legal_team_break_a_rule_fix_it_and_share_it(
    browser,  # noqa: ANN001
    tablet_page,  # noqa: ANN001
    live_server,  # noqa: ANN001
) -> None:
    from playwright.sync_api import expect

    user = UserFactory()
    page = tablet_page

    # Log in and start a new team from My rosters.
    page.goto(live_server.url + "/")
    page.get_by_role("link", name="Log in").first.click()
    page.get_by_label("Username").fill(user.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.get_by_role("link", name="My rosters").click()
    expect(page.get_by_role("heading", name="My rosters")).to_be_visible()
    page.get_by_role("link", name="New Deathmatch team").click()
    page.get_by_label("Team name").fill(TEAM)
    page.get_by_label("Faction").select_option(label="Phalanx")
    page.get_by_label("Game size").select_option(label="Standard (5 fighters)")
    page.get_by_role("button", name="Create team").click()

    expect(page).to_have_url(re.compile(r"/rosters/\d+/$"))
    expect(page.get_by_label("Team name")).to_have_value(TEAM)
    expect(page.get_by_text("Deathmatch · Phalanx")).to_be_visible()
    expect(page.get_by_text("No fighters yet.")).to_be_visible()
    expect(counter(page, "Leader")).to_have_text("0/1")
    expect(counter(page, "Troopers")).to_have_text("0/2")
    expect(counter(page, "Specialists")).to_have_text("0/2")
    expect(counter(page, "Söldner")).to_have_text("0/2")
    expect(page.get_by_role("heading", name="3 problems")).to_be_visible()
    # A page load would drop this marker, an HTMX swap keeps it: the builder must update in place.
    page.evaluate("() => { window.builderNotReloaded = true }")

    # Fill the team; every click swaps the builder and moves a counter.
    add_fighter(page, "Hauptmann Brandt")
    expect(counter(page, "Leader")).to_have_text("1/1")
    expect(counter(page, "ARP spent / pool")).to_have_text("0/3 (3 left)")

    add_fighter(page, "Linienschütze")
    expect(counter(page, "Troopers")).to_have_text("1/2")
    expect(counter(page, "Söldner")).to_have_text("0/2")

    mercenaries = page.get_by_role("heading", name="Söldner (mercenaries from other factions)")
    expect(mercenaries).to_be_visible()
    add_fighter(page, "Dünenläufer")
    expect(counter(page, "Troopers")).to_have_text("2/2")
    expect(counter(page, "Söldner")).to_have_text("1/2")
    merc_card = page.get_by_role("article", name="Dünenläufer")
    expect(merc_card.get_by_text("Söldner", exact=True)).to_be_visible()

    add_fighter(page, "Brandmeister")
    expect(counter(page, "Specialists")).to_have_text("1/2")
    add_fighter(page, "Harpunier")
    expect(counter(page, "Specialists")).to_have_text("2/2")

    expect(page.get_by_role("heading", name=LEGAL)).to_be_visible()
    expect(page.get_by_text("Legal", exact=True)).to_be_visible()
    expect(counter(page, "ARP spent / pool")).to_have_text("0/11 (11 left)")
    for name in FIGHTERS:
        expect(page.get_by_role("heading", name=name, exact=True, level=3)).to_be_visible()

    # Equipment is paid from the team's ARP pool.
    trooper = page.get_by_role("article", name="Linienschütze")
    equipment = trooper.get_by_label("Equipment for Linienschütze")
    equipment.select_option(label="Medkit · 1 ARP · sample")
    trooper.get_by_role("button", name="Add equipment").click()
    expect(counter(page, "ARP spent / pool")).to_have_text("1/11 (10 left)")
    expect(page.get_by_role("button", name="Remove Medkit from Linienschütze")).to_be_visible()
    expect(page.get_by_role("heading", name=LEGAL)).to_be_visible()

    # A third trooper is offered but refused, with the rule that refuses it.
    third = page.get_by_role("listitem").filter(
        has=page.get_by_role("button", name="Add Schildträger", exact=True)
    )
    expect(third.get_by_role("button")).to_be_disabled()
    expect(
        third.get_by_text("Rank count: the team already has all 2 Troopers for game size 5.")
    ).to_be_visible()

    # Break a rule for real: five fighters are too many for a Small game. Saved as a draft.
    page.get_by_label("Game size").select_option(label="Small (3 fighters)")
    page.get_by_role("button", name="Save").click()
    problems = page.get_by_role("region", name="2 problems")
    expect(problems.get_by_role("listitem")).to_have_text(
        [
            "Rank count: the team needs exactly 1 Trooper for game size 3, it has 2.",
            "Rank count: the team needs exactly 1 Specialist (Spezialist) for game size 3, "
            "it has 2.",
        ]
    )
    expect(page.get_by_text("Draft · 2 problems")).to_be_visible()
    expect(counter(page, "Troopers")).to_have_text("2/1")
    expect(counter(page, "Söldner")).to_have_text("1/1")

    # Fix it by going back to Standard.
    page.get_by_label("Game size").select_option(label="Standard (5 fighters)")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("heading", name=LEGAL)).to_be_visible()
    expect(page.get_by_text("Legal", exact=True)).to_be_visible()
    expect(counter(page, "Troopers")).to_have_text("2/2")

    assert page.evaluate("() => window.builderNotReloaded === true")

    # Share it and open the link in a fresh, logged-out browser.
    expect(page.get_by_text("This roster is private.")).to_be_visible()
    page.get_by_role("button", name="Create a share link").click()
    link = page.get_by_label("Read-only link")
    expect(link).to_have_attribute("readonly", "")
    share_url = link.input_value()
    assert re.fullmatch(re.escape(live_server.url) + r"/rosters/shared/[\w-]+/", share_url)

    guest_context = browser.new_context(viewport=page.viewport_size, locale="en-GB")
    try:
        guest = guest_context.new_page()
        guest.set_default_timeout(10_000)
        guest.goto(share_url)

        expect(guest.get_by_role("link", name="Log in")).to_be_visible()
        expect(guest.get_by_role("link", name="My rosters")).to_have_count(0)
        expect(guest.get_by_role("heading", name=TEAM, level=1)).to_be_visible()
        expect(guest.get_by_text("A read-only view of a shared roster.")).to_be_visible()
        expect(guest.get_by_text(f"5 fighters · by {user.shown_name}")).to_be_visible()
        expect(guest.get_by_text("Legal", exact=True)).to_be_visible()
        for name in FIGHTERS:
            expect(guest.get_by_role("heading", name=name, exact=True, level=3)).to_be_visible()
        guest_trooper = guest.get_by_role("article", name="Linienschütze")
        expect(guest_trooper.get_by_text("Medkit")).to_be_visible()
        expect(counter(guest, "Söldner")).to_have_text("1/2")
        expect(counter(guest, "ARP spent / pool")).to_have_text("1/11 (10 left)")

        # Read-only: nothing on the page changes the roster.
        expect(guest.get_by_role("button", name=re.compile(r"^(Remove|Add)\b"))).to_have_count(0)
        expect(guest.get_by_text("Remove fighter")).to_have_count(0)
        expect(guest.get_by_role("combobox")).to_have_count(0)
        expect(guest.get_by_role("button", name="Create a share link")).to_have_count(0)
    finally:
        guest_context.close()
