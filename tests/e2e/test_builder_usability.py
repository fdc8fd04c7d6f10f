"""The builder without a mouse and on a phone: keyboard only, and every control big enough to
tap without the page scrolling sideways."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from apps.rosters import services
from tests.accounts.factories import PASSWORD, UserFactory
from tests.e2e.test_roster_builder import counter
from tests.rosters.factories import legal_standard_team

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}

# Controls a finger must hit (links inside running text are exempt, as in WCAG 2.5.8; a
# checkbox is hit through its label), and whether the page is wider than the screen.
LAYOUT_PROBLEMS = """() => {
  const small = [...document.querySelectorAll('a, button, input, select, textarea, summary')]
    .filter(el => el.offsetParent !== null && el.type !== 'hidden' && !el.closest('.skip-link, p'))
    .map(el => el.type === 'checkbox' ? el.closest('label') || el : el)
    .map(el => [el.outerHTML.slice(0, 80), Math.round(el.getBoundingClientRect().height)])
    .filter(([, height]) => height < 44);
  return {small, overflow: document.documentElement.scrollWidth - window.innerWidth};
}"""


@pytest.fixture
def roster_url(live_server, catalogue) -> Iterator[tuple[object, str]]:  # noqa: ANN001
    user = UserFactory()
    roster = services.roster_import(owner=user, document=legal_standard_team())
    services.roster_share(owner=user, roster_id=roster.pk, enabled=True)
    yield user, f"/rosters/{roster.pk}/"


def log_in(page: Page, url: str, user: object) -> None:
    page.goto(url + "/accounts/login/")
    page.locator("#id_login").fill(user.username)  # type: ignore[attr-defined]
    page.locator("#id_password").fill(PASSWORD)
    page.locator("#id_password").press("Enter")
    page.wait_for_url("**/accounts/profile/")


def focused(page: Page) -> dict[str, object]:
    return page.evaluate(
        """() => { const r = document.activeElement.getBoundingClientRect();
                   return {id: document.activeElement.id,
                           visible: r.bottom > 0 && r.top < window.innerHeight}; }"""
    )


@pytest.mark.usefixtures("catalogue")
def test_builder_works_with_the_keyboard_alone(tablet_page, live_server) -> None:  # noqa: ANN001
    from playwright.sync_api import expect

    user = UserFactory()
    roster = services.roster_import(owner=user, document=legal_standard_team(entries=[]))
    page = tablet_page
    log_in(page, live_server.url, user)
    page.goto(f"{live_server.url}/rosters/{roster.pk}/")
    expect(counter(page, "Leader")).to_have_text("0/1")

    # Add the leader: Tab to its button and press Enter.
    page.locator("#id_name").focus()
    for _ in range(100):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "add-organon-direktorin-ilva-syn":
            break
    else:
        pytest.fail("the leader's Add button is not reachable with Tab")
    page.keyboard.press("Enter")
    expect(counter(page, "Leader")).to_have_text("1/1")
    # The button is disabled now (the rank is full); focus goes to the team heading, in view,
    # and the live region reads out the new number of problems.
    expect(page.locator("#add-organon-direktorin-ilva-syn")).to_be_disabled()
    expect(page.locator("#team-heading")).to_be_focused()
    assert focused(page) == {"id": "team-heading", "visible": True}
    expect(page.locator("#builder-status")).to_have_text("2 problems")

    # A trooper with the space bar: focus stays on its button, which can add another.
    page.locator("#add-organon-konzernschuetze").focus()
    page.keyboard.press("Space")
    expect(counter(page, "Troopers")).to_have_text("1/2")
    expect(page.locator("#add-organon-konzernschuetze")).to_be_focused()
    assert focused(page) == {"id": "add-organon-konzernschuetze", "visible": True}

    # Buy the leader a card: choose it with the arrow keys, Tab to the button, Enter.
    leader = page.get_by_role("article", name="Direktorin Ilva Syn")
    leader.get_by_label("Equipment for Direktorin Ilva Syn").focus()
    scrolled = page.evaluate("window.scrollY")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Tab")
    expect(leader.get_by_role("button", name="Add equipment")).to_be_focused()
    page.keyboard.press("Enter")
    expect(counter(page, "ARP spent / pool")).to_have_text("1/4 (3 left)")
    # Focus stays on the button just used, and the page where it was.
    expect(leader.get_by_role("button", name="Add equipment")).to_be_focused()
    assert focused(page)["visible"] is True
    assert page.evaluate("window.scrollY") == scrolled


@pytest.mark.parametrize("page_name", ["builder", "shared", "import", "list"])
def test_pages_fit_a_phone_with_big_enough_targets(
    browser,  # noqa: ANN001
    live_server,  # noqa: ANN001
    roster_url: tuple[object, str],
    page_name: str,
) -> None:
    from apps.rosters.models import Roster

    user, builder = roster_url
    token = Roster.objects.get().share_token
    url = {
        "builder": builder,
        "shared": f"/rosters/shared/{token}/",
        "import": "/rosters/import/",
        "list": "/rosters/",
    }[page_name]
    context = browser.new_context(viewport=PHONE, locale="de-DE", has_touch=True)
    try:
        page = context.new_page()
        page.set_default_timeout(10_000)
        log_in(page, live_server.url, user)
        page.goto(live_server.url + url)
        assert page.evaluate(LAYOUT_PROBLEMS) == {"small": [], "overflow": 0}
    finally:
        context.close()
