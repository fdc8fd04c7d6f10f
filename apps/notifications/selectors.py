"""Reads for notifications: the badge and the list."""

from __future__ import annotations

from django.db.models import QuerySet

from apps.accounts.models import User
from apps.notifications.models import Notification


def unread_count(user: User) -> int:
    """The badge: one count over the (user, read_at) index."""
    return Notification.objects.filter(user=user, read_at__isnull=True).count()


def notification_list(user: User) -> QuerySet[Notification]:
    """The user's notifications, newest first (the list page pages through them)."""
    return Notification.objects.filter(user=user).order_by("-created_at", "-pk")


def notification_for_user(user: User, notification_id: int) -> Notification | None:
    """The user's own notification, or None: another user's id is as good as unknown."""
    return Notification.objects.filter(user=user, pk=notification_id).first()
