"""Migration 0003: existing tracked results name their reporter, the player who opened the match
(issue 15). Tested on the migration's own function, row by row, and once through the real
migrations of leagues and matches with stored rows."""

from __future__ import annotations

import importlib
import random
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from apps.leagues import services as league_services
from apps.leagues.models import Pairing, Result, Season
from apps.matches import services
from apps.matches.models import Match
from tests.accounts.factories import UserFactory
from tests.leagues.factories import games, join, make_league, make_season, pair_and_publish
from tests.matches.factories import small_match
from tests.matches.grundregeln import shared_grund_match

pytestmark = pytest.mark.django_db

migration = importlib.import_module(
    "apps.leagues.migrations.0003_tracked_results_name_their_reporter"
)


@pytest.fixture
def game() -> Pairing:
    season = make_season(make_league())
    join(season, 2)
    (pairing,) = games(pair_and_publish(season))
    return pairing


def match_by(creator: Any) -> Match:
    return shared_grund_match(creator, creator, creator, names=("A", "B"))


def old_result(game: Pairing, match_url: str, status: str = "reported", **fields: Any) -> Result:
    """A tracked result as the old code stored it: no side reported it."""
    return Result(
        pairing=game,
        outcome="a",
        vp_a=5,
        vp_b=3,
        source="tracked",
        status=status,
        reported_side="",
        reported_at=timezone.now() - timedelta(days=5),
        match_url=match_url,
        **fields,
    )


def migrated(result: Result) -> Result:
    migration._migrate(result, Match, timezone.now())
    result.validate_constraints(exclude={"pairing"})
    return result


def test_a_waiting_result_gets_the_side_of_the_player_who_opened_the_match(game, catalogue) -> None:
    b = game.player_b.player
    result = migrated(old_result(game, f"/matches/{match_by(b).pk}/"))
    assert (result.status, result.reported_side, result.reported_by_id) == ("reported", "b", b.pk)


def test_a_result_confirmed_by_the_player_who_ran_the_match_waits_again(game, catalogue) -> None:
    a = game.player_a.player
    url = f"/matches/{match_by(a).pk}/"
    now = timezone.now()
    self_confirmed = migrated(
        old_result(game, url, "confirmed", confirmed_side="a", confirmed_by=a, confirmed_at=now)
    )
    assert (self_confirmed.status, self_confirmed.reported_side) == ("reported", "a")
    assert (self_confirmed.confirmed_side, self_confirmed.confirmed_by) == ("", None)
    b = game.player_b.player
    confirmed = migrated(
        old_result(game, url, "confirmed", confirmed_side="b", confirmed_by=b, confirmed_at=now)
    )
    assert (confirmed.status, confirmed.reported_side, confirmed.confirmed_by) == (
        "confirmed",
        "a",
        b,
    )


def test_a_result_whose_reporter_cannot_be_found_goes_to_the_organisers(game, catalogue) -> None:
    for url in ("/matches/999999/", "", f"/matches/{match_by(UserFactory()).pk}/"):
        result = migrated(old_result(game, url))
        assert (result.status, result.reported_side) == ("disputed", "")
        assert result.dispute_reason and result.disputed_at is not None


def test_a_finished_seasons_result_that_counted_stays_counted(game) -> None:
    Season.objects.filter(pk=game.round.season_id).update(status="finished")
    game = Pairing.objects.select_related("round__season").get(pk=game.pk)
    result = migrated(old_result(game, "/matches/999999/"))
    assert result.status == "decided" and "48 hours" in result.decision_reason


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("catalogue", "plain_systems")
def test_the_migrations_run_both_ways_on_stored_matches_and_results(deathmatch) -> None:
    """Real rows through the real migrations (on PostgreSQL too, where a table with pending row
    updates cannot be altered in the same transaction): back to the old shape, then forward."""
    alice, bob = UserFactory(), UserFactory()
    shared = small_match(alice, deathmatch, opponent=bob)
    played = small_match(alice, deathmatch, opponent=bob)
    services.match_take_seat(user=bob, match_id=played.pk, index=1)
    services.match_apply_command(
        user=bob,
        match_id=played.pk,
        command_type="deployment_flip",
        args={},
        expected_seq=None,
        idempotency_key=None,
        rng=random.Random(1),
    )
    season = make_season(make_league())
    for user in (alice, bob):
        league_services.season_join(
            user=user, season_id=season.pk, code=season.league.join_code, roster_id=None
        )
    (game,) = games(pair_and_publish(season))
    result = league_services.league_result_propose_from_match(
        system_slug="plain",
        user_ids=(alice.pk, bob.pk),
        winner_user_id=alice.pk,
        vp_by_user={},
        match_url=f"/matches/{shared.pk}/",
        reporter_user_id=alice.pk,
    )
    assert result is not None
    alice_side = result.reported_side

    executor = MigrationExecutor(connection)
    executor.migrate([("leagues", "0001_initial"), ("matches", "0002_schema_versions")])
    old = executor.loader.project_state(
        [("leagues", "0001_initial"), ("matches", "0002_schema_versions")]
    ).apps
    OldPlayer = old.get_model("matches", "MatchPlayer")
    assert OldPlayer.objects.get(match_id=shared.pk, index=1).user_id == bob.pk
    # What the old rules let Alice do: confirm the tracked result herself.
    old.get_model("leagues", "Result").objects.filter(pk=result.pk).update(
        status="confirmed",
        confirmed_side=alice_side,
        confirmed_by=alice,
        confirmed_at=timezone.now(),
    )

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert [(s.user, s.team_owner) for s in shared.players.order_by("index")] == [
        (alice, alice),
        (None, bob),
    ]
    assert [(s.user, s.team_owner) for s in played.players.order_by("index")] == [
        (alice, alice),
        (bob, bob),
    ]
    result = Result.objects.get(pairing=game)
    assert (result.status, result.reported_side, result.reported_by) == (
        "reported",
        alice_side,
        alice,
    )
    assert result.confirmed_by is None
