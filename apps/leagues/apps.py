"""App configuration for leagues."""

from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeaguesConfig(AppConfig):
    name = "apps.leagues"
    label = "leagues"
    verbose_name = _("Leagues")
