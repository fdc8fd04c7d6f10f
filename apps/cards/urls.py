"""URLs of the print pages."""

from __future__ import annotations

from django.urls import path

from apps.cards import views

app_name = "cards"

urlpatterns = [
    path("rosters/<int:roster_id>/", views.roster_print, name="roster_print"),
    path("exports/<int:export_id>/", views.export_status, name="export"),
    path("exports/<int:export_id>/download/", views.export_download, name="download"),
    path("blank/<slug:system_slug>/", views.blank_print, name="blank"),
]
