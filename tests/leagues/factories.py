"""Leagues for tests, made through the services as the pages make them.

The test system "plain" has no roster rules, so its leagues take players without a roster;
the roster lock is tested with Deathmatch.
"""

from __future__ import annotations

import random
from datetime import date
from typing import Any

from apps.accounts.models import User
from apps.catalog.selectors import game_system_get
from apps.leagues import services
from apps.leagues.models import League, Pairing, Registration, Result, Round, Season
from tests.accounts.factories import UserFactory


def make_league(organiser: User | None = None, *, system: str = "plain", **changes: Any) -> League:
    fields: dict[str, Any] = {"name": "Dienstagsliga", "visibility": League.Visibility.PUBLIC}
    fields.update(changes)
    return services.league_create(
        creator=organiser or UserFactory(), system=game_system_get(system), **fields
    )


def make_season(league: League, **changes: Any) -> Season:
    organiser = league.organisers.first()
    fields: dict[str, Any] = {
        "name": "Frühjahr",
        "starts_on": date(2026, 3, 1),
        "ends_on": date(2026, 6, 30),
    }
    fields.update(changes)
    return services.season_create(user=organiser, key=league.key, **fields)


def join(season: Season, count: int) -> list[Registration]:
    code = season.league.join_code
    return [
        services.season_join(user=UserFactory(), season_id=season.pk, code=code, roster_id=None)
        for _ in range(count)
    ]


def organiser_of(league: League) -> User:
    organiser = league.organisers.first()
    assert organiser is not None
    return organiser


def pair_and_publish(season: Season, *, seed: int = 1, **options: Any) -> Round:
    league = season.league
    organiser = organiser_of(league)
    round_ = services.round_pair(
        user=organiser, key=league.key, season_id=season.pk, rng=random.Random(seed), **options
    )
    return services.round_publish(
        user=organiser, key=league.key, season_id=season.pk, number=round_.number
    )


def games(round_: Round) -> list[Pairing]:
    return list(
        round_.pairings.filter(player_b__isnull=False)
        .select_related("player_a__player", "player_b__player")
        .order_by("table")
    )


def report_and_confirm(
    pairing: Pairing, outcome: str = "a", vp_a: int = 10, vp_b: int = 5
) -> Result:
    """Player A reports, player B confirms."""
    key = pairing.round.season.league.key
    services.result_report(
        user=pairing.player_a.player,
        key=key,
        pairing_id=pairing.pk,
        outcome=outcome,
        vp_a=vp_a,
        vp_b=vp_b,
    )
    assert pairing.player_b is not None
    return services.result_confirm(user=pairing.player_b.player, key=key, pairing_id=pairing.pk)
