"""Card exports in the admin: read-only, to see what was printed and why one failed."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from apps.cards.models import CardExport


@admin.register(CardExport)
class CardExportAdmin(admin.ModelAdmin):
    list_display = [
        "id",
        "roster",
        "contents",
        "layout",
        "paper",
        "status",
        "progress",
        "created_at",
    ]
    list_filter = ["status", "contents", "layout", "paper"]
    search_fields = ["roster__name", "requested_by__username"]
    readonly_fields = [field.name for field in CardExport._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: CardExport | None = None) -> bool:
        return False
