"""App configuration for the catalogue."""

from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CatalogConfig(AppConfig):
    name = "apps.catalog"
    label = "catalog"
    verbose_name = _("Catalogue")

    def ready(self) -> None:
        # A card a league season's pin holds is never deleted, whatever deletes it.
        from django.db.models.signals import pre_delete

        from apps.catalog.models import Item, Profile
        from apps.catalog.pins import refuse_held_delete

        for model in (Profile, Item):
            pre_delete.connect(
                refuse_held_delete, sender=model, dispatch_uid=f"catalog-held-{model.__name__}"
            )
