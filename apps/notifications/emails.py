"""Notification emails: who gets one, in which language, and sending it exactly once.

Sent through Django's configured ``EMAIL_BACKEND`` (the one allauth uses for password resets),
by the Celery task in ``apps.notifications.tasks``. A task has no request, so links are built
from ``settings.SITE_URL``.
"""

from __future__ import annotations

from allauth.account.models import EmailAddress
from django.conf import settings
from django.core.mail import EmailMessage
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from apps.accounts.models import User
from apps.notifications.models import Notification
from apps.notifications.texts import notification_subject, notification_text


def recipient_language(user: User) -> str:
    """The language a user's emails are written in. Users have no language of their own yet
    (the pages follow the browser, which a task cannot ask), so it is the site's language."""
    return str(getattr(user, "language", "") or settings.LANGUAGE_CODE)


def recipient_address(user: User) -> str | None:
    """Where the user's notifications go, or None. Only an address its owner verified, so a
    mistyped address at sign-up never receives league mail; where the site verifies no
    addresses (``ACCOUNT_EMAIL_VERIFICATION=none``) the account's address as it stands."""
    if not user.email_notifications:
        return None
    if settings.ACCOUNT_EMAIL_VERIFICATION == "none":
        return user.email or None
    verified = (
        EmailAddress.objects.filter(user=user, verified=True)
        .order_by("-primary", "pk")
        .values_list("email", flat=True)
        .first()
    )
    return verified or None


def absolute(path: str) -> str:
    return settings.SITE_URL + path


def notification_email(notification: Notification, address: str) -> EmailMessage:
    """The email for a notification, in the recipient's language, with a link that opens (and
    marks read) the notification and a line on how to turn these emails off."""
    user = notification.user
    with translation.override(recipient_language(user)):
        subject = settings.ACCOUNT_EMAIL_SUBJECT_PREFIX + notification_subject(
            notification.kind, notification.params
        )
        body = render_to_string(
            "notifications/email/body.txt",
            {
                "name": user.shown_name,
                "text": notification_text(notification.kind, notification.params),
                "league": notification.params.get("league", ""),
                "round": notification.params.get("round", ""),
                "link": absolute(reverse("notifications:open", args=[notification.pk])),
                "profile_link": absolute(reverse("accounts:profile")),
            },
        )
    return EmailMessage(subject=" ".join(subject.split()), body=body, to=[address])


def notification_email_send(*, notification_id: int) -> str:
    """Mail one notification, at most once: the row is claimed (``emailed_at``) before the
    mail goes out and released if sending fails, so the task may be retried or delivered twice.
    Returns what happened: "sent", "skipped" (gone, opted out, no address) or "done"."""
    notification = Notification.objects.select_related("user").filter(pk=notification_id).first()
    if notification is None:
        return "skipped"
    address = recipient_address(notification.user)
    if address is None:
        return "skipped"
    claimed = Notification.objects.filter(pk=notification_id, emailed_at__isnull=True).update(
        emailed_at=timezone.now()
    )
    if not claimed:
        return "done"
    try:
        notification_email(notification, address).send()
    except Exception:
        Notification.objects.filter(pk=notification_id).update(emailed_at=None)
        raise
    return "sent"
