"""The clock on the tracker and in the API: who may press it, what the page and the API show."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from apps.matches.clock import match_clock_act
from apps.matches.models import Match, MatchEvent
from tests.accounts.factories import UserFactory
from tests.matches.factories import api_for, concede, small_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(deathmatch, user) -> Match:
    return small_match(user, deathmatch)


def browser_for(user, language: str = "en") -> Client:  # noqa: ANN001
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def press(client: Client, match: Match, action: str, **fields: str):  # noqa: ANN201
    return client.post(
        f"/matches/{match.pk}/clock/", {"action": action, **fields}, HTTP_HX_REQUEST="true"
    )


def test_a_player_starts_a_chess_clock_and_passes_the_turn(user, match) -> None:
    client = browser_for(user)
    page = client.get(f"/matches/{match.pk}/")
    assert b"Clock (optional)" in page.content
    assert b"js/clock.js" in page.content
    response = press(client, match, "start", mode="chess", minutes="25")
    assert response.status_code == 200
    assert b'id="clock"' in response.content
    assert b"25:00" in response.content or b"24:59" in response.content
    assert b"Tap to pass the turn" in response.content
    match.refresh_from_db()
    assert match.clock["mode"] == "chess" and match.clock["turn"] == 0
    assert press(client, match, "switch", player="1").status_code == 200
    match.refresh_from_db()
    assert match.clock["turn"] == 1 and match.clock["running"]


def test_the_clock_is_not_in_the_log_and_moves_no_seq(user, match) -> None:
    client = browser_for(user)
    events = MatchEvent.objects.filter(match=match).count()
    press(client, match, "start", mode="round", minutes="10")
    press(client, match, "pause")
    match.refresh_from_db()
    assert match.seq == 1
    assert MatchEvent.objects.filter(match=match).count() == events
    assert match.clock["running"] is False


def test_a_refused_press_shows_why(user, match) -> None:
    response = press(browser_for(user), match, "start", mode="chess", minutes="0")
    assert response.status_code == 422
    assert b"whole number from 1 to 600" in response.content


def test_without_javascript_a_press_returns_to_the_tracker(user, match) -> None:
    client = browser_for(user)
    response = client.post(
        f"/matches/{match.pk}/clock/", {"action": "start", "mode": "chess", "minutes": "5"}
    )
    assert response.status_code == 302
    assert response["Location"] == f"/matches/{match.pk}/"


def test_the_fragment_answers_304_while_the_clock_is_unchanged(user, match) -> None:
    client = browser_for(user)
    press(client, match, "start", mode="chess", minutes="5")
    first = client.get(f"/matches/{match.pk}/clock/")
    assert first.status_code == 200
    etag = first["ETag"]
    assert client.get(f"/matches/{match.pk}/clock/", HTTP_IF_NONE_MATCH=etag).status_code == 304
    press(client, match, "pause")
    assert client.get(f"/matches/{match.pk}/clock/", HTTP_IF_NONE_MATCH=etag).status_code == 200


def test_a_spectator_sees_the_clock_without_its_buttons(user, match) -> None:
    press(browser_for(user), match, "start", mode="chess", minutes="5")
    spectator = Client(HTTP_ACCEPT_LANGUAGE="en")
    page = spectator.get(f"/matches/watch/{match.spectator_token}/")
    assert b'id="clock"' in page.content and b"5:00" in page.content
    assert b'name="action"' not in page.content
    fragment = spectator.get(f"/matches/{match.pk}/clock/?spectate={match.spectator_token}")
    assert fragment.status_code == 200 and b"<form" not in fragment.content
    assert spectator.get(f"/matches/{match.pk}/clock/").status_code == 404


def test_someone_not_playing_cannot_see_or_press_the_clock(match) -> None:
    stranger = browser_for(UserFactory())
    assert stranger.get(f"/matches/{match.pk}/clock/").status_code == 404
    assert press(stranger, match, "start", mode="chess", minutes="5").status_code == 404
    anonymous = Client()
    response = anonymous.post(f"/matches/{match.pk}/clock/", {"action": "pause"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    match.refresh_from_db()
    assert match.clock == {}


def test_the_clock_stands_still_once_the_match_is_over(user, match) -> None:
    client = browser_for(user)
    press(client, match, "start", mode="chess", minutes="5")
    concede(match, user, 0)
    response = press(client, match, "switch", player="1")
    assert response.status_code == 422
    assert b"The match is over" in response.content
    assert press(client, match, "pause").status_code == 200


def test_the_clock_renders_in_german(user, match) -> None:
    client = browser_for(user, "de")
    press(client, match, "start", mode="round", minutes="3")
    press(client, match, "pause")
    page = client.get(f"/matches/{match.pk}/")
    assert page.status_code == 200
    assert b'lang="de"' in page.content
    assert "Runde 1" in page.content.decode()
    assert "Fortsetzen" in page.content.decode()
    assert b"3:00" in page.content


# --- API ---------------------------------------------------------------------------------------


def test_api_starts_switches_and_reads_the_clock(user, match) -> None:
    api = api_for(user)
    url = f"/api/v1/matches/{match.pk}/clock/"
    assert api.get(url).json()["clock"] is None
    started = api.post(url, {"action": "start", "mode": "chess", "minutes": 30}, format="json")
    assert started.status_code == 200, started.json()
    clock = started.json()["clock"]
    assert clock["mode"] == "chess" and clock["limit_seconds"] == 1800 and clock["turn"] == 0
    assert [p["name"] for p in clock["players"]] == ["Anna", "Ben"]
    switched = api.post(url, {"action": "switch", "player": 1}, format="json").json()["clock"]
    assert switched["turn"] == 1 and switched["running"]
    assert switched["players"][1]["remaining_ms"] <= 1_800_000
    assert api.post(url, {"action": "reset"}, format="json").json()["clock"] is None


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"action": "pause"}, "no_clock"),
        ({"action": "start", "mode": "chess"}, "invalid_minutes"),
        ({"action": "start", "mode": "chess", "minutes": "5"}, "invalid"),
        ({"action": "explode"}, "invalid"),
    ],
)
def test_api_refusals_have_a_code_and_a_message(user, match, body: dict, code: str) -> None:
    response = api_for(user).post(f"/api/v1/matches/{match.pk}/clock/", body, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == code and response.json()["message"]


def test_api_spectators_read_and_strangers_get_404(user, match) -> None:
    url = f"/api/v1/matches/{match.pk}/clock/"
    api_for(user).post(url, {"action": "start", "mode": "round", "minutes": 5}, format="json")
    anonymous = APIClient()
    assert anonymous.get(f"{url}?spectate={match.spectator_token}").json()["clock"]["round"] == 1
    assert anonymous.get(url).status_code == 404
    assert anonymous.post(url, {"action": "pause"}, format="json").status_code in (401, 403)
    stranger = api_for(UserFactory())
    assert stranger.post(url, {"action": "pause"}, format="json").status_code == 404
    assert stranger.get(url).status_code == 404


def test_time_up_shows_and_offers_end_on_time_without_ending_the_game(user, match) -> None:
    long_ago = timezone.now() - timedelta(minutes=2)
    match_clock_act(
        user=user, match_id=match.pk, action="start", mode="chess", minutes=1, now=long_ago
    )
    page = browser_for(user).get(f"/matches/{match.pk}/clock/")
    text = page.content.decode()
    assert "Time is up" in text and "0:00" in text
    link = re.search(r"<a [^>]*data-clock-end[^>]*>", text)
    assert link is not None and 'href="#match-menu"' in link[0] and "hidden" not in link[0]
    match.refresh_from_db()
    assert match.status != "finished"
