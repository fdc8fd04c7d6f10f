"""League results nobody can forge (issue 15): a tracked match proposes a result only when both
players hold their own seats; the player who opened the match reports it, only the other one
confirms it (or an organiser decides), and it never counts on its own."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from apps.catalog.models import GameSystem
from apps.leagues import services as league_services
from apps.leagues.models import Pairing, Result
from apps.leagues.selectors import result_counts, season_standings
from apps.leagues.services import LeagueError
from apps.matches import services
from apps.matches.models import Match
from tests.accounts.factories import UserFactory
from tests.leagues.factories import games, make_league, make_season, pair_and_publish
from tests.matches import factories as match_factories
from tests.matches.grundregeln import grund_roster, shared_grund_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def grundregeln(catalogue) -> GameSystem:  # noqa: ARG001
    return GameSystem.objects.get(slug="grundregeln")


@pytest.fixture
def league_game(grundregeln) -> tuple[Any, Any, Pairing]:  # noqa: ARG001
    """Alice and Bob paired in a published round of a Grundregeln league."""
    alice, bob = UserFactory(), UserFactory()
    league = make_league(system="grundregeln")
    season = make_season(league)
    for user in (alice, bob):
        league_services.season_join(
            user=user,
            season_id=season.pk,
            code=league.join_code,
            roster_id=grund_roster(user, "eisenfaust").pk,
        )
    (game,) = games(pair_and_publish(season))
    return alice, bob, game


def concede(match: Match, user: Any, player: int, capture: Any) -> None:
    with capture(execute=True):
        match_factories.concede(match, user, player)


def take(match: Match, user: Any, index: int, capture: Any) -> None:
    with capture(execute=True):
        services.match_take_seat(user=user, match_id=match.pk, index=index)


def key_of(game: Pairing) -> str:
    return game.round.season.league.key


def side_of(game: Pairing, user: Any) -> str:
    return "a" if game.player_a.player == user else "b"


def test_the_forged_win_of_the_issue_cannot_be_recorded(
    league_game, grundregeln, django_capture_on_commit_callbacks
) -> None:
    alice, bob, game = league_game
    capture = django_capture_on_commit_callbacks
    # Alice opens a match with Bob's shared team: the seat is nobody's, so she cannot concede it.
    match = shared_grund_match(alice, alice, bob, system=grundregeln)
    with pytest.raises(services.NotYourSeat):
        concede(match, alice, 1, capture)
    assert not Result.objects.exists()
    # Bob takes his seat and the match is played out: Alice reported it by opening it.
    take(match, bob, 1, capture)
    concede(match, bob, 1, capture)
    result = Result.objects.get(pairing=game)
    assert (result.source, result.status) == ("tracked", "reported")
    assert (result.reported_side, result.reported_by) == (side_of(game, alice), alice)
    assert result.outcome == side_of(game, alice)
    # She cannot confirm her own report; Bob can still dispute it.
    with pytest.raises(LeagueError) as own:
        league_services.result_confirm(user=alice, key=key_of(game), pairing_id=game.pk)
    assert (own.value.code, own.value.status) == ("own_report", 403)
    disputed = league_services.result_dispute(
        user=bob, key=key_of(game), pairing_id=game.pk, reason="I never conceded."
    )
    assert disputed.status == Result.Status.DISPUTED


def test_a_match_with_a_seat_nobody_took_proposes_nothing_until_it_is_taken(
    league_game, grundregeln, django_capture_on_commit_callbacks
) -> None:
    alice, bob, game = league_game
    capture = django_capture_on_commit_callbacks
    match = shared_grund_match(alice, alice, bob, system=grundregeln)
    concede(match, alice, 0, capture)
    assert Match.objects.get(pk=match.pk).status == "finished"
    assert not Result.objects.exists()
    take(match, bob, 1, capture)
    result = Result.objects.get(pairing=game)
    assert result.outcome == side_of(game, bob) and result.reported_by == alice
    confirmed = league_services.result_confirm(user=bob, key=key_of(game), pairing_id=game.pk)
    assert confirmed.status == Result.Status.CONFIRMED and confirmed.confirmed_by == bob


def test_a_match_opened_by_neither_player_proposes_nothing(
    league_game, grundregeln, django_capture_on_commit_callbacks
) -> None:
    alice, bob, _game = league_game
    capture = django_capture_on_commit_callbacks
    match = shared_grund_match(UserFactory(), alice, bob, system=grundregeln)
    take(match, alice, 0, capture)
    take(match, bob, 1, capture)
    concede(match, bob, 1, capture)
    assert Match.objects.get(pk=match.pk).status == "finished"
    assert not Result.objects.exists()


def propose(game: Pairing, reporter: Any) -> Result:
    a, b = game.player_a.player, game.player_b.player
    result = league_services.league_result_propose_from_match(
        system_slug="grundregeln",
        user_ids=(a.pk, b.pk),
        winner_user_id=reporter.pk,
        vp_by_user={a.pk: 3, b.pk: 5},
        match_url="/matches/1/",
        reporter_user_id=reporter.pk,
    )
    assert result is not None
    return result


def test_a_tracked_result_never_counts_on_its_own(league_game) -> None:
    alice, _bob, game = league_game
    result = propose(game, alice)
    season = game.round.season
    much_later = timezone.now() + timedelta(hours=season.confirm_hours * 10)
    assert not result_counts(result, season.confirm_hours, much_later)
    assert sum(row.played for row in season_standings(season, now=much_later)) == 0
    organiser = season.league.organisers.get()
    with pytest.raises(LeagueError) as waiting:
        league_services.round_pair(user=organiser, key=season.league.key, season_id=season.pk)
    assert waiting.value.code == "round_incomplete"


def test_the_reporter_cannot_rewrite_a_tracked_result_by_hand(league_game) -> None:
    alice, bob, game = league_game
    propose(game, alice)
    with pytest.raises(LeagueError) as own:
        league_services.result_report(
            user=alice, key=key_of(game), pairing_id=game.pk, outcome="draw", vp_a=4, vp_b=4
        )
    assert own.value.code == "own_report"
    result = Result.objects.get(pairing=game)
    assert (result.status, result.outcome) == ("reported", side_of(game, alice))
    # The opponent reporting the same result confirms it.
    confirmed = league_services.result_report(
        user=bob,
        key=key_of(game),
        pairing_id=game.pk,
        outcome=result.outcome,
        vp_a=result.vp_a,
        vp_b=result.vp_b,
    )
    assert confirmed.status == Result.Status.CONFIRMED and confirmed.confirmed_by == bob


def test_an_organiser_decides_a_tracked_result_but_does_not_confirm_it(league_game) -> None:
    alice, _bob, game = league_game
    propose(game, alice)
    organiser = game.round.season.league.organisers.get()
    with pytest.raises(LeagueError) as refused:
        league_services.result_confirm(user=organiser, key=key_of(game), pairing_id=game.pk)
    assert refused.value.code == "not_your_pairing"
    decided = league_services.result_override(
        user=organiser,
        key=key_of(game),
        pairing_id=game.pk,
        outcome="draw",
        vp_a=4,
        vp_b=4,
        reason="Agreed at the club.",
    )
    assert decided.status == Result.Status.DECIDED


def test_the_reporter_confirming_through_the_api_is_a_403(league_game) -> None:
    alice, bob, game = league_game
    propose(game, alice)
    url = f"/api/v1/leagues/{key_of(game)}/pairings/{game.pk}/result/confirm/"
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    api.force_authenticate(alice)
    refused = api.post(url)
    assert (refused.status_code, refused.json()["code"]) == (403, "own_report")
    api.force_authenticate(bob)
    assert api.post(url).status_code == 200


def test_the_game_page_offers_the_confirmation_to_the_opponent_only(league_game, client) -> None:
    alice, bob, game = league_game
    propose(game, alice)
    url = f"/leagues/{key_of(game)}/games/{game.pk}/"
    client.force_login(alice)
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Confirm result" not in page and "Report result" not in page
    assert "never counts on its own" in page and "opened by" in page
    client.force_login(bob)
    assert "Confirm result" in client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()


def test_the_game_page_reads_as_german(league_game, client) -> None:
    """Issue 13: "anna v ben" and "wartet auf Bestätigung verfolgt" on the German page."""
    alice, _bob, game = league_game
    propose(game, alice)
    client.force_login(alice)
    page = client.get(
        f"/leagues/{key_of(game)}/games/{game.pk}/", HTTP_ACCEPT_LANGUAGE="de"
    ).content.decode()
    assert '<span class="muted">gegen</span>' in page
    assert '<span class="muted">v</span>' not in page
    assert '<span class="badge">vom Tracker erfasst</span>' in page
    assert ">verfolgt<" not in page
