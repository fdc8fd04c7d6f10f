"""A real Celery worker on the real Redis renders a real PDF, and a worker killed mid-task
hands its export to the next attempt.

The worker is another process, so it needs a database it can share with the test: these
tests run on PostgreSQL (CI: DATABASE_URL), against committed data (transaction=True).
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from celery.utils.imports import instantiate
from django.core.files.storage import default_storage
from django.db import connection, transaction

from apps.cards import services
from apps.cards.models import CardExport
from apps.rosters import services as roster_services
from apps.rosters.selectors import roster_for_owner
from skirmish.celery import app as celery_app
from tests.cards.conftest import pdf_text
from tests.conftest import skip_or_fail
from tests.project.test_celery import PROJECT, REDIS_URL, _redis_reachable
from tests.rosters.factories import legal_standard_team
from tests.workers import children, wait_for, worker_command, worker_env

pytestmark = [pytest.mark.services, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

Status = CardExport.Status


@pytest.fixture
def worker(
    settings: Any, media: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> Iterator[subprocess.Popen[str]]:
    """`celery worker` (prefork, one child) on a private queue of the real broker, sharing
    the test database and MEDIA_ROOT; the test process sends to it like the web app does."""
    if not _redis_reachable(REDIS_URL):
        skip_or_fail(f"no Redis broker reachable at {REDIS_URL}")
    if connection.vendor != "postgresql":
        skip_or_fail("a worker process needs a shared database: run with DATABASE_URL=postgres://")
    queue = f"test-cards-{uuid.uuid4().hex[:12]}"
    env = worker_env(REDIS_URL, media)
    log = (tmp_path / "worker.log").open("w")
    process = subprocess.Popen(
        worker_command(queue),
        cwd=PROJECT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        text=True,
    )
    # This process enqueues through the real broker, as the web app does with one. The app's
    # connection pool and its routing tables were made by earlier tests: start new ones.
    settings.CELERY_BROKER_URL = REDIS_URL
    for key, value in {
        "task_always_eager": False,
        "broker_url": REDIS_URL,
        "task_routes": {"cards.render_export": {"queue": queue}},
    }.items():
        monkeypatch.setitem(celery_app.conf, key, value)
    monkeypatch.setattr(celery_app, "_pool", None)
    monkeypatch.setitem(
        celery_app.__dict__, "amqp", instantiate(celery_app.amqp_cls, app=celery_app)
    )
    try:
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()
        print((tmp_path / "worker.log").read_text()[-4000:])  # shown when a test fails


def status_of(export_id: int) -> CardExport:
    return CardExport.objects.get(pk=export_id)


def ask_for_cards(user: Any) -> CardExport:
    created = roster_services.roster_import(owner=user, document=legal_standard_team())
    return services.card_export_request(
        roster=roster_for_owner(user, created.pk),
        requested_by=user,
        options=services.ExportOptions(),
        language="de",
        share_url="",
    )


def test_a_real_worker_renders_the_pdf(worker, deathmatch, user) -> None:
    export = ask_for_cards(user)
    assert export.status == Status.PENDING  # queued on commit, not rendered here
    wait_for(lambda: status_of(export.pk).finished, 120, "the worker to finish")
    done = status_of(export.pk)
    assert done.status == Status.DONE, done.message
    with default_storage.open(done.file.name, "rb") as pdf:
        pages, text = pdf_text(pdf.read())
    assert pages == 2
    assert "Direktorin Ilva Syn" in text and "Team Vortex" in text
    # The same version again: the file that exists, at once.
    again = services.card_export_request(
        roster=roster_for_owner(user, export.roster_id),
        requested_by=user,
        options=services.ExportOptions(),
        language="de",
        share_url="",
    )
    assert (again.pk, again.status) == (export.pk, Status.DONE)


def test_a_worker_killed_mid_task_is_retried(worker, deathmatch, user) -> None:
    wait_for(lambda: bool(children(worker.pid)), 60, "the worker's pool process")
    export = ask_for_cards(user)
    wait_for(lambda: status_of(export.pk).status == Status.RUNNING, 120, "the export to start")
    with transaction.atomic():
        # Holding the export's row stops the worker at its next progress report: mid-task.
        locked = CardExport.objects.select_for_update().get(pk=export.pk)
        assert (locked.status, locked.attempts) == (Status.RUNNING, 1)
        time.sleep(0.5)
        for child in children(worker.pid):
            os.kill(child, signal.SIGKILL)
    wait_for(lambda: status_of(export.pk).finished, 120, "the retried export to finish")
    done = status_of(export.pk)
    assert done.status == Status.DONE, done.message
    assert done.attempts == 2
    assert default_storage.exists(done.file.name)
