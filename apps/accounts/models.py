"""The user model: Django's, with a display name, so that it can grow without a migration dance."""

from __future__ import annotations

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    display_name = models.CharField(
        _("display name"),
        max_length=60,
        blank=True,
        help_text=_("Shown to other players in matches and leagues instead of your user name."),
    )
    email_notifications = models.BooleanField(
        _("email notifications"),
        default=True,
        help_text=_(
            "Also get your league notifications (published rounds, results to confirm, "
            "disputes, deadlines) by email."
        ),
    )

    @property
    def shown_name(self) -> str:
        return self.name_shown(self.display_name, self.username)

    @staticmethod
    def name_shown(display_name: str, username: str) -> str:
        """The name a user is shown by, from the two columns (for rows read as plain values)."""
        return display_name or username
