"""Running a league round on a tablet: an organiser creates a league and a season, four players
join with the code, the organiser pairs and publishes round 1, both games are reported by one
player and confirmed by the other, and the standings show the two winners on top.

Grundregeln has no roster rules yet, so its players join without a roster. (A result proposed
by a tracked match is tested at the service level until the match tracker exists.)
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest

from apps.leagues.models import Pairing, Registration
from tests.accounts.factories import PASSWORD, UserFactory

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def log_in(browser: Browser, base: str, username: str) -> Page:
    context = browser.new_context(viewport={"width": 820, "height": 1180}, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(base + "/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    return page


def test_create_a_league_pair_a_round_report_confirm_and_see_the_standings(
    browser,  # noqa: ANN001
    tablet_page,  # noqa: ANN001
    live_server,  # noqa: ANN001
) -> None:
    from playwright.sync_api import expect

    base = live_server.url
    organiser = UserFactory(username="orga")
    players = [UserFactory(username=name, display_name=name) for name in ("Ada", "Ben", "Cy", "Di")]

    # The organiser creates the league and its first season.
    page = tablet_page
    page.goto(base + "/accounts/login/")
    page.get_by_label("Username").fill(organiser.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.get_by_role("link", name="Leagues", exact=True).click()
    page.get_by_role("link", name="New league").click()
    page.get_by_label("Rule system").select_option(label="Grundregeln")
    page.get_by_label("League name").fill("Dienstagsrunde")
    page.get_by_label("Who can see the league").select_option("public")
    page.get_by_role("button", name="Create league").click()
    expect(page.get_by_role("heading", name="Dienstagsrunde", level=1)).to_be_visible()
    code = page.get_by_label("Join code").first.inner_text().strip()
    assert re.fullmatch(r"[A-Z0-9]{8}", code)

    page.get_by_role("link", name="New season").click()
    page.get_by_label("Season name").fill("Frühjahr")
    page.get_by_label("Starts on").fill("2026-03-01")
    page.get_by_label("Ends on").fill("2026-06-30")
    page.get_by_role("button", name="Create season").click()
    expect(page.get_by_role("heading", name="Frühjahr", level=1)).to_be_visible()
    season_url = page.url

    # Four players join with the code.
    tabs = {}
    for player in players:
        tab = log_in(browser, base, player.username)
        tab.goto(f"{base}/leagues/join/?code={code.lower()}")
        expect(tab.get_by_role("heading", name="Dienstagsrunde")).to_be_visible()
        tab.get_by_role("button", name="Join Frühjahr").click()
        expect(tab.get_by_text("You are in. Good games!")).to_be_visible()
        tabs[player.pk] = tab

    # The organiser pairs round 1 as a draft and publishes it.
    page.goto(season_url)
    standings = page.locator("#standings tbody tr")
    expect(standings).to_have_count(4)
    page.get_by_role("button", name="Pair the next round").click()
    expect(page.get_by_role("heading", name="Round 1 — draft")).to_be_visible()
    page.get_by_role("button", name="Publish round 1").click()
    expect(page.get_by_role("heading", name="Round 1", exact=True)).to_be_visible()

    # Each game: player A reports a win, player B confirms it.
    pairings = Pairing.objects.filter(round__season__name="Frühjahr").select_related(
        "player_a__player", "player_b__player"
    )
    winners = []
    for pairing in pairings.order_by("table"):
        reporter = tabs[pairing.player_a.player_id]
        reporter.goto(season_url)
        reporter.get_by_role("link", name="Report / confirm").click()
        winner = pairing.player_a.player.shown_name
        reporter.get_by_label(f"{winner} won").check()
        reporter.get_by_label(f"VP of {winner}").fill("14")
        reporter.get_by_label(f"VP of {pairing.player_b.player.shown_name}").fill("9")
        reporter.get_by_role("button", name="Report result").click()
        expect(reporter.get_by_text("Result reported. Your opponent confirms it.")).to_be_visible()
        expect(reporter.get_by_text("awaiting confirmation")).to_be_visible()

        opponent = tabs[pairing.player_b.player_id]
        opponent.goto(season_url)
        opponent.get_by_role("link", name="Report / confirm").click()
        expect(opponent.get_by_text(f"{winner} won")).to_be_visible()
        opponent.get_by_role("button", name="Confirm result").click()
        expect(opponent.get_by_text("Result confirmed. It counts now.")).to_be_visible()
        winners.append(winner)

    # The standings: both winners on 3 points (+5 VP), the others on 0.
    page.goto(season_url)
    rows = page.locator("#standings tbody tr")
    expect(rows).to_have_count(4)
    top = [rows.nth(i).get_by_role("rowheader").inner_text() for i in range(2)]
    assert sorted(name.split("\n")[0] for name in top) == sorted(winners)
    for i, points in enumerate(["3", "3", "0", "0"]):
        expect(rows.nth(i).locator("td").nth(5)).to_have_text(points)
    expect(rows.nth(0).locator("td").nth(6)).to_have_text("+5")
    assert Registration.objects.filter(season__name="Frühjahr").count() == 4

    for tab in tabs.values():
        tab.context.close()
