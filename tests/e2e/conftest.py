"""Browser fixtures: Playwright driving Debian's Chromium against pytest-django's live server.

Playwright's sync API runs an event loop in the test thread, which makes Django refuse ORM calls
there ("SynchronousOnlyOperation"); the live server answers from its own thread, so allowing the
test thread's calls is safe here.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator

import pytest
from django.db import connections

from tests.conftest import skip_or_fail

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("SKIRMISH_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
TABLET = {"width": 820, "height": 1180}


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        skip_or_fail(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()
        # While Playwright runs, its event loop makes asgiref's Local (Django's per-thread
        # connections) act as a context variable, so the tests after the first browser test
        # use database connections of their own; close them while they are still reachable,
        # or the test database cannot be dropped at the end of the session.
        connections.close_all()


@pytest.fixture
def tablet_page(browser, live_server) -> Iterator[object]:  # noqa: ANN001
    context = browser.new_context(viewport=TABLET, locale="en-GB", has_touch=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()
