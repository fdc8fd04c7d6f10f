"""A tracked match that ends between two players of an open league game, each holding their own
seat, proposes its result to the league: reported by the player who opened the match, confirmed
by the other."""

from __future__ import annotations

import random

import pytest

from apps.leagues import services as league_services
from apps.leagues.models import Result
from apps.matches import services
from apps.matches.models import Match
from tests.accounts.factories import UserFactory
from tests.leagues.factories import games, make_league, make_season, pair_and_publish
from tests.matches.factories import roster_for, small_team

pytestmark = pytest.mark.django_db


def _command(match: Match, user, command: str, **args) -> None:  # noqa: ANN001
    services.match_apply_command(
        user=user,
        match_id=match.pk,
        command_type=command,
        args=args,
        expected_seq=None,
        idempotency_key=None,
        rng=random.Random(3),
    )


def test_a_finished_match_reports_to_the_players_league_game(
    deathmatch, django_capture_on_commit_callbacks
) -> None:
    anna, ben = UserFactory(), UserFactory()
    annas = roster_for(anna, small_team("phalanx"))
    bens = roster_for(ben, small_team("shelzahav"))
    league = make_league(system="deathmatch")
    season = make_season(league)
    for user, roster in ((anna, annas), (ben, bens)):
        league_services.season_join(
            user=user, season_id=season.pk, code=league.join_code, roster_id=roster.pk
        )
    (game,) = games(pair_and_publish(season))
    match = services.match_create(
        creator=anna,
        system=deathmatch,
        mode="last-man-standing",
        seats=[services.Seat("Anna", annas), services.Seat("Ben", bens)],
        settings={"game_size": 3, "gadgets": False},
        rng=random.Random(1),
    )
    services.match_take_seat(user=ben, match_id=match.pk, index=1)
    ben_units = [u["id"] for u in match.state["units"] if u["player"] == 1]
    with django_capture_on_commit_callbacks(execute=True):
        for unit in ben_units:
            _command(match, anna, "adjust", unit=unit, lp=0, note="test")
    match.refresh_from_db()
    assert match.status == "finished"
    result = Result.objects.get(pairing=game)
    assert result.source == "tracked"
    assert result.match_url == f"/matches/{match.pk}/"
    winner_side = "a" if game.player_a.player == anna else "b"
    assert result.outcome == winner_side
    assert (result.reported_side, result.reported_by) == (winner_side, anna)
    confirmed = league_services.result_confirm(user=ben, key=league.key, pairing_id=game.pk)
    assert confirmed.status == Result.Status.CONFIRMED


def test_a_match_outside_any_league_reports_nothing(
    deathmatch, django_capture_on_commit_callbacks, user
) -> None:
    annas = roster_for(user, small_team("phalanx"))
    other = roster_for(UserFactory(), small_team("shelzahav"))
    match = services.match_create(
        creator=user,
        system=deathmatch,
        mode="last-man-standing",
        seats=[services.Seat("A", annas), services.Seat("B", other)],
        settings={"game_size": 3, "gadgets": False},
        rng=random.Random(1),
    )
    with django_capture_on_commit_callbacks(execute=True):
        for unit in [u["id"] for u in match.state["units"] if u["player"] == 1]:
            _command(match, user, "adjust", unit=unit, lp=0)
    assert Match.objects.get(pk=match.pk).status == "finished"
    assert not Result.objects.exists()
