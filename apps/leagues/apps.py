"""App configuration for leagues."""

from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeaguesConfig(AppConfig):
    name = "apps.leagues"
    label = "leagues"
    verbose_name = _("Leagues")

    def ready(self) -> None:
        # The pairings and standings PDFs join the cards' print pipeline (apps.cards.documents).
        from apps.leagues import printing

        printing.register()
        # A card a season's pin holds is not deleted (apps.catalog.pins).
        from apps.catalog.pins import register_card_holder
        from apps.leagues.season_catalog import seasons_holding

        register_card_holder(seasons_holding)
