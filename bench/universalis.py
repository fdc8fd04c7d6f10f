"""Universalis: the exact odds preview of a full tracker page (every attack form, test button
and the movement test of the acting models), with warm and cold odds caches, and the HTMX
request a changed attack form sends for its new odds."""

from __future__ import annotations

import random

from django.test import Client

from apps.accounts.models import User
from apps.catalog.models import GameSystem
from apps.catalog.services import catalog_load, shipped_catalog_files
from apps.matches import services
from apps.matches.selectors import match_state
from apps.rosters import services as roster_services
from apps.systems.universalis.match import odds
from apps.systems.universalis.match.engine import UniversalisEngine
from apps.systems.universalis.match.tracker.page import TrackerView
from bench.report import Report, measure

GROUPS = {
    "eisenwacht": [
        {"profile": "eisenwacht-hauptfrau-vela-korr"},
        {"profile": "eisenwacht-wachsoldat"},
        {"profile": "eisenwacht-drohnenfuehrer"},
        {"profile": "eisenwacht-spaeherdrohne", "attach_to": 2},
    ],
    "nebelzirkel": [
        {"profile": "nebelzirkel-zirkelmeisterin-ysra", "items": ["nebelmagie-geisterhand"]},
        {"profile": "nebelzirkel-kultist"},
        {"profile": "nebelzirkel-schattenlaeufer"},
    ],
}
SHOT_FORM = {  # with the shooter and its target filled in once the phase runs
    "command": "shoot",
    "args.weapon:int": "0",
    "args.mode": "aimed",
    "args.targets.0._on:bool": "true",
    "args.targets.0.distance:int": "23",
    "args.targets.0.cover": "hard",
    "args.targets.0.shots:int": "1",
}


def _group(faction: str) -> dict[str, object]:
    return {
        "format": "skirmish-roster/1",
        "system": "universalis",
        "name": f"Bench {faction}",
        "faction": faction,
        "settings": {},
        "entries": GROUPS[faction],
    }


ENGINE = UniversalisEngine()


def _cold() -> None:
    odds._wound.cache_clear()
    odds._settle.cache_clear()
    odds._settle_counts.cache_clear()
    odds.comparative_odds.cache_clear()


def run(report: Report) -> None:
    report.section("Universalis odds preview")
    if not GameSystem.objects.filter(slug="universalis").exists():
        for path in shipped_catalog_files():
            catalog_load(path)
    user = User.objects.create_user("bench-universalis", password="bench-password-123")
    system = GameSystem.objects.get(slug="universalis")
    match = services.match_create(
        creator=user,
        system=system,
        mode="secret",
        seats=[
            services.Seat(
                "A", roster_services.roster_import(owner=user, document=_group("eisenwacht"))
            ),
            services.Seat(
                "B", roster_services.roster_import(owner=user, document=_group("nebelzirkel"))
            ),
        ],
        settings={},
        rng=random.Random(1),
    )
    rng = random.Random(2)
    for type_, args in (
        ("choose_mission", {"player": 0, "mission": "vernichtung"}),
        ("choose_mission", {"player": 1, "mission": "vernichtung"}),
        ("roll_deployment", {}),
        ("start_game", {}),
        ("pick", {"player": 0, "unit": 2}),
        ("pick", {"player": 1, "unit": 4}),
    ):
        services.match_apply_command(
            user=user,
            match_id=match.pk,
            command_type=type_,
            args=args,
            expected_seq=None,
            idempotency_key=None,
            rng=rng,
        )
    match.refresh_from_db()
    state = match_state(match)
    assert state.active is not None, "no initiative phase is running"
    shooter = state.units[state.active]
    enemy = next(u for u in state.units if u.player != shooter.player and u.in_play)
    shot_form = {
        **SHOT_FORM,
        "args.unit:int": str(shooter.id),
        "args.targets.0.unit:int": str(enemy.id),
    }

    def page() -> TrackerView:
        view: TrackerView = ENGINE.tracker(state, selected=None, params={})
        return view

    def page_cold() -> TrackerView:
        _cold()
        return page()

    def form() -> TrackerView:
        view: TrackerView = ENGINE.tracker(state, selected=None, params=shot_form)
        return view

    members = len(page().members)
    note = f"{members} acting models"
    report.add(
        measure(
            "tracker view: every odds preview and every button's verdict (warm)",
            page,
            repeat=300,
            note=note,
        )
    )
    report.add(
        measure(
            "tracker view with every odds preview (cold caches)", page_cold, repeat=100, note=note
        )
    )
    report.add(measure("tracker view previewing a filled-in shot form (warm)", form, repeat=300))

    client = Client()
    client.force_login(user)
    url = f"/matches/{match.pk}/"

    def preview_request() -> None:
        response = client.get(url, shot_form, HTTP_HX_REQUEST="true")
        assert response.status_code == 200

    report.add(
        measure(
            "HTMX odds preview request (whole tracker, server time)", preview_request, repeat=50
        )
    )
