"""The theme toggle in the header: it switches between light and dark (``data-theme`` on <html>,
the colours follow), and the choice survives a reload on this device."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import TABLET

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LIGHT_BACKGROUND = "rgb(246, 244, 239)"  # --bg: light-dark(#f6f4ef, #12151a)
DARK_BACKGROUND = "rgb(18, 21, 26)"


def open_page(browser, live_server, color_scheme: str):  # noqa: ANN001, ANN201
    context = browser.new_context(viewport=TABLET, locale="en-GB", color_scheme=color_scheme)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(live_server.url + "/")
    return context, page


def background(page) -> str:  # noqa: ANN001
    return page.evaluate("getComputedStyle(document.body).backgroundColor")


def test_the_toggle_switches_the_theme_and_the_choice_survives_a_reload(
    browser, live_server
) -> None:  # noqa: ANN001
    from playwright.sync_api import expect

    context, page = open_page(browser, live_server, "light")
    try:
        html = page.locator("html")
        toggle = page.locator("header #theme-toggle")
        expect(toggle).to_be_visible()
        # No choice yet: the system's light theme, and the button offers the other one.
        expect(html).not_to_have_attribute("data-theme", "dark")
        expect(toggle).to_have_attribute("aria-label", "Switch to dark theme")
        assert background(page) == LIGHT_BACKGROUND

        toggle.click()
        expect(html).to_have_attribute("data-theme", "dark")
        expect(toggle).to_have_attribute("aria-label", "Switch to light theme")
        assert background(page) == DARK_BACKGROUND

        page.reload()
        expect(html).to_have_attribute("data-theme", "dark")
        expect(toggle).to_have_attribute("aria-label", "Switch to light theme")
        assert background(page) == DARK_BACKGROUND

        page.get_by_role("button", name="Switch to light theme").click()
        expect(html).to_have_attribute("data-theme", "light")
        page.goto(live_server.url + "/leagues/")  # another page of the same device
        expect(html).to_have_attribute("data-theme", "light")
        assert background(page) == LIGHT_BACKGROUND
    finally:
        context.close()


def test_a_dark_system_starts_dark_and_the_toggle_picks_light(browser, live_server) -> None:  # noqa: ANN001
    from playwright.sync_api import expect

    context, page = open_page(browser, live_server, "dark")
    try:
        html = page.locator("html")
        toggle = page.locator("header #theme-toggle")
        expect(toggle).to_have_attribute("aria-label", "Switch to light theme")
        assert background(page) == DARK_BACKGROUND
        toggle.click()
        expect(html).to_have_attribute("data-theme", "light")
        page.reload()
        expect(html).to_have_attribute("data-theme", "light")
        assert background(page) == LIGHT_BACKGROUND
    finally:
        context.close()
