"""The framework floor: server time of a bare view that runs one small database transaction."""

from __future__ import annotations

from django.db import connection, transaction
from django.http import HttpRequest, JsonResponse
from django.test import Client, override_settings
from django.urls import include, path

from bench.report import Report, measure


def bare_view(request: HttpRequest) -> JsonResponse:
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        (value,) = cursor.fetchone()
    return JsonResponse({"value": value})


urlpatterns = [
    path("bench/floor/", bare_view),
    path("", include("skirmish.urls")),
]


def run(report: Report) -> None:
    report.section(f"Framework floor ({connection.vendor}, all middleware, Django test client)")
    client = Client()
    with override_settings(ROOT_URLCONF="bench.framework"):
        report.add(
            measure(
                "GET bare view with one transaction",
                lambda: client.get("/bench/floor/"),
                repeat=2000,
                warmup=50,
            )
        )
        report.add(measure("GET /healthz", lambda: client.get("/healthz"), repeat=500))
        report.add(measure("GET / (home page)", lambda: client.get("/"), repeat=300))
