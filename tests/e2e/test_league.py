"""Running a league round on a tablet: an organiser creates a Deathmatch league and a season,
four players join with the code and a legal team each, the organiser pairs and publishes
round 1. The first game is played on the match tracker (the opponent takes the seat of their
shared team): its end proposes the result, which the opponent confirms. The second is reported
by hand by one player and confirmed by the other. The standings show the two winners on top.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest

from apps.leagues.models import Pairing, Registration
from apps.rosters import services as roster_services
from tests.accounts.factories import PASSWORD, UserFactory
from tests.e2e.sessions import logged_in_page
from tests.matches.factories import roster_for, small_team

if TYPE_CHECKING:
    pass

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.usefixtures("catalogue")
def test_create_a_league_pair_a_round_report_confirm_and_see_the_standings(
    browser,  # noqa: ANN001
    tablet_page,  # noqa: ANN001
    live_server,  # noqa: ANN001
) -> None:
    from playwright.sync_api import expect

    base = live_server.url
    organiser = UserFactory(username="orga")
    players = [UserFactory(username=name, display_name=name) for name in ("Ada", "Ben", "Cy", "Di")]
    # Every player has a legal small team, shared by link (the tracker takes the opponent's).
    teams = {
        player.pk: roster_services.roster_share(
            owner=player,
            roster_id=roster_for(player, small_team(faction, name=f"Team {player.username}")).pk,
            enabled=True,
        )
        for player, faction in zip(players, ["phalanx", "shelzahav"] * 2, strict=True)
    }

    # The organiser creates the league and its first season.
    page = tablet_page
    page.goto(base + "/accounts/login/")
    page.get_by_label("Username").fill(organiser.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.get_by_role("link", name="Leagues", exact=True).click()
    page.get_by_role("link", name="New league").click()
    page.get_by_label("Rule system").select_option(label="Deathmatch")
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
        tab = logged_in_page(browser, base, player.username)
        tab.goto(f"{base}/leagues/join/?code={code.lower()}")
        expect(tab.get_by_role("heading", name="Dienstagsrunde")).to_be_visible()
        tab.get_by_label("Roster").select_option(str(teams[player.pk].pk))
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

    pairings = list(
        Pairing.objects.filter(round__season__name="Frühjahr")
        .select_related("player_a__player", "player_b__player")
        .order_by("table")
    )
    winners = []

    # Game 1 on the tracker: player A opens a match against B's shared team and wins it.
    tracked = pairings[0]
    a, b = tracked.player_a.player, tracked.player_b.player
    host = tabs[a.pk]
    host.goto(f"{base}/matches/new/deathmatch/")
    host.locator("#id_name_0").fill(a.shown_name)
    host.locator("#id_roster_0").select_option(str(teams[a.pk].pk))
    host.locator("#id_name_1").fill(b.shown_name)
    host.locator("#id_share_1").fill(f"{base}/rosters/shared/{teams[b.pk].share_token}/")
    host.get_by_label("Game mode").select_option(value="last-man-standing")
    host.get_by_label("Game size").select_option(label="Small (3 fighters)")
    host.get_by_label("Play with gadgets").uncheck()
    host.get_by_role("button", name="Open the match").click()
    expect(host).to_have_url(re.compile(r"/matches/\d+/$"))
    # B's team came from B's share link: B takes that seat on their own login.
    opponent = tabs[b.pk]
    opponent.goto(host.url)
    opponent.get_by_role("button", name="Take my seat").click()
    expect(opponent.get_by_role("heading", name=re.compile(" vs "))).to_be_visible()
    host.get_by_role("button", name="Flip for deployment").click()
    host.get_by_role("button", name=re.compile(" first$")).first.click()
    host.get_by_role("button", name="Start round 1").click()
    expect(host.get_by_role("button", name="Flip for initiative")).to_be_visible()
    # The table settles the game quickly: B's fighters are knocked out by hand corrections.
    for index in range(3):
        fighter = host.locator(".team[data-player='1'] .unit").nth(index)
        name = fighter.locator(".unit-name").inner_text()
        fighter.locator(".unit-link").click()
        expect(host.locator(".selected-panel h2")).to_have_text(name)
        host.locator(".correction summary").click()
        host.locator("#adj-lp").fill("0")
        host.get_by_role("button", name="Save the correction").click()
        expect(fighter).to_have_class(re.compile("is-out"))
    expect(host.locator(".result-panel")).to_contain_text(f"{a.shown_name} wins!")
    opponent.goto(season_url)
    opponent.get_by_role("link", name="Report / confirm").click()
    expect(opponent.get_by_text("from a tracked match")).to_be_visible()
    expect(opponent.get_by_text(f"{a.shown_name} won")).to_be_visible()
    opponent.get_by_role("button", name="Confirm result").click()
    expect(opponent.get_by_text("Result confirmed. It counts now.")).to_be_visible()
    winners.append(a.shown_name)

    # Game 2 by hand: player A reports a win, player B confirms it.
    for pairing in pairings[1:]:
        reporter = tabs[pairing.player_a.player_id]
        reporter.goto(season_url)
        reporter.get_by_role("link", name="Report / confirm").last.click()
        winner = pairing.player_a.player.shown_name
        reporter.get_by_label(f"{winner} won").check()
        reporter.get_by_label(f"VP of {winner}").fill("14")
        reporter.get_by_label(f"VP of {pairing.player_b.player.shown_name}").fill("9")
        reporter.get_by_role("button", name="Report result").click()
        expect(reporter.get_by_text("Result reported. Your opponent confirms it.")).to_be_visible()
        expect(reporter.get_by_text("awaiting confirmation")).to_be_visible()

        opponent = tabs[pairing.player_b.player_id]
        opponent.goto(season_url)
        opponent.get_by_role("link", name="Report / confirm").last.click()
        expect(opponent.get_by_text(f"{winner} won")).to_be_visible()
        opponent.get_by_role("button", name="Confirm result").click()
        expect(opponent.get_by_text("Result confirmed. It counts now.")).to_be_visible()
        winners.append(winner)

    # The standings: both winners on 3 points (the hand-reported one +5 VP), the others on 0.
    page.goto(season_url)
    rows = page.locator("#standings tbody tr")
    expect(rows).to_have_count(4)
    top = [rows.nth(i).get_by_role("rowheader").inner_text() for i in range(2)]
    assert sorted(name.split("\n")[0].strip() for name in top) == sorted(winners)
    for i, points in enumerate(["3", "3", "0", "0"]):
        expect(rows.nth(i).locator("td").nth(5)).to_have_text(points)
    expect(rows.nth(0).locator("td").nth(6)).to_have_text("+5")
    assert Registration.objects.filter(season__name="Frühjahr").count() == 4

    for tab in tabs.values():
        tab.context.close()
