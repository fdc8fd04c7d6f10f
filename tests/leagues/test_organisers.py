"""Several organisers: an organiser adds another, who may then pair rounds and set results;
anyone else may not; adding someone twice changes nothing."""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from rest_framework.test import APIClient

from apps.leagues import services
from apps.leagues.models import League, LogEntry, Pairing, Result, Round
from apps.leagues.services import LeagueError
from tests.accounts.factories import UserFactory
from tests.leagues.factories import games, join, make_league, make_season, organiser_of

pytestmark = pytest.mark.django_db
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture
def league() -> League:
    league = make_league()
    join(make_season(league), 2)
    return league


def reported_game(league: League) -> Pairing:
    """Round 1 paired and published by the first organiser, its game reported by player A."""
    season = league.seasons.get()
    first = organiser_of(league)
    services.round_pair(user=first, key=league.key, season_id=season.pk)
    services.round_publish(user=first, key=league.key, season_id=season.pk, number=1)
    pairing = games(Round.objects.get(season=season))[0]
    services.result_report(
        user=pairing.player_a.player,
        key=league.key,
        pairing_id=pairing.pk,
        outcome="a",
        vp_a=5,
        vp_b=1,
    )
    return pairing


def override(user, league: League, pairing: Pairing) -> Result:  # noqa: ANN001
    return services.result_override(
        user=user,
        key=league.key,
        pairing_id=pairing.pk,
        outcome="b",
        vp_a=1,
        vp_b=5,
        reason="Scoresheet",
    )


# --- The service -------------------------------------------------------------------------------


def test_an_added_organiser_may_pair_and_override(league) -> None:
    helper = UserFactory(username="Helferin")
    added = services.league_add_organiser(
        user=organiser_of(league), key=league.key, username=" helferin "
    )
    assert added == helper
    assert set(league.organisers.all()) == {organiser_of(league), helper}

    season = league.seasons.get()
    draft = services.round_pair(user=helper, key=league.key, season_id=season.pk)
    assert draft.status == Round.Status.DRAFT
    services.round_discard(user=helper, key=league.key, season_id=season.pk, number=1)
    pairing = reported_game(league)
    result = override(helper, league, pairing)
    assert (result.status, result.outcome) == (Result.Status.DECIDED, "b")


def test_a_non_organiser_may_not_pair_override_or_add_organisers(league) -> None:
    season = league.seasons.get()
    pairing = reported_game(league)
    for outsider in (UserFactory(), pairing.player_a.player):
        with pytest.raises(PermissionDenied):
            services.round_pair(user=outsider, key=league.key, season_id=season.pk)
        with pytest.raises(PermissionDenied):
            override(outsider, league, pairing)
        with pytest.raises(PermissionDenied):
            services.league_add_organiser(user=outsider, key=league.key, username=outsider.username)
    assert league.organisers.count() == 1
    assert Round.objects.filter(season=season).count() == 1
    assert Result.objects.get().status == Result.Status.REPORTED


def test_adding_an_organiser_twice_is_harmless(league) -> None:
    first, helper = organiser_of(league), UserFactory()
    services.league_add_organiser(user=first, key=league.key, username=helper.username)
    with pytest.raises(LeagueError) as error:
        services.league_add_organiser(user=first, key=league.key, username=helper.username)
    assert error.value.code == "already_organiser"
    # The added organiser adding themselves (or the first one) again changes nothing either.
    for name in (helper.username, first.username):
        with pytest.raises(LeagueError):
            services.league_add_organiser(user=helper, key=league.key, username=name)
    assert league.organisers.count() == 2
    added = LogEntry.objects.filter(league=league, action=LogEntry.Action.ORGANISER_ADDED)
    assert added.count() == 1


def test_an_unknown_user_is_refused(league) -> None:
    with pytest.raises(LeagueError) as error:
        services.league_add_organiser(user=organiser_of(league), key=league.key, username="nobody")
    assert error.value.code == "unknown_user"
    assert league.organisers.count() == 1


# --- The pages and the API ---------------------------------------------------------------------


def flashed(response) -> list[str]:  # noqa: ANN001
    return [str(m) for m in get_messages(response.wsgi_request)]


def test_the_league_page_adds_an_organiser_who_then_pairs_and_overrides(client, league) -> None:
    helper = UserFactory()
    detail = reverse("leagues:detail", args=[league.key])
    client.force_login(organiser_of(league))
    assert 'name="username"' in client.get(detail, **EN).content.decode()

    response = client.post(
        reverse("leagues:add_organiser", args=[league.key]), {"username": helper.username}, **EN
    )
    assert response.status_code == 302
    assert response["Location"] == detail
    assert flashed(response) == ["Organiser added."]
    assert helper in league.organisers.all()
    assert f"<li>{helper.shown_name}</li>" in client.get(detail, **EN).content.decode()

    season = league.seasons.get()
    client.force_login(helper)
    client.post(reverse("leagues:round_pair", args=[league.key, season.pk]), **EN)
    assert Round.objects.filter(season=season, status=Round.Status.DRAFT).exists()
    Round.objects.filter(season=season).delete()
    pairing = reported_game(league)
    decision = {"outcome": "b", "vp_a": 1, "vp_b": 5, "reason": "Scoresheet"}
    response = client.post(reverse("leagues:override", args=[league.key, pairing.pk]), decision)
    assert response.status_code in (200, 302)
    assert Result.objects.get().status == Result.Status.DECIDED

    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    api.force_authenticate(helper)
    url = f"/api/v1/leagues/{league.key}/pairings/{pairing.pk}/result/override/"
    response = api.post(url, {**decision, "outcome": "a", "vp_a": 5, "vp_b": 1}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["result"]["outcome"] == "a"


def test_a_non_organiser_cannot_add_organisers_or_pair_through_the_pages(client, league) -> None:
    season = league.seasons.get()
    player = season.registrations.first().player
    client.force_login(player)
    detail = client.get(reverse("leagues:detail", args=[league.key]), **EN).content.decode()
    assert "Add organiser" not in detail
    url = reverse("leagues:add_organiser", args=[league.key])
    assert client.post(url, {"username": player.username}).status_code == 403
    assert client.post(reverse("leagues:round_pair", args=[league.key, season.pk])).status_code == (
        403
    )
    assert list(league.organisers.all()) == [organiser_of(league)]
    assert not Round.objects.exists()


def test_adding_twice_through_the_page_says_so_and_changes_nothing(client, league) -> None:
    helper = UserFactory()
    client.force_login(organiser_of(league))
    url = reverse("leagues:add_organiser", args=[league.key])
    client.post(url, {"username": helper.username}, follow=True, **EN)  # shows "added"
    response = client.post(url, {"username": helper.username}, **EN)
    assert response.status_code == 302
    assert flashed(response) == [f"{helper} already organises this league."]
    assert league.organisers.count() == 2
