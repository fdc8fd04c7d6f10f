"""URLs of the match pages."""

from __future__ import annotations

from django.urls import path

from apps.matches import views

app_name = "matches"

urlpatterns = [
    path("", views.match_list, name="list"),
    path("new/<slug:system_slug>/", views.match_new, name="new"),
    path("<int:match_id>/", views.match_tracker, name="tracker"),
    path("<int:match_id>/command/", views.match_command, name="command"),
    path("<int:match_id>/seats/<int:index>/take/", views.match_take_seat, name="take_seat"),
    path("<int:match_id>/poll/", views.match_poll, name="poll"),
    path("<int:match_id>/log/", views.match_log, name="log"),
    path("<int:match_id>/log.json", views.match_log_json, name="log_json"),
    path("watch/<str:token>/", views.match_spectate, name="spectate"),
]
