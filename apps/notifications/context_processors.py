"""The unread count for the navigation's badge."""

from __future__ import annotations

from functools import cache

from django.http import HttpRequest

from apps.accounts.models import User
from apps.notifications.selectors import unread_count


def unread(request: HttpRequest) -> dict[str, object]:
    """``notifications_unread``: a callable the template calls when it shows the badge, so a
    page for a visitor, or a fragment without the navigation, costs no query, and a page that
    shows it costs one, however often it asks."""

    @cache
    def count() -> int:
        user = getattr(request, "user", None)
        return unread_count(user) if isinstance(user, User) and user.is_authenticated else 0

    return {"notifications_unread": count}
