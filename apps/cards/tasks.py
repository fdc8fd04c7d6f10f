"""Celery tasks of printed cards. They take primary keys and call the services."""

from __future__ import annotations

from celery import shared_task
from django.db import DatabaseError

from apps.cards import services


@shared_task(
    name="cards.render_export",
    # Acknowledged only when done, and handed back to the queue when the worker process dies
    # mid-task: a killed worker's export is rendered again by the next one. The service
    # counts attempts, so an export that kills every worker fails instead of looping.
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(DatabaseError,),
    retry_backoff=True,
    max_retries=3,
    # The export's row is the result: nothing is stored in the result backend, and the web
    # process that sends the task does not subscribe to a result it never reads.
    ignore_result=True,
)
def render_card_export(export_id: int, retry: int | None = None) -> str:
    """``retry``: the stale retry this message was sent for (absent in older messages)."""
    export = services.card_export_render(export_id=export_id, retry=retry)
    return export.status if export is not None else "deleted"


@shared_task(name="cards.cleanup", ignore_result=True)
def cleanup_card_exports() -> dict[str, int]:
    """Periodic (CELERY_BEAT_SCHEDULE): retry or fail stale exports, delete old files."""
    result = services.card_export_cleanup()
    return {"stale": result.stale, "retried": result.retried, "deleted": result.deleted}
