"""A real Celery round trip: a worker process started here takes a task from the real Redis."""

from __future__ import annotations

import os
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from celery import Celery
from kombu import Connection

from apps.pages.tasks import ping
from tests.conftest import skip_or_fail
from tests.workers import worker_command

PROJECT = Path(__file__).resolve().parents[2]
REDIS_URL = os.environ.get("SKIRMISH_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


def _redis_reachable(url: str) -> bool:
    try:
        with Connection(url, connect_timeout=2) as conn:
            conn.ensure_connection(max_retries=1)
    except Exception:
        return False
    return True


@pytest.fixture
def worker_queue() -> Iterator[str]:
    """Start `celery worker` on a private queue of the real broker; stop it afterwards."""
    if not _redis_reachable(REDIS_URL):
        skip_or_fail(f"no Redis broker reachable at {REDIS_URL}")
    queue = f"test-{uuid.uuid4().hex[:12]}"
    env = {**os.environ, "CELERY_BROKER_URL": REDIS_URL, "DJANGO_DEBUG": "true"}
    worker = subprocess.Popen(
        worker_command(queue, pool="solo", loglevel="WARNING"),
        cwd=PROJECT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        yield queue
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=20)
        except subprocess.TimeoutExpired:
            worker.kill()


@pytest.mark.services
def test_ping_round_trip_through_a_real_worker(worker_queue: str) -> None:
    client = Celery(
        "skirmish-test-client", broker=REDIS_URL, backend=REDIS_URL, set_as_current=False
    )
    result = client.send_task("pages.ping", args=["hello from the suite"], queue=worker_queue)
    try:
        assert result.get(timeout=60) == "hello from the suite"
    finally:
        result.forget()


@pytest.mark.skipif(
    bool(os.environ.get("CELERY_BROKER_URL")),
    reason="CELERY_BROKER_URL is set, so tasks go to the broker instead of running in-process",
)
def test_without_broker_tasks_run_in_process() -> None:
    assert ping.delay("local").get(timeout=1) == "local"


def test_every_call_to_the_broker_is_bounded() -> None:
    """A Redis that accepts connections and never answers must cost seconds, not a worker
    (issue 15). kombu, redis-py and Celery's result backend wait forever by default."""
    from skirmish.celery import app

    conf = app.conf
    options = conf.broker_transport_options
    assert 0 < options["socket_connect_timeout"] <= 5
    # Above the 1 s a worker's BRPOP blocks, far below gunicorn's 30 s.
    assert 1 < options["socket_timeout"] <= 5
    assert 0 < conf.broker_connection_timeout <= 5
    assert 0 < conf.redis_socket_connect_timeout <= 5
    assert 0 < conf.redis_socket_timeout <= 5
    assert conf.result_backend_transport_options["retry_policy"]["max_retries"] <= 3
    assert conf.task_publish_retry_policy["max_retries"] <= 1
    assert conf.task_publish_retry_policy["interval_max"] <= 1


def test_the_visibility_timeout_fits_the_renders(settings) -> None:  # noqa: ANN001
    """A message whose worker died comes back after the visibility timeout: later than any
    render may still run (the hard time limit), sooner than the stale check gives up on it."""
    from skirmish.celery import app

    visibility = app.conf.broker_transport_options["visibility_timeout"]
    assert app.conf.task_time_limit < visibility < settings.CARDS_STALE_MINUTES * 60
    assert app.conf.task_acks_late and app.conf.task_reject_on_worker_lost
