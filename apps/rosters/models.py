"""A roster: a player's list of profiles and the items each one carries.

Entries point at the catalogue version they were built with, so an updated card never changes
an existing list silently. Legality is computed by the system's rules on every change and kept
here for lists; the rules remain the truth.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from apps.catalog.models import Faction, GameSystem, Item, Profile

MAX_ENTRY_COUNT = 20


class Roster(models.Model):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rosters"
    )
    system = models.ForeignKey(GameSystem, on_delete=models.PROTECT, related_name="rosters")
    name = models.CharField(_("name"), max_length=100)
    faction = models.ForeignKey(
        Faction, on_delete=models.PROTECT, null=True, blank=True, related_name="rosters"
    )
    settings = models.JSONField(_("settings"), default=dict, blank=True)
    share_token = models.CharField(max_length=64, unique=True, null=True, blank=True)
    legal = models.BooleanField(_("legal"), default=False)
    issue_count = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("roster")
        verbose_name_plural = _("rosters")
        ordering = ["-updated_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(legal=False) | Q(issue_count=0), name="roster_legal_has_no_issues"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class RosterEntry(models.Model):
    roster = models.ForeignKey(Roster, on_delete=models.CASCADE, related_name="entries")
    position = models.PositiveSmallIntegerField()
    profile = models.ForeignKey(Profile, on_delete=models.PROTECT, related_name="+")
    profile_version = models.PositiveIntegerField()
    name = models.CharField(_("nickname"), max_length=60, blank=True)
    count = models.PositiveSmallIntegerField(default=1)
    # Another entry of the same roster this one is assigned to (Universalis: a telematon to
    # its operator); systems without such a rule leave it empty.
    attach_to = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="attached"
    )

    class Meta:
        ordering = ["roster", "position"]
        constraints = [
            models.UniqueConstraint(fields=["roster", "position"], name="entry_unique_position"),
            models.CheckConstraint(
                condition=Q(count__gte=1) & Q(count__lte=MAX_ENTRY_COUNT),
                name="entry_count_in_range",
            ),
        ]


class RosterEntryItem(models.Model):
    entry = models.ForeignKey(RosterEntry, on_delete=models.CASCADE, related_name="items")
    position = models.PositiveSmallIntegerField()
    item = models.ForeignKey(Item, on_delete=models.PROTECT, related_name="+")
    item_version = models.PositiveIntegerField()

    class Meta:
        ordering = ["entry", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["entry", "position"], name="entry_item_unique_position"
            ),
        ]
