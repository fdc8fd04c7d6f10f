"""axe-core finds no serious or critical violation on the pages a player uses most.

The home page, a builder and a tracker of every system and a season's standings, in the light
theme in English and in the dark theme in German, on a tablet. The theme follows the system's
colour scheme unless the player picked one (static/js/theme.js), so the browser context's
colour scheme sets it. axe-core's script comes with the axe-playwright-python package: no npm.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e.conftest import TABLET
from tests.e2e.showcase import logged_in_context, showcase_make

pytestmark = [pytest.mark.e2e, pytest.mark.audit, pytest.mark.django_db(transaction=True)]

PAGES = [
    "home",
    "builder deathmatch",
    "builder grundregeln",
    "builder universalis",
    "army builder bunkers",
    "army builder stahlgewitter",
    "tracker deathmatch",
    "tracker grundregeln",
    "tracker universalis",
    "tracker bunkers",
    "tracker stahlgewitter",
    "standings (season)",
]
BLOCKING = {"serious", "critical"}
# Light in English, dark in German: both themes and both languages, in half the page loads.
RUNS = [("light", "en"), ("dark", "de")]
# "Label in name" (WCAG 2.5.3) is still experimental in axe-core, so off unless asked for; the
# trackers' and builders' buttons once had names that did not contain their visible text.
OPTIONS = {
    "resultTypes": ["violations"],
    "rules": {"label-content-name-mismatch": {"enabled": True}},
}


def axe_script() -> str:
    import axe_playwright_python

    return (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text()


def readable(run: str, name: str, violation: dict) -> str:
    """One violation as lines a person can act on: rule, impact, help, and each element."""
    lines = [f"[{run}] {name}: {violation['id']} ({violation['impact']}) {violation['help']}"]
    for node in violation["nodes"][:5]:
        summary = " ".join(node.get("failureSummary", "").split())
        lines.append(f"    {json.dumps(node['target'])}: {summary[:240]}")
    if len(violation["nodes"]) > 5:
        lines.append(f"    … and {len(violation['nodes']) - 5} more")
    return "\n".join(lines)


@pytest.mark.usefixtures("catalogue")
def test_no_serious_accessibility_violations_in_either_theme(
    browser,  # noqa: ANN001
    live_server,  # noqa: ANN001
) -> None:
    base = live_server.url
    showcase = showcase_make()
    script = axe_script()
    problems: list[str] = []
    for theme, language in RUNS:
        context = logged_in_context(
            browser, base, showcase, viewport=TABLET, locale="en-GB", color_scheme=theme
        )
        context.add_cookies([{"name": "django_language", "value": language, "url": base}])
        page = context.new_page()
        page.set_default_timeout(10_000)
        for name in PAGES:
            path = showcase.pages[name]
            response = page.goto(base + path, wait_until="load")
            assert response is not None and response.status == 200, f"{name} ({path})"
            page.evaluate(script)
            results = page.evaluate("options => axe.run(document, options)", OPTIONS)
            problems += [
                readable(f"{theme}, {language}", name, violation)
                for violation in results["violations"]
                if violation["impact"] in BLOCKING
            ]
        context.close()
    assert not problems, "Serious or critical axe-core violations:\n" + "\n".join(problems)
