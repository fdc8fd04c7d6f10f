"""What a user is told: one row per message, read in the site and optionally mailed.

A row keeps names and numbers (``params``), not sentences: the text is written when it is read,
in the reader's language (``apps.notifications.texts``). The database holds what must never
go wrong: a kind the code knows, a link that stays on this site, and a deadline reminder sent
at most once per game and user.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Notification(models.Model):
    class Kind(models.TextChoices):
        ROUND_PUBLISHED = "round_published", _("round published")
        RESULT_TO_CONFIRM = "result_to_confirm", _("result to confirm")
        RESULT_DISPUTED = "result_disputed", _("result disputed")
        RESULT_DECIDED = "result_decided", _("result decided")
        DEADLINE_SOON = "deadline_soon", _("deadline soon")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    kind = models.CharField(max_length=24, choices=Kind)
    league = models.ForeignKey(
        "leagues.League", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    pairing = models.ForeignKey(
        "leagues.Pairing", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    # Names and numbers for the text, as they were when it happened.
    params = models.JSONField(default=dict, blank=True)
    # A path on this site ("/leagues/…"); never another site's address.
    url = models.CharField(max_length=500, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    read_at = models.DateTimeField(null=True, blank=True)
    # Set when the email task takes the row: a task delivered twice mails once.
    emailed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        ordering = ["-created_at", "-pk"]
        indexes = [
            # The badge on every page: the user's unread rows, counted from the index alone.
            models.Index(fields=["user", "read_at"], name="notification_user_read"),
            models.Index(fields=["user", "-created_at"], name="notification_user_newest"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(
                    kind__in=[
                        "round_published",
                        "result_to_confirm",
                        "result_disputed",
                        "result_decided",
                        "deadline_soon",
                    ]
                ),
                name="notification_kind_known",
            ),
            models.CheckConstraint(
                condition=Q(url="") | (Q(url__startswith="/") & ~Q(url__startswith="//")),
                name="notification_url_on_site",
            ),
            models.UniqueConstraint(
                fields=["user", "kind", "pairing"],
                condition=Q(kind="deadline_soon"),
                name="notification_deadline_once",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} for {self.user_id}"

    @property
    def is_unread(self) -> bool:
        return self.read_at is None
