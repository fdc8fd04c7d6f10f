"""Numbers typed into forms and query strings by hand: ``str.isdigit`` also accepts "²" and
"٣" (which ``int`` refuses) and thousands of digits (which ``int`` refuses too), so every page
that reads a number from a form answers such input with its usual refusal, never a 500, and
saves nothing."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from apps.leagues.models import Registration, RosterChange
from apps.matches.models import MatchEvent
from apps.rosters.models import RosterEntry
from tests.leagues.factories import join, make_league, make_season
from tests.matches.factories import roster_for, small_match

# Leagues of the test system "plain" (tests/probe), a system without rosters.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("plain_systems")]

ODD_NUMBERS = ["²", "٣", "9" * 5000, "x", "-1", "1.5", ""]
HTMX = {"HTTP_HX_REQUEST": "true", "HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture
def browser(user) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    return client


@pytest.mark.parametrize("value", ODD_NUMBERS)
def test_attaching_to_an_odd_number_is_refused_inline(browser, user, deathmatch, value) -> None:
    roster = roster_for(user)
    entry = roster.entries.order_by("pk").first()
    url = reverse("rosters:entry_attach", args=[roster.pk, entry.pk])
    response = browser.post(url, {"attach_to": value}, **HTMX)
    assert response.status_code in (200, 422)
    assert RosterEntry.objects.get(pk=entry.pk).attach_to_id is None


@pytest.mark.parametrize("value", ODD_NUMBERS)
@pytest.mark.parametrize("name", ["unit", "seat"])
def test_the_tracker_ignores_an_odd_selection_or_seat(browser, user, deathmatch, name, value):
    match = small_match(user, deathmatch)
    response = browser.get(reverse("matches:tracker", args=[match.pk]), {name: value})
    assert response.status_code == 200


@pytest.mark.parametrize("value", ODD_NUMBERS)
@pytest.mark.parametrize("name", ["weapon", "target", "unit"])
def test_the_attack_wizard_ignores_odd_numbers(browser, user, deathmatch, name, value) -> None:
    match = small_match(user, deathmatch)
    params = {"wizard": "ranged", "unit": "0", "weapon": "0", "target": "3", name: value}
    response = browser.get(reverse("matches:tracker", args=[match.pk]), params)
    assert response.status_code == 200


@pytest.mark.parametrize("value", ODD_NUMBERS)
def test_an_odd_expected_seq_or_selection_in_a_command_form(browser, user, deathmatch, value):
    match = small_match(user, deathmatch)
    data = {"command": "deployment_flip", "expected_seq": value, "selected": value}
    response = browser.post(reverse("matches:command", args=[match.pk]), data, **HTMX)
    # Not a seq: the page is taken as out of date (400), never a server error or an apply.
    assert response.status_code == 400
    assert MatchEvent.objects.filter(match=match).count() == 1


@pytest.mark.parametrize("index", ["²", "٣", "9" * 30])
def test_an_odd_list_index_in_a_command_form_is_refused(browser, user, deathmatch, index) -> None:
    match = small_match(user, deathmatch)
    before = MatchEvent.objects.filter(match=match).count()
    data = {
        "command": "assign_flags",
        "expected_seq": str(match.seq),
        f"args.units.{index}:int": "1",
    }
    response = browser.post(reverse("matches:command", args=[match.pk]), data, **HTMX)
    assert response.status_code == 422
    assert MatchEvent.objects.filter(match=match).count() == before


@pytest.mark.parametrize("value", ["²", "٣", "9" * 5000, "x", "-1", "1.5", ""])
def test_an_odd_seat_in_the_api_is_refused_with_invalid(user, deathmatch, value) -> None:
    # Issue 15: ``?seat=`` is an integer parameter; anything else is a 400 naming it (it used
    # to be ignored, which hid a client's bug behind the default seat).
    match = small_match(user, deathmatch)
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    api.force_authenticate(user)
    for url in (
        f"/api/v1/matches/{match.pk}/",
        f"/api/v1/matches/{match.pk}/events/",
        f"/api/v1/matches/{match.pk}/legal/",
    ):
        response = api.get(url, {"seat": value})
        assert response.status_code == 400, url
        assert response.json()["code"] == "invalid"
        assert response.json()["message"].startswith("seat: must be a whole number")


def test_a_whole_seat_in_the_api_is_still_taken(user, deathmatch) -> None:
    match = small_match(user, deathmatch)
    api = APIClient()
    api.force_authenticate(user)
    assert api.get(f"/api/v1/matches/{match.pk}/", {"seat": "0"}).status_code == 200
    assert api.get(f"/api/v1/matches/{match.pk}/events/", {"seat": "0"}).status_code == 200


@pytest.mark.parametrize("value", ODD_NUMBERS)
def test_joining_an_odd_season_number_is_refused(browser, user, value) -> None:
    season = make_season(make_league())
    data = {"code": season.league.join_code, "season": value}
    response = browser.post(reverse("leagues:join"), data)
    assert response.status_code == 422
    assert not Registration.objects.filter(player=user).exists()


@pytest.mark.parametrize("value", ODD_NUMBERS)
def test_asking_for_an_odd_roster_change_is_refused(value) -> None:
    season = make_season(make_league())
    registration = join(season, 1)[0]
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(registration.player)
    url = reverse("leagues:roster_change", args=[season.league.key, season.pk, registration.pk])
    response = client.post(url, {"roster": value})
    assert response.status_code == 302
    assert not RosterChange.objects.exists()
