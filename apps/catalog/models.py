"""The catalogue as data: what every rule system has (factions, profiles, items, missions).

System-specific stats live in a JSON column validated by the system's schema
(``apps/systems/<slug>``). Profiles and items carry a version that goes up whenever an
organiser changes them; every version is kept as a revision, so a roster entry built with
version 2 still shows version 2 after the card was updated.
"""

from __future__ import annotations

import uuid

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class GameSystem(models.Model):
    """A registered rule system (mirrors ``apps.systems.core.registry``; synced on load)."""

    slug = models.SlugField(_("slug"), max_length=40, unique=True)
    name = models.CharField(_("name"), max_length=80)
    # Renewed with every change to the system's factions, profiles or items (see
    # ``apps.catalog.services``), so readers can keep the catalogue they read until it moves.
    # Random rather than a counter: a value never comes back, not even after a rollback.
    catalog_stamp = models.UUIDField(default=uuid.uuid4, editable=False)

    class Meta:
        verbose_name = _("rule system")
        verbose_name_plural = _("rule systems")
        ordering = ["pk"]

    def __str__(self) -> str:
        return self.name


class Faction(models.Model):
    system = models.ForeignKey(GameSystem, on_delete=models.PROTECT, related_name="factions")
    slug = models.SlugField(_("slug"), max_length=60)
    name = models.CharField(_("name"), max_length=100)
    sample = models.BooleanField(
        _("sample"), default=False, help_text=_("Invented for trying the app, not printed.")
    )

    class Meta:
        verbose_name = _("faction")
        verbose_name_plural = _("factions")
        ordering = ["system", "name"]
        constraints = [
            models.UniqueConstraint(fields=["system", "slug"], name="faction_unique_slug"),
        ]

    def __str__(self) -> str:
        return self.name


class VersionedCard(models.Model):
    """Shared columns of profiles and items: identity, stats, version, sample flag."""

    system = models.ForeignKey(GameSystem, on_delete=models.PROTECT, related_name="+")
    slug = models.SlugField(_("slug"), max_length=80)
    name = models.CharField(_("name"), max_length=120)
    stats = models.JSONField(_("stats"), default=dict, blank=True)
    version = models.PositiveIntegerField(_("version"), default=1)
    sample = models.BooleanField(
        _("sample"), default=False, help_text=_("Invented for trying the app, not printed.")
    )
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        abstract = True
        ordering = ["system", "name"]

    def __str__(self) -> str:
        return self.name


class Profile(VersionedCard):
    """A fighter or unit profile (a profile card)."""

    factions = models.ManyToManyField(Faction, related_name="profiles", verbose_name=_("factions"))

    class Meta(VersionedCard.Meta):
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")
        constraints = [
            models.UniqueConstraint(fields=["system", "slug"], name="profile_unique_slug"),
            models.CheckConstraint(condition=Q(version__gte=1), name="profile_version_positive"),
        ]


class Item(VersionedCard):
    """An equipment card, weapon or armour that rosters buy."""

    kind = models.CharField(_("kind"), max_length=40)
    cost = models.PositiveIntegerField(_("cost"), default=0)

    class Meta(VersionedCard.Meta):
        verbose_name = _("item")
        verbose_name_plural = _("items")
        constraints = [
            models.UniqueConstraint(fields=["system", "slug"], name="item_unique_slug"),
            models.CheckConstraint(condition=Q(version__gte=1), name="item_version_positive"),
        ]


class ProfileRevision(models.Model):
    """A profile as it was at one version (kept forever; rosters point at it)."""

    profile = models.ForeignKey(Profile, on_delete=models.CASCADE, related_name="revisions")
    version = models.PositiveIntegerField()
    name = models.CharField(max_length=120)
    factions = models.JSONField(default=list)
    stats = models.JSONField(default=dict)
    sample = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["profile", "version"]
        constraints = [
            models.UniqueConstraint(
                fields=["profile", "version"], name="profile_revision_unique_version"
            ),
        ]


class ItemRevision(models.Model):
    """An item as it was at one version."""

    item = models.ForeignKey(Item, on_delete=models.CASCADE, related_name="revisions")
    version = models.PositiveIntegerField()
    name = models.CharField(max_length=120)
    kind = models.CharField(max_length=40)
    cost = models.PositiveIntegerField()
    stats = models.JSONField(default=dict)
    sample = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["item", "version"]
        constraints = [
            models.UniqueConstraint(
                fields=["item", "version"], name="item_revision_unique_version"
            ),
        ]


class Mission(models.Model):
    """A game mode or mission; its setup, scoring and end conditions live in ``data``."""

    system = models.ForeignKey(GameSystem, on_delete=models.PROTECT, related_name="missions")
    slug = models.SlugField(_("slug"), max_length=80)
    number = models.PositiveSmallIntegerField(_("number"), null=True, blank=True)
    name = models.CharField(_("name"), max_length=120)
    data = models.JSONField(_("data"), default=dict, blank=True)

    class Meta:
        verbose_name = _("mission")
        verbose_name_plural = _("missions")
        ordering = ["system", "number", "name"]
        constraints = [
            models.UniqueConstraint(fields=["system", "slug"], name="mission_unique_slug"),
        ]

    def __str__(self) -> str:
        return self.name
