"""The league endpoints under /api/v1/ (included by ``skirmish.urls`` in the api namespace)."""

from __future__ import annotations

from django.urls import path

from apps.leagues import api, costs_api, day_api, round_api

league = "leagues/<str:key>/"
season = league + "seasons/<int:season_id>/"
pairing = league + "pairings/<int:pairing_id>/"

urlpatterns = [
    path("leagues/", api.LeagueListView.as_view(), name="league-list"),
    path(league, api.LeagueDetailView.as_view(), name="league-detail"),
    path(league + "seasons/", api.SeasonListView.as_view(), name="season-list"),
    path(season, api.SeasonDetailView.as_view(), name="season-detail"),
    path(season + "join/", api.SeasonJoinView.as_view(), name="season-join"),
    path(season + "standings/", api.StandingsView.as_view(), name="season-standings"),
    path(season + "rounds/", round_api.RoundListView.as_view(), name="round-list"),
    path(season + "pairing-job/", round_api.PairingJobView.as_view(), name="season-pairing-job"),
    path(season + "rounds/<int:number>/", round_api.RoundDetailView.as_view(), name="round-detail"),
    path(
        season + "rounds/<int:number>/swap/", round_api.RoundSwapView.as_view(), name="round-swap"
    ),
    path(
        season + "rounds/<int:number>/publish/",
        round_api.RoundPublishView.as_view(),
        name="round-publish",
    ),
    path(
        season + "rounds/<int:number>/timer/",
        round_api.RoundTimerView.as_view(),
        name="round-timer",
    ),
    path(season + "check-in/", day_api.CheckInView.as_view(), name="season-check-in"),
    path(season + "tournament-day/", day_api.DaySettingsView.as_view(), name="season-day"),
    path(season + "print/<slug:kind>/", day_api.SeasonPrintView.as_view(), name="season-print"),
    path(season + "costs/", costs_api.SeasonCostsView.as_view(), name="season-costs"),
    path(pairing, api.PairingDetailView.as_view(), name="pairing-detail"),
    path(pairing + "result/", api.ResultReportView.as_view(), name="result-report"),
    path(pairing + "result/confirm/", api.ResultConfirmView.as_view(), name="result-confirm"),
    path(pairing + "result/dispute/", api.ResultDisputeView.as_view(), name="result-dispute"),
    path(pairing + "result/override/", api.ResultOverrideView.as_view(), name="result-override"),
]
