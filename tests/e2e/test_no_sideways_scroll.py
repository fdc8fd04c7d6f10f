"""No page scrolls sideways on a phone (390x844), in German or in English.

A player with a team, a match and a league in every system visits every main page; each page's
width must stay within the viewport. German is the harder case: its labels are longer. A table
may scroll inside its own frame only where the player asked for all its columns, so the
standings' frame is checked as well.
"""

from __future__ import annotations

import pytest

from tests.e2e.showcase import logged_in_context, showcase_make

pytestmark = [pytest.mark.e2e, pytest.mark.audit, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}

# The widest element that sticks out, to say in the failure what to look at.
WIDEST = """() => {
  const out = [...document.querySelectorAll('body *')].filter(
    e => e.getBoundingClientRect().right > window.innerWidth + 0.5);
  const last = out[out.length - 1];
  return last ? `${last.tagName.toLowerCase()}.${[...last.classList].join('.')}` : '';
}"""


# Pages for a visitor who is not logged in (the rest need the player's login).
PUBLIC_PAGES = {
    "log in": "/accounts/login/",
    "sign up": "/accounts/signup/",
    "password reset": "/accounts/password/reset/",
    "home (visitor)": "/",
}


def check_page(page, base: str, language: str, name: str, path: str) -> list[str]:  # noqa: ANN001
    """Visit one page; what is wrong with it on a phone."""
    failures = []
    response = page.goto(base + path, wait_until="load")
    assert response is not None and response.status == 200, f"{name} ({path})"
    assert page.locator("html").get_attribute("lang") == language, name
    if name == "tracker deathmatch":
        # The first activation's action buttons, whose German costs once overflowed.
        assert page.locator(".action-grid .button").count() > 3
    width = page.evaluate("document.documentElement.scrollWidth")
    if width > PHONE["width"]:
        failures.append(f"{language} {name} ({path}): {width}px, {page.evaluate(WIDEST)}")
    if name.startswith("builder"):
        # The add list comes before the team, so it never sinks below a growing team.
        add, team = (
            page.locator(selector).first.bounding_box()
            for selector in (".add-panel", "#team-heading")
        )
        if not (add and team and add["y"] < team["y"]):
            failures.append(f"{language} {name}: the add list is below the team")
    for frame in page.locator(".standings-section .table-wrap").all():
        inner = frame.evaluate("e => e.scrollWidth - e.clientWidth")
        if inner > 0:
            failures.append(f"{language} {name}: the standings scroll by {inner}px")
    return failures


@pytest.mark.usefixtures("catalogue")
def test_no_page_scrolls_sideways_on_a_phone_in_either_language(
    browser,  # noqa: ANN001
    live_server,  # noqa: ANN001
) -> None:
    base = live_server.url
    showcase = showcase_make()
    failures: list[str] = []
    for language in ("de", "en"):
        language_cookie = {"name": "django_language", "value": language, "url": base}
        context = logged_in_context(browser, base, showcase, viewport=PHONE, has_touch=True)
        context.add_cookies([language_cookie])
        page = context.new_page()
        page.set_default_timeout(10_000)
        for name, path in showcase.pages.items():
            failures += check_page(page, base, language, name, path)
        context.clear_cookies()
        context.add_cookies([language_cookie])
        for name, path in PUBLIC_PAGES.items():
            failures += check_page(page, base, language, name, path)
        context.close()
    # A tablet in landscape: the German header (the longest labels) fits one row.
    context = logged_in_context(browser, base, showcase, viewport={"width": 1180, "height": 820})
    context.add_cookies([{"name": "django_language", "value": "de", "url": base}])
    page = context.new_page()
    page.goto(base + showcase.pages["rosters list"])
    if header_rows(page) != 1:
        failures.append("de header at 1180px: more than one row")
    context.close()
    assert not failures, "Pages too wide for a phone:\n" + "\n".join(failures)


def header_rows(page) -> int:  # noqa: ANN001
    """How many rows the header's brand, navigation and toolbar take."""
    tops = page.evaluate(
        "[...document.querySelectorAll('.site-header .container > *')]"
        ".map(e => Math.round(e.getBoundingClientRect().top))"
    )
    return len(set(tops))
