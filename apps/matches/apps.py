"""App configuration for matches."""

from __future__ import annotations

from typing import Any

from django.apps import AppConfig
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class MatchesConfig(AppConfig):
    name = "apps.matches"
    label = "matches"
    verbose_name = _("Matches")

    def ready(self) -> None:
        from django.conf import settings
        from django.db.models.signals import post_delete, post_save, pre_delete

        from apps.matches import seqcache, tracker_head
        from apps.matches.models import Match, MatchPlayer
        from apps.matches.poll import forget_auth_hash

        def user_saved(sender: object, instance: Any, **kwargs: Any) -> None:
            # A changed password, a deactivated account: the kept session hash goes with it.
            # Not for a new user (no session of theirs is older), nor for a login's own save of
            # the time it happened, which changes neither.
            fields = kwargs.get("update_fields")
            if kwargs.get("created") or (fields is not None and set(fields) <= {"last_login"}):
                return
            forget_auth_hash(instance.pk)

        def user_deleted(sender: object, instance: Any, **kwargs: object) -> None:
            # Their matches go (each renewed below), their seats are emptied without a save.
            forget_auth_hash(instance.pk)
            held = MatchPlayer.objects.filter(Q(user=instance) | Q(team_owner=instance))
            for match_id in set(held.values_list("match_id", flat=True)):
                tracker_head.renew_on_commit(match_id)

        def match_deleted(sender: object, instance: Any, **kwargs: object) -> None:
            # No refresh is answered from the cache for a match that is gone.
            tracker_head.renew_on_commit(instance.pk)
            seqcache.forget_on_commit(instance.pk, seqcache.nonce_of(instance.spectator_token))

        user = settings.AUTH_USER_MODEL
        post_save.connect(user_saved, sender=user, weak=False, dispatch_uid="matches-user-saved")
        pre_delete.connect(user_deleted, sender=user, weak=False, dispatch_uid="matches-user-gone")
        post_delete.connect(match_deleted, sender=Match, weak=False, dispatch_uid="matches-gone")
