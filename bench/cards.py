"""Printed cards: a 7-fighter roster with its equipment rendered to PDF, and the overhead of
our pipeline over WeasyPrint rendering the same HTML directly."""

from __future__ import annotations

from django.utils import translation
from weasyprint import HTML
from weasyprint.text.fonts import FontConfiguration

from apps.accounts.models import User
from apps.cards import rendering
from apps.cards.models import CardExport
from apps.cards.services import ExportOptions, card_export_request, print_job
from apps.catalog.services import catalog_load, shipped_catalog_files
from apps.rosters import services
from apps.rosters.selectors import roster_for_owner
from bench.report import Report, measure
from bench.rosters import LARGE_TEAM


def run(report: Report) -> None:
    for path in shipped_catalog_files():
        catalog_load(path)
    user = User.objects.create_user("bench-cards", password="bench-password-123")
    document = {
        "format": "skirmish-roster/1",
        "system": "deathmatch",
        "name": "Bench Cards",
        "faction": "organon",
        "settings": {"game_size": 7},
        "entries": [{"profile": p, "items": items} for p, items in LARGE_TEAM],
    }
    created = services.roster_import(owner=user, document=document)
    # Pending is enough: the job is read from it, the benchmark renders it.
    export: CardExport = card_export_request(
        roster=roster_for_owner(user, created.pk),
        requested_by=user,
        options=ExportOptions(),
        language="de",
        share_url="https://skirmish.example.org/rosters/shared/bench/",
    )
    with translation.override("de"):
        job = print_job(export)
        items = sum(len(items) for _, items in LARGE_TEAM)
        report.section(
            f"Printed cards: 7 fighters, {items} equipment cards, {len(job.cards)} cards + "
            "roster sheet, nine-up A4 (render_pdf: data to PDF bytes)"
        )

        def first_print() -> bytes:
            rendering._FITTED.clear()  # as if this roster's cards were never printed before
            return rendering.render_pdf(job)

        cold = measure(
            "first print of the roster (cards fitted from scratch)", first_print, repeat=5, warmup=1
        )
        report.add(cold)
        warm = measure(
            "printed again (the fitted type sizes remembered)",
            lambda: rendering.render_pdf(job),
            repeat=5,
            warmup=1,
        )
        report.add(warm)

        # The same final HTML straight through WeasyPrint: the floor our pipeline adds to.
        slots = rendering._numbered(
            [rendering._remembered(rendering._Slot(card, i)) for i, card in enumerate(job.cards)]
        )
        html = rendering.document_html(job, slots, sheet=True)
        fetcher = rendering.LocalOnlyFetcher([p.parent for p in rendering.font_paths().values()])
        direct = measure(
            "WeasyPrint alone, the same HTML to PDF",
            lambda: HTML(string=html, url_fetcher=fetcher).write_pdf(
                font_config=FontConfiguration()
            ),
            repeat=5,
            warmup=1,
        )
        report.add(direct)
    print(
        f"  pipeline / WeasyPrint alone: first print {cold.median_ms / direct.median_ms:.2f}×, "
        f"printed again {warm.median_ms / direct.median_ms:.2f}×"
        f"   (target: first print under 2000 ms: {'met' if cold.median_ms < 2000 else 'MISSED'})",
        flush=True,
    )
