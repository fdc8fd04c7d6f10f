"""The season page at any size: the current round in full, older rounds as a summary whose
pairings load on demand, the same number of queries for a small and a bigger season, and the
cached standings and round rendered again after any change (apps.leagues.page_cache)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from apps.leagues import services
from apps.leagues.models import Result, Round
from apps.leagues.page_cache import season_version
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
HTMX = {"HTTP_HX_REQUEST": "true", **EN}


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    # Test database ids repeat across runs; fragments of an earlier run must not answer.
    cache.clear()


def played_season(players: int, rounds: int, *, name: str = "Frühjahr"):  # noqa: ANN201
    season = make_season(make_league(name=f"Liga {name}"), name=name)
    join(season, players)
    for number in range(1, rounds + 1):
        for game in games(pair_and_publish(season, seed=number)):
            report_and_confirm(game)
    return season


def url(season) -> str:  # noqa: ANN001
    return reverse("leagues:season", args=[season.league.key, season.pk])


def queries(client, season) -> int:  # noqa: ANN001
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url(season), **EN).status_code == 200
    return len(captured)


def test_the_page_makes_as_many_queries_for_32_players_and_4_rounds_as_for_8_and_2(
    client,
) -> None:
    small = played_season(8, 2, name="klein")
    big = played_season(32, 4, name="groß")
    counts = {}
    for season in (small, big):
        client.force_login(organiser_of(season.league))
        first = queries(client, season)  # renders the fragments
        again = queries(client, season)  # from the cache
        counts[season.pk] = (first, again)
    assert counts[small.pk] == counts[big.pk]
    assert counts[small.pk][1] <= counts[small.pk][0]


def test_every_round_is_on_the_page_the_current_one_in_full(client) -> None:
    season = played_season(6, 3)
    client.force_login(organiser_of(season.league))
    page = client.get(url(season), **EN).content.decode()
    for number in (1, 2, 3):
        assert f'id="round-section-{number}"' in page
    for number in (1, 2):
        round_url = reverse("leagues:round", args=[season.league.key, season.pk, number])
        assert f'href="{round_url}" hx-get="{round_url}"' in page
        assert f"Show the pairings of round {number}" in page
    current = games(Round.objects.get(season=season, number=3))
    assert reverse("leagues:pairing", args=[season.league.key, current[0].pk]) in page
    older = games(Round.objects.get(season=season, number=1))
    assert reverse("leagues:pairing", args=[season.league.key, older[0].pk]) not in page
    assert "3 games · 3 with a result" in page


def test_an_older_round_loads_on_demand_and_as_a_page_of_its_own(client) -> None:
    season = played_season(4, 2)
    round_url = reverse("leagues:round", args=[season.league.key, season.pk, 1])
    first = games(Round.objects.get(season=season, number=1))[0]
    game_url = reverse("leagues:pairing", args=[season.league.key, first.pk])
    fragment = client.get(round_url, **HTMX).content.decode()
    assert game_url in fragment
    assert 'id="round-section-1"' in fragment
    assert "<html" not in fragment
    page = client.get(round_url, **EN).content.decode()
    assert "<html" in page and game_url in page
    assert (
        client.get(reverse("leagues:round", args=[season.league.key, season.pk, 9])).status_code
        == 404
    )


def test_a_draft_round_is_for_organisers_only(client) -> None:
    season = played_season(4, 1)
    organiser = organiser_of(season.league)
    services.round_pair(user=organiser, key=season.league.key, season_id=season.pk)
    round_url = reverse("leagues:round", args=[season.league.key, season.pk, 2])
    assert client.get(round_url).status_code == 404
    client.force_login(organiser)
    assert client.get(round_url, **EN).status_code == 200


def test_a_new_result_shows_at_once_despite_the_cache(client) -> None:
    season = make_season(make_league())
    join(season, 4)
    round_ = pair_and_publish(season)
    client.force_login(organiser_of(season.league))
    assert "not reported" in client.get(url(season), **EN).content.decode()
    for game in games(round_):
        report_and_confirm(game, vp_a=17, vp_b=4)
    page = client.get(url(season), **EN).content.decode()
    assert "not reported" not in page
    assert "17–4" in page


def test_the_version_changes_when_a_report_starts_to_count(client) -> None:
    season = make_season(make_league(), confirm_hours=24)
    join(season, 2)
    (game,) = games(pair_and_publish(season))
    services.result_report(
        user=game.player_a.player,
        key=season.league.key,
        pairing_id=game.pk,
        outcome="a",
        vp_a=10,
        vp_b=5,
    )
    now = timezone.now()
    assert season_version(season, now=now) == season_version(season, now=now + timedelta(hours=1))
    later = now + timedelta(hours=25)
    assert season_version(season, now=now) != season_version(season, now=later)


def test_the_version_changes_with_every_kind_of_write(client) -> None:
    season = played_season(4, 1)
    seen = {season_version(season)}
    result = Result.objects.filter(pairing__round__season=season).first()
    Result.objects.filter(pk=result.pk).update(vp_a=19, updated_at=timezone.now())
    seen.add(season_version(season))
    join(season, 1)
    seen.add(season_version(season))
    registration = season.registrations.first()
    services.registration_drop(
        user=organiser_of(season.league), key=season.league.key, registration_id=registration.pk
    )
    seen.add(season_version(season))
    pair_and_publish(season, seed=3)
    seen.add(season_version(season))
    assert len(seen) == 5


def test_one_cached_table_marks_each_viewers_own_row(client) -> None:
    season = played_season(4, 1)
    first, second = season.registrations.order_by("pk")[:2]
    client.force_login(first.player)
    page = client.get(url(season), **EN).content.decode()
    assert f'<tr class="mine" data-entrant="{first.pk}">' in page
    client.force_login(second.player)
    page = client.get(url(season), **EN).content.decode()
    assert f'<tr class="mine" data-entrant="{second.pk}">' in page
    assert f'<tr data-entrant="{first.pk}">' in page


def test_each_standings_row_shows_its_games_with_their_scores(client) -> None:
    """The rows are built in Python (apps.leagues.standings_rows): each game of the guide is a
    letter with the round, the score and the opponent in its title, and each player links to
    their page."""
    import re

    season = played_season(4, 2)
    html = client.get(url(season), **EN).content.decode()
    guide = re.findall(r"<li class=\"(w|l|d|bye)\" title=\"([^\"]+)\">(\w)</li>", html)
    assert len(guide) == 4 * 2
    assert all(title.startswith("Round ") for _css, title, _letter in guide)
    assert {letter for _css, _title, letter in guide} <= {"W", "L", "D", "B"}
    registration = season.registrations.order_by("pk").first()
    player = reverse("leagues:player", args=[season.league.key, season.pk, registration.pk])
    assert f'<a href="{player}">' in html
