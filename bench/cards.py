"""Printed cards: a 7-fighter roster with its equipment rendered to PDF, and the overhead of
our pipeline over WeasyPrint rendering the same HTML directly.

Two teams: a legal Large team (7 fighters, one card each bought, 15 cards) and the rosters
benchmark's overloaded team (7 fighters, 20 equipment cards, 28 cards) as a worst case. Then
an export at the ceiling (rendering.MAX_CARDS_PER_EXPORT cards) in a process of its own: its
time and peak memory.
"""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import replace

from django.utils import translation
from weasyprint import HTML
from weasyprint.text.fonts import FontConfiguration

from apps.accounts.models import User
from apps.cards import fits, rendering
from apps.cards.models import CardExport
from apps.cards.services import ExportOptions, print_job, roster_fingerprint
from apps.catalog.services import catalog_load, shipped_catalog_files
from apps.rosters import services
from apps.rosters.selectors import roster_for_owner
from bench.report import Report, Timing
from bench.rosters import LARGE_TEAM

LEGAL_LARGE_TEAM = [
    ("organon-direktorin-ilva-syn", ["kampfstimulanzien"]),
    ("organon-konzernschuetze", ["medkit"]),
    ("organon-atalante-klon", ["ruestungsupgrade-sprungmodule"]),
    ("phalanx-linienschuetze", ["wurfhaken"]),
    ("organon-syntek-techniker", ["plasmaklinge"]),
    ("atalante-c021-anzi", ["medkit"]),
    ("organon-argus-geschuetzturm", ["zweite-pistole"]),
]
SHARE_URL = "https://skirmish.example.org/rosters/shared/bench/"


def _export(user: User, name: str, team: list[tuple[str, list[str]]]) -> CardExport:
    """A pending export of ``team`` (not queued: the benchmark renders it itself)."""
    created = services.roster_import(
        owner=user,
        document={
            "format": "skirmish-roster/1",
            "system": "deathmatch",
            "name": name,
            "faction": "organon",
            "settings": {"game_size": 7},
            "entries": [{"profile": p, "items": items} for p, items in team],
        },
    )
    roster = roster_for_owner(user, created.pk)
    options = ExportOptions()
    return CardExport.objects.create(
        system=roster.system,
        roster=roster,
        requested_by=user,
        fingerprint=roster_fingerprint(roster, options=options, language="de", share_url=SHARE_URL),
        language="de",
        share_url=SHARE_URL,
        **options.as_dict(),
    )


def interleaved(actions: list[tuple[str, Callable[[], object]]], *, repeat: int) -> list[Timing]:
    """Time each action ``repeat`` times, taking turns (after one warm-up round)."""
    samples: dict[str, list[int]] = {name: [] for name, _action in actions}
    for round_ in range(repeat + 1):
        for name, action in actions:
            start = time.perf_counter_ns()
            action()
            if round_:
                samples[name].append(time.perf_counter_ns() - start)
    return [Timing(name=name, samples_ns=tuple(samples[name])) for name, _action in actions]


def _team(report: Report, export: CardExport, label: str) -> rendering.PrintJob:
    with translation.override("de"):
        job = print_job(export)
        report.section(
            f"Printed cards, {label}: {len(job.cards)} cards + roster sheet, nine-up A4 "
            "(render_pdf: data to PDF bytes)"
        )
        keys = [fits.fit_key(job.system_slug, card) for card in job.cards]

        def never_fitted() -> bytes:
            fits.forget(keys)  # as if nobody had ever printed these cards' texts
            return rendering.render_pdf(job)

        def first_print() -> bytes:
            # A new roster (or a restarted worker): every card's fit is in the shared store,
            # nothing of this print is in the process.
            return rendering.render_pdf(job)

        rendering.render_pdf(job)  # fits the cards: the HTML below is the final one
        renderer = rendering._Renderer(job)
        slots = rendering._numbered(rendering._recalled(renderer)[0])
        html = rendering.document_html(job, slots, sheet=True)
        fetcher = rendering.LocalOnlyFetcher(
            [path.parent for path in rendering.font_paths().values()]
        )

        def weasyprint_alone() -> bytes:
            return HTML(string=html, url_fetcher=fetcher).write_pdf(font_config=FontConfiguration())

        # Interleaved, so that a busy machine (2 shared cores) slows all three alike.
        cold, warm, direct = interleaved(
            [
                ("texts never fitted (store empty, two layouts)", never_fitted),
                ("first print, fits in the shared store", first_print),
                ("floor: WeasyPrint alone, the same HTML to PDF", weasyprint_alone),
            ],
            repeat=5,
        )
        for timing in (cold, warm, direct):
            report.add(timing)
    ratio = warm.median_ms / direct.median_ms
    print(
        f"  pipeline / WeasyPrint alone: first print {ratio:.2f}× (goal ≤ 1.3×: "
        f"{'yes' if ratio <= 1.3 else 'NO'}), texts never fitted "
        f"{cold.median_ms / direct.median_ms:.2f}×",
        flush=True,
    )
    return job


def _ceiling(job: rendering.PrintJob) -> None:
    """An export at the ceiling, rendered in a fresh process (as a worker's pool process would):
    its time and peak RSS. The floor: the same process before the render."""
    limit = rendering.MAX_CARDS_PER_EXPORT
    cards = (job.cards * (limit // len(job.cards) + 1))[:limit]
    print(f"\nPrinted cards at the ceiling: {limit} cards + roster sheet, one process", flush=True)
    payload = pickle.dumps((replace(job, cards=cards, layouts=None), "de"))
    for label in ("texts never fitted", "fits in the shared store"):
        # Each run is a new process with its own (local-memory) cache unless REDIS_URL is set:
        # "never fitted" first; the second run is given the fits by running the first in it.
        env = {**os.environ, "BENCH_CARD_RUNS": "1" if label == "texts never fitted" else "2"}
        done = subprocess.run(
            [sys.executable, "-m", "bench.card_memory"],
            input=payload,
            capture_output=True,
            check=True,
            env=env,
            timeout=600,
        )
        figures = json.loads(done.stdout.decode().strip().splitlines()[-1])
        print(
            f"  {label:<28} {figures['seconds']:7.2f} s   peak RSS {figures['peak_mb']:6.0f} MB "
            f"(floor: the process before the render {figures['before_mb']:.0f} MB; "
            f"goal ≤ 300 MB: {'yes' if figures['peak_mb'] <= 300 else 'NO'})   "
            f"{figures['bytes'] / 2**20:.1f} MB PDF",
            flush=True,
        )


def run(report: Report) -> None:
    for path in shipped_catalog_files():
        catalog_load(path)
    user = User.objects.create_user("bench-cards", password="bench-password-123")
    _team(
        report,
        _export(user, "Bench Legal", LEGAL_LARGE_TEAM),
        "a legal Large team (7 fighters, 7 equipment cards)",
    )
    worst = _team(
        report,
        _export(user, "Bench Overloaded", LARGE_TEAM),
        "worst case (7 fighters, 20 equipment cards)",
    )
    _ceiling(worst)
