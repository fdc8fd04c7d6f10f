"""The home page of a returning player: matches to resume, league results to confirm."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.urls import reverse

from apps.accounts.models import User
from apps.catalog.models import GameSystem
from apps.leagues import services as league_services
from apps.leagues.models import Pairing
from apps.matches.models import Match, MatchStatus
from tests.accounts.factories import UserFactory
from tests.leagues.factories import games, join, make_league, make_season, pair_and_publish
from tests.matches.factories import small_match

pytestmark = pytest.mark.django_db
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
DE = {"HTTP_ACCEPT_LANGUAGE": "de"}


@pytest.fixture
def leagues(plain_systems: None) -> Iterator[None]:
    """Leagues of the test system "plain", whose results are reported by hand."""
    yield


def home(client: Any, user: User, **headers: str) -> str:
    client.force_login(user)
    response = client.get(reverse("pages:home"), **headers)
    assert response.status_code == 200
    return str(response.content.decode())


def reported_game(*, reporter_side: str = "a") -> Pairing:
    """A published game whose result one side reported and the other has yet to answer."""
    season = make_season(make_league())
    join(season, 2)
    pairing = games(pair_and_publish(season))[0]
    assert pairing.player_b is not None
    reporter = pairing.player_a if reporter_side == "a" else pairing.player_b
    league_services.result_report(
        user=reporter.player,
        key=season.league.key,
        pairing_id=pairing.pk,
        outcome="a",
        vp_a=12,
        vp_b=7,
    )
    return pairing


def pairing_url(pairing: Pairing) -> str:
    return reverse("leagues:pairing", args=[pairing.round.season.league.key, pairing.pk])


def test_home_offers_to_resume_the_users_unfinished_match(client, deathmatch: GameSystem) -> None:
    user = UserFactory()
    match = small_match(user, deathmatch)
    page = home(client, user, **EN)
    assert "Matches in progress" in page
    assert "Resume" in page
    assert reverse("matches:tracker", args=[match.pk]) in page


def test_home_offers_to_resume_a_match_the_user_holds_a_seat_in(
    client, deathmatch: GameSystem
) -> None:
    creator, opponent = UserFactory(), UserFactory()
    match = small_match(creator, deathmatch, opponent=opponent)
    match.players.filter(index=1).update(user=opponent)
    assert reverse("matches:tracker", args=[match.pk]) in home(client, opponent, **EN)


def test_home_leaves_out_finished_matches_and_other_peoples(client, deathmatch: GameSystem) -> None:
    user, stranger = UserFactory(), UserFactory()
    finished = small_match(user, deathmatch)
    Match.objects.filter(pk=finished.pk).update(status=MatchStatus.FINISHED, result={"winner": 0})
    others = small_match(stranger, deathmatch)
    page = home(client, user, **EN)
    assert reverse("matches:tracker", args=[finished.pk]) not in page
    assert reverse("matches:tracker", args=[others.pk]) not in page
    assert "Waiting for you" not in page


def test_home_lists_results_waiting_for_the_users_confirmation(client, leagues: None) -> None:
    pairing = reported_game(reporter_side="a")
    assert pairing.player_b is not None
    page = home(client, pairing.player_b.player, **EN)
    assert "Results waiting for your confirmation" in page
    assert pairing_url(pairing) in page
    assert "12:7" in page


def test_home_does_not_ask_the_reporter_to_confirm_their_own_result(client, leagues: None) -> None:
    pairing = reported_game(reporter_side="a")
    page = home(client, pairing.player_a.player, **EN)
    assert pairing_url(pairing) not in page
    assert "Results waiting for your confirmation" not in page


def test_home_drops_a_result_once_confirmed(client, leagues: None) -> None:
    pairing = reported_game(reporter_side="b")
    key = pairing.round.season.league.key
    league_services.result_confirm(user=pairing.player_a.player, key=key, pairing_id=pairing.pk)
    assert pairing_url(pairing) not in home(client, pairing.player_a.player, **EN)


def test_home_waiting_section_in_german(client, deathmatch: GameSystem, leagues: None) -> None:
    pairing = reported_game(reporter_side="a")
    assert pairing.player_b is not None
    user = pairing.player_b.player
    small_match(user, deathmatch)
    page = home(client, user, **DE)
    assert "Laufende Partien" in page
    assert "Fortsetzen" in page
    assert "Ergebnisse, die auf deine Bestätigung warten" in page
    assert "Matches in progress" not in page


def test_home_shows_nothing_waiting_to_anonymous_visitors(
    client, deathmatch: GameSystem, leagues: None
) -> None:
    small_match(UserFactory(), deathmatch)
    reported_game()
    page = client.get(reverse("pages:home"), **EN).content.decode()
    assert "Waiting for you" not in page
    assert "Resume" not in page
    assert "Matches in progress" not in page
    assert "Results waiting for your confirmation" not in page


def test_home_reads_a_bounded_number_of_rows(
    client, deathmatch: GameSystem, django_assert_max_num_queries: Any
) -> None:
    user = UserFactory()
    for seed in range(7):
        small_match(user, deathmatch, seed=seed)
    client.force_login(user)
    with django_assert_max_num_queries(12):
        page = client.get(reverse("pages:home"), **EN).content.decode()
    assert page.count("Resume</a>") == 5
    assert Match.objects.filter(created_by=user).count() == 7
