"""The project's URLs: pages, the API under /api/v1/, its schema and docs, the admin."""

from __future__ import annotations

from django.contrib import admin
from django.urls import include, path
from django.utils.translation import gettext_lazy as _
from django.views.i18n import set_language
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from apps.accounts.api import TokenObtainView
from apps.catalog.api import SystemDetailView, SystemListView
from apps.pages.views import healthz

admin.site.site_header = _("Skirmish administration")
admin.site.site_title = _("Skirmish admin")

api_v1 = [
    path("auth/token/", TokenObtainView.as_view(), name="auth-token"),
    path("systems/", SystemListView.as_view(), name="system-list"),
    path("systems/<slug:slug>/", SystemDetailView.as_view(), name="system-detail"),
]

urlpatterns = [
    path("", include("apps.pages.urls")),
    path("systems/", include("apps.catalog.urls")),
    path("accounts/", include("apps.accounts.urls")),
    path("i18n/setlang/", set_language, name="set_language"),
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("api/v1/", include((api_v1, "api"), namespace="api")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
]

handler400 = "apps.common.errors.bad_request"
handler403 = "apps.common.errors.permission_denied"
handler404 = "apps.common.errors.page_not_found"
handler500 = "apps.common.errors.server_error"
