"""A short Stahlgewitter game on a tablet, from the army documents to the result (issue 17:
"a browser test of one short game on a tablet viewport").

Anna pastes her SEK army into the import page and renames it in the builder; Ben's Legion 666
army is saved through the service. Anna opens a free game of one round. On the tablet the two
walk the setup: the terrain method, the deployment zone, the roll for the first marker, each
unit hidden behind a numbered marker in a view only its owner opens (the others look away), the
markers placed alternately, the start roll. Then the start player activates a hidden unit
through their secret view, one enemy marker after another is revealed as seen until a unit
stands behind one, and the unit shoots with the attack wizard: the exact letter chances before
the roll, the dice and the letter after it. A morale test shows its chance and its dice; the
turns end until the only round is over and the result shows. The tracker does not scroll
sideways on a phone.

The server's dice come from a seeded random source, so the game is the same on every run.
"""

from __future__ import annotations

import json
import random
import re
from typing import TYPE_CHECKING

import pytest

from apps.rosters import services as roster_services
from apps.rosters.models import Roster
from tests.accounts.factories import UserFactory
from tests.e2e.sessions import log_in, logged_in_page
from tests.e2e.test_grundregeln_match import command, navigate, visible

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

MAX_TAPS = 60
PHONE = {"width": 390, "height": 844}

SEK = {
    "format": "skirmish-roster/1",
    "system": "stahlgewitter",
    "name": "Zugriff",
    "faction": "sek",
    "settings": {"game_type": "scharmuetzel"},
    "entries": [
        {"profile": "sek-offizier", "items": ["sturmgewehre", "fahne"], "name": "Kommando"},
        {"profile": "sek-soldat", "items": ["maschinenpistolen"], "count": 5, "attach_to": 0},
        {"profile": "sek-unteroffizier", "items": ["gewehre"], "name": "Feuertrupp"},
    ],
}
LEGION = {
    **SEK,
    "name": "Höllenhunde",
    "faction": "legion-666",
    "entries": [
        {"profile": "legion-666-offizier", "items": ["sturmgewehre"], "name": "Trupp 1"},
        {"profile": "legion-666-soldat", "items": ["sturmgewehre"], "count": 5, "attach_to": 0},
        {"profile": "legion-666-kultist", "items": ["messer"], "count": 3, "name": "Kult"},
    ],
}
ANNAS_UNITS = ("Kommando", "Feuertrupp")
BENS_UNITS = ("Trupp 1", "Kult")


def _picker(page: Page) -> str:
    """The name of the player whose pick (or turn) it is: the scoreboard's marked side."""
    return page.locator(".scoreboard .score.is-turn .score-name").inner_text().split()[0]


def _secret_view(page: Page, name: str) -> None:
    """``name`` opens the view of their own hidden units (the others look away)."""
    link = page.locator("#tracker .teams").get_by_role("link", name=f"Show {name}'s hidden units")
    navigate(page, link, "#tracker .team .unit-list .unit .sg-models")


def _hide_and_place(page: Page) -> list[str]:
    """The hidden deployment: each player gives every unit a marker in their own secret view,
    the markers are placed alternately; says what was tapped."""
    from playwright.sync_api import expect

    prompt = page.locator("#tracker .prompt")
    taps = []
    for _ in range(MAX_TAPS):
        assign = prompt.get_by_role("link", name=re.compile(r"^Assign \w+'s markers in secret$"))
        place = prompt.get_by_role("button", name=re.compile("^Place marker"))
        if visible(assign):
            navigate(page, assign.first, "#tracker .sg-hide-list")
            owner = page.locator(".secret-steps li", has=page.locator(".sg-hide-list"))
            mine = owner.locator("strong").first.inner_text()
            units, others = (
                (ANNAS_UNITS, BENS_UNITS) if mine == "Anna" else (BENS_UNITS, ANNAS_UNITS)
            )
            # Only the owner's own units (and which marker stands for which): never the others'.
            expect(owner.locator(".sg-hide-list")).to_contain_text(re.compile("|".join(units)))
            for name in others:
                expect(page.locator("#tracker .sg-hide-list")).not_to_contain_text(name)
            command(page, page.locator(".sg-hide-list button").first)
            # The secret view closes with the answer: the table sees no unit behind a marker.
            markers_card = page.locator("#tracker [aria-labelledby=sg-markers]")
            for name in units:
                expect(markers_card).not_to_contain_text(name)
            taps.append(f"hide ({mine})")
        elif visible(place):
            command(page, place.first)
            taps.append("place")
        else:
            return taps
    raise AssertionError(f"the hidden deployment did not end: {taps[-12:]}")


