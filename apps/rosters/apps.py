"""App configuration for rosters."""

from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RostersConfig(AppConfig):
    name = "apps.rosters"
    label = "rosters"
    verbose_name = _("Rosters")
