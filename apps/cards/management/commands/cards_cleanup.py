"""`manage.py cards_cleanup`: what the periodic task does, for a cron job or by hand."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from apps.cards.services import card_export_cleanup


class Command(BaseCommand):
    help = (
        "Mark card exports whose worker died as failed and delete finished exports (and their "
        "PDF files) older than CARDS_KEEP_DAYS."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        result = card_export_cleanup()
        self.stdout.write(
            f"{result.stale} stale export(s) marked failed, {result.deleted} old export(s) deleted."
        )
