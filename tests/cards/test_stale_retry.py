"""An export whose worker vanished is queued again, a limited number of times, then fails.

With a broker, an export still "running" after CARDS_STALE_MINUTES goes back to "pending" with
its retry number raised, and a new message carries that number; the old message, should the
broker still deliver it, does nothing. Without a broker (tasks in-process) a stale export
fails as before. tests/faults/test_workers.py does the same with real workers.
"""

from __future__ import annotations

from datetime import timedelta
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.utils import timezone

from apps.cards import services, tasks
from apps.cards.models import CardExport
from apps.rosters.models import Roster
from skirmish.celery import app as celery_app
from tests.cards.factories import export_row

pytestmark = pytest.mark.django_db

Status = CardExport.Status


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """With a broker: the messages sent, as (export id, retry), instead of sending them."""
    messages: list[tuple[int, int]] = []
    monkeypatch.setitem(celery_app.conf, "task_always_eager", False)
    monkeypatch.setattr(
        services, "_enqueue", lambda export_id, retry=0: messages.append((export_id, retry))
    )
    return messages


def stale_running(roster: Roster, settings: Any, **fields: Any) -> CardExport:
    export = export_row(roster, "stale")
    export.fingerprint = services.roster_fingerprint(
        roster, options=services.ExportOptions(), language="en", share_url=""
    )
    export.save()
    long_ago = timezone.now() - timedelta(minutes=settings.CARDS_STALE_MINUTES + 1)
    values = {"status": Status.RUNNING, "attempts": 1, "progress": 10, "started_at": long_ago}
    CardExport.objects.filter(pk=export.pk).update(**{**values, **fields})
    export.refresh_from_db()
    return export


def test_a_stale_running_export_is_queued_again(
    roster, settings, sent, django_capture_on_commit_callbacks
) -> None:
    export = stale_running(roster, settings)
    with django_capture_on_commit_callbacks(execute=True):
        result = services.card_export_retry_stale()
    assert (result.retried, result.failed) == (1, 0)
    export.refresh_from_db()
    assert (export.status, export.retries, export.progress) == (Status.PENDING, 1, 0)
    assert export.started_at is None
    assert timezone.now() - export.queued_at < timedelta(minutes=1)
    assert sent == [(export.pk, 1)]


def test_polling_a_stale_export_queues_it_again(
    roster, settings, sent, django_capture_on_commit_callbacks
) -> None:
    export = stale_running(roster, settings)
    with django_capture_on_commit_callbacks(execute=True):
        polled = services.card_export_check_stale(export)
    assert polled.status == Status.PENDING
    assert not polled.message
    assert sent == [(export.pk, 1)]


def test_the_retried_message_renders_and_an_older_one_does_nothing(
    roster, settings, fake_render
) -> None:
    export = stale_running(roster, settings, status=Status.PENDING, retries=1, started_at=None)
    services.card_export_render(export_id=export.pk, retry=0)  # the lost message, late
    export.refresh_from_db()
    assert (export.status, export.attempts) == (Status.PENDING, 1)
    assert fake_render == []
    services.card_export_render(export_id=export.pk, retry=1)
    export.refresh_from_db()
    assert (export.status, export.attempts) == (Status.DONE, 2)


def test_a_message_without_a_retry_number_is_still_rendered(roster, settings, fake_render) -> None:
    # Messages sent before this version carry no number: they render as they always did.
    export = stale_running(roster, settings, status=Status.PENDING, attempts=0, started_at=None)
    tasks.render_card_export(export.pk)
    export.refresh_from_db()
    assert export.status == Status.DONE


def test_when_the_retries_run_out_the_export_fails_with_a_message(roster, settings, sent) -> None:
    export = stale_running(roster, settings, retries=settings.CARDS_STALE_RETRIES, attempts=2)
    result = services.card_export_retry_stale()
    assert (result.retried, result.failed) == (0, 1)
    export.refresh_from_db()
    assert export.status == Status.FAILED
    assert "stopped without finishing" in export.message
    assert sent == []


def test_an_export_that_killed_every_worker_is_not_retried(roster, settings, sent) -> None:
    export = stale_running(roster, settings, attempts=services.MAX_ATTEMPTS)
    assert services.card_export_retry_stale().failed == 1
    assert CardExport.objects.get(pk=export.pk).status == Status.FAILED


def test_a_retried_export_nobody_takes_up_fails_in_the_end(roster, settings, sent) -> None:
    long_ago = timezone.now() - timedelta(
        minutes=settings.CARDS_STALE_MINUTES * services.PENDING_STALE_FACTOR + 1
    )
    export = stale_running(
        roster, settings, status=Status.PENDING, retries=1, started_at=None, queued_at=long_ago
    )
    assert services.card_export_retry_stale().failed == 1
    export.refresh_from_db()
    assert export.status == Status.FAILED
    assert "No worker took the export up" in export.message


def test_a_recently_retried_export_is_left_waiting(roster, settings, sent) -> None:
    # Created long ago, queued again a moment ago: the wait counts from the retry.
    export = stale_running(
        roster,
        settings,
        status=Status.PENDING,
        retries=1,
        started_at=None,
        queued_at=timezone.now(),
    )
    CardExport.objects.filter(pk=export.pk).update(created_at=timezone.now() - timedelta(days=1))
    assert services.card_export_retry_stale() == services.Stale(retried=0, failed=0)


def test_without_a_broker_a_stale_export_fails_as_before(roster, settings) -> None:
    # In-process, a retry would render inside the request that noticed the stale export.
    assert celery_app.conf.task_always_eager
    export = stale_running(roster, settings)
    assert services.card_export_retry_stale() == services.Stale(retried=0, failed=1)
    assert CardExport.objects.get(pk=export.pk).status == Status.FAILED


def test_the_cleanup_command_says_what_it_retried(
    roster, settings, sent, django_capture_on_commit_callbacks
) -> None:
    stale_running(roster, settings)
    out = StringIO()
    with django_capture_on_commit_callbacks(execute=True):
        call_command("cards_cleanup", stdout=out)
    assert "1 stale export(s) queued again, 0 marked failed" in out.getvalue()


def test_the_render_task_is_redelivered_when_its_worker_dies() -> None:
    task = tasks.render_card_export
    assert task.acks_late and task.reject_on_worker_lost
    # Its row is the result: the web process never waits on the result backend for it.
    assert task.ignore_result
