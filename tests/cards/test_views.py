"""Print pages: the dialog (HTMX and plain), live status, download, blank cards, refusals."""

from __future__ import annotations

import pytest
from django.urls import reverse

from apps.cards.models import CardExport
from skirmish.celery import app as celery_app
from tests.accounts.factories import UserFactory

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true", "HTTP_ACCEPT_LANGUAGE": "en"}
CHOICES = {"contents": "all", "layout": "sheet", "paper": "a4"}


def test_builder_offers_print_cards(client, roster) -> None:
    client.force_login(roster.owner)
    html = client.get(reverse("rosters:builder", args=[roster.pk])).content.decode()
    assert f'href="/cards/rosters/{roster.pk}/"' in html
    assert 'id="print-dialog"' in html


def test_the_dialog_is_a_fragment_for_htmx(client, roster) -> None:
    client.force_login(roster.owner)
    response = client.get(reverse("cards:roster_print", args=[roster.pk]), **HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html
    assert "Print cards: Team Vortex" in html
    assert 'name="layout"' in html and 'name="paper"' in html
    assert "csrfmiddlewaretoken" in html


def test_submitting_the_dialog_shows_the_download_when_done(
    client, roster, fake_render, django_capture_on_commit_callbacks
) -> None:
    client.force_login(roster.owner)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("cards:roster_print", args=[roster.pk]), CHOICES, **HTMX)
    assert response.status_code == 200
    export = CardExport.objects.get()
    html = client.get(reverse("cards:export", args=[export.pk]), **HTMX).content.decode()
    assert "Download PDF" in html
    assert f"/cards/exports/{export.pk}/download/" in html
    assert "hx-trigger" not in html  # finished: no more polling


def test_a_pending_export_polls_every_second(client, roster, fake_render) -> None:
    client.force_login(roster.owner)
    response = client.post(reverse("cards:roster_print", args=[roster.pk]), CHOICES, **HTMX)
    html = response.content.decode()
    assert 'hx-trigger="every 1s"' in html
    assert "Waiting for a worker" in html
    export = CardExport.objects.get()
    poll = client.get(reverse("cards:export", args=[export.pk]), **HTMX).content.decode()
    assert 'hx-trigger="every 1s"' in poll
    assert "<progress" in poll


def test_without_javascript_the_form_redirects_to_the_status_page(
    client, roster, fake_render
) -> None:
    client.force_login(roster.owner)
    response = client.post(reverse("cards:roster_print", args=[roster.pk]), CHOICES)
    export = CardExport.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("cards:export", args=[export.pk])
    page = client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "<html" in page and "Refresh" in page


def test_a_failed_export_says_why_and_offers_retry(
    client, roster, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    from apps.cards.rendering import CardRenderError

    def broken(job: object, **kwargs: object) -> bytes:
        raise CardRenderError("“Anzi” has more text than fits on a card.")

    monkeypatch.setattr("apps.cards.services.render_pdf", broken)
    client.force_login(roster.owner)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("cards:roster_print", args=[roster.pk]), CHOICES, **HTMX)
    export = CardExport.objects.get()
    html = client.get(reverse("cards:export", args=[export.pk]), **HTMX).content.decode()
    assert "The PDF could not be made:" in html
    assert "has more text than fits on a card" in html
    assert "Try again" in html
    assert 'name="layout" value="sheet"' in html


def test_invalid_choices_are_shown_with_the_form(client, roster) -> None:
    client.force_login(roster.owner)
    response = client.post(
        reverse("cards:roster_print", args=[roster.pk]), {**CHOICES, "paper": "a3"}, **HTMX
    )
    assert response.status_code == 422
    assert "errorlist" in response.content.decode()
    assert CardExport.objects.count() == 0


def test_unreachable_broker_says_exports_are_unavailable(client, roster, monkeypatch) -> None:
    monkeypatch.setitem(celery_app.conf, "task_always_eager", False)
    monkeypatch.setattr("apps.cards.services.check_broker", lambda timeout: "unreachable")
    client.force_login(roster.owner)
    dialog = client.get(reverse("cards:roster_print", args=[roster.pk]), **HTMX)
    assert dialog.status_code == 200
    assert "Card exports are unavailable right now" in dialog.content.decode()
    posted = client.post(reverse("cards:roster_print", args=[roster.pk]), CHOICES, **HTMX)
    assert posted.status_code == 503
    assert "Card exports are unavailable right now" in posted.content.decode()
    assert CardExport.objects.count() == 0


def test_other_users_and_anonymous_get_404(client, roster) -> None:
    url = reverse("cards:roster_print", args=[roster.pk])
    assert client.get(url).status_code == 404
    client.force_login(UserFactory())
    assert client.get(url).status_code == 404
    assert client.post(url, CHOICES).status_code == 404


def test_the_shared_view_prints_with_its_token(
    client, shared_roster, fake_render, django_capture_on_commit_callbacks
) -> None:
    token = shared_roster.share_token
    shared = client.get(reverse("rosters:shared", args=[token])).content.decode()
    assert f"/cards/rosters/{shared_roster.pk}/?share={token}" in shared
    url = reverse("cards:roster_print", args=[shared_roster.pk])
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"{url}?share={token}", {**CHOICES, "share": token}, **HTMX)
    export = CardExport.objects.get()
    assert export.requested_by is None
    status = client.get(f"/cards/exports/{export.pk}/?share={token}", **HTMX)
    text = status.content.decode()
    assert f"/cards/exports/{export.pk}/download/?share={token}" in text
    download = client.get(f"/cards/exports/{export.pk}/download/?share={token}")
    assert download.status_code == 200


def test_blank_cards_for_organisers(
    client, deathmatch, user, fake_render, django_capture_on_commit_callbacks, plain_systems
) -> None:
    client.force_login(user)
    assert (
        "blank Deathmatch cards"
        in client.get(reverse("rosters:list"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    )
    url = reverse("cards:blank", args=["deathmatch"])
    assert client.get(url).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"layout": "single", "paper": "letter"})
    export = CardExport.objects.get()
    assert response["Location"] == reverse("cards:export", args=[export.pk])
    assert client.get(reverse("cards:download", args=[export.pk])).status_code == 200
    client.force_login(UserFactory())
    assert client.get(reverse("cards:download", args=[export.pk])).status_code == 404
    assert client.get(reverse("cards:blank", args=["plain"])).status_code == 404


def test_blank_cards_need_a_login(client, deathmatch) -> None:
    response = client.get(reverse("cards:blank", args=["deathmatch"]))
    assert response.status_code == 302


def test_exports_are_listed_read_only_in_the_admin(admin_client, roster, fake_render) -> None:
    from apps.cards.services import ExportOptions, card_export_request

    export = card_export_request(
        roster=roster,
        requested_by=roster.owner,
        options=ExportOptions(),
        language="en",
        share_url="",
    )
    assert admin_client.get("/admin/cards/cardexport/").status_code == 200
    detail = admin_client.get(f"/admin/cards/cardexport/{export.pk}/change/")
    assert detail.status_code == 200
    assert admin_client.get("/admin/cards/cardexport/add/").status_code == 403
