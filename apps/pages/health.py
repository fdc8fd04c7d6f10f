"""What ``/healthz`` checks: the database (required) and the Celery broker (when configured)."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.db import DatabaseError, connection


@dataclass(frozen=True)
class Health:
    database: str  # "ok" | "unavailable"
    broker: str  # "ok" | "unreachable" | "not configured" (tasks run in-process)

    @property
    def healthy(self) -> bool:
        return self.database == "ok"

    @property
    def status(self) -> str:
        if not self.healthy:
            return "unavailable"
        return "degraded" if self.broker == "unreachable" else "ok"


def check_database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        return "unavailable"
    return "ok"


def check_broker(timeout: float = 1.0) -> str:
    if not settings.CELERY_BROKER_URL:
        return "not configured"
    from skirmish.celery import app

    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=timeout)
    except Exception:  # kombu raises transport-specific errors; any failure means unreachable
        return "unreachable"
    return "ok"


def health_check() -> Health:
    return Health(database=check_database(), broker=check_broker())
