"""Reads for notifications: the badge, the list, and what waits for a user on the home page."""

from __future__ import annotations

from django.db.models import Q, QuerySet

from apps.accounts.models import User
from apps.leagues.models import Pairing, Result, RosterChange, Round, Season
from apps.notifications.models import Notification

# The home page shows at most this many of each kind of waiting item.
WAITING_LIMIT = 10


def unread_count(user: User) -> int:
    """The badge: one count over the (user, read_at) index."""
    return Notification.objects.filter(user=user, read_at__isnull=True).count()


def notification_list(user: User) -> QuerySet[Notification]:
    """The user's notifications, newest first (the list page pages through them)."""
    return Notification.objects.filter(user=user).order_by("-created_at", "-pk")


def notification_for_user(user: User, notification_id: int) -> Notification | None:
    """The user's own notification, or None: another user's id is as good as unknown."""
    return Notification.objects.filter(user=user, pk=notification_id).first()


def games_to_report(user: User, *, limit: int = WAITING_LIMIT) -> list[Pairing]:
    """The user's games in published rounds of running seasons that nobody has reported yet,
    oldest round first."""
    return list(
        Pairing.objects.filter(
            Q(player_a__player=user) | Q(player_b__player=user),
            player_b__isnull=False,
            result__isnull=True,
            round__status=Round.Status.PUBLISHED,
            round__season__status=Season.Status.RUNNING,
        )
        .select_related("round__season__league", "player_a__player", "player_b__player")
        .order_by("round__published_at", "table", "pk")[:limit]
    )


def disputes_to_decide(user: User, *, limit: int = WAITING_LIMIT) -> list[Result]:
    """Disputed results in the leagues the user organises, oldest first."""
    return list(
        Result.objects.filter(
            status=Result.Status.DISPUTED, pairing__round__season__league__organisers=user
        )
        .exclude(pairing__round__season__status=Season.Status.FINISHED)
        .select_related(
            "pairing__round__season__league",
            "pairing__player_a__player",
            "pairing__player_b__player",
        )
        .order_by("disputed_at", "pk")[:limit]
    )


def roster_changes_to_decide(user: User, *, limit: int = WAITING_LIMIT) -> list[RosterChange]:
    """Roster changes waiting for an organiser, in the leagues the user organises."""
    return list(
        RosterChange.objects.filter(
            status=RosterChange.Status.PENDING,
            registration__season__league__organisers=user,
        )
        .select_related("registration__season__league", "registration__player")
        .order_by("requested_at", "pk")[:limit]
    )
