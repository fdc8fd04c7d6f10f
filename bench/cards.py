"""Printed cards: a 7-fighter roster with its equipment rendered to PDF, and the overhead of
our pipeline over WeasyPrint rendering the same HTML directly.

Two teams: a legal Large team (7 fighters, one card each bought, 15 cards) and the rosters
benchmark's overloaded team (7 fighters, 20 equipment cards, 28 cards) as a worst case.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from django.utils import translation
from weasyprint import HTML
from weasyprint.text.fonts import FontConfiguration

from apps.accounts.models import User
from apps.cards import rendering
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


def _team(report: Report, export: CardExport, label: str) -> None:
    with translation.override("de"):
        job = print_job(export)
        report.section(
            f"Printed cards, {label}: {len(job.cards)} cards + roster sheet, nine-up A4 "
            "(render_pdf: data to PDF bytes)"
        )

        def first_print() -> bytes:
            rendering._FITTED.clear()  # as if these cards were never printed before
            return rendering.render_pdf(job)

        def printed_again() -> bytes:
            return rendering.render_pdf(job)

        rendering.render_pdf(job)  # fits the cards: the HTML below is the final one
        # The same final HTML straight through WeasyPrint: the floor our pipeline adds to.
        slots = rendering._numbered(
            [rendering._remembered(rendering._Slot(card, i)) for i, card in enumerate(job.cards)]
        )
        html = rendering.document_html(job, slots, sheet=True)
        fetcher = rendering.LocalOnlyFetcher(
            [path.parent for path in rendering.font_paths().values()]
        )

        def weasyprint_alone() -> bytes:
            return HTML(string=html, url_fetcher=fetcher).write_pdf(font_config=FontConfiguration())

        # Interleaved, so that a busy machine (2 shared cores) slows all three alike.
        cold, warm, direct = interleaved(
            [
                ("first print (cards fitted from scratch)", first_print),
                ("printed again (fitted type sizes remembered)", printed_again),
                ("WeasyPrint alone, the same HTML to PDF", weasyprint_alone),
            ],
            repeat=5,
        )
        for timing in (cold, warm, direct):
            report.add(timing)
    print(
        f"  pipeline / WeasyPrint alone: first print {cold.median_ms / direct.median_ms:.2f}×, "
        f"printed again {warm.median_ms / direct.median_ms:.2f}×; first print under 2 s: "
        f"{'yes' if cold.median_ms < 2000 else 'NO'}",
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
    _team(
        report,
        _export(user, "Bench Overloaded", LARGE_TEAM),
        "worst case (7 fighters, 20 equipment cards)",
    )
