"""League writes with wrong input: every JSON type in every field of report, dispute and
override (API), the same as form posts (pages), other users' and other leagues' pairings, and
HTMX posts without a CSRF token. Always a 4xx (or the page's 422) and no result changed."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from apps.leagues.models import LogEntry, Pairing, Result
from tests.accounts.factories import UserFactory
from tests.leagues.factories import games, join, make_league, make_season, pair_and_publish

# Leagues of the test system "plain" (tests/probe), a system without rosters.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("plain_systems")]

FUZZ = settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
JSON = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(10**20), 10**20),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(max_size=600),
        st.sampled_from(["a", "b", "draw", "A", "", "1", "-1", "1e3", "9" * 30]),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)
FIELDS = ["outcome", "vp_a", "vp_b", "reason"]
FORM_VALUE = st.one_of(
    st.text(max_size=40),
    st.sampled_from(["a", "b", "draw", "-1", "1.5", "²", "9" * 5000, "10000", "0x10", " 3 "]),
)


@pytest.fixture
def game() -> Pairing:
    season = make_season(make_league())
    join(season, 2)
    return games(pair_and_publish(season))[0]


def _api(user: Any) -> APIClient:
    client = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    client.force_authenticate(user)
    return client


def _results() -> list[tuple[Any, ...]]:
    return list(Result.objects.values_list("pk", "outcome", "vp_a", "vp_b", "status"))


def _assert_api_error(response: Any) -> None:
    assert 400 <= response.status_code < 500, response.content[:300]
    body = response.json()
    assert isinstance(body["code"], str) and body["code"]
    assert isinstance(body["message"], str) and body["message"]


@pytest.mark.parametrize("action", ["result/", "result/dispute/", "result/override/"])
def test_generated_result_bodies_are_refused_cleanly(game, action) -> None:
    key = game.round.season.league.key
    url = f"/api/v1/leagues/{key}/pairings/{game.pk}/{action}"
    organiser = game.round.season.league.organisers.get()
    client = _api(organiser if "override" in action else game.player_a.player)
    if "dispute" in action:
        _api(game.player_b.player).post(
            f"/api/v1/leagues/{key}/pairings/{game.pk}/result/",
            {"outcome": "b", "vp_a": 1, "vp_b": 9},
            format="json",
        )
    assert _api(organiser).get(url.rsplit("result/", 1)[0]).status_code == 200
    bad = st.fixed_dictionaries({}, optional=dict.fromkeys(FIELDS, JSON))

    @FUZZ
    @given(body=st.one_of(bad, JSON))
    def check(body: Any) -> None:
        before = _results()
        logged = LogEntry.objects.count()
        response = client.post(url, body, format="json")
        if response.status_code == 200:  # the generator found a well-formed body
            return
        _assert_api_error(response)
        assert response.status_code != 404, response.content  # the pairing is there
        assert _results() == before
        assert LogEntry.objects.count() == logged

    check()


def test_other_users_and_other_leagues_pairings_are_refused(game) -> None:
    key = game.round.season.league.key
    other_game = games(pair_and_publish(_other_season()))[0]
    player = game.player_a.player
    every = ["result/", "result/confirm/", "result/dispute/", "result/override/"]
    cases = [
        (UserFactory(), f"/api/v1/leagues/{key}/pairings/{game.pk}/", every),
        (player, f"/api/v1/leagues/{key}/pairings/{other_game.pk}/", every),
        (player, f"/api/v1/leagues/{key}/pairings/999999/", every),
        (player, f"/api/v1/leagues/no-such-key/pairings/{game.pk}/", every),
        (player, f"/api/v1/leagues/{key}/pairings/{game.pk}/", ["result/override/"]),
    ]
    body = {"outcome": "a", "vp_a": 3, "vp_b": 1, "reason": "because"}
    for user, url, actions in cases:
        for action in actions:
            response = _api(user).post(url + action, body, format="json")
            assert response.status_code in (403, 404), (url + action, response.content)
            _assert_api_error(response)
    assert not Result.objects.exists()


def _other_season() -> Any:
    season = make_season(make_league(name="Andere Liga"))
    join(season, 2)
    return season


@pytest.mark.parametrize("view", ["report", "dispute", "override"])
def test_generated_form_posts_are_refused_on_the_page(game, view) -> None:
    key = game.round.season.league.key
    organiser = game.round.season.league.organisers.get()
    browser = Client(HTTP_ACCEPT_LANGUAGE="en")
    browser.force_login(organiser if view == "override" else game.player_b.player)
    if view == "dispute":
        _api(game.player_a.player).post(
            f"/api/v1/leagues/{key}/pairings/{game.pk}/result/",
            {"outcome": "a", "vp_a": 9, "vp_b": 1},
            format="json",
        )
    url = reverse(f"leagues:{view}", args=[key, game.pk])

    @FUZZ
    @given(
        data=st.dictionaries(st.sampled_from(FIELDS), FORM_VALUE, max_size=4), htmx=st.booleans()
    )
    def check(data: dict[str, str], htmx: bool) -> None:
        before = _results()
        headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
        response = browser.post(url, data, **headers)
        assert response.status_code < 500
        if response.status_code in (200, 302) and _results() != before:
            return  # a well-formed post was taken
        assert _results() == before

    check()


@pytest.mark.parametrize("view", ["report", "confirm", "dispute", "override"])
def test_htmx_result_posts_need_the_csrf_token(game, view) -> None:
    key = game.round.season.league.key
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(game.player_a.player)
    response = strict.post(
        reverse(f"leagues:{view}", args=[key, game.pk]),
        {"outcome": "a", "vp_a": "3", "vp_b": "1", "reason": "x"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 403
    assert not Result.objects.exists()


def test_session_api_posts_need_the_csrf_token(game) -> None:
    """The API takes a browser session too, and then a CSRF token like a form."""
    key = game.round.season.league.key
    strict = APIClient(enforce_csrf_checks=True)
    strict.force_login(game.player_a.player)
    response = strict.post(
        f"/api/v1/leagues/{key}/pairings/{game.pk}/result/",
        {"outcome": "a", "vp_a": 3, "vp_b": 1},
        format="json",
    )
    assert response.status_code == 403
    _assert_api_error(response)
    assert not Result.objects.exists()
