"""/healthz: 200 when the database answers; reports the broker when one is configured."""

from __future__ import annotations

import os

import pytest
from django.db import DatabaseError

from tests.conftest import skip_or_fail

pytestmark = pytest.mark.django_db


def test_healthz_ok_without_broker(client, settings) -> None:
    settings.CELERY_BROKER_URL = None
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "broker": "not configured"}


def test_healthz_reports_unreachable_broker_but_stays_up(client, settings) -> None:
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["broker"] == "unreachable"
    assert response.json()["status"] == "degraded"


def test_healthz_is_503_when_the_database_fails(client, monkeypatch) -> None:
    def broken_cursor(*args: object, **kwargs: object) -> None:
        raise DatabaseError("connection refused")

    monkeypatch.setattr("apps.pages.health.connection.cursor", broken_cursor)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["database"] == "unavailable"


@pytest.mark.services
def test_healthz_reports_real_redis_broker_ok(client, settings) -> None:
    url = os.environ.get("SKIRMISH_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
    settings.CELERY_BROKER_URL = url
    response = client.get("/healthz")
    if response.json()["broker"] != "ok":
        skip_or_fail(f"no Redis reachable at {url}")
    assert response.status_code == 200
    assert response.json()["status"] == "ok"
