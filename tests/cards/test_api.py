"""The card endpoints of api.md: shapes, who may export a roster, errors."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from apps.cards.models import CardExport
from skirmish.celery import app as celery_app
from tests.accounts.factories import UserFactory

pytestmark = pytest.mark.django_db


def cards_url(roster_id: int, share: str = "") -> str:
    url = reverse("api:roster-cards", args=[roster_id])
    return f"{url}?share={share}" if share else url


def test_owner_asks_for_cards_and_follows_the_export(
    api_client, roster, fake_render, django_capture_on_commit_callbacks
) -> None:
    api_client.force_authenticate(roster.owner)
    with django_capture_on_commit_callbacks(execute=True):
        response = api_client.post(cards_url(roster.pk), {"layout": "single"}, format="json")
    assert response.status_code == 202
    assert set(response.json()) == {"id", "status"}
    export_id = response.json()["id"]
    detail = api_client.get(reverse("api:card-export", args=[export_id]))
    assert detail.status_code == 200
    body = detail.json()
    assert set(body) == {"status", "progress", "url", "message"}
    assert body["status"] == "done"
    assert body["progress"] == 100
    assert body["message"] is None
    assert body["url"] == f"http://testserver/api/v1/card-exports/{export_id}/download/"
    download = api_client.get(body["url"])  # the same credentials as the export
    assert download.status_code == 200
    assert download["Content-Type"] == "application/pdf"
    assert 'filename="team-vortex-cards.pdf"' in download["Content-Disposition"]
    assert b"".join(download.streaming_content).startswith(b"%PDF")


def test_asking_twice_for_the_same_version_returns_the_same_export(
    api_client, roster, fake_render, django_capture_on_commit_callbacks
) -> None:
    api_client.force_authenticate(roster.owner)
    with django_capture_on_commit_callbacks(execute=True):
        first = api_client.post(cards_url(roster.pk), {}, format="json").json()
    second = api_client.post(cards_url(roster.pk), {}, format="json")
    assert second.status_code == 202
    assert second.json() == {"id": first["id"], "status": "done"}
    assert len(fake_render) == 1


def test_a_pending_export_reports_no_url_yet(api_client, roster, fake_render) -> None:
    api_client.force_authenticate(roster.owner)
    export_id = api_client.post(cards_url(roster.pk), {}, format="json").json()["id"]
    body = api_client.get(reverse("api:card-export", args=[export_id])).json()
    assert body == {"status": "pending", "progress": 0, "url": None, "message": None}


def test_another_user_may_not_export_or_follow(
    api_client, roster, fake_render, django_capture_on_commit_callbacks
) -> None:
    api_client.force_authenticate(roster.owner)
    with django_capture_on_commit_callbacks(execute=True):
        export_id = api_client.post(cards_url(roster.pk), {}, format="json").json()["id"]
    stranger = UserFactory()
    api_client.force_authenticate(stranger)
    api_client.force_login(stranger)
    refused = api_client.post(cards_url(roster.pk), {}, format="json")
    assert refused.status_code == 404
    assert refused.json()["code"] == "not_found"
    assert api_client.get(reverse("api:card-export", args=[export_id])).status_code == 404
    assert api_client.get(reverse("cards:download", args=[export_id])).status_code == 404


def test_anonymous_needs_the_share_token(
    api_client, shared_roster, fake_render, django_capture_on_commit_callbacks
) -> None:
    assert api_client.post(cards_url(shared_roster.pk), {}, format="json").status_code == 404
    token = shared_roster.share_token
    assert (
        api_client.post(cards_url(shared_roster.pk, "wrong"), {}, format="json").status_code == 404
    )
    with django_capture_on_commit_callbacks(execute=True):
        response = api_client.post(cards_url(shared_roster.pk, token), {}, format="json")
    assert response.status_code == 202
    export_id = response.json()["id"]
    detail_url = reverse("api:card-export", args=[export_id])
    assert api_client.get(detail_url).status_code == 404
    body = api_client.get(f"{detail_url}?share={token}").json()
    assert body["status"] == "done"
    assert body["url"].endswith(f"?share={token}")
    assert api_client.get(body["url"]).status_code == 200
    # The roster sheet prints the share link (and its QR code).
    assert fake_render[0].context["share_url"].endswith(f"/rosters/shared/{token}/")


def test_a_share_token_of_another_roster_is_refused(
    api_client, shared_roster, deathmatch, fake_render
) -> None:
    from apps.rosters import services as roster_services
    from tests.rosters.factories import legal_standard_team

    other = roster_services.roster_import(owner=UserFactory(), document=legal_standard_team())
    response = api_client.post(cards_url(other.pk, shared_roster.share_token), {}, format="json")
    assert response.status_code == 404


def test_stopping_sharing_closes_the_export_to_token_holders(
    api_client, shared_roster, fake_render, django_capture_on_commit_callbacks
) -> None:
    from apps.rosters import services as roster_services

    token = shared_roster.share_token
    with django_capture_on_commit_callbacks(execute=True):
        export_id = api_client.post(cards_url(shared_roster.pk, token), {}, format="json").json()[
            "id"
        ]
    roster_services.roster_share(
        owner=shared_roster.owner, roster_id=shared_roster.pk, enabled=False
    )
    url = reverse("api:card-export", args=[export_id])
    assert api_client.get(f"{url}?share={token}").status_code == 404


def test_bad_options_are_a_400_with_the_field(api_client, roster) -> None:
    api_client.force_authenticate(roster.owner)
    response = api_client.post(cards_url(roster.pk), {"paper": "a3"}, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert response.json()["message"].startswith("paper:")
    assert CardExport.objects.count() == 0
    response = api_client.post(cards_url(roster.pk), {"contents": "blank"}, format="json")
    assert response.status_code == 400


def test_unreachable_broker_is_a_503_not_a_crash(api_client, roster, monkeypatch) -> None:
    monkeypatch.setitem(celery_app.conf, "task_always_eager", False)
    monkeypatch.setattr("apps.cards.services.check_broker", lambda timeout: "unreachable")
    api_client.force_authenticate(roster.owner)
    response = api_client.post(cards_url(roster.pk), {}, format="json")
    assert response.status_code == 503
    assert response.json()["code"] == "exports_unavailable"
    assert "unavailable" in response.json()["message"]


def test_a_failed_export_reports_its_message(
    api_client, roster, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    from apps.cards.rendering import CardRenderError

    def broken(job: object, **kwargs: object) -> bytes:
        raise CardRenderError("The font file is missing.")

    monkeypatch.setattr("apps.cards.services.render_pdf", broken)
    api_client.force_authenticate(roster.owner)
    with django_capture_on_commit_callbacks(execute=True):
        export_id = api_client.post(cards_url(roster.pk), {}, format="json").json()["id"]
    body = api_client.get(reverse("api:card-export", args=[export_id])).json()
    assert body == {
        "status": "failed",
        "progress": body["progress"],
        "url": None,
        "message": "The font file is missing.",
    }


def test_the_endpoints_are_in_the_schema(api_client) -> None:
    schema = api_client.get("/api/schema/", HTTP_ACCEPT="application/json").content.decode()
    assert "/api/v1/rosters/{roster_id}/cards/" in schema
    assert "/api/v1/card-exports/{export_id}/" in schema


def test_the_export_url_serves_the_pdf_to_the_api_clients_own_token(
    roster, fake_render, django_capture_on_commit_callbacks
) -> None:
    """Issue 15: the url was a session-only page, a 404 for the token that asked for it."""
    token = Token.objects.create(user=roster.owner)
    client = APIClient(HTTP_AUTHORIZATION=f"Token {token.key}")
    with django_capture_on_commit_callbacks(execute=True):
        export_id = client.post(cards_url(roster.pk), {}, format="json").json()["id"]
    url = client.get(reverse("api:card-export", args=[export_id])).json()["url"]
    download = client.get(url, HTTP_ACCEPT="application/pdf")
    assert download.status_code == 200
    assert download["Content-Type"] == "application/pdf"
    assert b"".join(download.streaming_content).startswith(b"%PDF")


def test_the_download_refuses_other_tokens_and_nobody(
    roster, fake_render, django_capture_on_commit_callbacks
) -> None:
    owner = APIClient()
    owner.force_authenticate(roster.owner)
    with django_capture_on_commit_callbacks(execute=True):
        export_id = owner.post(cards_url(roster.pk), {}, format="json").json()["id"]
    url = reverse("api:card-export-download", args=[export_id])
    stranger = Token.objects.create(user=UserFactory())
    other = APIClient(HTTP_AUTHORIZATION=f"Token {stranger.key}", HTTP_ACCEPT="application/pdf")
    refused = other.get(url)
    assert refused.status_code == 404
    assert refused.json()["code"] == "not_found"  # JSON, whatever the client accepts
    assert APIClient().get(url).status_code == 404
    bad = APIClient(HTTP_AUTHORIZATION="Token not-a-token").get(url)
    assert bad.status_code == 401


def test_the_download_is_404_until_the_export_is_done(api_client, roster, fake_render) -> None:
    api_client.force_authenticate(roster.owner)
    export_id = api_client.post(cards_url(roster.pk), {}, format="json").json()["id"]
    response = api_client.get(reverse("api:card-export-download", args=[export_id]))
    assert response.status_code == 404
