"""Requests racing on PostgreSQL: two reports of one game, one player joining twice at once."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from django.db import connection, connections

from apps.leagues import services
from apps.leagues.models import Registration, Result
from apps.leagues.services import LeagueError
from tests.accounts.factories import UserFactory
from tests.leagues.factories import games, join, make_league, make_season, pair_and_publish

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="row locks need PostgreSQL; SQLite serialises writers itself (CI runs PostgreSQL)",
    ),
]


def race(*actions: Callable[[], object]) -> tuple[list[object], list[BaseException]]:
    start = threading.Barrier(len(actions))
    done: list[object] = []
    errors: list[BaseException] = []

    def run(action: Callable[[], object]) -> None:
        try:
            start.wait()
            done.append(action())
        except BaseException as error:  # noqa: BLE001 - collected for the assertions
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(a,)) for a in actions]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return done, errors


def test_two_conflicting_reports_at_once_store_one_result() -> None:
    season = make_season(make_league())
    join(season, 2)
    pairing = games(pair_and_publish(season))[0]
    key = season.league.key

    def report(user, outcome: str) -> Callable[[], object]:  # noqa: ANN001
        return lambda: services.result_report(
            user=user, key=key, pairing_id=pairing.pk, outcome=outcome, vp_a=5, vp_b=5
        )

    done, errors = race(report(pairing.player_a.player, "a"), report(pairing.player_b.player, "b"))
    assert len(done) == 1
    assert [e.code for e in errors if isinstance(e, LeagueError)] == ["conflicting_report"]
    assert Result.objects.count() == 1


def test_joining_twice_at_once_registers_once() -> None:
    season = make_season(make_league())
    player = UserFactory()
    code = season.league.join_code

    def join_once() -> object:
        return services.season_join(user=player, season_id=season.pk, code=code, roster_id=None)

    done, errors = race(join_once, join_once, join_once)
    assert len(done) == 1
    assert all(isinstance(e, LeagueError) and e.code == "already_joined" for e in errors)
    assert Registration.objects.filter(season=season, player=player).count() == 1


def test_pairing_twice_at_once_makes_one_round() -> None:
    season = make_season(make_league())
    join(season, 4)
    organiser = season.league.organisers.get()

    def pair() -> object:
        return services.round_pair(user=organiser, key=season.league.key, season_id=season.pk)

    done, errors = race(pair, pair)
    assert len(done) == 1
    assert [e.code for e in errors if isinstance(e, LeagueError)] == ["draft_round"]
    assert season.rounds.count() == 1
