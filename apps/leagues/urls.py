"""URLs of the league pages. A league's address is its unguessable key."""

from __future__ import annotations

from django.urls import path

from apps.leagues import (
    costs_views,
    day_views,
    history_views,
    projector_views,
    result_views,
    round_views,
    views,
)

app_name = "leagues"

season = "<str:key>/seasons/<int:season_id>/"

urlpatterns = [
    path("", views.league_list, name="list"),
    path("new/", views.league_new, name="new"),
    path("join/", views.league_join, name="join"),
    path("ratings/<slug:system_slug>/", history_views.ratings, name="ratings"),
    path("players/<int:user_id>/", history_views.player_history_page, name="history"),
    path("<str:key>/", views.league_detail, name="detail"),
    path("<str:key>/edit/", views.league_edit, name="edit"),
    path("<str:key>/organisers/", views.league_add_organiser, name="add_organiser"),
    path("<str:key>/join-code/", views.league_new_code, name="new_code"),
    path("<str:key>/seasons/new/", views.season_new, name="season_new"),
    path(season, views.season_detail, name="season"),
    path(season + "standings.csv", views.season_csv, name="csv"),
    path(season + "finish/", views.season_finish, name="season_finish"),
    path(season + "costs/", costs_views.season_costs, name="season_costs"),
    path(season + "rounds/", round_views.round_pair, name="round_pair"),
    path(season + "rounds/status/", round_views.pairing_status, name="pairing_status"),
    path(season + "rounds/<int:number>/", round_views.round_detail, name="round"),
    path(season + "rounds/<int:number>/swap/", round_views.round_swap, name="round_swap"),
    path(season + "rounds/<int:number>/publish/", round_views.round_publish, name="round_publish"),
    path(season + "rounds/<int:number>/discard/", round_views.round_discard, name="round_discard"),
    path(season + "rounds/<int:number>/timer/", day_views.round_timer, name="round_timer"),
    path(season + "check-in/", day_views.check_in, name="check_in"),
    path(season + "tournament-day/", day_views.day_settings, name="day_settings"),
    path(season + "print/<slug:kind>/", day_views.season_print, name="season_print"),
    path(season + "projector/", projector_views.projector, name="projector"),
    path(season + "projector/board/", projector_views.projector_board, name="projector_board"),
    path(season + "players/<int:registration_id>/", views.player_detail, name="player"),
    path(season + "players/<int:registration_id>/drop/", views.player_drop, name="player_drop"),
    path(
        season + "players/<int:registration_id>/roster/",
        views.roster_change_request,
        name="roster_change",
    ),
    path(
        season + "roster-changes/<int:change_id>/",
        views.roster_change_decide,
        name="roster_decide",
    ),
    path("<str:key>/games/<int:pairing_id>/", result_views.pairing_detail, name="pairing"),
    path("<str:key>/games/<int:pairing_id>/report/", result_views.result_report, name="report"),
    path("<str:key>/games/<int:pairing_id>/confirm/", result_views.result_confirm, name="confirm"),
    path("<str:key>/games/<int:pairing_id>/dispute/", result_views.result_dispute, name="dispute"),
    path(
        "<str:key>/games/<int:pairing_id>/override/", result_views.result_override, name="override"
    ),
]
