"""Real Celery workers on the real Redis: /healthz tells whether one runs, and a worker killed
mid-render does not leave its export "running 10 %" forever.

Issue 15: a killed worker left an export at "running 10 %" for 12 minutes, never retried (its
message sat unacknowledged in Redis for the default hour), and /healthz said "ok" with no
worker running. The worker is another process sharing the test database, so these tests run
on PostgreSQL (CI: DATABASE_URL) against committed data.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.files.storage import default_storage
from django.db import connection, transaction
from kombu import Connection

from apps.cards import services
from apps.cards.models import CardExport
from apps.pages import health
from skirmish.celery import app as celery_app
from tests.cards.test_worker import ask_for_cards, status_of
from tests.conftest import skip_or_fail
from tests.project.test_celery import PROJECT, REDIS_URL, _redis_reachable
from tests.workers import children, wait_for, worker_command, worker_env

pytestmark = [
    pytest.mark.faults,
    pytest.mark.services,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]

Status = CardExport.Status


@pytest.fixture
def redis_url() -> str:
    if not _redis_reachable(REDIS_URL):
        skip_or_fail(f"no Redis broker reachable at {REDIS_URL}")
    return REDIS_URL


@pytest.fixture
def media(settings: Any, tmp_path: Path) -> Path:
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


class Workers:
    """Starts `celery worker` processes (prefork, one child) on one private queue, each in a
    process group of its own so that a test can kill a whole worker at once."""

    def __init__(self, redis_url: str, env: dict[str, str], log_dir: Path) -> None:
        self.redis_url = redis_url
        self.queue = f"test-faults-{uuid.uuid4().hex[:12]}"
        self.env = env
        self.log_dir = log_dir
        self.processes: list[subprocess.Popen[bytes]] = []

    def start(self) -> subprocess.Popen[bytes]:
        log = (self.log_dir / f"worker-{len(self.processes)}.log").open("wb")
        process = subprocess.Popen(
            worker_command(self.queue, hostname=f"faults-{uuid.uuid4().hex[:8]}@%h"),
            cwd=PROJECT,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        log.close()
        self.processes.append(process)
        return process

    def kill(self, process: subprocess.Popen[bytes]) -> None:
        """SIGKILL the whole worker, main process and pool alike (a container killed, the OOM
        killer): nothing is acknowledged or handed back."""
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=30)

    def stop_all(self) -> None:
        """At the end of a test: killed too. A warm shutdown only costs seconds here, and
        ``forget_unacked_messages`` removes whatever a kill leaves in Redis."""
        for process in self.processes:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=30)

    def forget_unacked_messages(self) -> None:
        """Remove this queue's messages that a killed worker left unacknowledged, so that no
        later worker on the shared Redis database restores them into a dead queue."""
        with Connection(self.redis_url) as conn:
            client = conn.default_channel.client
            for tag, payload in client.hgetall("unacked").items():
                _, _, routing_key = json.loads(payload)
                if routing_key == self.queue:
                    client.hdel("unacked", tag)
                    client.zrem("unacked_index", tag)
            client.delete(self.queue)

    def logs(self) -> str:
        return "\n".join(
            f"--- {path.name}\n{path.read_text(errors='replace')[-3000:]}"
            for path in sorted(self.log_dir.glob("worker-*.log"))
        )


@pytest.fixture
def workers(
    redis_url: str, media: Path, use_broker: Callable[..., None], tmp_path: Path
) -> Iterator[Workers]:
    if connection.vendor != "postgresql":
        skip_or_fail("a worker process needs a shared database: run with DATABASE_URL=postgres://")
    env = worker_env(redis_url, media)
    env.pop("REDIS_URL", None)
    pool = Workers(redis_url, env, tmp_path)
    use_broker(redis_url)
    # This process sends the render tasks to the private queue, as the web app would.
    celery_app.conf.task_routes = {"cards.render_export": {"queue": pool.queue}}
    try:
        yield pool
    finally:
        celery_app.conf.task_routes = None
        pool.stop_all()
        pool.forget_unacked_messages()
        print(pool.logs())  # shown when a test fails


def test_healthz_reports_no_worker(redis_url: str, use_broker: Any, client: Any) -> None:
    """A reachable broker with no worker listening: "degraded", workers "none", at once.

    Other tests may run workers on the same Redis database; a key prefix of this test's own
    keeps their answers out, as if no worker ran anywhere."""
    use_broker(redis_url, transport_options={"global_keyprefix": f"nobody-{uuid.uuid4().hex}:"})
    started = time.monotonic()
    response = client.get("/healthz")
    seconds = time.monotonic() - started
    assert response.status_code == 200
    assert response.json() == {
        "status": "degraded",
        "database": "ok",
        "broker": "ok",
        "workers": "none",
    }
    assert seconds < health.BROKER_TIMEOUT + health.WORKER_PING_TIMEOUT + 1


def test_healthz_reports_a_running_worker(workers: Workers, client: Any) -> None:
    workers.start()

    def answered() -> bool:
        health.forget_cached_state()
        return client.get("/healthz").json()["workers"] == "ok"

    wait_for(answered, 60, "a worker to answer the ping")
    assert client.get("/healthz").json()["status"] == "ok"


def test_a_worker_killed_mid_render_is_retried(
    workers: Workers, settings: Any, deathmatch: Any, user: Any
) -> None:
    """The whole worker is SIGKILLed mid-render; its message stays unacknowledged in Redis (the
    broker would hand it out again only after the visibility timeout, 100 s). A new worker
    starts; the page polling the export notices it is stale and queues it again: the export
    ends done after one retry, within two minutes.

    CARDS_STALE_MINUTES is cut to 8 seconds here (2 minutes in production) so that the test
    runs in well under two minutes; it is used only by this process's polls. The polls stop
    once the export was queued again: a retried render that took longer than these 8 seconds
    on a loaded machine would otherwise count as stale once more."""
    settings.CARDS_STALE_MINUTES = 8 / 60
    started = time.monotonic()
    first = workers.start()
    wait_for(lambda: bool(children(first.pid)), 60, "the worker's pool process")
    export = ask_for_cards(user)
    wait_for(lambda: status_of(export.pk).status == Status.RUNNING, 60, "the render to start")
    with transaction.atomic():
        # Holding the row stops the render at its next progress report: mid-render.
        locked = CardExport.objects.select_for_update().get(pk=export.pk)
        assert (locked.status, locked.attempts) == (Status.RUNNING, 1)
        time.sleep(0.5)
        workers.kill(first)
    assert status_of(export.pk).status == Status.RUNNING  # what the page saw: stuck
    workers.start()

    def polled_retried() -> bool:
        # What the export page's poll does every second.
        polled = services.card_export_check_stale(status_of(export.pk))
        return polled.finished or polled.retries > 0

    wait_for(polled_retried, 60, "the stale export to be queued again")
    wait_for(lambda: status_of(export.pk).finished, 60, "the retried export to finish")
    done = status_of(export.pk)
    assert done.status == Status.DONE, done.message
    assert (done.retries, done.attempts) == (1, 2)
    assert default_storage.exists(done.file.name)
    assert time.monotonic() - started < 120


def test_an_export_that_keeps_losing_its_worker_fails_with_a_message(
    workers: Workers, settings: Any, deathmatch: Any, user: Any
) -> None:
    """No retries allowed (CARDS_STALE_RETRIES=0): the stale export fails, with a message that
    says what happened, instead of waiting forever."""
    settings.CARDS_STALE_MINUTES = 5 / 60
    settings.CARDS_STALE_RETRIES = 0
    first = workers.start()
    wait_for(lambda: bool(children(first.pid)), 60, "the worker's pool process")
    export = ask_for_cards(user)
    wait_for(lambda: status_of(export.pk).status == Status.RUNNING, 60, "the render to start")
    with transaction.atomic():
        CardExport.objects.select_for_update().get(pk=export.pk)
        time.sleep(0.5)
        workers.kill(first)
    wait_for(
        lambda: services.card_export_check_stale(status_of(export.pk)).finished,
        30,
        "the stale export to fail",
    )
    failed = status_of(export.pk)
    assert failed.status == Status.FAILED
    # The export was asked for in German: "… hat nicht zu Ende gearbeitet … Bitte erneut …".
    assert "nicht zu Ende gearbeitet" in failed.message
