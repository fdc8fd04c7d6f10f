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
    """200 while this process can serve pages (the database answers), else 503; the broker
    and the Celery workers are reported beside it ("degraded" when either is missing)."""
    health = health_check()
    return JsonResponse(
        {
            "status": health.status,
            "database": health.database,
            "broker": health.broker,
            "workers": health.workers,
        },
        status=200 if health.healthy else 503,
    )