def _activate(page: Page) -> str:
    """The picking player activates their first unit that may: from the board, or from their
    secret view while it is hidden. Says who."""
    picker = _picker(page)
    team = page.locator("#tracker .team", has=page.locator(".team-name", has_text=picker))
    activate = team.locator(".action-grid button:not([disabled])", has_text="Activate")
    if not visible(activate):
        _secret_view(page, picker)
        team = page.locator("#tracker .team", has=page.locator(".team-name", has_text=picker))
        activate = team.locator(".action-grid button:not([disabled])", has_text="Activate")
    command(page, activate.first)
    return picker


def _reveal_an_enemy(page: Page, enemy: str) -> str:
    """The enemy's markers are seen one after another until a unit stands behind one (a decoy
    is removed); the unit's name."""
    from playwright.sync_api import expect

    markers = page.locator("#tracker .sg-markers").nth(0 if enemy == "Anna" else 1)
    for _ in range(5):
        marker = markers.locator("li", has=page.locator("details.sg-reveal")).first
        marker.locator("summary").click()
        command(page, marker.get_by_role("button", name=re.compile("^Seen")))
        markers = page.locator("#tracker .sg-markers").nth(0 if enemy == "Anna" else 1)
        revealed = markers.locator(".chip.ready")
        if revealed.count():
            expect(page.locator(".log")).to_contain_text("is revealed")
            return revealed.first.inner_text()
    raise AssertionError("no unit behind the enemy's markers")


