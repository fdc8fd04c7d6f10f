"""Logging in from a browser test, as a person does: the login form, the shared test password."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tests.accounts.factories import PASSWORD

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

TABLET = {"width": 820, "height": 1180}


def log_in(page: Page, url: str, username: str) -> None:
    page.goto(url + "/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()


def logged_in_page(
    browser: Browser, url: str, username: str, viewport: dict[str, int] = TABLET
) -> Page:
    """A page of its own browser context (a device of its own), logged in as ``username``;
    a viewport narrower than a desktop's is a touch screen."""
    context = browser.new_context(
        viewport=viewport, locale="en-GB", has_touch=viewport["width"] < 1024
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    log_in(page, url, username)
    return page
