"""A first visit on a tablet: the home page, the language switch, logging in with the demo user."""

from __future__ import annotations

import re

import pytest

from apps.accounts.services import DEMO_PASSWORD, DEMO_USERNAME, demo_user_ensure
from apps.systems.core.registry import registry

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_home_switch_language_and_log_in_as_demo(tablet_page, live_server) -> None:  # noqa: ANN001
    from playwright.sync_api import expect

    demo_user_ensure()
    page = tablet_page
    page.goto(live_server.url + "/")

    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_role("heading", name="Five rule systems")).to_be_visible()
    for system in registry().all():
        expect(page.get_by_role("heading", name=system.name, exact=True)).to_be_visible()

    page.get_by_role("button", name="DE").click()
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.get_by_role("heading", name="Fünf Regelsysteme")).to_be_visible()

    page.get_by_role("link", name="Anmelden").first.click()
    page.get_by_label("Benutzername").fill(DEMO_USERNAME)
    page.get_by_label("Passwort").fill(DEMO_PASSWORD)
    page.get_by_role("button", name="Anmelden").click()

    expect(page).to_have_url(re.compile(r"/accounts/profile/$"))
    expect(page.get_by_role("heading", name="Dein Profil")).to_be_visible()
    expect(page.get_by_role("button", name="Abmelden")).to_be_visible()


def test_touch_targets_are_at_least_44px(tablet_page, live_server) -> None:  # noqa: ANN001
    page = tablet_page
    page.goto(live_server.url + "/")
    small = page.evaluate(
        """() => [...document.querySelectorAll('a.button, button, .site-nav a')]
              .filter(el => el.offsetParent !== null)
              .map(el => [el.textContent.trim(), el.getBoundingClientRect().height])
              .filter(([, height]) => height < 44)"""
    )
    assert small == []
