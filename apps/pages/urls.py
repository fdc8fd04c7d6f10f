"""URLs of the site's own pages."""

from __future__ import annotations

from django.urls import path

from apps.pages import views

app_name = "pages"

urlpatterns = [
    path("", views.home, name="home"),
]
