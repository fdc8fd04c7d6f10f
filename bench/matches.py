"""Live matches: a command with a long log, the poll of an unchanged match, exact flip odds."""

from __future__ import annotations

import random

from django.test import Client

from apps.accounts.models import User
from apps.catalog.models import GameSystem
from apps.matches import services
from apps.matches.models import MatchEvent
from apps.rosters import services as roster_services
from apps.systems.core.deck import shuffled_deck
from apps.systems.deathmatch.match.odds import attack_odds, wound_odds
from bench import taps
from bench.long_logs import free_flip
from bench.report import Report, measure

LOG_LENGTH = 1000


def _team(faction: str, entries: list[str]) -> dict[str, object]:
    return {
        "format": "skirmish-roster/1",
        "system": "deathmatch",
        "name": f"Bench {faction}",
        "faction": faction,
        "settings": {"game_size": 3},
        "entries": [{"profile": slug, "items": []} for slug in entries],
    }


def run(report: Report) -> None:
    report.section("Deathmatch matches")
    user = User.objects.create_user("bench-matches", password="bench-password-123")
    system = GameSystem.objects.get(slug="deathmatch")
    first = roster_services.roster_import(
        owner=user,
        document=_team(
            "phalanx",
            ["phalanx-hauptmann-brandt", "phalanx-schildtraeger", "phalanx-brandmeister"],
        ),
    )
    second = roster_services.roster_import(
        owner=user,
        document=_team(
            "shelzahav",
            ["shelzahav-emirin-sahar-vel", "shelzahav-duenenlaeufer", "shelzahav-scharfschuetzin"],
        ),
    )
    match = services.match_create(
        creator=user,
        system=system,
        mode="deathmatch",
        seats=[services.Seat("A", first), services.Seat("B", second)],
        settings={"game_size": 3, "gadgets": False},
        rng=random.Random(1),
    )
    rng = random.Random(2)

    def command() -> None:
        free_flip(user, match, rng)

    while MatchEvent.objects.filter(match=match).count() < LOG_LENGTH:
        command()
    events = MatchEvent.objects.filter(match=match).count()
    report.add(
        measure(
            f"command: decide + append + snapshot ({events}+ events in the log, service)",
            command,
            repeat=200,
        )
    )

    client = Client()
    client.force_login(user)
    floor_match = services.match_create(
        creator=user,
        system=system,
        mode="deathmatch",
        seats=[services.Seat("A", first), services.Seat("B", second)],
        settings={"game_size": 3, "gadgets": False},
        rng=random.Random(1),
    )
    floor, api, tap = taps.floor_api_and_tap(client, floor_match, match, repeat=150)
    print("  (the floor, the API command and the tap measured in turn, 150 rounds)")
    report.add(floor)
    taps.add_ratio(report, api, floor, goal=3)
    taps.add_ratio(report, tap, floor, goal=5)

    match.refresh_from_db()
    poll = f"/matches/{match.pk}/poll/"
    etag = f'"{match.seq}"'

    def unchanged() -> None:
        response = client.get(poll, HTTP_IF_NONE_MATCH=etag)
        assert response.status_code == 304

    report.add(measure("poll of an unchanged match (304, server time)", unchanged, repeat=1000))

    api = f"/api/v1/matches/{match.pk}/"

    def api_unchanged() -> None:
        response = client.get(api, HTTP_IF_NONE_MATCH=etag)
        assert response.status_code == 304

    report.add(measure("GET /api/v1/matches/{id}/ unchanged (304)", api_unchanged, repeat=500))

    deck = shuffled_deck(random.Random(3))
    report.add(
        measure(
            "exact hit odds, boosted ⬠⬠ flip, fresh deck",
            lambda: attack_odds(deck, 2, 3, 8),
            repeat=300,
        )
    )
    report.add(
        measure(
            "exact wound odds, hindered ⬡⬡ flip, fresh deck",
            lambda: wound_odds(deck, -2, 4, 4, 6),
            repeat=300,
        )
    )
    page = f"/matches/{match.pk}/"
    report.add(
        measure("tracker page (full render, server time)", lambda: client.get(page), repeat=50)
    )
