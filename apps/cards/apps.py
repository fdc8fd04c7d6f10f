"""App configuration for printed cards."""

from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CardsConfig(AppConfig):
    name = "apps.cards"
    label = "cards"
    verbose_name = _("Printed cards")
