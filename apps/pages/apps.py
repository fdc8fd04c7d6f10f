"""App configuration for the site's own pages."""

from __future__ import annotations

from django.apps import AppConfig


class PagesConfig(AppConfig):
    name = "apps.pages"
    label = "pages"
