"""Notifications in the admin: read-only, for finding out what a user was told."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from apps.notifications.models import Notification


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("created_at", "user", "kind", "league", "read_at", "emailed_at")
    list_filter = ("kind",)
    search_fields = ("user__username",)
    raw_id_fields = ("user", "league", "pairing")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
