"""The rows of a round's pairings table, built in Python (apps.leagues.pairing_rows, issue 16):
what the template showed, each value escaped, the links only where a player may follow them."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import escape

from apps.leagues import services
from apps.leagues.models import Registration, Round
from apps.leagues.round_views import round_view
from apps.leagues.selectors import season_rounds
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


def _tracker_season(players: int) -> tuple[Any, list[Registration]]:
    """A Deathmatch season (a system with a tracker) and its players, registered directly:
    joining one through the service needs a roster."""
    season = make_season(make_league(system="deathmatch"))
    return season, Registration.objects.bulk_create(
        Registration(season=season, player=UserFactory()) for _ in range(players)
    )


def _page(client, season) -> str:  # noqa: ANN001
    url = reverse("leagues:season", args=[season.league.key, season.pk])
    return client.get(url, **EN).content.decode()


def test_names_are_escaped_and_a_reported_game_shows_its_winner_score_and_badge(client) -> None:
    season = make_season(make_league())
    first, *_ = join(season, 4)
    first.player.display_name = 'Zoë <b>&"x"'
    first.player.save()
    round_ = pair_and_publish(season)
    game = next(g for g in games(round_) if first.pk in (g.player_a_id, g.player_b_id))
    report_and_confirm(game, outcome="b", vp_a=3, vp_b=12)
    page = _page(client, season)
    assert "Zoë &lt;b&gt;&amp;&quot;x&quot;" in page and "<b>&" not in page
    winner = escape(game.player_b.player.shown_name)
    assert f'<span class="winner">{winner}</span>' in page
    assert '<span class="score">3–12</span> <span class="badge ok">confirmed</span>' in page


def test_a_players_own_game_offers_the_report_and_the_tracker_until_it_has_a_result(
    client,
) -> None:
    season, (mine, *_) = _tracker_season(4)
    round_ = pair_and_publish(season)
    own = next(g for g in games(round_) if mine.pk in (g.player_a_id, g.player_b_id))
    other = next(g for g in games(round_) if g.pk != own.pk)
    client.force_login(mine.player)
    page = _page(client, season)
    report = reverse("leagues:pairing", args=[season.league.key, own.pk])
    play = reverse("matches:league_new", args=[own.pk])
    assert (
        f'<a href="{report}">Report / confirm</a> · <a href="{play}">Play on the tracker</a>'
        in page
    )
    game = reverse("leagues:pairing", args=[season.league.key, other.pk])
    assert f'<a href="{game}">Game</a></td>' in page
    report_and_confirm(own)
    page = _page(client, season)
    assert f'<a href="{report}">Game</a></td>' in page
    assert "Play on the tracker" not in page


def test_a_system_without_a_tracker_offers_no_tracker_link(client) -> None:
    season = make_season(make_league(system="plain"))
    mine, *_ = join(season, 2)
    pair_and_publish(season)
    client.force_login(mine.player)
    page = _page(client, season)
    assert "Report / confirm" in page and "Play on the tracker" not in page


def test_a_bye_has_its_badge_and_no_link_and_a_draft_has_no_links(client) -> None:
    season = make_season(make_league())
    join(season, 3)
    league = season.league
    organiser = organiser_of(league)
    services.round_pair(user=organiser, key=league.key, season_id=season.pk, rng=random.Random(1))
    assert Round.objects.get(season=season).status == Round.Status.DRAFT
    client.force_login(organiser)
    page = _page(client, season)
    assert '<td><span class="badge">bye</span></td><td></td></tr>' in page
    assert "/games/" not in page


def test_a_round_read_for_its_table_renders_without_another_query(
    django_assert_num_queries,
) -> None:
    """``season_rounds(table_only=True)`` reads only the columns the table shows: a field it
    left out and the table needed would cost a query per game."""
    season, (mine, *_) = _tracker_season(5)
    round_ = pair_and_publish(season)
    first, second = games(round_)
    report_and_confirm(first)
    services.result_report(
        user=second.player_a.player,
        key=season.league.key,
        pairing_id=second.pk,
        outcome="b",
        vp_a=1,
        vp_b=2,
    )
    (full,) = season_rounds(season, include_drafts=False, numbers=[1], table_only=True)
    with django_assert_num_queries(0):
        view = round_view(full, season, mine)
        html = render_to_string(
            "leagues/_round.html", {"league": season.league, "season": season, "view": view}
        )
    assert html.count("<tr") == 4  # the head, two games and the bye
    assert "confirmed" in html and "awaiting confirmation" in html
