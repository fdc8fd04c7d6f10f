"""Celery tasks of leagues. They take primary keys and call apps.leagues.pairing_jobs."""

from __future__ import annotations

from celery import shared_task
from django.utils import translation

from apps.leagues import pairing_jobs


@shared_task(
    name="leagues.pair_round",
    # The job in the cache is the result; nothing goes to the result backend.
    ignore_result=True,
    acks_late=True,
    reject_on_worker_lost=True,
)
def pair_round(season_id: int, user_id: int | None, allow_rematches: bool, language: str) -> str:
    """Pair the season's next round; ``language``: the organiser's, for a refusal's message."""
    with translation.override(language):
        return pairing_jobs.pairing_job_run(
            season_id=season_id, user_id=user_id, allow_rematches=allow_rematches
        )
