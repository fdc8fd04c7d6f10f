"""Admin for users."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.utils.translation import gettext_lazy as _

from apps.accounts.models import User


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    fieldsets = (
        *(DjangoUserAdmin.fieldsets or ()),
        (_("Skirmish"), {"fields": ("display_name",)}),
    )
    list_display = ("username", "display_name", "email", "is_staff", "date_joined")
