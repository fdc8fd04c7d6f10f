"""Rendered fragments of a season's page (standings, the current round), cached by the season's
version.

A big season's standings and round take far longer to compute and render than the rest of the
page, and change far less often than it is viewed. The version is read from the database in a
constant number of small aggregate queries, so every write counts, whichever path made it
(services, the tracker, the admin, a bulk fix): the results (how many, the last change), the
rounds (how many, the last published), the registrations (how many, the last drop), and the
season's own settings. A report also starts to count when its time to confirm passes, with no
write at all, so the next such deadline is part of the version too: once it has passed, the
version differs.

Not in the version: a player renaming their account. The fragments expire after
``FRAGMENT_SECONDS``, so a new name shows within that time at the latest.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Final

from django.core.cache import cache
from django.db.models import Count, Max, Min, Q
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from apps.leagues.models import Registration, Result, Round, Season

FRAGMENT_SECONDS: Final = 10 * 60


def _next_deadline(season: Season, now: datetime, oldest_waiting: datetime | None) -> str:
    if oldest_waiting is None:
        return ""
    return (oldest_waiting + timedelta(hours=season.confirm_hours)).isoformat()


def season_version(season: Season, *, now: datetime | None = None) -> str:
    """A string that changes whenever what the season's standings and rounds show changes."""
    now = now or timezone.now()
    waiting = Q(
        status=Result.Status.REPORTED,
        source=Result.Source.MANUAL,
        reported_at__gt=now - timedelta(hours=season.confirm_hours),
    )
    results = Result.objects.filter(pairing__round__season=season).aggregate(
        n=Count("pk"), last=Max("updated_at"), waiting=Min("reported_at", filter=waiting)
    )
    rounds = Round.objects.filter(season=season).aggregate(
        n=Count("pk"),
        last=Max("pk"),
        published=Count("pk", filter=Q(status=Round.Status.PUBLISHED)),
        last_published=Max("published_at"),
    )
    players = Registration.objects.filter(season=season).aggregate(
        n=Count("pk"), last=Max("pk"), dropped=Count("dropped_at"), last_drop=Max("dropped_at")
    )
    settings = (
        season.status,
        season.win_points,
        season.draw_points,
        season.loss_points,
        season.vp_bonus_points,
        season.vp_bonus_margin,
        season.bye_vp,
        tuple(season.tie_breakers),
        season.confirm_hours,
    )
    parts = (
        season.pk,
        settings,
        results["n"],
        results["last"],
        _next_deadline(season, now, results["waiting"]),
        sorted(rounds.items()),
        sorted(players.items()),
    )
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:32]


def cached_fragment(
    version: str, parts: tuple[object, ...], render: Callable[[], str]
) -> SafeString:
    """The HTML ``render`` makes, from the cache while the season's version and ``parts`` (what
    else the fragment depends on: the viewer's row, the sort, ...) are the same. The language
    is always part of the key."""
    key = f"leagues:fragment:{version}:{get_language()}:" + ":".join(str(p) for p in parts)
    html: str | None = cache.get(key)
    if html is None:
        html = render()
        cache.set(key, html, FRAGMENT_SECONDS)
    # Rendered by our own templates, which escaped every value.
    return mark_safe(html)  # noqa: S308
