"""Pairing a big round as a Celery task (apps.leagues.pairing_jobs): small rounds and rounds
without a broker stay in the request, a big one is queued once however often it is asked for,
its progress is polled by organisers only, and its outcome shows on the season page.

The task is sent to a recorder and then run by calling it, as a worker would; no timings."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.urls import reverse

from apps.leagues import pairing_jobs, rounds, services, tasks
from apps.leagues.models import Round
from apps.leagues.pairing_sparse import swiss_pairing_sparse
from skirmish.celery import app as celery_app
from tests.accounts.factories import UserFactory
from tests.leagues.factories import join, make_league, make_season, organiser_of

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def client(client):  # noqa: ANN001, ANN201
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


@pytest.fixture
def season(settings):  # noqa: ANN001, ANN201
    settings.LEAGUES_PAIRING_TASK_ABOVE = 4
    season = make_season(make_league())
    join(season, 6)
    yield season
    cache.delete_many([f"leagues:pairing:{season.pk}", f"leagues:pairing:{season.pk}:last"])


@pytest.fixture
def queue(monkeypatch) -> list[tuple[Any, ...]]:  # noqa: ANN001
    """A broker: the task is sent (recorded here), not run in the request."""
    sent: list[tuple[Any, ...]] = []
    monkeypatch.setitem(celery_app.conf, "task_always_eager", False)
    monkeypatch.setattr(tasks.pair_round, "apply_async", lambda args, **_: sent.append(tuple(args)))
    return sent


def urls(season) -> tuple[str, str, str]:  # noqa: ANN001
    args = [season.league.key, season.pk]
    return (
        reverse("leagues:round_pair", args=args),
        reverse("leagues:pairing_status", args=args),
        reverse("leagues:season", args=args),
    )


def test_a_small_round_is_paired_in_the_request(season, queue, settings) -> None:
    settings.LEAGUES_PAIRING_TASK_ABOVE = 6
    organiser = organiser_of(season.league)
    paired = pairing_jobs.round_pair_request(
        user=organiser, key=season.league.key, season_id=season.pk, language="en"
    )
    assert isinstance(paired, Round)
    assert queue == []


def test_without_a_broker_a_big_round_is_paired_in_the_request(season) -> None:
    organiser = organiser_of(season.league)
    paired = pairing_jobs.round_pair_request(
        user=organiser, key=season.league.key, season_id=season.pk, language="en"
    )
    assert isinstance(paired, Round)
    assert pairing_jobs.pairing_job(season.pk) is None


def test_without_a_broker_a_round_over_the_inline_limit_is_refused_with_a_message(
    client, season, settings
) -> None:
    settings.LEAGUES_PAIRING_INLINE_MAX = 5
    pair_url, _, season_url = urls(season)
    client.force_login(organiser_of(season.league))
    page = client.post(pair_url, follow=True)
    assert "only rounds of up to 5 players can be paired, and this one has 6" in (
        page.content.decode()
    )
    assert not Round.objects.filter(season=season).exists()


def test_a_big_round_is_paired_by_the_task_and_the_page_follows_its_progress(
    client, season, queue, monkeypatch
) -> None:
    organiser = organiser_of(season.league)
    pair_url, status_url, season_url = urls(season)
    client.force_login(organiser)
    assert client.post(pair_url).status_code == 302
    assert queue == [(season.pk, organiser.pk, False, "en")]
    assert not Round.objects.filter(season=season).exists()

    page = client.get(season_url).content.decode()
    assert f'hx-get="{status_url}" hx-trigger="every 1s"' in page
    assert "waiting for the task queue" in client.get(status_url, **HTMX).content.decode()

    seen: list[pairing_jobs.PairingJob | None] = []

    def small_pieces(players, met, *, progress=None, **_):  # noqa: ANN001, ANN202
        def watch(done: int, total: int) -> None:
            progress(done, total)
            seen.append(pairing_jobs.pairing_job(season.pk))

        return swiss_pairing_sparse(players, met, block=2, progress=watch)

    monkeypatch.setattr(rounds, "swiss_pairing_sparse", small_pieces)
    assert tasks.pair_round(*queue[0]) == pairing_jobs.DONE
    assert [(job.state, job.done) for job in seen if job] == [("running", 1), ("running", 2)]
    assert seen[-1] is not None and seen[-1].total == 2

    done = client.get(status_url, **HTMX)
    assert done.headers["HX-Redirect"] == season_url
    page = client.get(season_url).content.decode()
    assert "Round 1 — draft" in page
    assert "Round paired as a draft" in page
    assert 'hx-trigger="every 1s"' not in page


def test_two_clicks_start_one_task(client, season, queue) -> None:
    pair_url, _, _ = urls(season)
    client.force_login(organiser_of(season.league))
    client.post(pair_url)
    client.post(pair_url)
    assert len(queue) == 1
    assert tasks.pair_round(*queue[0]) == pairing_jobs.DONE
    # The message delivered again (a redelivery after a lost acknowledgement) does nothing.
    assert tasks.pair_round(*queue[0]) == "gone"
    assert Round.objects.filter(season=season).count() == 1


def test_only_organisers_see_the_pairing_status(client, season, queue) -> None:
    pair_url, status_url, _ = urls(season)
    organiser = organiser_of(season.league)
    client.force_login(organiser)
    client.post(pair_url)
    assert client.get(status_url, **HTMX).status_code == 200
    player = season.registrations.first().player
    client.force_login(player)
    assert client.get(status_url, **HTMX).status_code == 403
    client.force_login(UserFactory())
    assert client.get(status_url, **HTMX).status_code == 403
    client.logout()
    assert client.get(status_url, **HTMX).status_code == 302


def test_a_refused_pairing_ends_the_job_with_its_message(client, season, queue) -> None:
    organiser = organiser_of(season.league)
    pair_url, _, season_url = urls(season)
    client.force_login(organiser)
    client.post(pair_url)
    services.season_finish(user=organiser, key=season.league.key, season_id=season.pk)
    assert tasks.pair_round(*queue[0]) == pairing_jobs.FAILED
    assert "This season is finished." in client.get(season_url).content.decode()
    assert pairing_jobs.pairing_job(season.pk) is None  # the message is shown once


def test_an_unreachable_broker_says_pairing_is_unavailable(client, season, monkeypatch) -> None:
    monkeypatch.setitem(celery_app.conf, "task_always_eager", False)

    def down(*args: object, **kwargs: object) -> None:
        raise ConnectionError("broker down")

    monkeypatch.setattr(tasks.pair_round, "apply_async", down)
    pair_url, _, _ = urls(season)
    client.force_login(organiser_of(season.league))
    page = client.post(pair_url, follow=True).content.decode()
    assert "the task queue cannot be reached" in page
    assert pairing_jobs.pairing_job(season.pk) is None
    assert not Round.objects.filter(season=season).exists()
