"""Celery tasks of notifications. They take primary keys and call the services."""

from __future__ import annotations

from celery import shared_task
from django.db import DatabaseError

from apps.notifications import emails, services


@shared_task(
    name="notifications.send_email",
    ignore_result=True,
    acks_late=True,
    reject_on_worker_lost=True,
    # A mail server that is down or slow (smtplib's errors are OSErrors), or the database.
    autoretry_for=(OSError, DatabaseError),
    retry_backoff=True,
    max_retries=3,
)
def send_notification_email(notification_id: int) -> str:
    return emails.notification_email_send(notification_id=notification_id)


@shared_task(name="notifications.deadline_reminders", ignore_result=True)
def send_deadline_reminders() -> int:
    """Periodic (CELERY_BEAT_SCHEDULE): remind players of reports about to count."""
    return services.deadline_reminders_send()
