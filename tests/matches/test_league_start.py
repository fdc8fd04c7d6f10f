"""'Start this match' on a league pairing: the two players' season rosters, as registered, each
seat held by its player; one match per game; only the game's players may start it; the
finished match reports to that very game."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from django.http import Http404
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from apps.accounts.models import User
from apps.leagues import services as league_services
from apps.leagues.models import Pairing, Result, Season
from apps.leagues.round_timer import round_timer_start
from apps.matches import services
from apps.matches.league_games import league_match_start
from apps.matches.models import Match
from apps.rosters import services as roster_services
from apps.systems.core.errors import RuleViolation
from tests.accounts.factories import UserFactory
from tests.leagues.factories import (
    games,
    make_league,
    make_season,
    organiser_of,
    pair_and_publish,
    report_and_confirm,
)
from tests.matches.factories import roster_for, small_team

pytestmark = pytest.mark.django_db

SETTINGS = {"game_size": 3, "gadgets": False}


@pytest.fixture
def game(deathmatch: Any) -> Pairing:
    league = make_league(system="deathmatch")
    season = make_season(league)
    for faction in ("phalanx", "shelzahav"):
        player = UserFactory()
        roster = roster_for(player, small_team(faction))
        league_services.season_join(
            user=player, season_id=season.pk, code=league.join_code, roster_id=roster.pk
        )
    (pairing,) = games(pair_and_publish(season))
    return pairing


def _players(pairing: Pairing) -> tuple[User, User]:
    assert pairing.player_b is not None
    return pairing.player_a.player, pairing.player_b.player


def _start(pairing: Pairing, user: User) -> Match:
    return league_match_start(
        user=user,
        pairing_id=pairing.pk,
        mode="last-man-standing",
        settings=SETTINGS,
        rng=random.Random(1),
    )


def test_a_player_starts_the_game_with_both_season_rosters_each_seat_held(game: Pairing) -> None:
    first, second = _players(game)
    match = _start(game, second)
    seats = list(match.players.order_by("index"))
    assert match.league_pairing_id == game.pk
    assert [seat.user for seat in seats] == [first, second]
    assert [seat.team_owner for seat in seats] == [first, second]
    assert [seat.name for seat in seats] == [first.shown_name, second.shown_name]
    assert seats[0].roster_document == game.player_a.roster_snapshot


def test_a_roster_edited_after_registering_plays_as_registered(game: Pairing) -> None:
    first, _second = _players(game)
    roster = game.player_a.roster
    assert roster is not None
    edited = small_team("phalanx", name="Renamed later")
    edited["entries"] = edited["entries"][:2]
    roster_services.roster_replace(owner=first, roster_id=roster.pk, document=edited)
    match = _start(game, first)
    seat = match.players.get(index=0)
    assert seat.roster_document["name"] == game.player_a.roster_name
    assert len([u for u in match.state["units"] if u["player"] == 0]) == 3


def test_starting_twice_opens_the_same_match_for_both_players(game: Pairing) -> None:
    first, second = _players(game)
    assert _start(game, first).pk == _start(game, second).pk
    assert Match.objects.filter(league_pairing=game).count() == 1


@pytest.mark.parametrize("who", ["organiser", "outsider"])
def test_only_the_games_two_players_may_start_it(game: Pairing, who: str) -> None:
    league = game.round.season.league
    user = organiser_of(league) if who == "organiser" else UserFactory()
    with pytest.raises(Http404):
        _start(game, user)
    assert not Match.objects.exists()


def test_a_game_with_a_result_is_not_started(game: Pairing) -> None:
    report_and_confirm(game)
    with pytest.raises(RuleViolation) as refused:
        _start(game, _players(game)[0])
    assert refused.value.code == "game_has_result"


def test_a_finished_season_is_not_started(game: Pairing) -> None:
    Season.objects.filter(pk=game.round.season_id).update(status=Season.Status.FINISHED)
    with pytest.raises(RuleViolation) as refused:
        _start(game, _players(game)[0])
    assert refused.value.code == "season_not_running"


def test_the_finished_match_reports_to_its_own_game(
    game: Pairing, django_capture_on_commit_callbacks: Any
) -> None:
    first, second = _players(game)
    match = _start(game, first)
    with django_capture_on_commit_callbacks(execute=True):
        for unit in [u["id"] for u in match.state["units"] if u["player"] == 1]:
            services.match_apply_command(
                user=first,
                match_id=match.pk,
                command_type="adjust",
                args={"unit": unit, "lp": 0},
                expected_seq=None,
                idempotency_key=None,
                rng=random.Random(3),
            )
    result = Result.objects.get(pairing=game)
    assert (result.source, result.outcome, result.reported_by) == ("tracked", "a", first)
    confirmed = league_services.result_confirm(
        user=second, key=game.round.season.league.key, pairing_id=game.pk
    )
    assert confirmed.status == Result.Status.CONFIRMED


# --- Pages -----------------------------------------------------------------------------------


def test_the_pairing_page_offers_the_start_to_the_players_only(client: Any, game: Pairing) -> None:
    url = reverse("leagues:pairing", args=[game.round.season.league.key, game.pk])
    start = reverse("matches:league_new", args=[game.pk])
    client.force_login(_players(game)[0])
    assert start in client.get(url).content.decode()
    client.force_login(organiser_of(game.round.season.league))
    assert start not in client.get(url).content.decode()


def test_the_start_page_shows_both_teams_and_opens_the_tracker(client: Any, game: Pairing) -> None:
    first, second = _players(game)
    client.force_login(second)
    url = reverse("matches:league_new", args=[game.pk])
    page = client.get(url).content.decode()
    assert game.player_a.roster_name in page and game.player_b.roster_name in page
    response = client.post(url, {"mode": "last-man-standing", "game_size": "3"})
    match = Match.objects.get(league_pairing=game)
    assert response.status_code == 302
    assert response["Location"] == reverse("matches:tracker", args=[match.pk])
    client.force_login(first)
    assert client.get(url)["Location"] == reverse("matches:tracker", args=[match.pk])


def test_the_start_page_is_a_404_for_anyone_else(client: Any, game: Pairing) -> None:
    client.force_login(UserFactory())
    url = reverse("matches:league_new", args=[game.pk])
    assert client.get(url).status_code == 404
    assert client.post(url, {"mode": "last-man-standing"}).status_code == 404


def test_a_game_with_a_result_says_why_it_cannot_start(client: Any, game: Pairing) -> None:
    report_and_confirm(game)
    client.force_login(_players(game)[0])
    response = client.post(
        reverse("matches:league_new", args=[game.pk]),
        {"mode": "last-man-standing"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 409
    assert "has a result already" in response.content.decode()
    assert not Match.objects.exists()


def test_the_tracker_of_a_league_game_polls_its_league_line(client: Any, game: Pairing) -> None:
    first, _second = _players(game)
    match = _start(game, first)
    client.force_login(first)
    bar = reverse("matches:league_game", args=[match.pk])
    assert bar in client.get(reverse("matches:tracker", args=[match.pk])).content.decode()
    line = client.get(bar).content.decode()
    assert reverse("leagues:pairing", args=[game.round.season.league.key, game.pk]) in line
    assert "round-timer" not in line  # no timer started


def test_the_league_line_shows_the_round_timer_once_started(client: Any, game: Pairing) -> None:
    first, _second = _players(game)
    match = _start(game, first)
    league = game.round.season.league
    round_timer_start(
        user=organiser_of(league),
        key=league.key,
        season_id=game.round.season_id,
        number=game.round.number,
        minutes=90,
    )
    client.force_login(first)
    line = client.get(reverse("matches:league_game", args=[match.pk])).content.decode()
    assert "data-round-timer-ends" in line
    assert "1:30:00" in line or "1:29:59" in line


def test_the_league_line_is_for_the_matchs_players_only(client: Any, game: Pairing) -> None:
    match = _start(game, _players(game)[0])
    client.force_login(UserFactory())
    assert client.get(reverse("matches:league_game", args=[match.pk])).status_code == 404


# --- API -------------------------------------------------------------------------------------


def test_the_api_starts_the_game_once_for_either_player(game: Pairing) -> None:
    first, second = _players(game)
    url = f"/api/v1/matches/league/{game.pk}/"
    body = {"mission": "last-man-standing", "settings": SETTINGS}
    api = APIClient()
    api.force_authenticate(second)
    started = api.post(url, body, format="json")
    assert started.status_code == 201, started.json()
    api.force_authenticate(first)
    again = api.post(url, body, format="json")
    assert (again.status_code, again.json()["id"]) == (200, started.json()["id"])


def test_the_api_refuses_with_a_code(game: Pairing) -> None:
    report_and_confirm(game)
    api = APIClient()
    api.force_authenticate(_players(game)[0])
    answer = api.post(
        f"/api/v1/matches/league/{game.pk}/", {"mission": "last-man-standing"}, format="json"
    )
    assert (answer.status_code, answer.json()["code"]) == (400, "game_has_result")
    api.force_authenticate(UserFactory())
    hidden = api.post(
        f"/api/v1/matches/league/{game.pk}/", {"mission": "last-man-standing"}, format="json"
    )
    assert hidden.status_code == 404


def test_a_draft_rounds_game_is_a_404(deathmatch: Any) -> None:
    """Review: the start page must not show a draft pairing the game page hides."""
    league = make_league(system="deathmatch")
    season = make_season(league)
    for faction in ("phalanx", "shelzahav"):
        player = UserFactory()
        league_services.season_join(
            user=player,
            season_id=season.pk,
            code=league.join_code,
            roster_id=roster_for(player, small_team(faction)).pk,
        )
    draft = league_services.round_pair(
        user=organiser_of(league), key=league.key, season_id=season.pk, rng=random.Random(1)
    )
    (pairing,) = games(draft)
    with pytest.raises(Http404):
        _start(pairing, _players(pairing)[0])


def test_no_match_before_the_lists_are_revealed(client: Any, game: Pairing) -> None:
    """List reveal: the tracker shows both teams in full, so the match waits for the reveal."""
    season = game.round.season
    Season.objects.filter(pk=season.pk).update(lists_reveal_at=timezone.now() + timedelta(hours=2))
    first, _second = _players(game)
    with pytest.raises(RuleViolation) as refused:
        _start(game, first)
    assert refused.value.code == "lists_hidden"
    client.force_login(first)
    page = client.get(reverse("matches:league_new", args=[game.pk])).content.decode()
    assert game.player_a.roster_name in page
    assert game.player_b.roster_name not in page


def test_a_friendly_match_never_reports_into_a_game_with_its_own_match(
    game: Pairing, deathmatch: Any, django_capture_on_commit_callbacks: Any
) -> None:
    first, second = _players(game)
    _start(game, first)
    friendly = services.match_create(
        creator=first,
        system=deathmatch,
        mode="last-man-standing",
        seats=[
            services.Seat("A", roster_for(first, small_team("phalanx"))),
            services.Seat("B", roster_for(second, small_team("shelzahav"))),
        ],
        settings=SETTINGS,
        rng=random.Random(1),
    )
    services.match_take_seat(user=second, match_id=friendly.pk, index=1)
    with django_capture_on_commit_callbacks(execute=True):
        for unit in [u["id"] for u in friendly.state["units"] if u["player"] == 1]:
            services.match_apply_command(
                user=first,
                match_id=friendly.pk,
                command_type="adjust",
                args={"unit": unit, "lp": 0},
                expected_seq=None,
                idempotency_key=None,
                rng=random.Random(3),
            )
    assert not Result.objects.filter(pairing=game).exists()
