"""The floor of a tap (issue 16): a bare view that does what every command must, a POST by a
logged-in user that inserts a row and reads it back in a transaction, measured in the
same run as the API command and the HTMX tap, which are printed as multiples of it."""

from __future__ import annotations

import itertools
import statistics
import time
import uuid
from collections.abc import Callable

from django.contrib.auth.decorators import login_required
from django.db import connection, transaction
from django.http import HttpRequest, JsonResponse
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import include, path
from django.views.decorators.http import require_POST

from apps.matches.models import Match, MatchEvent
from bench.long_logs import free_flip
from bench.report import Report, Timing

_FLOOR_SEQ = itertools.count(1_000_000)

# Before the tap work of issue 16 (commit 1927903), measured on this machine with ``main()``
# as it is now (floor, API command and tap interleaved, medians; the machine was shared, so
# ratios only): multiples of the floor's wall time and queries per request. Measured before
# with the floor's URL configuration overridden per request, which cleared the URL caches
# before every tap, the same commit read 2.9x and 7x.
BEFORE = {"api": (2.8, 10), "tap": (5.9, 16)}


@login_required
@require_POST
def floor_view(request: HttpRequest, match_id: int) -> JsonResponse:
    with transaction.atomic():
        seq = next(_FLOOR_SEQ)
        MatchEvent.objects.create(match_id=match_id, seq=seq, group=seq, type="floor")
        last = MatchEvent.objects.filter(match_id=match_id, seq=seq).values("seq").first()
    return JsonResponse({"seq": last["seq"] if last else None})


urlpatterns = [
    path("bench/tap-floor/<int:match_id>/", floor_view),
    path("", include("skirmish.urls")),
]


def add_ratio(report: Report, timing: Timing, floor: Timing, goal: float) -> None:
    ratio = timing.median_ms / floor.median_ms
    verdict = "meets" if ratio <= goal else "misses"
    kind = "tap" if timing.name.startswith("HTMX") else "api"
    report.add(
        Timing(
            timing.name,
            timing.samples_ns,
            note=f"{ratio:.1f}× the floor; goal ≤ {goal:g}×: {verdict};"
            f" before: {BEFORE[kind][0]:g}×",
        )
    )


def queries_of(action: Callable[[], object]) -> int:
    with CaptureQueriesContext(connection) as captured:
        action()
    return len(captured)


def interleaved_timings(
    actions: dict[str, Callable[[], object]], *, repeat: int, warmup: int = 20
) -> tuple[dict[str, Timing], dict[str, list[float]]]:
    """Each action in turn, ``repeat`` times, after ``warmup`` rounds: on a shared machine
    the floor and the taps then see the same load, so their ratios hold where medians taken
    in blocks a minute apart drift with the machine. Wall times as Timings (named by their
    keys), and the CPU seconds of each run."""
    for _ in range(warmup):
        for action in actions.values():
            action()
    wall: dict[str, list[int]] = {name: [] for name in actions}
    cpu: dict[str, list[float]] = {name: [] for name in actions}
    for _ in range(repeat):
        for name, action in actions.items():
            started, used = time.perf_counter_ns(), time.process_time()
            action()
            wall[name].append(time.perf_counter_ns() - started)
            cpu[name].append(time.process_time() - used)
    return {name: Timing(name, tuple(samples)) for name, samples in wall.items()}, cpu


def interleaved(actions: dict[str, Callable[[], object]], *, repeat: int) -> None:
    """``interleaved_timings``, printed: wall and CPU medians as multiples of the first
    action's, and the queries of one request."""
    counts = {name: queries_of(action) for name, action in actions.items()}
    timings, cpu = interleaved_timings(actions, repeat=repeat)
    base = next(iter(actions))
    floor_wall, floor_cpu = timings[base].median_ms, statistics.median(cpu[base])
    for name in actions:
        w, c = timings[name].median_ms, statistics.median(cpu[name])
        before = (
            f"   before: {BEFORE[name][0]:g}×, {BEFORE[name][1]} queries" if name in BEFORE else ""
        )
        print(
            f"  {name:6} wall {w:7.3f} ms ({w / floor_wall:4.2f}×)"
            f"   cpu {c * 1e3:7.3f} ms ({c / floor_cpu:4.2f}×)   {counts[name]} queries{before}",
            flush=True,
        )


