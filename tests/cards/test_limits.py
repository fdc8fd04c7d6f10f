"""The ceiling on cards per export, and what happens without a broker: an export is never
rendered unbounded, neither in a worker nor inside a web request."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from apps.cards import limits, rendering
from apps.cards.rendering import CardRenderError
from apps.cards.services import ExportOptions, roster_card_count
from skirmish.celery import app as celery_app
from tests.cards.test_rendering import card_job, profile_card

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true", "HTTP_ACCEPT_LANGUAGE": "en"}
CHOICES = {"contents": "all", "layout": "sheet", "paper": "a4"}


@pytest.fixture
def low_ceiling(roster, monkeypatch) -> int:
    """A ceiling just below the test roster's card count (a real roster over 200 cards would
    make the test slow to set up, and the check is the same)."""
    count = roster_card_count(roster, options=ExportOptions(), language="en")
    monkeypatch.setattr(limits, "MAX_CARDS_PER_EXPORT", count - 1)
    return count


def test_an_export_over_the_ceiling_is_a_422_with_code_and_message(
    api_client, roster, low_ceiling, fake_render
) -> None:
    api_client.force_authenticate(roster.owner)
    response = api_client.post(reverse("api:roster-cards", args=[roster.pk]), {}, format="json")
    assert response.status_code == 422
    body = response.json()
    assert body["code"] == "too_many_cards"
    assert f"would have {low_ceiling} cards" in body["message"]
    assert fake_render == []
    assert roster.card_exports.count() == 0


def test_the_print_page_says_why_and_the_sheet_alone_still_prints(
    client, roster, low_ceiling, fake_render, django_capture_on_commit_callbacks
) -> None:
    client.force_login(roster.owner)
    url = reverse("cards:roster_print", args=[roster.pk])
    refused = client.post(url, CHOICES, **HTMX)
    assert refused.status_code == 422
    assert f"would have {low_ceiling} cards" in refused.content.decode()
    assert 'role="alert"' in refused.content.decode()
    assert fake_render == []
    with django_capture_on_commit_callbacks(execute=True):
        sheet = client.post(url, {**CHOICES, "contents": "sheet"}, **HTMX)
    assert sheet.status_code == 200
    assert len(fake_render) == 1


def test_without_a_broker_only_a_small_export_renders_inside_the_request(
    client, roster, monkeypatch, fake_render, django_capture_on_commit_callbacks
) -> None:
    assert celery_app.conf.task_always_eager  # no broker: in-process
    count = roster_card_count(roster, options=ExportOptions(), language="en")
    monkeypatch.setattr(limits, "IN_PROCESS_MAX_CARDS", count - 1)
    client.force_login(roster.owner)
    url = reverse("cards:roster_print", args=[roster.pk])
    refused = client.post(url, CHOICES, **HTMX)
    assert refused.status_code == 503
    assert "Printing is unavailable right now" in refused.content.decode()
    assert fake_render == []
    assert roster.card_exports.count() == 0

    monkeypatch.setattr(limits, "IN_PROCESS_MAX_CARDS", count)
    with django_capture_on_commit_callbacks(execute=True):
        made = client.post(url, CHOICES, **HTMX)
    assert made.status_code == 200
    assert len(fake_render) == 1


def test_with_a_broker_a_large_export_is_queued_not_refused(
    api_client, roster, monkeypatch, fake_render
) -> None:
    monkeypatch.setitem(celery_app.conf, "task_always_eager", False)
    monkeypatch.setattr("apps.cards.services.check_broker", lambda timeout: "ok")
    monkeypatch.setattr("apps.cards.services._enqueue", lambda export_id, retry=0: None)
    monkeypatch.setattr(limits, "IN_PROCESS_MAX_CARDS", 1)
    api_client.force_authenticate(roster.owner)
    response = api_client.post(reverse("api:roster-cards", args=[roster.pk]), {}, format="json")
    assert response.status_code == 202


def test_the_renderer_refuses_a_job_over_the_ceiling_before_laying_anything_out(
    monkeypatch,
) -> None:
    monkeypatch.setattr(rendering, "MAX_CARDS_PER_EXPORT", 1)
    card = profile_card("organon-direktorin-ilva-syn")
    with translation.override("en"), pytest.raises(CardRenderError) as error:
        rendering.render_pdf(card_job(card, card))
    assert "at most 1 cards" in error.value.message
