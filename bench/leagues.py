"""Leagues: Swiss pairing of a 64-player round with history, and the standings of a 64-player,
8-round season rendered through Django."""

from __future__ import annotations

import random
from datetime import date

from django.db import connection
from django.test import Client

from apps.accounts.models import User
from apps.catalog.selectors import game_system_get
from apps.leagues import services
from apps.leagues.models import League, Season
from apps.leagues.pairing import SwissPlayer, met_key, swiss_pairing
from bench.report import Report, measure

PLAYERS = 64
ROUNDS = 8


def run(report: Report) -> None:
    report.section(f"Leagues ({connection.vendor})")
    rng = random.Random(11)

    ids = list(range(1, PLAYERS + 1))
    met: set[frozenset[int]] = set()
    for _ in range(ROUNDS - 1):
        rng.shuffle(ids)
        met |= {met_key(ids[i], ids[i + 1]) for i in range(0, PLAYERS, 2)}
    players = sorted(
        (SwissPlayer(id=i, score=rng.randint(0, 3 * (ROUNDS - 1)), had_bye=False) for i in ids),
        key=lambda p: -p.score,
    )
    report.add(
        measure(
            f"Swiss pairing, {PLAYERS} players, {ROUNDS - 1} rounds of history (engine)",
            lambda: swiss_pairing(players, met),
            repeat=20,
            warmup=2,
        )
    )

    organiser, season = _season_with_history(rng)
    key = season.league.key

    def pair_and_discard() -> None:
        round_ = services.round_pair(user=organiser, key=key, season_id=season.pk, rng=rng)
        services.round_discard(user=organiser, key=key, season_id=season.pk, number=round_.number)

    report.add(
        measure(
            f"pair round {ROUNDS + 1} of a {PLAYERS}-player season (service, {connection.vendor})",
            pair_and_discard,
            repeat=10,
            warmup=1,
        )
    )

    client = Client(HTTP_HX_REQUEST="true", HTTP_HX_TARGET="standings")
    url = f"/leagues/{key}/seasons/{season.pk}/"
    report.add(
        measure(
            f"standings, {PLAYERS} players, {ROUNDS} rounds (HTMX fragment, server time)",
            lambda: client.get(url + "?sort=vp_diff"),
            repeat=50,
            warmup=3,
        )
    )
    page = Client()
    page.force_login(organiser)
    report.add(
        measure(
            "season page with standings and all rounds (organiser, server time)",
            lambda: page.get(url),
            repeat=20,
            warmup=2,
        )
    )


def _season_with_history(rng: random.Random) -> tuple[User, Season]:
    """A public season of 64 players with 8 rounds paired, reported and confirmed."""
    organiser = User.objects.create_user("bench-organiser", password="bench-password-123")
    league = services.league_create(
        creator=organiser,
        system=game_system_get("stahlgewitter"),
        name="Bench league",
        visibility=League.Visibility.PUBLIC,
    )
    season = services.season_create(
        user=organiser,
        key=league.key,
        name="Bench season",
        starts_on=date(2026, 1, 1),
        ends_on=date(2026, 12, 31),
    )
    users = User.objects.bulk_create(
        User(username=f"bench-player-{i}", password="!") for i in range(PLAYERS)
    )
    for user in users:
        services.season_join(user=user, season_id=season.pk, code=league.join_code, roster_id=None)
    for number in range(1, ROUNDS + 1):
        services.round_pair(user=organiser, key=league.key, season_id=season.pk, rng=rng)
        round_ = services.round_publish(
            user=organiser, key=league.key, season_id=season.pk, number=number
        )
        for pairing in round_.pairings.select_related("player_a__player", "player_b__player"):
            if pairing.player_b is None:
                continue
            vp_a, vp_b = rng.randint(0, 20), rng.randint(0, 20)
            outcome = "draw" if vp_a == vp_b else "a" if vp_a > vp_b else "b"
            services.result_report(
                user=pairing.player_a.player,
                key=league.key,
                pairing_id=pairing.pk,
                outcome=outcome,
                vp_a=vp_a,
                vp_b=vp_b,
            )
            services.result_confirm(
                user=pairing.player_b.player, key=league.key, pairing_id=pairing.pk
            )
    return organiser, season
