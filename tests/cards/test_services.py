"""Card exports: reuse of the same version, failures with a message, a roster deleted mid-way,
stale and retried attempts, cleanup. Rendering is faked here (see test_rendering.py)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core.files.storage import default_storage
from django.core.management import call_command
from django.utils import timezone

from apps.cards import services
from apps.cards.models import CardExport
from apps.cards.rendering import CardRenderError
from apps.rosters import services as roster_services
from apps.rosters.models import Roster
from apps.rosters.selectors import roster_for_owner
from skirmish.celery import app as celery_app

pytestmark = pytest.mark.django_db

Status = CardExport.Status


def request(roster: Roster, **options: str) -> CardExport:
    return services.card_export_request(
        roster=roster,
        requested_by=roster.owner,
        options=services.ExportOptions(**options),
        language="en",
        share_url="",
    )


def test_an_export_renders_in_process_without_a_broker(
    roster, fake_render, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        export = request(roster)
    export.refresh_from_db()
    assert export.status == Status.DONE
    assert export.progress == 100
    assert export.attempts == 1
    assert default_storage.exists(export.file.name)
    job = fake_render[0]
    assert [card.name for card in job.cards][:2] == ["Direktorin Ilva Syn", "Konzernschütze"]
    assert job.context["team_name"] == "Team Vortex"


def test_the_same_version_and_options_reuse_the_file(
    roster, fake_render, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        first = request(roster)
    again = request(roster_for_owner(roster.owner, roster.pk))
    assert again.pk == first.pk
    assert len(fake_render) == 1
    with django_capture_on_commit_callbacks(execute=True):
        other_paper = request(roster, paper="letter")
    assert other_paper.pk != first.pk


def test_a_changed_roster_gets_a_new_export(
    roster, fake_render, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        first = request(roster)
    roster_services.roster_update(
        owner=roster.owner, roster_id=roster.pk, name="Team Vortex II", settings={}
    )
    with django_capture_on_commit_callbacks(execute=True):
        second = request(roster_for_owner(roster.owner, roster.pk))
    assert second.pk != first.pk


def test_a_pending_export_is_reused_not_queued_twice(roster, fake_render) -> None:
    first = request(roster)  # no commit: it stays pending
    assert request(roster).pk == first.pk
    assert CardExport.objects.count() == 1


def test_a_render_error_fails_the_export_with_its_message(
    roster, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    def broken(job: Any, **kwargs: Any) -> bytes:
        raise CardRenderError("“Anzi” has more text than fits on a card.")

    monkeypatch.setattr("apps.cards.services.render_pdf", broken)
    with django_capture_on_commit_callbacks(execute=True):
        export = request(roster)
    export.refresh_from_db()
    assert export.status == Status.FAILED
    assert export.message == "“Anzi” has more text than fits on a card."
    assert not export.file


def test_an_unexpected_error_fails_with_a_human_message(
    roster, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    def broken(job: Any, **kwargs: Any) -> bytes:
        raise RuntimeError("cairo exploded")

    monkeypatch.setattr("apps.cards.services.render_pdf", broken)
    with django_capture_on_commit_callbacks(execute=True):
        export = request(roster)
    export.refresh_from_db()
    assert export.status == Status.FAILED
    assert export.message == "Something went wrong while making the PDF. Please try again."


def test_a_failed_export_is_not_reused_asking_again_retries(
    roster, monkeypatch, fake_render, django_capture_on_commit_callbacks
) -> None:
    failed = request(roster)
    CardExport.objects.filter(pk=failed.pk).update(status=Status.FAILED, message="x")
    with django_capture_on_commit_callbacks(execute=True):
        retried = request(roster)
    assert retried.pk != failed.pk
    retried.refresh_from_db()
    assert retried.status == Status.DONE


def test_a_roster_deleted_before_rendering_fails_the_export(roster, fake_render) -> None:
    export = request(roster)
    roster_services.roster_delete(owner=roster.owner, roster_id=roster.pk)
    services.card_export_render(export_id=export.pk)
    export.refresh_from_db()
    assert export.status == Status.FAILED
    assert export.message == "The roster was deleted while its cards were being made."
    assert export.roster is None


def test_a_roster_deleted_while_rendering_stores_no_file(roster, monkeypatch) -> None:
    export = request(roster)

    def delete_then_render(job: Any, **kwargs: Any) -> bytes:
        roster_services.roster_delete(owner=roster.owner, roster_id=roster.pk)
        return b"%PDF-1.4"

    monkeypatch.setattr("apps.cards.services.render_pdf", delete_then_render)
    services.card_export_render(export_id=export.pk)
    export.refresh_from_db()
    assert export.status == Status.FAILED
    assert "deleted" in export.message
    assert not export.file


def test_a_roster_changed_after_the_request_fails_rather_than_mislabels(
    roster, fake_render
) -> None:
    export = request(roster)
    roster_services.roster_update(owner=roster.owner, roster_id=roster.pk, name="New", settings={})
    services.card_export_render(export_id=export.pk)
    export.refresh_from_db()
    assert export.status == Status.FAILED
    assert "changed" in export.message


def test_rendering_twice_is_idempotent(roster, fake_render) -> None:
    export = request(roster)
    services.card_export_render(export_id=export.pk)
    services.card_export_render(export_id=export.pk)  # a redelivered message
    export.refresh_from_db()
    assert export.status == Status.DONE
    assert export.attempts == 1
    assert len(fake_render) == 1


def test_a_running_export_seen_again_is_the_retry_of_a_dead_worker(roster, fake_render) -> None:
    export = request(roster)
    CardExport.objects.filter(pk=export.pk).update(status=Status.RUNNING, attempts=1)
    services.card_export_render(export_id=export.pk)
    export.refresh_from_db()
    assert export.status == Status.DONE
    assert export.attempts == 2


def test_an_export_that_kills_every_worker_gives_up(roster, fake_render) -> None:
    export = request(roster)
    CardExport.objects.filter(pk=export.pk).update(
        status=Status.RUNNING, attempts=services.MAX_ATTEMPTS
    )
    services.card_export_render(export_id=export.pk)
    export.refresh_from_db()
    assert export.status == Status.FAILED
    assert "stopped 3 times" in export.message
    assert fake_render == []


def test_an_overtaken_attempt_throws_its_result_away(roster, monkeypatch) -> None:
    export = request(roster)

    def overtaken(job: Any, **kwargs: Any) -> bytes:
        # Meanwhile the message was redelivered and another worker claimed the export.
        CardExport.objects.filter(pk=export.pk).update(attempts=2)
        return b"%PDF-1.4"

    monkeypatch.setattr("apps.cards.services.render_pdf", overtaken)
    services.card_export_render(export_id=export.pk)
    export.refresh_from_db()
    assert export.status == Status.RUNNING
    assert not export.file


def test_a_stale_running_export_is_marked_failed(roster, settings) -> None:
    export = request(roster)
    long_ago = timezone.now() - timedelta(minutes=settings.CARDS_STALE_MINUTES + 1)
    CardExport.objects.filter(pk=export.pk).update(
        status=Status.RUNNING, attempts=1, started_at=long_ago
    )
    fresh = request(roster)  # a second roster version stays untouched
    assert services.card_export_fail_stale() == 1
    export.refresh_from_db()
    assert export.status == Status.FAILED
    assert "stopped without finishing" in export.message
    assert CardExport.objects.get(pk=fresh.pk).status in (Status.PENDING, Status.FAILED)


def test_polling_a_stale_export_fails_it(roster, settings) -> None:
    export = request(roster)
    long_ago = timezone.now() - timedelta(minutes=settings.CARDS_STALE_MINUTES + 1)
    CardExport.objects.filter(pk=export.pk).update(
        status=Status.RUNNING, attempts=1, started_at=long_ago
    )
    assert services.card_export_check_stale(export).status == Status.FAILED


def test_cleanup_deletes_old_exports_and_their_files(
    roster, fake_render, settings, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        old = request(roster)
    old.refresh_from_db()
    name = old.file.name
    CardExport.objects.filter(pk=old.pk).update(
        created_at=timezone.now() - timedelta(days=settings.CARDS_KEEP_DAYS + 1)
    )
    with django_capture_on_commit_callbacks(execute=True):
        recent = request(roster, paper="letter")
    call_command("cards_cleanup", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert not CardExport.objects.filter(pk=old.pk).exists()
    assert not default_storage.exists(name)
    assert CardExport.objects.filter(pk=recent.pk).exists()


def test_a_done_export_whose_file_vanished_is_made_again(
    roster, fake_render, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        first = request(roster)
    first.refresh_from_db()
    default_storage.delete(first.file.name)
    with django_capture_on_commit_callbacks(execute=True):
        second = request(roster)
    assert second.pk != first.pk
    assert CardExport.objects.get(pk=first.pk).status == Status.FAILED


def test_an_unreachable_broker_refuses_new_exports(roster, monkeypatch) -> None:
    monkeypatch.setitem(celery_app.conf, "task_always_eager", False)
    monkeypatch.setattr("apps.cards.services.check_broker", lambda timeout: "unreachable")
    with pytest.raises(services.ExportsUnavailable):
        request(roster)
    assert CardExport.objects.count() == 0


def test_a_queue_failure_after_commit_fails_the_export(
    roster, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    monkeypatch.setitem(celery_app.conf, "task_always_eager", False)
    monkeypatch.setattr("apps.cards.services.check_broker", lambda timeout: "ok")

    def unreachable(*args: Any, **kwargs: Any) -> None:
        raise ConnectionRefusedError("redis is down")

    monkeypatch.setattr("apps.cards.tasks.render_card_export.apply_async", unreachable)
    with django_capture_on_commit_callbacks(execute=True):
        export = request(roster)
    export.refresh_from_db()
    assert export.status == Status.FAILED
    assert "unavailable" in export.message


def test_blank_cards_need_no_roster(
    deathmatch, user, fake_render, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        export = services.card_export_request_blank(
            system=deathmatch, requested_by=user, options=services.ExportOptions(), language="de"
        )
    export.refresh_from_db()
    assert export.status == Status.DONE
    assert [card.template for card in fake_render[0].cards] == ["blank_profile", "blank_equipment"]
    assert services.export_filename(export) == "deathmatch-blank-cards.pdf"
