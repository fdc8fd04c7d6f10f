"""Stahlgewitter (issue 17, with issue 16's goals): the exact odds of every column of the combat
results table and of the morale tests, cold and warm (goal ≤ 5 ms cold); a seeded game played
through the API, each command the tracker offered as legal, next to the tap floor measured in
the same run (goal ≤ 3×); the tracker view model (every button's verdict) and the HTMX refresh
of the tracker partial."""

from __future__ import annotations

import random
import time
import uuid
from typing import Any

from django.test import Client, override_settings

from apps.accounts.models import User
from apps.catalog.models import GameSystem
from apps.catalog.services import catalog_load, shipped_catalog_files
from apps.matches import services
from apps.matches.models import Match
from apps.matches.selectors import match_state
from apps.rosters import services as roster_services
from apps.systems.core.registry import registry
from apps.systems.stahlgewitter import odds
from apps.systems.stahlgewitter.tables import COLUMNS
from bench import taps
from bench.report import Report, Timing, measure

GOAL_ODDS_MS = 5.0
GOAL_API = 3.0
COMMANDS = 120
# Giving up ends the game the bench plays; the other side commands stay in.
SKIPPED = frozenset({"concede", "end_on_time"})

ARMIES: dict[str, list[dict[str, Any]]] = {
    "sek": [
        {"profile": "sek-offizier", "items": ["sturmgewehre", "kampfsport"], "name": "Kommando"},
        {"profile": "sek-soldat", "items": ["maschinenpistolen"], "count": 3, "attach_to": 0},
        {"profile": "sek-unteroffizier", "items": ["maschinengewehre"], "name": "Feuertrupp"},
        {"profile": "sek-soldat", "items": ["gewehre"], "count": 3, "attach_to": 2},
    ],
    "legion-666": [
        {"profile": "legion-666-offizier", "items": ["plasmapistolen"], "name": "Offizier"},
        {"profile": "legion-666-unteroffizier", "items": ["bolzenpistolen"], "name": "Kultisten"},
        {"profile": "legion-666-kultist", "items": ["messer"], "count": 4, "attach_to": 1},
        {"profile": "legion-666-soldat", "items": ["gewehre"], "count": 3, "name": "Trupp"},
    ],
}


def _army(faction: str) -> dict[str, object]:
    return {
        "format": "skirmish-roster/1",
        "system": "stahlgewitter",
        "name": f"Bench {faction}",
        "faction": faction,
        "settings": {},
        "entries": ARMIES[faction],
    }


def _cold_odds() -> object:
    odds._letter_weights.cache_clear()
    odds._row_weights.cache_clear()
    return [odds.letter_weights(column, bonus) for column in COLUMNS for bonus in (0, 1)]


def _morale_odds() -> object:
    return [
        odds.morale_pass_weight(wik, modifier, reroll=reroll)
        for wik in range(0, 13)
        for modifier in (0, 1, 2)
        for reroll in (False, True)
    ]


def _ratio(report: Report, timing: Timing, floor: Timing, goal: float, unit: str) -> None:
    ratio = timing.median_ms / floor.median_ms if floor.median_ms else float("inf")
    verdict = "meets" if ratio <= goal else "misses"
    report.add(
        Timing(
            timing.name, timing.samples_ns, note=f"{ratio:.1f}× {unit}; goal ≤ {goal:g}×: {verdict}"
        )
    )


def _odds(report: Report) -> None:
    floor = measure("floor: warm cache hit", lambda: odds.letter_weights(4), repeat=300)
    report.add(floor)
    for name, action, repeat in (
        ("letter odds of all 16 columns, with and without +1, cold", _cold_odds, 50),
        ("morale pass chances, WIK 0-12 × modifiers × reroll", _morale_odds, 50),
    ):
        timing = measure(name, action, repeat=repeat, warmup=1)
        verdict = "ok" if timing.median_ms <= GOAL_ODDS_MS else "OVER"
        report.add(
            Timing(
                timing.name,
                timing.samples_ns,
                note=f"goal ≤ {GOAL_ODDS_MS:g} ms: {verdict}",
            )
        )


def _match(user: User) -> Match:
    system = GameSystem.objects.get(slug="stahlgewitter")
    return services.match_create(
        creator=user,
        system=system,
        mode="free",
        seats=[
            services.Seat("A", roster_services.roster_import(owner=user, document=_army("sek"))),
            services.Seat(
                "B", roster_services.roster_import(owner=user, document=_army("legion-666"))
            ),
        ],
        settings={"rounds": 6},
        rng=random.Random(1),
    )


def _play(
    client: Client, match: Match, floor_match: Match, rng: random.Random
) -> tuple[Timing, Timing, Timing, Timing]:
    """Up to ``COMMANDS`` commands through the API, each one the tracker offered as legal; before
    each, the tracker view model of that state, the HTMX refresh of the tracker partial and the
    floor's request (in turn with the commands: ratios that hold on a shared machine)."""
    engine = registry().get("stahlgewitter").matches
    assert engine is not None
    floor = taps.floor_action(client, floor_match.pk)
    floors: list[int] = []
    api: list[int] = []
    views: list[int] = []
    refreshes: list[int] = []
    url = f"/api/v1/matches/{match.pk}/commands/"
    for _ in range(COMMANDS):
        match.refresh_from_db()
        state = match_state(match)
        if engine.finished(state):
            break
        started = time.perf_counter_ns()
        engine.tracker(state, selected=None, params={})
        views.append(time.perf_counter_ns() - started)

        def refresh() -> None:
            response = client.get(f"/matches/{match.pk}/", HTTP_HX_REQUEST="true")
            assert response.status_code == 200

        refreshes += measure("", refresh, repeat=1, warmup=0).samples_ns
        # Each seat's screens: a hidden unit's buttons are offered to its owner only.
        offered = [
            option.command
            for viewer in (0, 1)
            for option in engine.legal_commands(state, viewer=viewer)
            if option.refusal is None and option.command.type not in SKIPPED
        ]
        command = rng.choice(offered)
        body = {
            "type": command.type,
            "args": dict(command.args),
            "idempotency_key": uuid.uuid4().hex,
        }

        def post(body: dict[str, Any] = body) -> None:
            response = client.post(url, body, content_type="application/json")
            assert response.status_code == 200, response.content

        floors += measure("", floor, repeat=1, warmup=0).samples_ns
        api += measure("", post, repeat=1, warmup=0).samples_ns
    return (
        Timing("floor: POST + login + insert + select", tuple(floors)),
        Timing("API command (random legal commands of a seeded game)", tuple(api)),
        Timing("tracker view model: every button's verdict", tuple(views)),
        Timing("HTMX refresh of the tracker (server time)", tuple(refreshes)),
    )


def run(report: Report) -> None:
    report.section("Stahlgewitter: exact odds, commands and the tracker")
    if not GameSystem.objects.filter(slug="stahlgewitter").exists():
        for path in shipped_catalog_files():
            catalog_load(path)
    _odds(report)
    user = User.objects.create_user("bench-stahlgewitter", password="bench-password-123")
    client = Client()
    client.force_login(user)
    floor_match, match = _match(user), _match(user)
    with override_settings(ROOT_URLCONF="bench.taps"):
        for _ in range(20):  # warm the floor's path
            taps.floor_action(client, floor_match.pk)()
        floor, api, view, refresh = _play(client, match, floor_match, random.Random(3))
    report.add(floor)
    _ratio(report, api, floor, GOAL_API, "the floor")
    report.add(view)
    report.add(refresh)
