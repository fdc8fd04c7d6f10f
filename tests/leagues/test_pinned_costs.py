"""A season pins its costs (issue 17: "A season may pin its own costs, so an edit never changes
a frozen league roster's points"): the first registration fixes the catalogue versions, an
organiser's later edit in the catalogue changes neither the points nor the legality of a
registered roster (player page, registration, league match), and only the season's organisers
re-pin it to the current costs, until its first game is played. Played with the Universalis
sample catalogue (a profile's cost: its ``points``)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from apps.accounts.models import User
from apps.catalog import services as catalog_services
from apps.catalog.models import GameSystem, Profile
from apps.catalog.pins import catalog_versions
from apps.leagues import services
from apps.leagues.models import League, LogEntry, Pairing, Registration, Season
from apps.leagues.season_catalog import frozen_report, season_costs_repin
from apps.matches.league_games import league_match_start
from apps.rosters import services as roster_services
from apps.rosters.models import Roster
from tests.accounts.factories import UserFactory
from tests.leagues.factories import (
    games,
    make_league,
    make_season,
    organiser_of,
    pair_and_publish,
    report_and_confirm,
)

pytestmark = pytest.mark.django_db

SOLDIER = "eisenwacht-wachsoldat"  # 30 points in the sample catalogue
EISENWACHT_POINTS = 60 + 30 + 35 + 20


def group(faction: str, points_limit: int | None) -> dict[str, Any]:
    """A legal sample group (tests/matches/test_universalis.py) built to ``points_limit``."""
    entries = {
        "eisenwacht": [
            {"profile": "eisenwacht-hauptfrau-vela-korr"},
            {"profile": SOLDIER},
            {"profile": "eisenwacht-drohnenfuehrer"},
            {"profile": "eisenwacht-spaeherdrohne", "attach_to": 2},
        ],
        "nebelzirkel": [
            {"profile": "nebelzirkel-zirkelmeisterin-ysra", "items": ["nebelmagie-geisterhand"]},
            {"profile": "nebelzirkel-kultist"},
            {"profile": "nebelzirkel-schattenlaeufer"},
        ],
    }[faction]
    return {
        "format": "skirmish-roster/1",
        "system": "universalis",
        "name": f"Gruppe {faction.title()}",
        "faction": faction,
        "settings": {"points_limit": points_limit},
        "entries": entries,
    }


def roster(owner: User, faction: str = "eisenwacht", limit: int = EISENWACHT_POINTS) -> Roster:
    return roster_services.roster_import(owner=owner, document=group(faction, limit))


def join(season: Season, player: User, faction: str = "eisenwacht", **kw: Any) -> Registration:
    return services.season_join(
        user=player,
        season_id=season.pk,
        code=season.league.join_code,
        roster_id=roster(player, faction, **kw).pk,
    )


def set_points(slug: str, points: int) -> Profile:
    """An organiser's edit of a profile's cost, saved as the admin saves it (a new version)."""
    profile = Profile.objects.get(system__slug="universalis", slug=slug)
    return catalog_services.profile_save(
        system=profile.system,
        slug=slug,
        name=profile.name,
        factions=list(profile.factions.all()),
        stats={**profile.stats, "points": points},
        sample=profile.sample,
        profile=profile,
    )


@pytest.fixture
def league(catalogue: None) -> League:
    return make_league(system="universalis")


@pytest.fixture
def season(league: League) -> Season:
    return make_season(league)


def page(client: Client, registration: Registration) -> str:
    season = registration.season
    url = reverse("leagues:player", args=[season.league.key, season.pk, registration.pk])
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def organiser_client(league: League) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(organiser_of(league))
    return client


def repin(client: Client, season: Season, **data: str) -> Any:
    url = reverse("leagues:season_costs", args=[season.league.key, season.pk])
    return client.post(url, {"confirm": "1", **data}, follow=True)


# --- Pinning ----------------------------------------------------------------------------------


def test_a_new_season_plays_the_current_catalogue_until_its_first_registration(
    season: Season,
) -> None:
    assert season.catalog_pin is None and season.catalog_pinned_at is None
    registration = join(season, UserFactory())
    season.refresh_from_db()
    assert season.catalog_pin == catalog_versions(GameSystem.objects.get(slug="universalis"))
    assert season.catalog_pinned_at is not None
    assert registration.roster_snapshot is not None


def test_a_later_registration_keeps_the_first_pin(season: Season) -> None:
    join(season, UserFactory())
    season.refresh_from_db()
    first = (season.catalog_pin, season.catalog_pinned_at)
    set_points(SOLDIER, 40)
    join(season, UserFactory(), "nebelzirkel", limit=None)
    season.refresh_from_db()
    assert (season.catalog_pin, season.catalog_pinned_at) == first


def test_a_pin_without_its_time_is_refused_by_the_database(season: Season) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        Season.objects.filter(pk=season.pk).update(catalog_pin={"profiles": {}, "items": {}})
    with pytest.raises(IntegrityError), transaction.atomic():
        Season.objects.filter(pk=season.pk).update(
            catalog_pin={"profiles": {}}, catalog_pinned_at=timezone.now()
        )


# --- An edit after registration changes nothing -----------------------------------------------


def test_a_cost_edit_leaves_the_registered_rosters_points_and_legality(season: Season) -> None:
    player = UserFactory()
    registration = join(season, player)
    set_points(SOLDIER, 40)  # 155 points now: above the group's limit of 145
    registration.refresh_from_db()
    report = frozen_report(registration.season, registration.roster_snapshot)
    assert report is not None and report.valid
    assert report.totals["points"] == EISENWACHT_POINTS
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(player)
    html = page(client, registration)
    assert f"{EISENWACHT_POINTS} points" in html and "not legal" not in html
    assert "with the season's costs as of" in html


def test_registration_counts_the_seasons_costs_not_the_current_ones(season: Season) -> None:
    join(season, UserFactory())
    set_points(SOLDIER, 20)
    newcomer = UserFactory()
    cheaper = roster(newcomer, limit=EISENWACHT_POINTS - 10)  # legal with the new cost only
    assert cheaper.legal
    with pytest.raises(services.LeagueError) as refused:
        services.season_join(
            user=newcomer, season_id=season.pk, code=season.league.join_code, roster_id=cheaper.pk
        )
    assert refused.value.code == "roster_not_legal"
    assert "season's costs" in refused.value.message
    assert "above the limit" in refused.value.message


@pytest.fixture
def game(season: Season) -> Pairing:
    join(season, UserFactory())
    join(season, UserFactory(), "nebelzirkel", limit=None)
    (pairing,) = games(pair_and_publish(season))
    return pairing


def _card_points(match: Any, seat: int) -> list[int]:
    return [unit["card"]["points"] for unit in match.state["units"] if unit["player"] == seat]


def _eisenwacht_seat(game: Pairing) -> int:
    return 0 if game.player_a.roster_snapshot["faction"] == "eisenwacht" else 1


def test_a_league_match_plays_the_seasons_costs(game: Pairing) -> None:
    set_points(SOLDIER, 40)  # the group is not legal with the current costs
    match = league_match_start(
        user=game.player_a.player,
        pairing_id=game.pk,
        mode="secret",
        settings={"max_rounds": 6},
        rng=random.Random(1),
    )
    points = _card_points(match, _eisenwacht_seat(game))
    assert sum(points) == EISENWACHT_POINTS and 30 in points and 40 not in points


# --- Re-pinning -------------------------------------------------------------------------------


def test_repinning_counts_the_current_costs_and_names_the_rosters_no_longer_legal(
    season: Season,
) -> None:
    player = UserFactory()
    registration = join(season, player)
    set_points(SOLDIER, 40)
    response = repin(organiser_client(season.league), season)
    assert response.status_code == 200
    text = response.content.decode()
    assert "The season now plays the current costs." in text
    assert f"Not legal with the new costs: {player.shown_name}" in text
    season.refresh_from_db()
    assert season.catalog_pin["profiles"][SOLDIER] == 2
    registration.refresh_from_db()
    report = frozen_report(season, registration.roster_snapshot)
    assert report is not None and not report.valid
    assert report.totals["points"] == EISENWACHT_POINTS + 10
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(player)
    html = page(client, registration)
    assert f"{EISENWACHT_POINTS + 10} points" in html and "not legal" in html
    entry = LogEntry.objects.get(season=season, action=LogEntry.Action.COSTS_PINNED)
    assert entry.actor == organiser_of(season.league)


def test_the_season_page_says_which_costs_it_plays(season: Season) -> None:
    client = organiser_client(season.league)
    url = reverse("leagues:season", args=[season.league.key, season.pk])
    html = client.get(url).content.decode()
    assert "until the first registration" in html
    join(season, UserFactory())
    html = client.get(url).content.decode()
    assert "costs as of" in html and "Use the current costs" in html
    set_points(SOLDIER, 40)
    repin(client, season)
    html = client.get(url).content.decode()
    assert "set the season&#x27;s costs to the current catalogue" in html  # the log


def test_repinning_without_confirmation_changes_nothing(season: Season) -> None:
    join(season, UserFactory())
    season.refresh_from_db()
    pin = season.catalog_pin
    set_points(SOLDIER, 40)
    url = reverse("leagues:season_costs", args=[season.league.key, season.pk])
    response = organiser_client(season.league).post(url, {"confirm": "yes"}, follow=True)
    assert "Tick the box" in response.content.decode()
    season.refresh_from_db()
    assert season.catalog_pin == pin


def test_only_the_seasons_organisers_repin(season: Season) -> None:
    player = UserFactory()
    join(season, player)
    url = reverse("leagues:season_costs", args=[season.league.key, season.pk])
    client = Client()
    assert client.post(url, {"confirm": "1"}).status_code == 302  # to the login
    client.force_login(player)
    assert client.post(url, {"confirm": "1"}).status_code == 403
    other = make_league(system="universalis")
    client.force_login(organiser_of(other))
    assert client.post(url, {"confirm": "1"}).status_code == 403
    assert client.get(url).status_code == 405
    missing = reverse("leagues:season_costs", args=[season.league.key, 999_999])
    client.force_login(organiser_of(season.league))
    assert client.post(missing, {"confirm": "1"}).status_code == 404
    assert not LogEntry.objects.filter(action=LogEntry.Action.COSTS_PINNED).exists()


def test_costs_stay_once_a_game_of_the_season_is_played(game: Pairing) -> None:
    season = game.round.season
    report_and_confirm(game)
    set_points(SOLDIER, 40)
    response = repin(organiser_client(season.league), season)
    assert "Games of this season are played" in response.content.decode()
    season.refresh_from_db()
    assert season.catalog_pin["profiles"][SOLDIER] == 1


def test_costs_stay_once_a_league_match_is_started(game: Pairing) -> None:
    season = game.round.season
    league_match_start(
        user=game.player_a.player,
        pairing_id=game.pk,
        mode="secret",
        settings={"max_rounds": 6},
        rng=random.Random(1),
    )
    with pytest.raises(services.LeagueError) as refused:
        season_costs_repin(
            user=organiser_of(season.league), key=season.league.key, season_id=season.pk
        )
    assert refused.value.code == "costs_locked"


def test_an_approved_roster_change_is_checked_with_the_repinned_costs(season: Season) -> None:
    player = UserFactory()
    registration = join(season, player)
    change = services.roster_change_request(
        user=player,
        key=season.league.key,
        registration_id=registration.pk,
        roster_id=roster(player).pk,
    )
    set_points(SOLDIER, 40)
    organiser = organiser_of(season.league)
    season_costs_repin(user=organiser, key=season.league.key, season_id=season.pk)
    with pytest.raises(services.LeagueError) as refused:
        services.roster_change_decide(
            user=organiser, key=season.league.key, change_id=change.pk, approve=True
        )
    assert refused.value.code == "roster_not_legal"


# --- API --------------------------------------------------------------------------------------


def test_the_api_repins_for_organisers_only_and_shows_the_costs_date(season: Season) -> None:
    player = UserFactory()
    join(season, player)
    set_points(SOLDIER, 40)
    url = f"/api/v1/leagues/{season.league.key}/seasons/{season.pk}/costs/"
    client = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    anonymous = client.post(url)  # token authentication first: asks for credentials
    assert anonymous.status_code == 401 and anonymous.json()["code"] == "not_authenticated"
    client.force_authenticate(player)
    refused = client.post(url)
    assert refused.status_code == 403 and refused.json()["code"] == "permission_denied"
    client.force_authenticate(organiser_of(season.league))
    response = client.post(url, {"unexpected": 1}, format="json")
    assert response.status_code == 200
    body = response.json()
    assert body["costs_changed"] is True and body["not_legal"] == [player.shown_name]
    detail = client.get(f"/api/v1/leagues/{season.league.key}/seasons/{season.pk}/").json()
    assert detail["costs_as_of"] == body["costs_as_of"] is not None
    again = client.post(url).json()
    assert again["costs_changed"] is False
    missing = client.post(f"/api/v1/leagues/{season.league.key}/seasons/999999/costs/")
    assert missing.status_code == 404


# --- The migration ----------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("catalogue")
def test_the_migration_pins_the_seasons_players_joined_to_the_catalogue_of_today() -> None:
    """Before it, registered rosters were counted with the current catalogue: that is what a
    season with players is pinned to. A season nobody joined pins at its first registration."""
    league = make_league(system="universalis")
    joined, empty = make_season(league), make_season(league, name="Herbst")
    join(joined, UserFactory())
    without_costs = make_season(make_league())  # the test system "plain": no roster rules
    services.season_join(
        user=UserFactory(),
        season_id=without_costs.pk,
        code=without_costs.league.join_code,
        roster_id=None,
    )
    set_points(SOLDIER, 40)
    executor = MigrationExecutor(connection)
    executor.migrate([("leagues", "0006_season_reveal_in_range")])
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    joined.refresh_from_db()
    empty.refresh_from_db()
    assert joined.catalog_pin == catalog_versions(league.system)
    assert joined.catalog_pin["profiles"][SOLDIER] == 2 and joined.catalog_pinned_at is not None
    assert (empty.catalog_pin, empty.catalog_pinned_at) == (None, None)
    without_costs.refresh_from_db()
    assert (without_costs.catalog_pin, without_costs.catalog_pinned_at) == (None, None)


def test_bad_addresses_are_refused_without_a_server_error(season: Season) -> None:
    client = organiser_client(season.league)
    key = season.league.key
    for season_id in ("99999999999999999999999", "0"):
        page_url = f"/leagues/{key}/seasons/{season_id}/costs/"
        assert client.post(page_url, {"confirm": "1"}).status_code == 404
        api = APIClient()
        api.force_authenticate(organiser_of(season.league))
        assert api.post(f"/api/v1/leagues/{key}/seasons/{season_id}/costs/").status_code == 404
    assert client.post("/leagues/nope/seasons/1/costs/", {"confirm": "1"}).status_code == 404
