"""What waits for a user in their leagues (the home page's list): results to confirm, games
to report, and for organisers the disputes and roster changes to decide. Each is one bounded
query."""

from __future__ import annotations

from datetime import datetime

from django.db.models import Q
from django.utils import timezone

from apps.accounts.models import User
from apps.leagues.models import Pairing, Result, RosterChange, Round, Season
from apps.leagues.selectors import counts_from

# The home page shows at most this many of each kind of waiting item.
WAITING_LIMIT = 10


def results_awaiting_confirmation(
    user: User, *, limit: int = WAITING_LIMIT, now: datetime | None = None
) -> list[Result]:
    """Results the user's opponent reported that wait for the user to confirm or dispute them,
    oldest first (closest to counting unanswered). A bounded read: at most ``limit`` reports,
    less those whose time to answer has run out (they count already)."""
    now = now or timezone.now()
    opponent_reported = Q(reported_side="a", pairing__player_b__player=user) | Q(
        reported_side="b", pairing__player_a__player=user
    )
    results = (
        Result.objects.filter(
            opponent_reported,
            status=Result.Status.REPORTED,
            pairing__round__status=Round.Status.PUBLISHED,
        )
        .exclude(pairing__round__season__status=Season.Status.FINISHED)
        .select_related(
            "pairing__round__season__league",
            "pairing__player_a__player",
            "pairing__player_b__player",
        )
        .order_by("reported_at", "pk")[:limit]
    )
    return [
        result
        for result in results
        if (deadline := counts_from(result, result.pairing.round.season.confirm_hours)) is None
        or deadline > now
    ]


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
