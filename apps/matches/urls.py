"""URLs of the match pages."""

from __future__ import annotations

from django.urls import path

from apps.matches import (
    clock_views,
    league_views,
    lifecycle_views,
    poll,
    stream,
    summary_views,
    views,
)

app_name = "matches"

urlpatterns = [
    path("", views.match_list, name="list"),
    path("new/<slug:system_slug>/", views.match_new, name="new"),
    path("league/<int:pairing_id>/", league_views.league_match_new, name="league_new"),
    path("<int:match_id>/", views.match_tracker, name="tracker"),
    path("<int:match_id>/command/", views.match_command, name="command"),
    path("<int:match_id>/seats/<int:index>/take/", views.match_take_seat, name="take_seat"),
    path("<int:match_id>/poll/", poll.match_poll, name="poll"),
    path("<int:match_id>/stream/", stream.match_stream, name="stream"),
    path("<int:match_id>/clock/", clock_views.match_clock, name="clock"),
    path("<int:match_id>/archive/", lifecycle_views.match_archive, name="archive"),
    path("<int:match_id>/unarchive/", lifecycle_views.match_unarchive, name="unarchive"),
    path("<int:match_id>/delete/", lifecycle_views.match_delete, name="delete"),
    path("<int:match_id>/league/", league_views.league_game_bar, name="league_game"),
    path("<int:match_id>/log/", views.match_log, name="log"),
    path("<int:match_id>/log.json", views.match_log_json, name="log_json"),
    path("<int:match_id>/summary/", summary_views.match_summary, name="summary"),
    path("watch/<str:token>/", views.match_spectate, name="spectate"),
    path(
        "watch/<str:token>/summary/",
        summary_views.match_summary_spectate,
        name="summary_spectate",
    ),
]