def floor_api_and_tap(
    client: Client, floor_match: Match, match: Match, *, repeat: int
) -> tuple[Timing, Timing, Timing]:
    """The floor, the API command and the HTMX tap measured in turn (``interleaved_timings``),
    named for the report."""
    actions = {"floor": floor_action(client, floor_match.pk), **api_and_tap(client, match)}
    with override_settings(ROOT_URLCONF="bench.taps"):
        timings, _cpu = interleaved_timings(actions, repeat=repeat)
    return (
        Timing("floor: POST + login + insert + select", timings["floor"].samples_ns),
        Timing(
            "POST /api/v1/matches/{id}/commands/ (server time, same log)",
            timings["api"].samples_ns,
        ),
        Timing("HTMX tap: command + tracker partial (same log)", timings["tap"].samples_ns),
    )


def floor_action(client: Client, match_id: int) -> Callable[[], None]:
    """The floor's request; its URL is served only with ``ROOT_URLCONF="bench.taps"``, set
    around a whole run (overriding it per request would clear the URL caches each time)."""

    def action() -> None:
        client.post(f"/bench/tap-floor/{match_id}/", {"key": uuid.uuid4().hex})

    return action


def api_and_tap(client: Client, match: Match) -> dict[str, Callable[[], None]]:
    """An API command and an HTMX tap that may run in turn (each sends the seq the other
    left, as two devices of one table would)."""
    seq = [Match.objects.filter(pk=match.pk).values_list("seq", flat=True).get()]

    def api() -> None:
        response = client.post(
            f"/api/v1/matches/{match.pk}/commands/",
            {"type": "flip", "args": {"player": 0}, "idempotency_key": uuid.uuid4().hex},
            content_type="application/json",
        )
        assert response.status_code == 200, response.content
        seq[0] = response.json()["seq"]

    def tap() -> None:
        data = {
            "command": "flip",
            "args.player:int": "0",
            "expected_seq": str(seq[0]),
            "idempotency_key": uuid.uuid4().hex,
        }
        response = client.post(f"/matches/{match.pk}/command/", data, HTTP_HX_REQUEST="true")
        assert response.status_code == 200, response.status_code
        seq[0] = int(response["X-Skirmish-Command-Seq"])

    return {"api": api, "tap": tap}


def main() -> None:
    """The floor, the API command and the HTMX tap at 1,000 events, interleaved, with the
    figures from before. With ``make bench``'s environment and DJANGO_SETTINGS_MODULE set:
    ``python -c "import django; django.setup(); from bench import taps; taps.main()"``."""
    import os
    import random

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "skirmish.settings")
    import django

    django.setup()
    from django.test.utils import setup_databases, teardown_databases

    databases = setup_databases(verbosity=0, interactive=False)
    try:
        from apps.accounts.models import User
        from apps.catalog.models import GameSystem
        from apps.catalog.services import catalog_load, shipped_catalog_files
        from apps.matches import services
        from apps.matches.models import MatchEvent
        from apps.rosters import services as roster_services
        from bench.matches import LOG_LENGTH, _team

        for path in shipped_catalog_files():
            catalog_load(path)
        user = User.objects.create_user("bench-taps", password="bench-password-123")
        system = GameSystem.objects.get(slug="deathmatch")
        teams = [
            roster_services.roster_import(owner=user, document=_team(faction, entries))
            for faction, entries in (
                (
                    "phalanx",
                    ["phalanx-hauptmann-brandt", "phalanx-schildtraeger", "phalanx-brandmeister"],
                ),
                (
                    "shelzahav",
                    [
                        "shelzahav-emirin-sahar-vel",
                        "shelzahav-duenenlaeufer",
                        "shelzahav-scharfschuetzin",
                    ],
                ),
            )
        ]

        def new_match() -> Match:
            return services.match_create(
                creator=user,
                system=system,
                mode="deathmatch",
                seats=[services.Seat("A", teams[0]), services.Seat("B", teams[1])],
                settings={"game_size": 3, "gadgets": False},
                rng=random.Random(1),
            )

        match, floor_match = new_match(), new_match()
        rng = random.Random(2)
        while MatchEvent.objects.filter(match=match).count() < LOG_LENGTH:
            free_flip(user, match, rng)
        client = Client()
        client.force_login(user)
        print(f"Taps at {LOG_LENGTH} events, interleaved with the floor ({connection.vendor})")
        actions = {"floor": floor_action(client, floor_match.pk), **api_and_tap(client, match)}
        with override_settings(ROOT_URLCONF="bench.taps"):
            interleaved(actions, repeat=300)
    finally:
        teardown_databases(databases, verbosity=0)
