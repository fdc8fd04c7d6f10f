"""Leagues: Swiss pairing of a 64-player round with history, the standings of a 64-player,
8-round season rendered through Django, and (issue 16) Swiss pairing at 64 / 256 / 1,024 players,
sparse and full, and the organiser's season page at 256 players x 10 rounds, each next to a
floor measured in the same run."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import date

from django.db import connection
from django.test import Client
from django.utils import timezone

from apps.accounts.models import User
from apps.catalog.selectors import game_system_get
from apps.leagues import services
from apps.leagues.models import League, Pairing, Registration, Result, Round, Season
from apps.leagues.pairing import SwissPlayer, SwissWeights, met_key, swiss_pairing
from apps.leagues.pairing_sparse import swiss_pairing_sparse
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
            f"standings, {PLAYERS} players, {ROUNDS} rounds (HTMX fragment, cached, server time)",
            lambda: client.get(url + "?sort=vp_diff"),
            repeat=50,
            warmup=3,
        )
    )
    page = Client()
    page.force_login(organiser)
    report.add(
        measure(
            "season page, standings and current round cached (organiser, server time)",
            lambda: page.get(url),
            repeat=20,
            warmup=2,
        )
    )
    _pairing_at_scale(report)
    _big_season_page(report, rng)


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
    _seed(organiser, season, "bench-player", PLAYERS, ROUNDS, rng)
    return organiser, season


def _seed(
    organiser: User, season: Season, prefix: str, players: int, rounds: int, rng: random.Random
) -> None:
    """Players and rounds of ``season``: each round paired and published through the services
    (the pairing is what is measured), its results stored in bulk as confirmed (reporting and
    confirming 1,280 games one by one through the services would take a minute)."""
    key = season.league.key
    users = User.objects.bulk_create(
        User(username=f"{prefix}-{i}", password="!") for i in range(players)
    )
    Registration.objects.bulk_create(Registration(season=season, player=u) for u in users)
    now = timezone.now()
    for number in range(1, rounds + 1):
        services.round_pair(user=organiser, key=key, season_id=season.pk, rng=rng)
        services.round_publish(user=organiser, key=key, season_id=season.pk, number=number)
        games = Pairing.objects.filter(
            round__season=season, round__number=number, player_b__isnull=False
        )
        results = []
        for pairing in games:
            vp_a, vp_b = rng.randint(0, 20), rng.randint(0, 20)
            outcome = "draw" if vp_a == vp_b else "a" if vp_a > vp_b else "b"
            results.append(
                Result(
                    pairing=pairing,
                    outcome=outcome,
                    vp_a=vp_a,
                    vp_b=vp_b,
                    status=Result.Status.CONFIRMED,
                    reported_side="a",
                    reported_at=now,
                    confirmed_side="b",
                    confirmed_at=now,
                )
            )
        Result.objects.bulk_create(results)


def _history(n: int, rounds: int, seed: int) -> tuple[list[SwissPlayer], set[frozenset[int]]]:
    """``n`` players in score order after ``rounds`` random rounds."""
    rng = random.Random(seed)
    ids = list(range(1, n + 1))
    met: set[frozenset[int]] = set()
    for _ in range(rounds):
        rng.shuffle(ids)
        met |= {met_key(ids[i], ids[i + 1]) for i in range(0, n - 1, 2)}
    players = sorted(
        (SwissPlayer(id=i, score=rng.randint(0, 3 * rounds)) for i in ids), key=lambda p: -p.score
    )
    return players, met


def _weigh_candidates(players: list[SwissPlayer], met: set[frozenset[int]]) -> int:
    """The floor: weigh each player's next 32 candidates (what any sparse pairing must read)."""
    weights = SwissWeights.of(players, met)
    total = 0
    for i, a in enumerate(players):
        for b in players[i + 1 : i + 33]:
            total += weights.game(a, b)
    return total


