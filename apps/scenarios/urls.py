"""URLs of the scenario editor."""

from __future__ import annotations

from django.urls import path

from apps.scenarios import views

app_name = "scenarios"

urlpatterns = [
    path("<slug:system_slug>/", views.scenario_list, name="list"),
    path("<slug:system_slug>/new/", views.scenario_new, name="new"),
    path("<slug:system_slug>/<slug:slug>/", views.scenario_edit, name="edit"),
    path("<slug:system_slug>/<slug:slug>/delete/", views.scenario_delete, name="delete"),
]
