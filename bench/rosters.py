"""Deathmatch rosters: the validator in the engine and a builder click through Django."""

from __future__ import annotations

import json
import time
from pathlib import Path

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import HttpResponse
from django.test import Client

from apps.accounts.models import User
from apps.catalog.services import catalog_load, shipped_catalog_files
from apps.rosters import services
from apps.rosters.models import RosterEntry, RosterEntryItem
from apps.systems.deathmatch.catalog import catalog_from_document
from apps.systems.deathmatch.roster import Roster, validate_roster
from apps.systems.deathmatch.roster import RosterEntry as Entry
from bench.report import Report, Timing, measure

CATALOG = Path(settings.BASE_DIR) / "fixtures" / "deathmatch" / "catalog.json"

# A large Organon team: 7 fighters, 20 equipment cards (many over their limits, so the
# validator has plenty to report).
LARGE_TEAM = [
    ("organon-direktorin-ilva-syn", ["kampfstimulanzien", "kampfstimulanzien", "medkit"]),
    ("organon-atalante-klon", ["ruestungsupgrade-sprungmodule", "zweite-pistole", "medkit"]),
    ("organon-konzernschuetze", ["schrotflinte", "ruestungsupgrade-panzerplatten", "wurfhaken"]),
    ("phalanx-linienschuetze", ["splittergranaten", "zielerfassungs-implantat"]),
    ("organon-syntek-techniker", ["plasmaklinge", "nahkampftraining", "medkit"]),
    ("atalante-c021-anzi", ["ruestungsupgrade-tarnfeld", "kampfstimulanzien", "wurfhaken"]),
    ("organon-argus-geschuetzturm", ["zweite-pistole", "medkit", "wurfhaken"]),
]


def _ok(response: HttpResponse) -> HttpResponse:
    """Stop the bench rather than print the time of an error page."""
    if response.status_code != 200:
        raise SystemExit(f"bench: {response.status_code} from {response.request['PATH_INFO']}")
    return response


def run(report: Report) -> None:
    report.section("Deathmatch rosters")
    catalog = catalog_from_document(json.loads(CATALOG.read_text(encoding="utf-8")))
    team = Roster(
        faction="organon",
        game_size=7,
        entries=tuple(Entry(profile=p, items=tuple(items)) for p, items in LARGE_TEAM),
    )
    cards = sum(len(items) for _, items in LARGE_TEAM)
    report.add(
        measure(
            f"validate_roster, 7 fighters, {cards} equipment cards (engine)",
            lambda: validate_roster(team, catalog),
            repeat=2000,
            warmup=100,
        )
    )

    for path in shipped_catalog_files():
        catalog_load(path)
    user = User.objects.create_user("bench", password="bench-password-123")
    document = {
        "format": "skirmish-roster/1",
        "system": "deathmatch",
        "name": "Bench",
        "faction": "organon",
        "settings": {"game_size": 7},
        "entries": [{"profile": p, "items": items} for p, items in LARGE_TEAM],
    }
    roster = services.roster_import(owner=user, document=document)
    entry = RosterEntry.objects.filter(roster=roster).order_by("position").first()
    assert entry is not None
    client = Client(HTTP_HX_REQUEST="true")
    client.force_login(user)
    names = iter(range(10**9))
    url = f"/rosters/{roster.pk}/fighters/{entry.pk}/rename/"
    report.add(
        measure(
            f"builder click: rename a fighter (HTMX, {connection.vendor}, server time)",
            lambda: _ok(client.post(url, {"name": f"Kael {next(names)}"})),
            repeat=200,
            warmup=10,
        )
    )
    add_url = f"/rosters/{roster.pk}/fighters/{entry.pk}/items/"
    report.add(_add_then_remove(client, add_url, entry, cold=False))
    report.add(_add_then_remove(client, add_url, entry, cold=True))
    api = Client()
    api.force_login(user)  # signed in: the anonymous rate limit would answer 429s instead
    report.add(
        measure(
            "POST /api/v1/rosters/validate/ (7 fighters, 20 cards, server time)",
            lambda: _ok(
                api.post("/api/v1/rosters/validate/", document, content_type="application/json")
            ),
            repeat=200,
            warmup=10,
        )
    )


def _add_then_remove(client: Client, add_url: str, entry: RosterEntry, *, cold: bool) -> Timing:
    """Time adding a card; remove it again untimed so every click sees the same team.

    ``cold`` empties the fragment cache first: the worst case, every card rendered anew."""
    samples = []
    for _ in range(100):
        if cold:
            cache.clear()
        start = time.perf_counter_ns()
        _ok(client.post(add_url, {"item": "wurfhaken"}))
        samples.append(time.perf_counter_ns() - start)
        row = RosterEntryItem.objects.filter(entry=entry).order_by("-position").first()
        assert row is not None
        _ok(client.post(f"{add_url}{row.pk}/remove/"))
    return Timing(
        name=f"builder click: add a card (HTMX, {connection.vendor}"
        + (", cold fragment cache)" if cold else ")"),
        samples_ns=tuple(samples[5:]),
    )
