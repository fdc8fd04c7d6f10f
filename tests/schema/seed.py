"""The data schemathesis runs against, so that its requests can succeed and not only fail: a
user with an API token, two legal Deathmatch teams (one shared by its link), a match of them, a
league with a season both its players joined and a published round, and a card export.

Made through the services, as the pages make them; the shipped catalogue is already in the test
database (``tests/conftest.py``)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date
from typing import Any

from rest_framework.authtoken.models import Token

from apps.cards.models import CardExport
from apps.catalog.selectors import game_system_get
from apps.leagues import services as leagues
from apps.leagues.models import League
from apps.matches import services as matches
from apps.rosters import services as rosters
from tests.accounts.factories import UserFactory
from tests.matches.factories import roster_for, small_team


@dataclass(frozen=True)
class Seed:
    token: str
    share_token: str
    join_code: str
    roster_ids: tuple[int, int]
    # Values for the path parameters of every operation, by name.
    path: dict[str, Any]


def seed_api_data() -> Seed:
    user = UserFactory(username="schemathesis")
    token = Token.objects.create(user=user)
    deathmatch = game_system_get("deathmatch")
    own = roster_for(user, small_team("phalanx", name="Seed Phalanx"))
    second = roster_for(user, small_team("shelzahav", name="Seed Shelzahav"))
    shared = rosters.roster_share(owner=user, roster_id=own.pk, enabled=True)
    match = matches.match_create(
        creator=user,
        system=deathmatch,
        mode="last-man-standing",
        seats=[matches.Seat("Anna", own), matches.Seat("Ben", second)],
        settings={"game_size": 3, "gadgets": False},
        rng=random.Random(1),
    )
    league = leagues.league_create(
        creator=user, system=deathmatch, name="Seed League", visibility=League.Visibility.PUBLIC
    )
    season = leagues.season_create(
        user=user,
        key=league.key,
        name="Seed",
        starts_on=date(2026, 1, 1),
        ends_on=date(2026, 12, 31),
    )
    opponent = UserFactory()
    for player, roster in ((user, own), (opponent, roster_for(opponent, small_team("shelzahav")))):
        leagues.season_join(
            user=player, season_id=season.pk, code=league.join_code, roster_id=roster.pk
        )
    round_ = leagues.round_pair(
        user=user, key=league.key, season_id=season.pk, rng=random.Random(1)
    )
    leagues.round_publish(user=user, key=league.key, season_id=season.pk, number=round_.number)
    pairing = round_.pairings.get(player_b__isnull=False)
    export = CardExport.objects.create(
        system=deathmatch,
        roster=own,
        requested_by=user,
        layout=CardExport.Layout.SHEET,
        paper=CardExport.Paper.A4,
        contents=CardExport.Contents.ALL,
        language="en",
        fingerprint="schemathesis-seed",
    )
    assert shared.share_token
    return Seed(
        token=token.key,
        share_token=shared.share_token,
        join_code=league.join_code,
        roster_ids=(own.pk, second.pk),
        path={
            "slug": "deathmatch",
            "roster_id": own.pk,
            "match_id": match.pk,
            "index": 0,
            "key": league.key,
            "season_id": season.pk,
            "number": round_.number,
            "pairing_id": pairing.pk,
            "export_id": export.pk,
        },
    )
