"""A PDF of printed cards, made in the background: its options, its progress and its file.

An export is identified by its ``fingerprint``: the roster's version, the options and the
language. Asking again for the same fingerprint gets the export that already exists (done, or
still on its way) instead of a new one.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from apps.catalog.models import GameSystem
from apps.rosters.models import Roster


class CardExport(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for a worker")
        RUNNING = "running", _("Rendering")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    class Layout(models.TextChoices):
        SHEET = "sheet", _("Nine cards per page, with crop marks")
        SINGLE = "single", _("One card per page, card size (for print shops)")

    class Paper(models.TextChoices):
        A4 = "a4", _("A4")
        LETTER = "letter", _("US Letter")

    class Contents(models.TextChoices):
        ALL = "all", _("Cards and roster sheet")
        CARDS = "cards", _("Cards only")
        SHEET = "sheet", _("Roster sheet only")
        BLANK = "blank", _("Blank cards")
        # Documents of other apps (apps.cards.documents), not cards.
        PAIRINGS = "pairings", _("Pairings of a round")
        STANDINGS = "standings", _("Standings")

    system = models.ForeignKey(GameSystem, on_delete=models.PROTECT, related_name="+")
    # Kept when the roster is deleted, so that a running export can say what happened to it.
    roster = models.ForeignKey(
        Roster, on_delete=models.SET_NULL, null=True, blank=True, related_name="card_exports"
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="card_exports",
    )
    layout = models.CharField(_("layout"), max_length=10, choices=Layout.choices)
    paper = models.CharField(_("paper"), max_length=10, choices=Paper.choices)
    contents = models.CharField(_("contents"), max_length=10, choices=Contents.choices)
    language = models.CharField(_("language"), max_length=8)
    # Printed on the roster sheet as a link and QR code; empty when the roster is not shared.
    share_url = models.CharField(max_length=500, blank=True)
    # What a document (apps.cards.documents) is of, e.g. {"season": 3, "round": 2}.
    document = models.JSONField(default=dict, blank=True)
    fingerprint = models.CharField(max_length=64)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    progress = models.PositiveSmallIntegerField(_("progress"), default=0)
    message = models.TextField(_("message"), blank=True)
    file = models.FileField(_("file"), upload_to="cards/", blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    # How often the stale check queued the export again after its worker vanished; a message
    # carries the value it was sent with, so that an older one delivered late does nothing.
    retries = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    # When the export was last put in the queue (first asked for, or retried).
    queued_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("card export")
        verbose_name_plural = _("card exports")
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(condition=Q(progress__lte=100), name="card_export_progress"),
            models.CheckConstraint(
                condition=~Q(status="done") | ~Q(file=""), name="card_export_done_has_file"
            ),
            # One live export per fingerprint: two identical requests share one PDF.
            models.UniqueConstraint(
                fields=["fingerprint"],
                condition=~Q(status="failed"),
                name="card_export_one_live_per_fingerprint",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_contents_display()} #{self.pk} ({self.status})"

    @property
    def finished(self) -> bool:
        return self.status in (self.Status.DONE, self.Status.FAILED)
