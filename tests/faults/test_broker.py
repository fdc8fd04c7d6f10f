"""A Redis that is closed or hangs must cost a request a bounded time, never the web tier.

Issue 15: a Redis that accepted connections and never answered made /healthz and the card POST
wait until gunicorn killed the worker (30 s); the home page then took 33.7 s. These tests run
against a port nothing listens on and against a server that accepts and never answers; they
need no Redis of their own, so they run everywhere.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from apps.cards import services
from apps.cards.models import CardExport
from apps.rosters import services as roster_services
from apps.rosters.selectors import roster_for_owner
from tests.cards.factories import export_row
from tests.faults.conftest import HungServer, timed
from tests.rosters.factories import legal_standard_team

pytestmark = [pytest.mark.faults, pytest.mark.django_db]

# /healthz asks the broker with a 1 s bound (and the workers with another only when the broker
# answered); a card POST asks the broker once. Generous for a loaded CI machine, far below 30 s.
HEALTHZ_BOUND = 3.0
REQUEST_BOUND = 4.0
# Sending a task: Redis's 3 s socket timeout, and one retry (CELERY_TASK_PUBLISH_RETRY_POLICY).
PUBLISH_BOUND = 10.0


@pytest.fixture
def roster(user: Any, deathmatch: Any) -> Any:
    created = roster_services.roster_import(owner=user, document=legal_standard_team())
    return roster_for_owner(user, created.pk)


@pytest.fixture(params=["closed", "hung"])
def broken_redis(request: pytest.FixtureRequest, use_broker: Any) -> str:
    """The broker (and the cache) at a closed port, then at a server that never answers."""
    if request.param == "closed":
        url = request.getfixturevalue("closed_redis_url")
    else:
        url = request.getfixturevalue("hung_redis").url()
    use_broker(url)
    return request.param


def test_healthz_answers_in_time_and_reports_the_broker(broken_redis: str, client: Client) -> None:
    response, seconds = timed(lambda: client.get("/healthz"))
    assert seconds < HEALTHZ_BOUND, f"/healthz took {seconds:.1f} s with Redis {broken_redis}"
    assert response.status_code == 200  # the web tier itself is fine
    assert response.json() == {
        "status": "degraded",
        "database": "ok",
        "broker": "unreachable",
        "workers": "unknown",
    }


def test_many_healthz_requests_ask_the_broken_broker_once(
    hung_redis: HungServer, use_broker: Any, client: Client
) -> None:
    use_broker(hung_redis.url())
    _, seconds = timed(lambda: [client.get("/healthz") for _ in range(10)])
    assert seconds < HEALTHZ_BOUND
    assert hung_redis.accepted <= 2


def test_the_card_api_answers_503_in_time(broken_redis: str, api_client: Any, roster: Any) -> None:
    api_client.force_authenticate(roster.owner)
    response, seconds = timed(
        lambda: api_client.post(f"/api/v1/rosters/{roster.pk}/cards/", {}, format="json")
    )
    assert seconds < REQUEST_BOUND, f"the card POST took {seconds:.1f} s with Redis {broken_redis}"
    assert response.status_code == 503
    assert response.json()["code"] == "exports_unavailable"
    assert not CardExport.objects.exists()


def test_the_print_dialog_answers_503_in_time(
    broken_redis: str, client: Client, roster: Any
) -> None:
    client.force_login(roster.owner)
    response, seconds = timed(
        lambda: client.post(
            f"/cards/rosters/{roster.pk}/",
            {"layout": "sheet", "paper": "a4", "contents": "all"},
            headers={"accept-language": "en"},
        )
    )
    assert seconds < REQUEST_BOUND
    assert response.status_code == 503
    assert "task queue cannot be reached" in response.content.decode()


def test_pages_stay_usable_without_the_broker(
    broken_redis: str, client: Client, roster: Any
) -> None:
    """Pages, logins (their throttles count in the same Redis) and the API all answer."""
    visitor = Client()
    requests = [
        ("/", lambda: visitor.get("/")),
        ("login page", lambda: visitor.get("/accounts/login/")),
        (
            "a wrong password",
            lambda: visitor.post("/accounts/login/", {"login": "nobody", "password": "wrong"}),
        ),
        ("the API", lambda: visitor.get("/api/v1/systems/")),
    ]
    client.force_login(roster.owner)
    requests.append(("the builder", lambda: client.get(f"/rosters/{roster.pk}/")))
    for what, request in requests:
        response, seconds = timed(request)
        assert response.status_code == 200, what
        assert seconds < REQUEST_BOUND, f"{what} took {seconds:.1f} s with Redis {broken_redis}"


def test_sending_a_task_to_a_hung_broker_is_bounded(
    hung_redis: HungServer, use_broker: Any, roster: Any
) -> None:
    """The broker answered the availability check, then hung before the task was sent: the
    export fails with a message, in seconds."""
    use_broker(hung_redis.url())
    export = export_row(roster, "hung")
    _, seconds = timed(lambda: services._enqueue(export.pk))
    assert seconds < PUBLISH_BOUND, f"sending the task took {seconds:.1f} s"
    export.refresh_from_db()
    assert export.status == CardExport.Status.FAILED
    assert "task queue cannot be reached" in export.message
