"""The growth table (issue 16): command, undo, events tail, log.json per event and the tracker
page at 10 / 100 / 1,000 / 10,000 events, each with its ratio to its value at 100 (goal: at
most 1.2× at 10,000). Logs are built in bulk (``bench.long_logs``); about a minute in all."""

from __future__ import annotations

import random
import time
import uuid
from collections.abc import Callable

from django.test import Client

from apps.accounts.models import User
from apps.catalog.models import GameSystem
from apps.matches import services
from apps.matches.models import Match
from apps.rosters import services as roster_services
from apps.rosters.models import Roster
from bench.long_logs import free_flip, grow
from bench.matches import _team
from bench.report import Report, Timing, measure

SIZES = (10, 100, 1_000, 10_000)
BASE = 100
GOAL = 1.2
# Fewer samples where one costs more (log.json reads the whole log, by design).
REPEAT = {"command": 30, "undo": 20, "events tail": 40, "log.json per event": 3, "tracker": 20}


def _match(user: User, system: GameSystem, events: int) -> Match:
    first = Roster.objects.filter(owner=user).order_by("pk")[0]
    second = Roster.objects.filter(owner=user).order_by("pk")[1]
    match = services.match_create(
        creator=user,
        system=system,
        mode="deathmatch",
        seats=[services.Seat("A", first), services.Seat("B", second)],
        settings={"game_size": 3, "gadgets": False},
        rng=random.Random(events),
    )
    return grow(match, events=events, seed=events)


def _undo_samples(user: User, match: Match, rng: random.Random, repeat: int) -> Timing:
    """Each sample undoes a command just sent (the command itself is not timed)."""
    samples = []
    for _ in range(repeat + 3):
        free_flip(user, match, rng)
        start = time.perf_counter_ns()
        services.match_apply_command(
            user=user,
            match_id=match.pk,
            command_type="undo",
            args={},
            expected_seq=None,
            idempotency_key=uuid.uuid4().hex,
        )
        samples.append(time.perf_counter_ns() - start)
    return Timing("undo", tuple(samples[3:]))


def _per_event(name: str, timing: Timing, events: int) -> Timing:
    return Timing(name, tuple(sample // events for sample in timing.samples_ns))


def _measure_size(user: User, client: Client, match: Match) -> dict[str, float]:
    rng = random.Random(match.pk)
    figures: dict[str, Callable[[], Timing]] = {
        "command": lambda: measure(
            "command", lambda: free_flip(user, match, rng), repeat=REPEAT["command"], warmup=3
        ),
        "undo": lambda: _undo_samples(user, match, rng, REPEAT["undo"]),
        "events tail": lambda: measure(
            "events tail",
            lambda: client.get(
                f"/api/v1/matches/{match.pk}/events/",
                {"after": Match.objects.values_list("seq", flat=True).get(pk=match.pk) - 3},
            ),
            repeat=REPEAT["events tail"],
            warmup=3,
        ),
        "log.json per event": lambda: _per_event(
            "log.json per event",
            measure(
                "log.json",
                lambda: client.get(f"/matches/{match.pk}/log.json"),
                repeat=REPEAT["log.json per event"],
                warmup=1,
            ),
            max(match.events.count(), 1),
        ),
        "tracker": lambda: measure(
            "tracker",
            lambda: client.get(f"/matches/{match.pk}/"),
            repeat=REPEAT["tracker"],
            warmup=3,
        ),
    }
    return {name: make().median_ms for name, make in figures.items()}


def run(report: Report) -> None:
    report.section("Growth in the log's length (median ms; ratio to 100 events; goal ≤ 1.2×)")
    user = User.objects.create_user("bench-growth", password="bench-password-123")
    system = GameSystem.objects.get(slug="deathmatch")
    for faction, entries in (
        ("phalanx", ["phalanx-hauptmann-brandt", "phalanx-schildtraeger", "phalanx-brandmeister"]),
        (
            "shelzahav",
            ["shelzahav-emirin-sahar-vel", "shelzahav-duenenlaeufer", "shelzahav-scharfschuetzin"],
        ),
    ):
        roster_services.roster_import(owner=user, document=_team(faction, entries))
    client = Client()
    client.force_login(user)
    started = time.perf_counter()
    table = {}
    for size in SIZES:
        table[size] = _measure_size(user, client, _match(user, system, size))
    names = list(table[BASE])
    print(f"  {'events':<22}" + "".join(f"{size:>18,}" for size in SIZES), flush=True)
    for name in names:
        cells = []
        for size in SIZES:
            value, ratio = table[size][name], table[size][name] / table[BASE][name]
            cells.append(f"{value:9.3f} ({ratio:4.2f}×)")
        verdict = "meets" if table[SIZES[-1]][name] / table[BASE][name] <= GOAL else "misses"
        print(f"  {name:<22}" + "".join(f"{cell:>18}" for cell in cells) + f"  {verdict}")
    print(f"  (built and measured in {time.perf_counter() - started:.0f} s)", flush=True)
