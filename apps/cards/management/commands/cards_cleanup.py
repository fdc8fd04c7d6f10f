"""`manage.py cards_cleanup`: what the periodic task does, for a cron job or by hand."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from apps.cards.services import card_export_cleanup


class Command(BaseCommand):
    help = (
        "Queue card exports whose worker died again (up to CARDS_STALE_RETRIES times) or mark "
        "them failed, and delete finished exports (and their PDF files) older than "
        "CARDS_KEEP_DAYS."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        result = card_export_cleanup()
        self.stdout.write(
            f"{result.retried} stale export(s) queued again, {result.stale} marked failed, "
            f"{result.deleted} old export(s) deleted."
        )
