"""The periodic reminder: a report about to count is recalled to the player who must answer,
once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.core import mail

from apps.leagues import services
from apps.leagues.models import Result
from apps.notifications.models import Notification
from apps.notifications.services import deadline_reminders_send
from apps.notifications.tasks import send_deadline_reminders
from apps.notifications.texts import notification_text
from tests.notifications.helpers import mailable, of_kind, published_game, report

pytestmark = pytest.mark.django_db
Kind = Notification.Kind
REPORTED_AT = datetime(2026, 3, 10, 10, 0, tzinfo=UTC)


def reported_at(result: Result, moment: datetime = REPORTED_AT) -> Result:
    Result.objects.filter(pk=result.pk).update(reported_at=moment)
    result.refresh_from_db()
    return result


def test_deadline_soon_reminds_the_player_who_must_answer_once() -> None:
    pairing = published_game()
    assert pairing.player_b is not None
    reported_at(report(pairing, side="a"))  # counts 48 hours later: 12 March, 10:00 UTC
    now = REPORTED_AT + timedelta(hours=40)
    assert deadline_reminders_send(now=now) == 1
    assert deadline_reminders_send(now=now + timedelta(hours=1)) == 0
    [reminder] = of_kind(Kind.DEADLINE_SOON)
    assert reminder.user_id == pairing.player_b.player_id
    assert reminder.params["counts_at"] == "2026-03-12T10:00:00+00:00"
    assert notification_text(reminder.kind, reminder.params) == (
        f"Answer the result of {pairing.player_a.player.shown_name} – "
        f"{pairing.player_b.player.shown_name} (round 1, Dienstagsliga) by "
        "12 March 2026, 11:00, or it counts as reported."
    )


def test_deadline_soon_waits_until_twelve_hours_before_and_not_after() -> None:
    pairing = published_game()
    reported_at(report(pairing, side="a"))
    assert deadline_reminders_send(now=REPORTED_AT + timedelta(hours=35)) == 0
    assert deadline_reminders_send(now=REPORTED_AT + timedelta(hours=48, minutes=1)) == 0
    assert not of_kind(Kind.DEADLINE_SOON)


def test_deadline_soon_skips_answered_reports() -> None:
    pairing = published_game()
    assert pairing.player_b is not None
    result = report(pairing, side="a")
    services.result_confirm(
        user=pairing.player_b.player, key=pairing.round.season.league.key, pairing_id=pairing.pk
    )
    reported_at(result)
    assert deadline_reminders_send(now=REPORTED_AT + timedelta(hours=40)) == 0


def test_deadline_soon_for_a_tracked_result_reminds_from_the_same_moment() -> None:
    pairing = published_game()
    assert pairing.player_b is not None
    a, b = pairing.player_a.player, pairing.player_b.player
    result = services.league_result_propose_from_match(
        system_slug="plain",
        user_ids=(a.pk, b.pk),
        winner_user_id=a.pk,
        vp_by_user={a.pk: 9, b.pk: 4},
        match_url="/matches/1/",
        reporter_user_id=a.pk,
    )
    assert result is not None
    reported_at(result)
    Notification.objects.all().delete()
    assert deadline_reminders_send(now=REPORTED_AT + timedelta(hours=35)) == 0
    # It never counts on its own, so a reminder is still due long after.
    assert deadline_reminders_send(now=REPORTED_AT + timedelta(days=5)) == 1
    assert deadline_reminders_send(now=REPORTED_AT + timedelta(days=6)) == 0
    [reminder] = of_kind(Kind.DEADLINE_SOON)
    assert reminder.user_id == b.pk
    assert "still waits for your answer" in notification_text(reminder.kind, reminder.params)


def test_deadline_task_sends_the_reminder_email_once(
    django_capture_on_commit_callbacks: Any, settings: Any
) -> None:
    settings.LANGUAGE_CODE = "en"
    pairing = published_game()
    assert pairing.player_b is not None
    answerer = mailable(pairing.player_b.player)
    reported_at(report(pairing, side="a"), datetime.now(UTC) - timedelta(hours=40))
    with django_capture_on_commit_callbacks(execute=True):
        assert send_deadline_reminders() == 1
    with django_capture_on_commit_callbacks(execute=True):
        assert send_deadline_reminders() == 0
    [email] = mail.outbox
    assert email.to == [answerer.email]
    assert email.subject == "[Skirmish] A result still waits for your answer"
    assert "or it counts as reported" in email.body


def test_deadline_email_is_written_in_the_recipients_language(
    django_capture_on_commit_callbacks: Any, settings: Any
) -> None:
    """Users have no language of their own: the site's (LANGUAGE_CODE) is theirs."""
    settings.LANGUAGE_CODE = "de"
    pairing = published_game()
    assert pairing.player_b is not None
    mailable(pairing.player_b.player)
    reported_at(report(pairing, side="a"))
    with django_capture_on_commit_callbacks(execute=True):
        deadline_reminders_send(now=REPORTED_AT + timedelta(hours=40))
    [email] = mail.outbox
    assert "12. März 2026, 11:00" in email.body
    assert "Runde 1" in email.body
