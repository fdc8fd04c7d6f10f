"""App configuration for matches."""

from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MatchesConfig(AppConfig):
    name = "apps.matches"
    label = "matches"
    verbose_name = _("Matches")

    def ready(self) -> None:
        from django.conf import settings
        from django.db.models.signals import post_delete, post_save

        from apps.matches.poll import forget_auth_hash

        def forget(sender: object, instance: object, **kwargs: object) -> None:
            # A changed password, a deactivated account: the kept session hash goes with it.
            forget_auth_hash(getattr(instance, "pk", None))

        post_save.connect(forget, sender=settings.AUTH_USER_MODEL, weak=False)
        post_delete.connect(forget, sender=settings.AUTH_USER_MODEL, weak=False)
