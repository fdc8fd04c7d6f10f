"""What a league's tournament day adds to its rows: the round timer, the list reveal, check-in.

Kept apart from ``models`` so that each module stays small; ``models`` builds ``Season`` and
``Round`` on the abstract bases here and imports ``CheckIn``, so Django sees one app.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Final

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

MAX_TIMER_MINUTES = 600
# A reveal time is a moment of this century: far-off years would be written with historic
# time-zone offsets (Berlin before 1893: +00:53:28) that no client reads as a date-time.
REVEAL_EARLIEST: Final = datetime(2000, 1, 1, tzinfo=UTC)
REVEAL_LATEST: Final = datetime(2100, 1, 1, tzinfo=UTC)


def check_reveal_time(value: datetime | None) -> None:
    if value is not None and not REVEAL_EARLIEST <= value < REVEAL_LATEST:
        raise ValidationError(
            _("Give a reveal time from the year 2000 to 2099."), code="reveal_out_of_range"
        )


class SeasonDayFields(models.Model):
    """A season's tournament-day settings."""

    # Before this moment a player's registered roster is seen only by that player and the
    # organisers (no one can tailor a list to an opponent's); None: always visible.
    lists_reveal_at = models.DateTimeField(
        _("lists revealed at"), null=True, blank=True, validators=[check_reveal_time]
    )
    # Pair only players who said they are here (otherwise only the absent are left out).
    check_in_required = models.BooleanField(_("pair only checked-in players"), default=False)

    class Meta:
        abstract = True


class RoundTimerFields(models.Model):
    """The round timer an organiser runs. Running: ``timer_ends_at`` set. Paused: the
    seconds left in ``timer_paused_remaining`` and no end. Neither: no timer."""

    timer_minutes = models.PositiveSmallIntegerField(null=True, blank=True)
    timer_ends_at = models.DateTimeField(null=True, blank=True)
    timer_paused_remaining = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        abstract = True


ROUND_TIMER_CONSTRAINTS = [
    models.CheckConstraint(
        condition=Q(timer_minutes__isnull=True)
        | (Q(timer_minutes__gte=1) & Q(timer_minutes__lte=MAX_TIMER_MINUTES)),
        name="round_timer_minutes_range",
    ),
    models.CheckConstraint(
        condition=Q(timer_ends_at__isnull=True) | Q(timer_paused_remaining__isnull=True),
        name="round_timer_running_or_paused",
    ),
    models.CheckConstraint(
        condition=Q(timer_minutes__isnull=False)
        | (Q(timer_ends_at__isnull=True) & Q(timer_paused_remaining__isnull=True)),
        name="round_timer_has_minutes",
    ),
]


class CheckIn(models.Model):
    """A player's answer for one round of a season: here (``present``) or not coming.

    Keyed by the round's number rather than the round, because it is given before the round
    exists (pairing reads it); a registration answers once per round number."""

    registration = models.ForeignKey(
        "leagues.Registration", on_delete=models.CASCADE, related_name="check_ins"
    )
    round_number = models.PositiveSmallIntegerField()
    present = models.BooleanField()
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["round_number", "registration"]
        constraints = [
            models.UniqueConstraint(
                fields=["registration", "round_number"], name="check_in_once_per_round"
            ),
            models.CheckConstraint(
                condition=Q(round_number__gte=1), name="check_in_round_positive"
            ),
        ]
