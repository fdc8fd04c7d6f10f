"""The installable app: the web manifest, the service worker at the root and its offline page.

The browser side (the worker installs, controls the page and shows the offline page when the
network is gone) is in tests/e2e/test_offline.py.
"""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

from apps.pages import views

pytestmark = pytest.mark.django_db


def test_manifest_is_served_as_a_web_app_manifest(client: Client, settings) -> None:  # noqa: ANN001
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["name"] == "Skirmish"
    assert manifest["start_url"] == "/"
    assert manifest["display"] == "standalone"
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["theme_color"])
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["background_color"])
    icons = {(icon["sizes"], icon["purpose"]): icon for icon in manifest["icons"]}
    assert set(icons) == {
        ("192x192", "any"),
        ("512x512", "any"),
        ("192x192", "maskable"),
        ("512x512", "maskable"),
    }
    for icon in icons.values():
        assert icon["type"] == "image/png"
        assert finders.find(icon["src"].removeprefix(settings.STATIC_URL)), icon["src"]


def test_manifest_colours_are_the_stylesheets(settings) -> None:  # noqa: ANN001
    css = (settings.BASE_DIR / "static/css/skirmish.css").read_text()
    assert f"--surface: light-dark({views.THEME_COLOUR}," in css
    assert f"--bg: light-dark({views.BACKGROUND_COLOUR}," in css


def test_service_worker_is_served_from_the_root_and_always_revalidated(client: Client) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/javascript"
    assert response["Cache-Control"] == "no-cache"
    body = response.content.decode()
    config = json.loads(re.search(r"const CONFIG = (\{.*?\n\});", body, re.S).group(1))
    assert re.fullmatch(r"skirmish-shell-[0-9a-f]{12}", config["cache"])
    assert config["offline"] == "/offline/"
    shell = config["shell"]
    assert "/offline/" in shell
    for path in ("css/skirmish.css", "js/tracker.js", "js/install.js", "img/icons/icon-192.png"):
        assert any(url.endswith(path) for url in shell), path
    assert any("htmx" in url for url in shell)
    # The printed cards' fonts are not part of the pages.
    assert not any(url.endswith(".ttf") for url in shell)


def test_service_worker_version_follows_the_shell(monkeypatch: pytest.MonkeyPatch) -> None:
    before, _shell = views._compute_shell()
    monkeypatch.setattr(views, "SHELL_EXTRA", (*views.SHELL_EXTRA, "img/logo.svg?changed"))
    after, _shell = views._compute_shell()
    assert before != after


def test_offline_page_speaks_both_languages(client: Client) -> None:
    response = client.get("/offline/")
    assert response.status_code == 200
    text = response.content.decode()
    assert "You are offline — the tracker comes back when the network does." in text
    assert 'lang="de"' in text and 'lang="en"' in text


def test_pages_link_the_manifest_and_register_the_worker(client: Client) -> None:
    text = client.get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in text
    assert 'data-service-worker="/sw.js"' in text
    assert '<meta name="theme-color"' in text


def test_policy_lets_the_worker_and_manifest_load(client: Client) -> None:
    policy = client.get("/")["Content-Security-Policy"]
    assert "worker-src 'self'" in policy
    assert "manifest-src 'self'" in policy
