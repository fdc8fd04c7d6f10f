"""Tasks of the site itself."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="pages.ping")
def ping(value: str = "pong") -> str:
    """Echo a value: proves that a worker takes tasks from the broker and returns results."""
    return value
