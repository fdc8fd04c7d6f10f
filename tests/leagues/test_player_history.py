"""A player's league history page: seasons, games, win rate per faction, the rating chart, and
what a viewer may see of leagues that are not public."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from apps.accounts.models import User
from apps.catalog.models import Faction
from apps.catalog.selectors import game_system_get
from apps.leagues import services
from apps.leagues.history import player_history
from apps.leagues.models import League, Pairing, Registration, Result, Season
from apps.leagues.rating_chart import rating_chart
from apps.matches.models import Match
from tests.accounts.factories import UserFactory
from tests.leagues.factories import make_league, make_season, organiser_of, report_and_confirm

CHART = re.compile(r'<figure class="rating-chart">\s*(<svg\b.*?</svg>)', re.S)


def duel(
    league: League,
    first: User,
    second: User,
    outcome: str = "a",
    *,
    factions: tuple[str, str] | None = None,
    vp: tuple[int, int] = (10, 5),
) -> Pairing:
    """A season of ``league`` in which ``first`` and ``second`` play one confirmed game
    (``outcome`` from ``first``'s side: "a" means ``first`` won), with the roster factions
    given (by slug)."""
    season = make_season(league, name=f"Saison {Season.objects.count() + 1}")
    for player in (first, second):
        services.season_join(
            user=player, season_id=season.pk, code=league.join_code, roster_id=None
        )
    if factions is not None:
        for player, slug in zip((first, second), factions, strict=True):
            Registration.objects.filter(season=season, player=player).update(
                roster_snapshot={"faction": slug, "entries": []}
            )
    organiser = organiser_of(league)
    round_ = services.round_pair(
        user=organiser, key=league.key, season_id=season.pk, rng=random.Random(1)
    )
    services.round_publish(user=organiser, key=league.key, season_id=season.pk, number=1)
    pairing = round_.pairings.select_related("player_a__player", "player_b__player").get()
    vp_a, vp_b = vp
    if pairing.player_a.player != first:
        outcome = {"a": "b", "b": "a", "draw": "draw"}[outcome]
        vp_a, vp_b = vp_b, vp_a
    report_and_confirm(pairing, outcome, vp_a, vp_b)
    return pairing


def page(client, user: User) -> str:  # type: ignore[no-untyped-def]
    response = client.get(reverse("leagues:history", args=[user.pk]), HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    return response.content.decode()


# --- The page ----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_history_lists_seasons_and_games_newest_first(client) -> None:
    anna, bernd, carla = (UserFactory(display_name=n) for n in ("Anna", "Bernd", "Carla"))
    league = make_league(name="Dienstagsliga")
    first = duel(league, anna, bernd, "a", vp=(12, 3))
    second = duel(league, anna, carla, "draw", vp=(7, 7))
    client.force_login(UserFactory())

    html = page(client, anna)
    assert "<h1>Anna</h1>" in html
    for pairing in (first, second):
        season = pairing.round.season
        assert reverse("leagues:season", args=[league.key, season.pk]) in html
        assert reverse("leagues:pairing", args=[league.key, pairing.pk]) in html
    # Newest first: the draw against Carla, then the win against Bernd.
    assert html.index("Carla") < html.index("Bernd")
    assert 'draw <span class="score">7–7</span>' in html
    assert 'win <span class="score">12–3</span>' in html
    assert reverse("leagues:history", args=[bernd.pk]) in html
    assert "Confirmed" in html
    assert "1 of 2" in html  # Anna's rank in the season of her win
    assert "1–0–0" in html and "0–1–0" in html


@pytest.mark.django_db
def test_an_unknown_player_is_not_found(client) -> None:
    client.force_login(UserFactory())
    response = client.get(reverse("leagues:history", args=[987654]))
    assert response.status_code == 404


@pytest.mark.django_db
def test_a_player_without_anything_to_show_is_not_found_but_sees_their_own_page(client) -> None:
    loner = UserFactory(display_name="Loner")
    client.force_login(UserFactory())
    assert client.get(reverse("leagues:history", args=[loner.pk])).status_code == 404
    client.force_login(loner)
    assert "No league game you can see." in page(client, loner)


@pytest.mark.django_db
def test_the_page_needs_a_login(client) -> None:
    anna = UserFactory()
    response = client.get(reverse("leagues:history", args=[anna.pk]))
    assert response.status_code == 302


# --- Privacy -----------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("visibility", [League.Visibility.MEMBERS, League.Visibility.LINK])
def test_a_league_not_public_is_hidden_from_outsiders_and_shown_to_its_members(
    client, visibility: str
) -> None:
    anna, bernd = UserFactory(display_name="Anna"), UserFactory(display_name="Bernd")
    duel(make_league(name="Offene Liga"), anna, bernd)
    hidden = make_league(name="Geheimbund", visibility=visibility)
    secret = duel(hidden, anna, bernd, "b")

    client.force_login(UserFactory())
    html = page(client, anna)
    assert "Offene Liga" in html
    assert "Geheimbund" not in html
    assert hidden.key not in html
    assert reverse("leagues:pairing", args=[hidden.key, secret.pk]) not in html

    for member in (bernd, organiser_of(hidden)):
        client.force_login(member)
        html = page(client, anna)
        assert "Geheimbund" in html
        assert reverse("leagues:pairing", args=[hidden.key, secret.pk]) in html


@pytest.mark.django_db
def test_a_player_only_in_a_members_only_league_is_known_by_their_rating_only(client) -> None:
    anna, bernd = UserFactory(display_name="Anna"), UserFactory(display_name="Bernd")
    hidden = make_league(name="Geheimbund", visibility=League.Visibility.MEMBERS)
    duel(hidden, anna, bernd)
    client.force_login(UserFactory())
    html = page(client, anna)  # on the ratings page, so the history opens (without the league)
    assert "Geheimbund" not in html
    assert "No league season you can see." in html
    assert "Rating 1138" in html


@pytest.mark.django_db
def test_factions_stay_hidden_until_the_lists_are_revealed(client) -> None:
    anna, bernd = UserFactory(display_name="Anna"), UserFactory(display_name="Bernd")
    Faction.objects.create(system=game_system_get("plain"), slug="eisen", name="Eisenfaust")
    pairing = duel(make_league(), anna, bernd, factions=("eisen", "eisen"))
    Season.objects.filter(pk=pairing.round.season_id).update(
        lists_reveal_at=timezone.now() + timedelta(days=1)
    )
    client.force_login(UserFactory())
    html = page(client, anna)
    assert "Eisenfaust" not in html
    assert "not revealed yet" in html
    client.force_login(anna)
    assert "Eisenfaust v not revealed yet" in page(client, anna)


@pytest.mark.django_db
def test_match_log_and_summary_are_linked_for_whom_may_open_them(client) -> None:
    anna, bernd = UserFactory(display_name="Anna"), UserFactory(display_name="Bernd")
    pairing = duel(make_league(), anna, bernd)
    match = Match.objects.create(
        system=game_system_get("plain"),
        created_by=anna,
        title="Ligaspiel",
        mode="test",
        spectator_token="history-test-token",
    )
    Result.objects.filter(pairing=pairing).update(
        match_url=reverse("matches:tracker", args=[match.pk])
    )
    log, summary = (reverse(name, args=[match.pk]) for name in ("matches:log", "matches:summary"))
    client.force_login(anna)
    html = page(client, anna)
    assert log in html and summary in html
    client.force_login(UserFactory())
    html = page(client, anna)
    assert log not in html and summary not in html


# --- Win rate per faction ----------------------------------------------------------------------


@pytest.mark.django_db
def test_the_win_rate_per_faction_counts_wins_draws_and_losses(client) -> None:
    plain = game_system_get("plain")
    Faction.objects.create(system=plain, slug="eisen", name="Eisenfaust")
    Faction.objects.create(system=plain, slug="moor", name="Moorvolk")
    anna, bernd = UserFactory(display_name="Anna"), UserFactory(display_name="Bernd")
    league = make_league()
    duel(league, anna, bernd, "a", factions=("eisen", "moor"))
    duel(league, anna, bernd, "a", factions=("eisen", "moor"))
    duel(league, anna, bernd, "b", factions=("eisen", "moor"))
    duel(league, anna, bernd, "draw", factions=("moor", "eisen"))

    history = player_history(anna, UserFactory())
    lines = [
        (f.faction, f.games, f.wins, f.draws, f.losses, f.win_percent) for f in history.factions
    ]
    assert lines == [("Eisenfaust", 3, 2, 0, 1, 67), ("Moorvolk", 1, 0, 1, 0, 0)]

    client.force_login(UserFactory())
    html = page(client, anna)
    assert re.search(r"<th scope=\"row\">Eisenfaust</th>.*?3</td>.*?2–0–1</td>.*?67 %", html, re.S)
    assert "Moorvolk v Eisenfaust" in html


@pytest.mark.django_db
def test_the_games_name_the_opponents_faction_the_player_never_played(client) -> None:
    plain = game_system_get("plain")
    Faction.objects.create(system=plain, slug="eisen", name="Eisenfaust")
    Faction.objects.create(system=plain, slug="moor", name="Moorvolk")
    anna, bernd = UserFactory(display_name="Anna"), UserFactory(display_name="Bernd")
    duel(make_league(), anna, bernd, "a", factions=("eisen", "moor"))
    client.force_login(UserFactory())
    assert "Eisenfaust v Moorvolk" in page(client, anna)


# --- The rating chart --------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_rating_chart_is_well_formed_svg_without_styles(client) -> None:
    anna, bernd = UserFactory(display_name="Anna"), UserFactory(display_name="Bernd")
    league = make_league()
    for outcome in ("a", "a", "b"):
        duel(league, anna, bernd, outcome)
    client.force_login(UserFactory())
    html = page(client, anna)

    svgs = CHART.findall(html)
    assert len(svgs) == 1
    svg = ET.fromstring(svgs[0])
    ns = {"svg": "http://www.w3.org/2000/svg"}
    assert svg.get("role") == "img"
    title = svg.find("svg:title", ns)
    desc = svg.find("svg:desc", ns)
    assert title is not None and "rating over time" in (title.text or "")
    assert desc is not None and "after 3 games" in " ".join((desc.text or "").split())
    polyline = svg.find("svg:polyline", ns)
    assert polyline is not None
    assert len(polyline.get("points", "").split()) == 4  # the start and three games
    assert all(element.get("style") is None for element in svg.iter())
    assert "<script" not in html.split("<main", 1)[-1]


def test_the_chart_runs_from_the_start_to_the_latest_rating() -> None:
    chart = rating_chart([1138, 1248, 1101], start=1000)
    assert chart is not None
    assert (chart.low, chart.high, chart.latest, chart.games) == (1101, 1248, 1101, 3)
    assert [tick.label for tick in chart.y_ticks] == [1000, 1250]
    assert [tick.label for tick in chart.x_ticks] == [0, 3]
    points = [tuple(map(float, p.split(","))) for p in chart.points.split()]
    assert points[0] == (chart.left, chart.bottom)  # 1000 sits on the axis' low end
    assert points[-1] == chart.last
    assert chart.start_y is None  # the start is the axis' edge, no extra line
    assert rating_chart([], start=1000) is None


# --- Cost --------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_page_reads_the_same_few_queries_however_many_seasons(client) -> None:
    anna, bernd = UserFactory(display_name="Anna"), UserFactory(display_name="Bernd")
    league = make_league()
    other = make_league(system="other", name="Bunkerliga")
    duel(league, anna, bernd)
    duel(other, anna, bernd)
    client.force_login(UserFactory())
    url = reverse("leagues:history", args=[anna.pk])
    with CaptureQueriesContext(connection) as few:
        assert client.get(url).status_code == 200
    for outcome in ("a", "b", "draw", "a"):
        duel(league, anna, bernd, outcome)
        duel(other, bernd, anna, outcome)
    with CaptureQueriesContext(connection) as many:
        assert client.get(url).status_code == 200
    assert len(many) == len(few) <= 16


# --- Links to the page -------------------------------------------------------------------------


@pytest.mark.django_db
def test_standings_season_player_page_and_ratings_link_to_the_history(client) -> None:
    anna, bernd = UserFactory(display_name="Anna"), UserFactory(display_name="Bernd")
    league = make_league()
    pairing = duel(league, anna, bernd)
    season = pairing.round.season
    history = reverse("leagues:history", args=[anna.pk])
    client.force_login(UserFactory())

    standings = client.get(reverse("leagues:season", args=[league.key, season.pk])).content
    assert f'href="{history}"'.encode() in standings
    registration = Registration.objects.get(season=season, player=anna)
    player = client.get(reverse("leagues:player", args=[league.key, season.pk, registration.pk]))
    assert f'href="{history}"'.encode() in player.content
    ratings = client.get(reverse("leagues:ratings", args=["plain"])).content
    assert f'href="{history}"'.encode() in ratings
