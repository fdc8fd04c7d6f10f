"""App configuration for matches."""

from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MatchesConfig(AppConfig):
    name = "apps.matches"
    label = "matches"
    verbose_name = _("Matches")
