"""Home page, health check, and what makes the site an installable app."""

from __future__ import annotations

import functools
import hashlib
import json
import os
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import get_template
from django.templatetags.static import static
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from apps.accounts.models import User
from apps.leagues import waiting
from apps.matches.selectors import matches_in_progress_for_user
from apps.pages.health import health_check


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """The front page; a logged-in player also finds what waits for them: the matches to
    resume, the league results to confirm and games to report, and for organisers the
    disputes and roster changes to decide."""
    context: dict[str, object] = {}
    if isinstance(request.user, User) and request.user.is_authenticated:
        context = {
            "matches_in_progress": matches_in_progress_for_user(request.user),
            "results_to_confirm": waiting.results_awaiting_confirmation(request.user),
            "games_to_report": waiting.games_to_report(request.user),
            "disputes_to_decide": waiting.disputes_to_decide(request.user),
            "roster_changes_to_decide": waiting.roster_changes_to_decide(request.user),
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


# --- Installable app: manifest, service worker, offline page ------------------------------------

# What the service worker stores on install: the pages' own files from static/ (styles, scripts,
# icons) and htmx. The DejaVu fonts under static/fonts are left out: they are for the printed
# cards (WeasyPrint, server side); the pages use the system's fonts.
SHELL_SUFFIXES = (".css", ".js", ".svg", ".png", ".woff2")
SHELL_EXTRA = ("django_htmx/htmx-2.min.js",)
OFFLINE_TEMPLATE = "pages/offline.html"
# The manifest's colours are the stylesheet's (static/css/skirmish.css): the light theme's
# header (--surface) and page background (--bg); base.html gives the dark ones by media query.
THEME_COLOUR = "#ffffff"
BACKGROUND_COLOUR = "#f6f4ef"


def _shell_paths() -> list[str]:
    """The static files of the app shell, as paths under STATIC_URL (sorted: a stable version)."""
    paths: set[str] = set(SHELL_EXTRA)
    for finder in finders.get_finders():
        if isinstance(finder, finders.FileSystemFinder):
            for path, _storage in finder.list([]):
                if path.endswith(SHELL_SUFFIXES):
                    paths.add(path.replace(os.sep, "/"))
    return sorted(paths)


def _compute_shell() -> tuple[str, list[str]]:
    """The cache version and the shell's URLs. The version hashes every file's URL and content
    and the offline page's template, so any change to them makes clients fetch a fresh shell
    (with hashed names in production the URLs alone would do; not so under DEBUG)."""
    digest = hashlib.sha256()
    urls = []
    for path in _shell_paths():
        url = staticfiles_storage.url(path)
        urls.append(url)
        digest.update(url.encode())
        found = finders.find(path)
        if isinstance(found, str):
            digest.update(Path(found).read_bytes())
    digest.update(get_template(OFFLINE_TEMPLATE).template.source.encode())
    return digest.hexdigest()[:12], urls


_cached_shell = functools.cache(_compute_shell)


def app_shell() -> tuple[str, list[str]]:
    # Under DEBUG the files change while the server runs: hash them again on every request.
    return _compute_shell() if settings.DEBUG else _cached_shell()


@require_GET
def web_manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest: what a phone or tablet needs to install Skirmish as an app."""
    icons = [
        {
            "src": static(f"img/icons/{kind}-{size}.png"),
            "sizes": f"{size}x{size}",
            "type": "image/png",
            "purpose": purpose,
        }
        for kind, purpose in (("icon", "any"), ("maskable", "maskable"))
        for size in (192, 512)
    ]
    manifest = {
        "name": "Skirmish",
        "short_name": "Skirmish",
        "description": gettext(
            "Rosters, live match tracking and leagues for tabletop skirmish games."
        ),
        "lang": get_language(),
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": icons,
    }
    response = JsonResponse(manifest, content_type="application/manifest+json")
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, from the site's root so that its scope is the whole site. Always
    revalidated: a browser must learn of a new version (a new shell) at once."""
    version, shell = app_shell()
    offline = reverse("pages:offline")
    config = {
        "cache": f"skirmish-shell-{version}",
        "offline": offline,
        "shell": [offline, *shell],
        "static": settings.STATIC_URL,  # with the script prefix: "/static/"
    }
    # Our own JSON in a script, not HTML: nothing to escape.
    source = mark_safe(json.dumps(config, indent=2))
    response = render(
        request, "pages/sw.js", {"config": source}, content_type="application/javascript"
    )
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    """The page the service worker shows for a page it cannot load offline. It is cached once,
    on install, so it says everything in every language, the reader's first."""
    current = get_language()
    languages = sorted(settings.LANGUAGES, key=lambda language: language[0] != current)
    return render(request, OFFLINE_TEMPLATE, {"languages": languages})
