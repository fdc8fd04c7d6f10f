"""URLs of the site's own pages, and the app's manifest and service worker (from the root: a
service worker's scope is its own path and below)."""

from __future__ import annotations

from django.urls import path

from apps.pages import views

app_name = "pages"

urlpatterns = [
    path("", views.home, name="home"),
    path("manifest.webmanifest", views.web_manifest, name="manifest"),
    path("sw.js", views.service_worker, name="sw"),
    path("offline/", views.offline, name="offline"),
]
