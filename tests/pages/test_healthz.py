"""/healthz: 200 when the database answers; reports the broker and the Celery workers apart.

The fault tests (tests/faults) run the same checks against a closed and a hung Redis and
against real workers.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from django.db import DatabaseError

from apps.pages import health

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_health() -> Iterator[None]:
    health.forget_cached_state()
    yield
    health.forget_cached_state()


def test_healthz_ok_without_broker(client, settings) -> None:
    settings.CELERY_BROKER_URL = None
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "database": "ok",
        "broker": "not configured",
        "workers": "not configured",
    }


def test_healthz_reports_unreachable_broker_but_stays_up(client, settings) -> None:
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"
    started = time.monotonic()
    response = client.get("/healthz")
    assert time.monotonic() - started < 2
    assert response.status_code == 200
    assert response.json() == {
        "status": "degraded",
        "database": "ok",
        "broker": "unreachable",
        "workers": "unknown",
    }


def test_healthz_is_503_when_the_database_fails(client, monkeypatch) -> None:
    def broken_cursor(*args: object, **kwargs: object) -> None:
        raise DatabaseError("connection refused")

    monkeypatch.setattr("apps.pages.health.connection.cursor", broken_cursor)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["database"] == "unavailable"


def test_healthz_reports_no_worker_as_degraded(client, settings, monkeypatch) -> None:
    """A broker without a worker: the page stays 200 (the web tier is fine), but says so."""
    settings.CELERY_BROKER_URL = "redis://broker.invalid:6379/0"
    monkeypatch.setattr(health, "_broker_answers", lambda conn, timeout: True)
    monkeypatch.setattr("skirmish.celery.app.control.ping", lambda **kwargs: [])
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {
        "status": "degraded",
        "database": "ok",
        "broker": "ok",
        "workers": "none",
    }


def test_healthz_is_ok_when_a_worker_answers(client, settings, monkeypatch) -> None:
    settings.CELERY_BROKER_URL = "redis://broker.invalid:6379/0"
    monkeypatch.setattr(health, "_broker_answers", lambda conn, timeout: True)
    pings: list[dict[str, object]] = []

    def ping(**kwargs: object) -> list[dict[str, object]]:
        pings.append(kwargs)
        return [{"celery@host": {"ok": "pong"}}]

    monkeypatch.setattr("skirmish.celery.app.control.ping", ping)
    assert client.get("/healthz").json()["status"] == "ok"
    # The ping is bounded, stops at the first answer, and is remembered for a few seconds.
    assert pings[0]["timeout"] <= 1 and pings[0]["limit"] == 1
    assert client.get("/healthz").json()["workers"] == "ok"
    assert len(pings) == 1
