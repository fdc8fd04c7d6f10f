"""The home page's "Waiting for you" card: games to report, and for organisers the disputes
and roster changes to decide."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from apps.accounts.models import User
from apps.leagues import services
from apps.leagues.models import Pairing, RosterChange
from tests.accounts.factories import UserFactory
from tests.notifications.helpers import published_game, report

pytestmark = pytest.mark.django_db
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def home(client: Any, user: User) -> str:
    client.force_login(user)
    response = client.get(reverse("pages:home"), **EN)
    assert response.status_code == 200
    return str(response.content.decode())


def pairing_url(pairing: Pairing) -> str:
    return reverse("leagues:pairing", args=[pairing.round.season.league.key, pairing.pk])


def test_home_lists_unreported_games_to_both_players(client: Any) -> None:
    pairing = published_game()
    assert pairing.player_b is not None
    for player in (pairing.player_a.player, pairing.player_b.player):
        page = home(client, player)
        assert "Games to report" in page
        assert pairing_url(pairing) in page


def test_home_drops_a_game_once_reported(client: Any) -> None:
    pairing = published_game()
    report(pairing, side="a")
    page = home(client, pairing.player_a.player)
    assert "Games to report" not in page
    assert pairing_url(pairing) not in page


def test_home_lists_open_disputes_to_the_organiser(client: Any) -> None:
    pairing = published_game()
    assert pairing.player_b is not None
    league = pairing.round.season.league
    report(pairing, side="a")
    services.result_dispute(
        user=pairing.player_b.player, key=league.key, pairing_id=pairing.pk, reason="Wrong VP"
    )
    page = home(client, league.organisers.get())
    assert "Disputed results" in page
    assert pairing_url(pairing) in page
    assert "Wrong VP" in page
    assert "Disputed results" not in home(client, pairing.player_a.player)


def test_home_lists_pending_roster_changes_to_the_organiser(client: Any) -> None:
    pairing = published_game()
    season = pairing.round.season
    RosterChange.objects.create(
        registration=pairing.player_a, roster_name="Night Raiders", snapshot={}
    )
    page = home(client, season.league.organisers.get())
    assert "Roster changes to approve" in page
    assert "Night Raiders" in page
    assert reverse("leagues:season", args=[season.league.key, season.pk]) in page
    assert "Night Raiders" not in home(client, pairing.player_b.player)  # type: ignore[union-attr]


def test_home_shows_nothing_waiting_to_a_user_without_leagues(client: Any) -> None:
    assert "Waiting for you" not in home(client, UserFactory())
