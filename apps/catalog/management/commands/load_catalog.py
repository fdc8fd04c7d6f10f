"""``manage.py load_catalog``: load every shipped catalogue in fixtures/ (idempotent)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from apps.catalog.services import (
    catalog_load,
    game_systems_sync,
    organisers_group_ensure,
    shipped_catalog_files,
)
from apps.systems.core.errors import RuleViolation


class Command(BaseCommand):
    help = (
        "Load the shipped catalogues (fixtures/<system>/*.json) and the Organisers group that "
        "may edit them; safe to run again."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        game_systems_sync()
        organisers_group_ensure()
        for path in shipped_catalog_files():
            try:
                result = catalog_load(path)
            except RuleViolation as error:
                raise CommandError(error.message) from None
            self.stdout.write(
                f"{result.system}: {result.factions} factions, {result.profiles} profiles, "
                f"{result.items} items, {result.missions} missions ({path.name})"
            )
