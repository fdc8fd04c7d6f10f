"""Home page and health check."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from apps.accounts.models import User
from apps.leagues.selectors import results_awaiting_confirmation
from apps.matches.selectors import matches_in_progress_for_user
from apps.pages.health import health_check


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """The front page; a logged-in player also finds what waits for them: the matches to
    resume and the league results to confirm."""
    context: dict[str, object] = {}
    if isinstance(request.user, User) and request.user.is_authenticated:
        context = {
            "matches_in_progress": matches_in_progress_for_user(request.user),
            "results_to_confirm": results_awaiting_confirmation(request.user),
        }
    return render(request, "pages/home.html", context)


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