@pytest.mark.usefixtures("catalogue")
def test_a_short_stahlgewitter_game_on_a_tablet(
    tablet_page: Page, browser, live_server, monkeypatch
) -> None:  # noqa: ANN001
    from playwright.sync_api import expect

    anna = UserFactory(username="anna")
    seeded = random.Random(20261126)
    monkeypatch.setattr("apps.matches.services._server_rng", lambda: seeded)
    url = live_server.url
    page = tablet_page
    failures: list[str] = []
    page.on(
        "response", lambda r: failures.append(f"{r.status} {r.url}") if r.status >= 500 else None
    )
    log_in(page, url, "anna")

    # Anna's army: the document pasted into the import page, renamed in the builder.
    page.goto(url + "/rosters/import/")
    page.get_by_label("…or paste the document").fill(json.dumps(SEK))
    page.get_by_role("button", name="Import").click()
    expect(page.locator("main")).to_contain_text("No problems: this army is legal.")
    page.get_by_label("Team name").fill("Zugriff Nord")
    with page.expect_response(lambda response: response.request.method == "POST"):
        page.get_by_role("button", name="Save").first.click()
    expect(page.get_by_label("Team name")).to_have_value("Zugriff Nord")
    sek = Roster.objects.get(owner=anna, name="Zugriff Nord")
    assert sek.legal
    legion = roster_services.roster_import(owner=anna, document=LEGION)

    # The match: a free game of one round.
    page.get_by_role("link", name="Matches").click()
    page.get_by_role("link", name="New Stahlgewitter match").click()
    page.locator("#id_name_0").fill("Anna")
    page.locator("#id_roster_0").select_option(value=str(sek.pk))
    page.locator("#id_name_1").fill("Ben")
    page.locator("#id_roster_1").select_option(value=str(legion.pk))
    page.get_by_label("Game mode").select_option(value="free")
    page.get_by_label("Rounds (the agreed number of a free game)").fill("1")
    page.get_by_role("button", name="Open the match").click()
    expect(page).to_have_url(re.compile(r"/matches/\d+/$"))
    match_url = page.url
    prompt = page.locator("#tracker .prompt")

    # The setup: terrain, zone, who places the first marker; each roll says its odds first.
    expect(prompt.get_by_role("button", name=re.compile("^By quarters"))).to_contain_text(
        "Anna wins the roll: 50 % (1/2)"
    )
    command(page, prompt.get_by_role("button", name=re.compile("^By quarters")))
    command(page, prompt.get_by_role("button", name="North edge"))
    expect(page.locator(".scoreboard")).to_contain_text("North edge")
    expect(page.locator(".scoreboard")).to_contain_text("South edge")
    command(page, prompt.get_by_role("button", name="Roll: who places first"))
    taps = _hide_and_place(page)
    assert taps.count("hide (Anna)") == 2 and taps.count("hide (Ben)") == 2, taps
    assert taps.count("place") == 10, taps  # one per unit plus three decoys, each side
    # Before the battle nobody sees the other's units: one line per side, no names.
    expect(page.locator("#tracker .sg-hidden")).to_have_count(2)
    for name in ANNAS_UNITS + BENS_UNITS:
        expect(page.locator("#tracker .teams")).not_to_contain_text(name)

    command(page, prompt.get_by_role("button", name=re.compile("^Start roll")))
    expect(page.locator("#tracker .last-result")).to_contain_text(
        re.compile(r"Roll for the start player \(\d+:\d+\): (Anna|Ben) \(50 % \(1/2\)\)")
    )
    expect(prompt.locator("h2")).to_contain_text("'s pick")

    # The start player activates a hidden unit through their secret view.
    active = _activate(page)
    enemy = "Ben" if active == "Anna" else "Anna"
    expect(page.locator(".sg-phases [aria-current=step]")).to_have_text("Bewegungsphase (movement)")
    expect(prompt).to_contain_text(re.compile(rf"{active}: marker \d \(moves 9 cm\)"))
    command(page, prompt.get_by_role("button", name="The marker moved (up to 9 cm)"))
    command(page, prompt.get_by_role("button", name="Next: Fernkampfphase (ranged)"))
    target_unit = _reveal_an_enemy(page, enemy)

    # The attack wizard: the exact chances of every letter before the roll.
    _secret_view(page, active)
    shooter = page.locator("#tracker .unit.is-active").get_by_role("link", name="Shoot").first
    navigate(page, shooter, "#tracker .sg-wizard")
    wizard = page.locator("#tracker .sg-wizard")
    expect(wizard.locator("h3").first).to_have_text(target_unit)
    form = wizard.locator(".sg-attack").first
    table = form.locator(".sg-odds-table")
    expect(table.locator("caption")).to_contain_text("Chances before the roll (%)")
    expect(table.locator("thead th")).to_have_text(
        ["Cover", "Col.", "Hit", "A", "B", "C", "D", "-", "E", "F", "G", "H", "I", "J"]
    )
    open_row = table.locator("tbody tr").first
    expect(open_row.locator("th")).to_have_text("open")
    column, hit, *cells = (int(text) for text in open_row.locator("td").all_inner_texts())
    assert sum(cells) == 100, cells  # every letter's chance, out of 100: exact
    assert -3 <= column <= 12 and 0 <= hit <= 100
    command(page, form.get_by_role("button", name=re.compile("^Shoot at")))
    # After the roll: the dice, the letter and what it meant; the unit is revealed now.
    result = page.locator("#tracker .last-result")
    expect(result).to_be_visible()
    expect(result).to_contain_text("is revealed (it fires): ")
    expect(result).to_contain_text(re.compile(r"→ column -?\d+; dice [\d, ]+ → row \d+: [A-J-] \("))
    expect(page.locator("#tracker .teams .unit.is-active .unit-name")).to_be_visible()

    # A morale test: its chance on the button, its dice after.
    morale = page.locator("#tracker .unit.is-active").get_by_role(
        "button", name=re.compile("^Morale test")
    )
    expect(morale).to_contain_text("Passes with modifier 0:")
    command(page, morale)
    expect(page.locator(".log")).to_contain_text(re.compile("morale", re.IGNORECASE))

    # The turns end until the only round is over.
    command(page, prompt.get_by_role("button", name="End the turn"))
    played = [active]
    for _ in range(MAX_TAPS):
        if page.locator("#tracker .vp-table").count():
            break
        if "'s pick" in prompt.locator("h2").inner_text():
            played.append(_activate(page))
        else:
            command(page, prompt.get_by_role("button", name="End the turn").first)
    else:
        raise AssertionError(f"the round did not end: {played}")
    assert len(played) == 4, played  # two units a side, each once
    expect(prompt.locator("h2")).to_contain_text(re.compile("wins|draw"))
    expect(page.locator(".vp-table tbody tr")).to_have_count(2)

    # The finished tracker on a phone: nothing scrolls sideways.
    phone = logged_in_page(browser, url, "anna", viewport=PHONE)
    phone.goto(match_url)
    expect(phone.locator("#tracker .vp-table")).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    phone.context.close()
    assert not failures, failures
