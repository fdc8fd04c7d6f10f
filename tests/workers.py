"""Real `celery worker` processes for the tests that need one (tests/project, tests/cards,
tests/faults): the command line, the environment and what the tests ask of the process."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

import pytest
from django.db import connection


def worker_command(
    queue: str, *, pool: str = "prefork", loglevel: str = "INFO", hostname: str | None = None
) -> list[str]:
    """One `celery worker` with one child on a private queue; no gossip, mingle or heartbeat,
    so that it starts at once and ignores the workers of other tests."""
    return [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "skirmish",
        "worker",
        f"--pool={pool}",
        "--concurrency=1",
        "--without-gossip",
        "--without-mingle",
        "--without-heartbeat",
        *([f"--hostname={hostname}"] if hostname else []),
        "-Q",
        queue,
        f"--loglevel={loglevel}",
    ]


def database_url() -> str:
    """The test database as a URL, for a worker process that must share it."""
    db = connection.settings_dict
    credentials = quote(db["USER"] or "") + (f":{quote(db['PASSWORD'])}" if db["PASSWORD"] else "")
    return f"postgres://{credentials}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def worker_env(redis_url: str, media: Path) -> dict[str, str]:
    """A worker's environment: the broker, the shared test database and MEDIA_ROOT."""
    return {
        **os.environ,
        "CELERY_BROKER_URL": redis_url,
        "DATABASE_URL": database_url(),
        "DJANGO_MEDIA_ROOT": str(media),
        "DJANGO_DEBUG": "true",
    }


def children(pid: int) -> list[int]:
    """The child processes of ``pid`` (a prefork worker's pool), empty until it has forked."""
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(child) for child in path.read_text().split()] if path.exists() else []


def wait_for(condition: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.02)
    pytest.fail(f"timed out waiting for {what}")
