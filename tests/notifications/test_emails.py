"""Notification emails: sent after the commit by the task, to a verified address, in the
recipient's language, with a link back, and never to a user who turned them off."""

from __future__ import annotations

from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.urls import reverse

from apps.leagues import services
from apps.notifications.emails import notification_email_send
from apps.notifications.models import Notification
from tests.leagues.factories import join, make_league, make_season, pair_and_publish
from tests.notifications.helpers import mailable, of_kind, published_game, report

pytestmark = pytest.mark.django_db
SITE = "https://skirmish.example.org"


@pytest.fixture(autouse=True)
def site(settings: Any) -> None:
    settings.SITE_URL = SITE
    settings.LANGUAGE_CODE = "en"


def test_round_published_email_goes_to_each_player_after_the_commit(
    django_capture_on_commit_callbacks: Any,
) -> None:
    season = make_season(make_league())
    players = [mailable(r.player) for r in join(season, 2)]
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        pair_and_publish(season)
    assert mail.outbox == []  # nothing is sent before the commit
    for callback in callbacks:
        callback()
    assert sorted(email.to[0] for email in mail.outbox) == sorted(p.email for p in players)
    email = mail.outbox[0]
    [notification] = Notification.objects.filter(user__email=email.to[0])
    assert email.subject == "[Skirmish] Round 1 of Frühjahr is published"
    assert "Round 1 of Frühjahr (Dienstagsliga) is published: you play" in email.body
    assert f"{SITE}{reverse('notifications:open', args=[notification.pk])}" in email.body
    assert f"{SITE}{reverse('accounts:profile')}" in email.body
    assert "To stop these emails" in email.body


def test_result_to_confirm_email_goes_to_the_opponent_only(
    django_capture_on_commit_callbacks: Any,
) -> None:
    pairing = published_game()
    assert pairing.player_b is not None
    mailable(pairing.player_a.player)
    opponent = mailable(pairing.player_b.player)
    with django_capture_on_commit_callbacks(execute=True):
        report(pairing, side="a")
    [email] = mail.outbox
    assert email.to == [opponent.email]
    assert email.subject == "[Skirmish] A result waits for your confirmation"
    assert "12:7" in email.body


def test_email_is_written_in_the_site_language(
    django_capture_on_commit_callbacks: Any, settings: Any
) -> None:
    settings.LANGUAGE_CODE = "de"
    pairing = published_game()
    assert pairing.player_b is not None
    mailable(pairing.player_b.player)
    with django_capture_on_commit_callbacks(execute=True):
        report(pairing, side="a")
    [email] = mail.outbox
    assert "Runde 1" in email.body


def test_disputed_and_decided_results_are_mailed(django_capture_on_commit_callbacks: Any) -> None:
    pairing = published_game()
    assert pairing.player_b is not None
    league = pairing.round.season.league
    organiser = mailable(league.organisers.get())
    reporter = mailable(pairing.player_a.player)
    report(pairing, side="a")
    with django_capture_on_commit_callbacks(execute=True):
        services.result_dispute(
            user=pairing.player_b.player, key=league.key, pairing_id=pairing.pk, reason="No."
        )
    assert sorted(e.to[0] for e in mail.outbox) == sorted([organiser.email, reporter.email])
    assert {e.subject for e in mail.outbox} == {"[Skirmish] A result was disputed"}
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.result_override(
            user=organiser,
            key=league.key,
            pairing_id=pairing.pk,
            outcome="a",
            vp_a=12,
            vp_b=7,
            reason="Checked the photos.",
        )
    [email] = mail.outbox
    assert email.to == [reporter.email]
    assert email.subject == "[Skirmish] An organiser decided a result"
    assert "Checked the photos." in email.body


def test_opted_out_user_gets_no_email_but_the_notification(
    django_capture_on_commit_callbacks: Any,
) -> None:
    pairing = published_game()
    assert pairing.player_b is not None
    opponent = mailable(pairing.player_b.player)
    opponent.email_notifications = False
    opponent.save(update_fields=["email_notifications"])
    with django_capture_on_commit_callbacks(execute=True):
        report(pairing, side="a")
    assert mail.outbox == []
    [notification] = of_kind(Notification.Kind.RESULT_TO_CONFIRM)
    assert notification.user_id == opponent.pk
    assert notification.emailed_at is None


def test_no_email_to_an_unverified_address(django_capture_on_commit_callbacks: Any) -> None:
    pairing = published_game()
    assert pairing.player_b is not None
    opponent = pairing.player_b.player
    EmailAddress.objects.create(user=opponent, email=opponent.email, verified=False, primary=True)
    with django_capture_on_commit_callbacks(execute=True):
        report(pairing, side="a")
    assert mail.outbox == []
    assert of_kind(Notification.Kind.RESULT_TO_CONFIRM)


def test_no_email_to_a_user_without_an_address(
    django_capture_on_commit_callbacks: Any, settings: Any
) -> None:
    settings.ACCOUNT_EMAIL_VERIFICATION = "none"
    pairing = published_game()
    assert pairing.player_b is not None
    pairing.player_b.player.email = ""
    pairing.player_b.player.save(update_fields=["email"])
    with django_capture_on_commit_callbacks(execute=True):
        report(pairing, side="a")
    assert mail.outbox == []


def test_an_email_is_sent_once_however_often_the_task_runs() -> None:
    pairing = published_game()
    assert pairing.player_b is not None
    mailable(pairing.player_b.player)
    report(pairing, side="a")  # its callbacks are not run: the test sends by hand
    [notification] = of_kind(Notification.Kind.RESULT_TO_CONFIRM)
    assert notification_email_send(notification_id=notification.pk) == "sent"
    assert notification_email_send(notification_id=notification.pk) == "done"
    assert len(mail.outbox) == 1


def test_a_failed_send_can_be_retried(monkeypatch: pytest.MonkeyPatch) -> None:
    pairing = published_game()
    assert pairing.player_b is not None
    mailable(pairing.player_b.player)
    report(pairing, side="a")
    [notification] = of_kind(Notification.Kind.RESULT_TO_CONFIRM)

    def refuse(*args: object, **kwargs: object) -> int:
        raise ConnectionRefusedError("mail server down")

    monkeypatch.setattr("django.core.mail.EmailMessage.send", refuse)
    with pytest.raises(ConnectionRefusedError):
        notification_email_send(notification_id=notification.pk)
    monkeypatch.undo()
    assert notification_email_send(notification_id=notification.pk) == "sent"
    assert len(mail.outbox) == 1
