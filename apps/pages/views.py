"""Home page and health check."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from apps.pages.health import health_check


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "pages/home.html")


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    health = health_check()
    return JsonResponse(
        {"status": health.status, "database": health.database, "broker": health.broker},
        status=200 if health.healthy else 503,
    )
