"""The projector view: the current round's pairings with results, the timer and the top of the
standings; the board fragment the page polls; the season page's visibility."""

from __future__ import annotations

import pytest
from django.urls import reverse

from apps.leagues import round_timer as timers
from apps.leagues.models import League
from tests.accounts.factories import UserFactory
from tests.leagues.factories import (
    games,
    join,
    make_league,
    make_season,
    organiser_of,
    pair_and_publish,
    report_and_confirm,
)

pytestmark = pytest.mark.django_db
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
HTMX = {"HTTP_HX_REQUEST": "true", "HTTP_ACCEPT_LANGUAGE": "en"}


def test_projector_shows_pairings_results_timer_and_standings(client) -> None:
    season = make_season(make_league())
    join(season, 4)
    round_ = pair_and_publish(season)
    first = games(round_)[0]
    report_and_confirm(first, vp_a=17, vp_b=4)
    league = season.league
    timers.round_timer_start(
        user=organiser_of(league), key=league.key, season_id=season.pk, number=1, minutes=45
    )
    url = reverse("leagues:projector", args=[league.key, season.pk])
    page = client.get(url, **EN)
    html = page.content.decode()
    assert page.status_code == 200
    assert "Round 1" in html and first.player_a.player.shown_name in html
    assert "17 : 4" in html
    assert "data-round-timer-ends" in html and "round-timer.js" in html
    board = reverse("leagues:projector_board", args=[league.key, season.pk])
    assert f'hx-get="{board}?top=10"' in html and 'hx-trigger="every 20s"' in html
    assert "<script>" not in html and "style=" not in html  # CSP: no inline script or style
    fragment = client.get(board + "?top=2", **HTMX)
    body = fragment.content.decode()
    assert fragment.status_code == 200 and "<html" not in body
    assert body.count('<td class="num">') == 2 * 3  # two standings rows of three numbers
    assert 'id="projector-board"' in body


def test_projector_without_rounds_and_bad_top(client) -> None:
    season = make_season(make_league())
    join(season, 2)
    url = reverse("leagues:projector_board", args=[season.league.key, season.pk])
    page = client.get(url + "?top=lots", **EN)
    assert page.status_code == 200 and "No round has been published yet." in page.content.decode()


def test_projector_follows_the_season_visibility(client) -> None:
    league = make_league(visibility=League.Visibility.MEMBERS)
    season = make_season(league)
    (member,) = join(season, 1)
    url = reverse("leagues:projector", args=[league.key, season.pk])
    assert client.get(url).status_code == 404
    client.force_login(UserFactory())
    assert client.get(url).status_code == 404
    client.force_login(member.player)
    assert client.get(url).status_code == 200
    season_page = client.get(reverse("leagues:season", args=[league.key, season.pk]), **EN)
    assert url in season_page.content.decode()
