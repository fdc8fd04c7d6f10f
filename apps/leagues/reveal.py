"""The list reveal: before the season's ``lists_reveal_at`` a player's registered roster (its
name, faction, frozen document, requested changes) is seen only by that player and by the
organisers, so nobody can tailor a list to an opponent's. Every page and endpoint that shows a
registration's roster asks ``may_see_list`` first."""

from __future__ import annotations

from datetime import datetime

from django.db.models import QuerySet
from django.utils import timezone

from apps.leagues.models import LogEntry, Registration, Season
from apps.leagues.selectors import LeagueAccess


def lists_hidden(season: Season, *, now: datetime | None = None) -> bool:
    """Whether the season's lists are still hidden (``None`` reveal time: never hidden)."""
    if season.lists_reveal_at is None:
        return False
    return (now or timezone.now()) < season.lists_reveal_at


def may_see_list(
    access: LeagueAccess,
    season: Season,
    registration: Registration,
    *,
    now: datetime | None = None,
) -> bool:
    """Whether the viewer may see ``registration``'s roster now."""
    if not lists_hidden(season, now=now):
        return True
    return access.is_organiser or (
        access.user_id is not None and access.user_id == registration.player_id
    )


ROSTER_ACTIONS = (
    LogEntry.Action.ROSTER_REQUESTED,
    LogEntry.Action.ROSTER_APPROVED,
    LogEntry.Action.ROSTER_REJECTED,
)


def visible_log(access: LeagueAccess, season: Season) -> QuerySet[LogEntry]:
    """The season's log as the viewer may read it: before the list reveal the roster changes
    (they name a roster) are for the organisers only."""
    entries = season.log.select_related("actor")
    if lists_hidden(season) and not access.is_organiser:
        entries = entries.exclude(action__in=ROSTER_ACTIONS)
    return entries
