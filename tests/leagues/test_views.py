"""League pages: who sees and does what (organiser, player, outsider, logged out), HTMX
partials with 422 for refused changes, the CSV export."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from apps.leagues.models import League, Result, Round
from tests.accounts.factories import UserFactory
from tests.leagues.factories import games, join, make_league, make_season, pair_and_publish

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true", "HTTP_ACCEPT_LANGUAGE": "en"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture
def game():  # noqa: ANN201
    season = make_season(make_league())
    join(season, 2)
    return games(pair_and_publish(season))[0]


def season_url(season) -> str:  # noqa: ANN001
    return reverse("leagues:season", args=[season.league.key, season.pk])


def test_public_league_pages_work_logged_out(client, game) -> None:
    season = game.round.season
    league = season.league
    assert client.get(reverse("leagues:list"), **EN).status_code == 200
    assert client.get(reverse("leagues:detail", args=[league.key]), **EN).status_code == 200
    page = client.get(season_url(season), **EN)
    assert page.status_code == 200
    assert game.player_a.player.shown_name in page.content.decode()
    assert client.get(reverse("leagues:pairing", args=[league.key, game.pk])).status_code == 200
    player = reverse("leagues:player", args=[league.key, season.pk, game.player_a_id])
    assert client.get(player).status_code == 200


def test_members_only_league_is_404_for_outsiders(client) -> None:
    league = make_league(visibility=League.Visibility.MEMBERS)
    season = make_season(league)
    (member,) = join(season, 1)
    assert client.get(season_url(season)).status_code == 404
    client.force_login(UserFactory())
    assert client.get(season_url(season)).status_code == 404
    assert league.name not in client.get(reverse("leagues:list")).content.decode()
    client.force_login(member.player)
    assert client.get(season_url(season)).status_code == 200


def test_link_only_league_is_readable_by_key_but_not_listed(client) -> None:
    league = make_league(visibility=League.Visibility.LINK, name="Geheimtipp")
    assert client.get(reverse("leagues:detail", args=[league.key])).status_code == 200
    assert "Geheimtipp" not in client.get(reverse("leagues:list")).content.decode()


def test_organiser_sees_the_join_code_players_do_not(client, game) -> None:
    league = game.round.season.league
    url = reverse("leagues:detail", args=[league.key])
    client.force_login(game.player_a.player)
    assert league.join_code not in client.get(url).content.decode()
    client.force_login(league.organisers.get())
    assert league.join_code in client.get(url).content.decode()


def test_organisers_reach_the_players_by_email_nobody_else_sees_the_addresses(client, game) -> None:
    """Issue 15 (no account recovery): "An organiser must be able to reach players." """
    season = game.round.season
    players = [game.player_a.player, game.player_b.player]
    client.force_login(season.league.organisers.get())
    page = client.get(season_url(season), **EN).content.decode()
    assert "Email all players" in page
    for player in players:
        assert f'href="mailto:{player.email}"' in page
    by_name = sorted(players, key=lambda player: player.shown_name.casefold())
    assert "mailto:?bcc=" + ",".join(player.email for player in by_name) in page
    german = client.get(season_url(season), HTTP_ACCEPT_LANGUAGE="de")
    assert german.status_code == 200 and players[0].email in german.content.decode()
    client.force_login(players[0])
    assert players[1].email not in client.get(season_url(season), **EN).content.decode()
    client.logout()
    assert players[1].email not in client.get(season_url(season), **EN).content.decode()


def test_only_organisers_pair_rounds(client, game) -> None:
    season = game.round.season
    url = reverse("leagues:round_pair", args=[season.league.key, season.pk])
    client.force_login(game.player_a.player)
    assert client.post(url).status_code == 403
    client.force_login(UserFactory())
    assert client.post(url).status_code == 403
    assert Round.objects.count() == 1


def test_player_reports_with_htmx_and_gets_the_fragment(client, game) -> None:
    key = game.round.season.league.key
    client.force_login(game.player_a.player)
    response = client.post(
        reverse("leagues:report", args=[key, game.pk]),
        {"outcome": "a", "vp_a": 12, "vp_b": 7},
        **HTMX,
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<div id="result"')
    assert "awaiting confirmation" in html
    assert Result.objects.get().vp_a == 12


def test_confirming_your_own_report_is_refused_inline_with_422(client, game) -> None:
    key = game.round.season.league.key
    client.force_login(game.player_a.player)
    client.post(
        reverse("leagues:report", args=[key, game.pk]), {"outcome": "a", "vp_a": 1, "vp_b": 0}
    )
    response = client.post(reverse("leagues:confirm", args=[key, game.pk]), **HTMX)
    assert response.status_code == 422
    assert "your opponent confirms or disputes it" in response.content.decode()
    assert Result.objects.get().status == Result.Status.REPORTED


def test_outsider_cannot_report(client, game) -> None:
    key = game.round.season.league.key
    client.force_login(UserFactory())
    response = client.post(
        reverse("leagues:report", args=[key, game.pk]),
        {"outcome": "a", "vp_a": 1, "vp_b": 0},
        **HTMX,
    )
    assert response.status_code == 422
    assert not Result.objects.exists()


def test_bad_result_form_is_refused_without_saving(client, game) -> None:
    key = game.round.season.league.key
    client.force_login(game.player_a.player)
    response = client.post(
        reverse("leagues:report", args=[key, game.pk]), {"outcome": "x", "vp_a": "-1"}, **HTMX
    )
    assert response.status_code == 422
    assert not Result.objects.exists()


def test_standings_sort_answers_the_partial(client, game) -> None:
    season = game.round.season
    response = client.get(season_url(season) + "?sort=vp_for", HTTP_HX_TARGET="standings", **HTMX)
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="standings"')
    assert 'aria-sort="descending"' in html


def test_csv_export_has_a_row_per_player(client, game) -> None:
    season = game.round.season
    response = client.get(reverse("leagues:csv", args=[season.league.key, season.pk]), **EN)
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0][:3] == ["Rank", "Player", "Played"]
    assert len(rows) == 3


def test_create_a_league_and_a_season_through_the_forms(client) -> None:
    organiser = UserFactory()
    client.force_login(organiser)
    response = client.post(
        reverse("leagues:new"),
        {"system": "plain", "name": "Clubliga", "description": "", "visibility": "public"},
    )
    league = League.objects.get(name="Clubliga")
    assert response["Location"] == reverse("leagues:detail", args=[league.key])
    form = {
        "name": "Frühjahr",
        "starts_on": "2026-03-01",
        "ends_on": "2026-06-30",
        "pairing_method": "swiss",
        "win_points": 3,
        "draw_points": 1,
        "loss_points": 0,
        "vp_bonus_points": 0,
        "vp_bonus_margin": 0,
        "bye_vp": 0,
        "confirm_hours": 48,
        "tie_breaker_1": "h2h",
        "tie_breaker_2": "vp_diff",
    }
    response = client.post(reverse("leagues:season_new", args=[league.key]), form)
    season = league.seasons.get()
    assert response.status_code == 302
    assert season.tie_breakers == ["h2h", "vp_diff"]


def test_join_page_registers_with_the_code(client) -> None:
    season = make_season(make_league())
    player = UserFactory()
    client.force_login(player)
    code = season.league.join_code
    page = client.get(reverse("leagues:join") + f"?code={code}", **EN)
    assert season.name in page.content.decode()
    response = client.post(reverse("leagues:join"), {"code": code, "season": season.pk})
    assert response.status_code == 302
    assert season.registrations.filter(player=player).exists()
    again = client.post(reverse("leagues:join"), {"code": code, "season": season.pk}, **EN)
    assert again.status_code == 422
    assert "already joined" in again.content.decode()
    assert season.registrations.count() == 1
