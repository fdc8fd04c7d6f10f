"""Pairing through the API takes the page's path (apps.leagues.pairing_jobs): a small round is
paired in the request (201), a big one by the task (202 with the job and its address), which
organisers poll at …/pairing-job/; without a broker a round over the inline maximum is a 503.

The season (6 players, a task above 4) and the recording broker are the page tests'."""

from __future__ import annotations

import pytest

from apps.leagues import pairing_jobs, services, tasks
from apps.leagues.models import Round
from tests.accounts.factories import UserFactory
from tests.leagues import test_pairing_jobs as page
from tests.leagues.factories import organiser_of
from tests.leagues.test_api import client_for

pytestmark = pytest.mark.django_db

season = page.season
queue = page.queue

QUEUED = {"state": "queued", "done": 0, "total": 0, "message": "", "number": None}


def api_urls(season) -> tuple[str, str]:  # noqa: ANN001
    base = f"/api/v1/leagues/{season.league.key}/seasons/{season.pk}/"
    return base + "rounds/", base + "pairing-job/"


def test_a_small_round_still_answers_201_with_the_round(season, queue, settings) -> None:
    settings.LEAGUES_PAIRING_TASK_ABOVE = 6
    rounds_url, job_url = api_urls(season)
    boss = client_for(organiser_of(season.league))
    paired = boss.post(rounds_url, {}, format="json")
    assert paired.status_code == 201, paired.json()
    assert (paired.json()["number"], paired.json()["status"]) == (1, "draft")
    assert queue == []
    assert boss.get(job_url).json()["code"] == "not_found"


def test_a_big_round_answers_202_with_the_job_that_the_job_endpoint_follows(season, queue) -> None:
    organiser = organiser_of(season.league)
    rounds_url, job_url = api_urls(season)
    boss = client_for(organiser)
    started = boss.post(rounds_url, {"allow_rematches": False}, format="json")
    assert started.status_code == 202, started.json()
    assert started.json() == QUEUED
    assert started.headers["Location"] == f"http://testserver{job_url}"
    assert queue == [(season.pk, organiser.pk, False, "en")]
    assert not Round.objects.filter(season=season).exists()

    polled = boss.get(job_url)
    assert (polled.status_code, polled.json()) == (200, QUEUED)

    assert tasks.pair_round(*queue[0]) == pairing_jobs.DONE
    done = boss.get(job_url).json()
    assert (done["state"], done["number"]) == ("done", 1)
    paired = boss.get(f"{rounds_url}{done['number']}/")
    assert (paired.status_code, paired.json()["status"]) == (200, "draft")
    assert len(paired.json()["pairings"]) == 3


def test_a_second_post_while_the_job_runs_answers_the_same_job_without_a_second_task(
    season, queue
) -> None:
    rounds_url, job_url = api_urls(season)
    boss = client_for(organiser_of(season.league))
    first = boss.post(rounds_url, {}, format="json")
    second = boss.post(rounds_url, {}, format="json")
    assert (first.status_code, second.status_code) == (202, 202)
    assert second.json() == first.json() == QUEUED
    assert second.headers["Location"] == first.headers["Location"]
    assert len(queue) == 1
    assert tasks.pair_round(*queue[0]) == pairing_jobs.DONE
    assert Round.objects.filter(season=season).count() == 1


def test_a_refused_pairing_ends_the_job_as_failed_with_its_message(season, queue) -> None:
    organiser = organiser_of(season.league)
    rounds_url, job_url = api_urls(season)
    boss = client_for(organiser)
    assert boss.post(rounds_url, {}, format="json").status_code == 202
    services.season_finish(user=organiser, key=season.league.key, season_id=season.pk)
    assert tasks.pair_round(*queue[0]) == pairing_jobs.FAILED
    failed = boss.get(job_url).json()
    assert (failed["state"], failed["message"]) == ("failed", "This season is finished.")
    assert failed["number"] is None


def test_only_organisers_see_the_pairing_job(season, queue) -> None:
    rounds_url, job_url = api_urls(season)
    started = client_for(organiser_of(season.league)).post(rounds_url, {}, format="json")
    assert started.status_code == 202
    player = season.registrations.first().player
    for outsider in (player, UserFactory()):
        refused = client_for(outsider).get(job_url)
        assert (refused.status_code, refused.json()["code"]) == (403, "permission_denied")
        assert client_for(outsider).post(rounds_url, {}, format="json").status_code == 403
    assert client_for(None).get(job_url).status_code == 401
    assert len(queue) == 1


def test_without_a_job_the_job_endpoint_answers_404_not_found(season) -> None:
    _, job_url = api_urls(season)
    missing = client_for(organiser_of(season.league)).get(job_url)
    assert (missing.status_code, missing.json()["code"]) == (404, "not_found")


def test_without_a_broker_a_round_over_the_inline_maximum_answers_503_pairing_too_large(
    season, settings
) -> None:
    settings.LEAGUES_PAIRING_INLINE_MAX = 5
    rounds_url, job_url = api_urls(season)
    boss = client_for(organiser_of(season.league))
    refused = boss.post(rounds_url, {}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (503, "pairing_too_large")
    assert (
        "only rounds of up to 5 players can be paired, and this one has 6"
        in (refused.json()["message"])
    )
    assert not Round.objects.filter(season=season).exists()
    assert boss.get(job_url).status_code == 404


def test_without_a_broker_a_round_up_to_the_inline_maximum_answers_201(season) -> None:
    rounds_url, _ = api_urls(season)
    paired = client_for(organiser_of(season.league)).post(rounds_url, {}, format="json")
    assert paired.status_code == 201, paired.json()
