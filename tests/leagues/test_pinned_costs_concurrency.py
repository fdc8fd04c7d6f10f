"""A season's costs with requests racing on PostgreSQL (issue 17: "A season may pin its own
costs, so an edit never changes a frozen league roster's points"): two first registrations at
once take one pin, and a match started while an organiser re-pins waits for the re-pin and
plays its costs (``league_match_start`` locks the season's row before it reads its catalogue).
"""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest
from django.db import connection, connections, transaction

from apps.catalog.models import GameSystem
from apps.catalog.pins import catalog_versions
from apps.leagues import season_catalog, services
from apps.leagues.models import Season
from apps.matches.league_games import league_match_start
from apps.matches.models import Match
from tests.accounts.factories import UserFactory
from tests.leagues.factories import games, make_league, make_season, organiser_of, pair_and_publish
from tests.leagues.test_concurrency import race
from tests.leagues.test_pinned_costs import (
    EISENWACHT_POINTS,
    SOLDIER,
    join,
    roster,
    set_points,
)

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("catalogue"),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="row locks need PostgreSQL; SQLite serialises writers itself (CI runs PostgreSQL)",
    ),
]


def test_two_first_registrations_at_once_take_one_pin(monkeypatch: pytest.MonkeyPatch) -> None:
    season = make_season(make_league(system="universalis"))
    pins: list[int] = []
    pin = season_catalog.season_pin

    def counted(locked: Season) -> None:
        pins.append(locked.pk)
        pin(locked)

    monkeypatch.setattr(season_catalog, "season_pin", counted)
    players = [UserFactory(), UserFactory()]
    rosters = [roster(player) for player in players]

    def joining(index: int) -> Any:
        return lambda: services.season_join(
            user=players[index],
            season_id=season.pk,
            code=season.league.join_code,
            roster_id=rosters[index].pk,
        )

    done, errors = race(joining(0), joining(1))
    assert errors == [] and len(done) == 2
    assert pins == [season.pk]
    season.refresh_from_db()
    assert season.catalog_pin == catalog_versions(GameSystem.objects.get(slug="universalis"))


def test_a_match_started_during_a_repin_waits_and_plays_the_new_costs() -> None:
    season = make_season(make_league(system="universalis"))
    join(season, UserFactory(), limit=EISENWACHT_POINTS + 10)  # legal with either cost
    join(season, UserFactory(), "nebelzirkel", limit=None)
    (game,) = games(pair_and_publish(season))
    set_points(SOLDIER, 40)
    started: list[Match] = []
    failed: list[BaseException] = []

    def start() -> None:
        try:
            started.append(
                league_match_start(
                    user=game.player_a.player,
                    pairing_id=game.pk,
                    mode="secret",
                    settings={"max_rounds": 6},
                    rng=random.Random(1),
                )
            )
        except BaseException as error:  # noqa: BLE001 - asserted below
            failed.append(error)
        finally:
            connections.close_all()

    thread = threading.Thread(target=start)
    with transaction.atomic():
        season_catalog.season_costs_repin(
            user=organiser_of(season.league), key=season.league.key, season_id=season.pk
        )
        thread.start()
        thread.join(timeout=1.5)
        waited = thread.is_alive()
    thread.join(timeout=30)
    assert waited, "the start did not wait for the season's lock"
    assert failed == [] and len(started) == 1
    eisenwacht = 0 if game.player_a.roster_snapshot["faction"] == "eisenwacht" else 1
    points = [
        unit["card"]["points"] for unit in started[0].state["units"] if unit["player"] == eisenwacht
    ]
    assert 40 in points and 30 not in points
