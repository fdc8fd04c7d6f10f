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
from apps.systems.core.rosters import (
    BASE_PATTERN,
    MAX_ENTRY_COUNT,
    MAX_UNIT_MODELS,
    MAX_UNIT_POINTS,
    MAX_UNIT_POWER,
    MAX_UNIT_WOUNDS,
)


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


# An army brought from outside the catalogue (Bunkers and Badasses: a Warhammer 40,000 list
# imported from BattleScribe or typed in): its units are stored as given, not as catalogue rows.


class ArmyUnit(models.Model):
    """One unit of an outside army. ``wounds`` is per model; ``base`` is "round:<mm>" or
    "oval:<w>x<h>", empty until the player says (BattleScribe files carry no base sizes)."""

    roster = models.ForeignKey(Roster, on_delete=models.CASCADE, related_name="units")
    position = models.PositiveSmallIntegerField()
    name = models.CharField(_("unit name"), max_length=100)
    model_count = models.PositiveSmallIntegerField(_("models"), default=1)
    points = models.PositiveIntegerField(_("points"), default=0)
    power = models.PositiveSmallIntegerField(_("power level"), default=0)
    keywords = models.JSONField(_("keywords"), default=list, blank=True)
    wounds = models.PositiveSmallIntegerField(_("wounds per model"), default=1)
    base = models.CharField(_("base"), max_length=20, blank=True)
    walker = models.BooleanField(_("walker"), default=False)
    reserve = models.BooleanField(_("in reserve"), default=False)
    deep_strike = models.BooleanField(_("deep strike"), default=False)

    class Meta:
        ordering = ["roster", "position"]
        constraints = [
            models.UniqueConstraint(fields=["roster", "position"], name="unit_unique_position"),
            models.CheckConstraint(
                condition=Q(model_count__gte=1) & Q(model_count__lte=MAX_UNIT_MODELS),
                name="unit_models_in_range",
            ),
            models.CheckConstraint(
                condition=Q(wounds__gte=1) & Q(wounds__lte=MAX_UNIT_WOUNDS),
                name="unit_wounds_in_range",
            ),
            models.CheckConstraint(
                condition=Q(points__lte=MAX_UNIT_POINTS) & Q(power__lte=MAX_UNIT_POWER),
                name="unit_cost_in_range",
            ),
            models.CheckConstraint(
                condition=Q(base="") | Q(base__regex=BASE_PATTERN), name="unit_base_format"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class ArmySource(models.Model):
    """Where an outside army came from: the file, the totals it declared and the sums the
    import computed (they may differ: a list builder's totals can be stale)."""

    roster = models.OneToOneField(Roster, on_delete=models.CASCADE, related_name="army_source")
    file_name = models.CharField(max_length=200, blank=True)
    game_system = models.CharField(max_length=100, blank=True)
    catalogues = models.JSONField(default=list, blank=True)
    declared = models.JSONField(default=dict, blank=True)
    computed = models.JSONField(default=dict, blank=True)
    imported_at = models.DateTimeField(auto_now_add=True)

    @property
    def totals_differ(self) -> bool:
        """Whether the file's own points or power level differ from what its units add up to
        (a file without totals declares nothing to differ)."""
        return bool(self.declared) and any(
            self.declared.get(key, 0) != self.computed.get(key, 0) for key in ("points", "power")
        )


class UnitAnswer(models.Model):
    """What a player answered about a unit, remembered per unit name so the next import of the
    same unit asks nothing: whether it is a walker, and its base."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="unit_answers"
    )
    name = models.CharField(max_length=100)
    walker = models.BooleanField(null=True)
    base = models.CharField(max_length=20, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["owner", "name"], name="unit_answer_unique_name"),
            models.CheckConstraint(
                condition=Q(base="") | Q(base__regex=BASE_PATTERN), name="unit_answer_base_format"
            ),
        ]
