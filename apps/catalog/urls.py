"""URLs of the catalogue pages."""

from __future__ import annotations

from django.urls import path

from apps.catalog import views

app_name = "catalog"

urlpatterns = [
    path("<slug:slug>/", views.system_reference, name="system_reference"),
]