def _pairing_at_scale(report: Report) -> None:
    """Issue 16: sparse pairing at 64 / 256 / 1,024 players (9 rounds of history), the full
    matching up to 256; repeats are few so that the whole section stays within ~20 s."""
    for n, repeat in ((64, 5), (256, 3), (1024, 2)):
        players, met = _history(n, 9, seed=n)
        report.add(
            measure(
                f"floor: weigh 32 candidates each, {n} players",
                lambda p=players, m=met: _weigh_candidates(p, m),
                repeat=repeat,
                warmup=1,
            )
        )
        report.add(
            measure(
                f"Swiss pairing, {n} players, sparse (engine)",
                lambda p=players, m=met: swiss_pairing_sparse(p, m),
                repeat=repeat,
                warmup=0,
                note="goal at 1,024: <= 2 s",
            )
        )
        if n <= 256:
            report.add(
                measure(
                    f"Swiss pairing, {n} players, full matching (engine)",
                    lambda p=players, m=met: swiss_pairing(p, m),
                    repeat=1 if n > 64 else 3,
                    warmup=0,
                )
            )


BIG_PLAYERS = 256
BIG_ROUNDS = 10


def _big_season_page(report: Report, rng: random.Random) -> None:
    """Issue 16: the organiser's season page at 256 players x 10 rounds, next to the same page
    of an empty season (the floor). Results are stored in bulk (confirmed), not through the
    report/confirm services, which would take a minute for 1,280 games."""
    organiser = User.objects.create_user("bench-big-organiser", password="bench-password-123")
    league = services.league_create(
        creator=organiser,
        system=game_system_get("stahlgewitter"),
        name="Bench big league",
        visibility=League.Visibility.PUBLIC,
    )
    seasons = [
        services.season_create(
            user=organiser,
            key=league.key,
            name=name,
            starts_on=date(2026, 1, 1),
            ends_on=date(2026, 12, 31),
        )
        for name in ("Big season", "Empty season")
    ]
    season = seasons[0]
    _seed(organiser, season, "bench-big", BIG_PLAYERS, BIG_ROUNDS, rng)
    assert Round.objects.filter(season=season).count() == BIG_ROUNDS
    page = Client()
    page.force_login(organiser)
    empty_url = f"/leagues/{league.key}/seasons/{seasons[1].pk}/"
    floor = measure(
        "floor: organiser's page of an empty season (server time)",
        lambda: page.get(empty_url),
        repeat=10,
        warmup=2,
    )
    report.add(floor)
    url = f"/leagues/{league.key}/seasons/{season.pk}/"
    big = measure(
        f"organiser's season page, {BIG_PLAYERS} players x {BIG_ROUNDS} rounds (server time)",
        lambda: page.get(url),
        repeat=10,
        warmup=2,
    )
    ratio = big.median_ms / floor.median_ms
    report.add(replace(big, note=f"goal: <= 100 ms; {ratio:.1f}x the empty page"))
    # The standings and the current round are cached by the season's version: the first view
    # after any change renders them again. A result's update before each view measures that.
    changed = Result.objects.filter(pairing__round__season=season).values_list("pk", flat=True)[0]

    def view_after_a_change() -> None:
        Result.objects.filter(pk=changed).update(updated_at=timezone.now())
        page.get(url)

    cold = measure(
        "  the same, first view after a result changed (fragments rendered)",
        view_after_a_change,
        repeat=5,
        warmup=1,
    )
    report.add(replace(cold, note=f"{cold.median_ms / floor.median_ms:.1f}x the empty page"))
    fragment = Client(HTTP_HX_REQUEST="true")
    fragment.force_login(organiser)
    report.add(
        measure(
            f"one older round's pairings on demand, {BIG_PLAYERS} players (HTMX fragment)",
            lambda: fragment.get(url + "rounds/1/"),
            repeat=10,
            warmup=1,
        )
    )
