"""The project's URLs: pages, the API under /api/v1/, its schema and docs, the admin."""

from __future__ import annotations

from django.contrib import admin
from django.urls import include, path
from django.utils.translation import gettext_lazy as _
from django.views.i18n import set_language
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from apps.accounts.api import TokenObtainView
from apps.cards.api import CardExportDetailView, CardExportDownloadView, RosterCardsView
from apps.catalog.api import (
    FactionListView,
    ItemListView,
    MissionListView,
    ProfileListView,
    SystemDetailView,
    SystemListView,
)
from apps.leagues.api_urls import urlpatterns as league_api
from apps.matches.api import (
    MatchArchiveView,
    MatchCommandView,
    MatchDetailView,
    MatchEventsView,
    MatchLegalView,
    MatchListView,
    MatchUnarchiveView,
    OpenSeatListView,
    SystemCommandsView,
    TakeSeatView,
)
from apps.matches.clock_api import MatchClockView
from apps.matches.league_api import LeagueMatchView
from apps.pages.views import healthz
from apps.rosters.api import (
    RosterDetailView,
    RosterExportView,
    RosterImportView,
    RosterListView,
    RosterValidateView,
)
from apps.rosters.army_api import ArmyImportView, ArmyValidateView

admin.site.site_header = _("Skirmish administration")
admin.site.site_title = _("Skirmish admin")

api_v1 = [
    path("auth/token/", TokenObtainView.as_view(), name="auth-token"),
    path("systems/", SystemListView.as_view(), name="system-list"),
    path("systems/<slug:slug>/", SystemDetailView.as_view(), name="system-detail"),
    path("systems/<slug:slug>/factions/", FactionListView.as_view(), name="faction-list"),
    path("systems/<slug:slug>/profiles/", ProfileListView.as_view(), name="profile-list"),
    path("systems/<slug:slug>/items/", ItemListView.as_view(), name="item-list"),
    path("systems/<slug:slug>/missions/", MissionListView.as_view(), name="mission-list"),
    path("systems/<slug:slug>/commands/", SystemCommandsView.as_view(), name="command-list"),
    path("rosters/", RosterListView.as_view(), name="roster-list"),
    path("rosters/validate/", RosterValidateView.as_view(), name="roster-validate"),
    path("rosters/import/", RosterImportView.as_view(), name="roster-import"),
    path(
        "rosters/armies/<slug:system_slug>/import/",
        ArmyImportView.as_view(),
        name="army-import",
    ),
    path(
        "rosters/armies/<slug:system_slug>/validate/",
        ArmyValidateView.as_view(),
        name="army-validate",
    ),
    path("rosters/<int:roster_id>/", RosterDetailView.as_view(), name="roster-detail"),
    path("rosters/<int:roster_id>/export/", RosterExportView.as_view(), name="roster-export"),
    path("matches/", MatchListView.as_view(), name="match-list"),
    path("matches/<int:match_id>/", MatchDetailView.as_view(), name="match-detail"),
    path("matches/<int:match_id>/commands/", MatchCommandView.as_view(), name="match-commands"),
    path("matches/<int:match_id>/events/", MatchEventsView.as_view(), name="match-events"),
    path("matches/<int:match_id>/legal/", MatchLegalView.as_view(), name="match-legal"),
    path("matches/<int:match_id>/clock/", MatchClockView.as_view(), name="match-clock"),
    path("matches/<int:match_id>/archive/", MatchArchiveView.as_view(), name="match-archive"),
    path(
        "matches/<int:match_id>/unarchive/",
        MatchUnarchiveView.as_view(),
        name="match-unarchive",
    ),
    path("matches/seats/", OpenSeatListView.as_view(), name="match-open-seats"),
    path("matches/league/<int:pairing_id>/", LeagueMatchView.as_view(), name="match-league-start"),
    path(
        "matches/<int:match_id>/seats/<int:index>/take/",
        TakeSeatView.as_view(),
        name="match-take-seat",
    ),
    *league_api,
    path("rosters/<int:roster_id>/cards/", RosterCardsView.as_view(), name="roster-cards"),
    path("card-exports/<int:export_id>/", CardExportDetailView.as_view(), name="card-export"),
    path(
        "card-exports/<int:export_id>/download/",
        CardExportDownloadView.as_view(),
        name="card-export-download",
    ),
]

urlpatterns = [
    path("", include("apps.pages.urls")),
    path("systems/", include("apps.catalog.urls")),
    path("accounts/", include("apps.accounts.urls")),
    # django-allauth: email addresses, password reset, verification (login and sign-up above).
    path("accounts/", include("allauth.account.urls")),
    path("rosters/", include("apps.rosters.urls")),
    path("matches/", include("apps.matches.urls")),
    path("scenarios/", include("apps.scenarios.urls")),
    path("leagues/", include("apps.leagues.urls")),
    path("cards/", include("apps.cards.urls")),
    path("notifications/", include("apps.notifications.urls")),
    path("i18n/setlang/", set_language, name="set_language"),
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("api/v1/", include((api_v1, "api"), namespace="api")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves its start-up script as a file (?script): no inline script (CSP).
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
]

handler400 = "apps.common.errors.bad_request"
handler403 = "apps.common.errors.permission_denied"
handler404 = "apps.common.errors.page_not_found"
handler500 = "apps.common.errors.server_error"
# Used by django-allauth when a rate limit (sign-ups, logins, password resets) is exceeded.
handler429 = "apps.accounts.views.too_many_requests"
