"""A whole league night, as the organiser and two players live it (issue "League night"):

1. check-in: Ada and Ben say they are here, Cy cannot come;
2. the organiser pairs the round (Cy is left out, so no bye) and publishes it;
3. the organiser starts the round timer;
4. Ada starts the match from the pairing, on the table's tablet: both season rosters in place,
   the league line on the tracker shows the timer;
5. a short tracked match (Ben's fighters are knocked out by hand corrections);
6. Ben, on his phone, is notified (the badge), opens the notification and confirms the result;
7. the standings and the projector view show it, with the timer.

The organiser works on a desktop, Ada on a tablet and Ben on a phone.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest

from apps.leagues import services as league_services
from apps.leagues.models import Pairing, Result
from tests.accounts.factories import UserFactory
from tests.e2e.sessions import TABLET, logged_in_page
from tests.leagues.factories import make_league, make_season
from tests.matches.factories import roster_for, small_team

if TYPE_CHECKING:
    pass

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}


@pytest.mark.usefixtures("catalogue")
def test_a_league_night_from_check_in_to_the_projector(browser, live_server) -> None:  # noqa: ANN001
    from playwright.sync_api import expect

    base = live_server.url
    organiser = UserFactory(username="orga", display_name="Orga")
    league = make_league(organiser, system="deathmatch", name="Dienstagsrunde")
    season = make_season(league, name="Herbst")
    ada, ben, cy = (
        UserFactory(username=name.lower(), display_name=name) for name in ("Ada", "Ben", "Cy")
    )
    for player, faction in ((ada, "phalanx"), (ben, "shelzahav"), (cy, "phalanx")):
        roster = roster_for(player, small_team(faction, name=f"Team {player.display_name}"))
        league_services.season_join(
            user=player, season_id=season.pk, code=league.join_code, roster_id=roster.pk
        )
    season_url = f"{base}/leagues/{league.key}/seasons/{season.pk}/"

    # 1. Check-in: Ada at the table's tablet, Ben on his phone, Cy cannot come.
    tablet = logged_in_page(browser, base, "ada", TABLET)
    phone = logged_in_page(browser, base, "ben", PHONE)
    for page in (tablet, phone):
        page.goto(season_url)
        page.get_by_role("button", name="I'm here").click()
        expect(page.get_by_text("You are checked in.")).to_be_visible()
    absent = logged_in_page(browser, base, "cy", PHONE)
    absent.goto(season_url)
    absent.get_by_role("button", name="I can't come").click()
    expect(absent.get_by_text("You said you cannot come.")).to_be_visible()
    absent.context.close()

    # 2. The organiser sees the check-in, pairs and publishes round 1: Cy is left out.
    desk = logged_in_page(browser, base, "orga", DESKTOP)
    desk.goto(season_url)
    expect(desk.get_by_text("Present: 2 · absent: 1 · no answer: 0")).to_be_visible()
    desk.get_by_role("button", name="Pair the next round").click()
    expect(desk.get_by_role("heading", name="Round 1 — draft")).to_be_visible()
    desk.get_by_role("button", name="Publish round 1").click()
    expect(desk.get_by_role("heading", name="Round 1", exact=True)).to_be_visible()
    (game,) = Pairing.objects.filter(round__season=season).select_related(
        "player_a__player", "player_b__player"
    )
    assert game.player_b is not None
    assert {game.player_a.player, game.player_b.player} == {ada, ben}

    # 3. The round timer starts; the season page shows it counting.
    desk.get_by_label("Minutes").fill("90")
    desk.get_by_role("button", name="Start the round timer").click()
    expect(desk.locator(".round-timer-clock").first).to_have_text(re.compile(r"^1:(29|30):\d\d$"))

    # 4. Ada starts the match from the pairing: both season rosters are in place.
    tablet.goto(season_url)
    tablet.get_by_role("link", name="Play on the tracker").click()
    expect(tablet.get_by_role("heading", name="Start this match")).to_be_visible()
    expect(tablet.get_by_text("Team Ada")).to_be_visible()
    expect(tablet.get_by_text("Team Ben")).to_be_visible()
    tablet.get_by_label("Game mode").select_option(value="last-man-standing")
    tablet.get_by_label("Play with gadgets").uncheck()
    tablet.get_by_role("button", name="Open the match").click()
    expect(tablet).to_have_url(re.compile(r"/matches/\d+/$"))
    league_line = tablet.locator(".league-game")
    expect(league_line).to_contain_text("Dienstagsrunde · Round 1, table 1")
    expect(league_line.locator(".round-timer-clock")).to_have_text(re.compile(r"^1:[23]\d:\d\d$"))

    # 5. A short tracked match: Ben's fighters are knocked out by hand corrections.
    ben_seat = 0 if game.player_a.player == ben else 1
    tablet.get_by_role("button", name="Flip for deployment").click()
    tablet.get_by_role("button", name=re.compile(" first$")).first.click()
    tablet.get_by_role("button", name="Start round 1").click()
    expect(tablet.get_by_role("button", name="Flip for initiative")).to_be_visible()
    for index in range(3):
        fighter = tablet.locator(f".team[data-player='{ben_seat}'] .unit").nth(index)
        name = fighter.locator(".unit-name").inner_text()
        fighter.locator(".unit-link").click()
        expect(tablet.locator(".selected-panel h2")).to_have_text(name)
        tablet.locator(".correction summary").click()
        tablet.locator("#adj-lp").fill("0")
        tablet.get_by_role("button", name="Save the correction").click()
        expect(fighter).to_have_class(re.compile("is-out"))
    expect(tablet.locator(".result-panel")).to_contain_text("Ada wins!")

    # 6. Ben is notified on his phone and confirms from the notification.
    phone.goto(season_url)
    expect(phone.locator("#nav-notifications .badge")).to_be_visible()
    phone.locator("#nav-notifications").click()
    phone.get_by_role("link", name=re.compile("Confirm or dispute the result")).click()
    expect(phone.get_by_text("from a tracked match")).to_be_visible()
    expect(phone.get_by_text("Ada won")).to_be_visible()
    phone.get_by_role("button", name="Confirm result").click()
    expect(phone.get_by_text("Result confirmed. It counts now.")).to_be_visible()
    assert Result.objects.get(pairing=game).status == Result.Status.CONFIRMED

    # 7. The standings and the projector view show it, with the timer.
    desk.goto(season_url)
    top = desk.locator("#standings tbody tr").first
    expect(top.get_by_role("rowheader")).to_contain_text("Ada")
    desk.get_by_role("link", name="Projector view").click()
    board = desk.locator("#projector-board")
    expect(board).to_have_attribute("hx-trigger", re.compile("every"))
    expect(board.locator(".projector-standings tbody tr").first).to_contain_text("Ada")
    expect(board.locator(".projector-pairings")).to_contain_text("Ben")
    expect(board.locator(".round-timer-clock")).to_have_text(re.compile(r"^1:[23]\d:\d\d$"))

    for page in (desk, tablet, phone):
        page.context.close()
