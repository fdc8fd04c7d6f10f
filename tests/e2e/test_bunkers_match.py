"""Bunkers and Badasses on a tablet: Anna uploads the .rosz she built in BattleScribe, answers
what the house rules ask (bases, the walker), opens a match against her second army and plays
the first battle round: the roll-offs, deployment unit by unit, the phase checklist of both
player turns, a Gefechtsoption bought with CP and the +1 CP of every command phase.

The server's dice come from a seeded random source, so the game is the same on every run. The
army files are read from ../shared/test-data (never copied into the project)."""

from __future__ import annotations

import io
import random
import re
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from apps.rosters.models import Roster
from tests.accounts.factories import UserFactory
from tests.e2e.test_grundregeln_match import command, log_in, visible
from tests.matches.bunkers import BATTLESCRIBE, bunkers_army

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
MAX_TAPS = 80


def _rosz(tmp_path: Path) -> Path:
    path = tmp_path / "salamanders.rosz"
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(
            "salamanders.ros", (BATTLESCRIBE / "salamanders-battalion.ros").read_bytes()
        )
    path.write_bytes(buffer.getvalue())
    return path


def _answer_every_unit(page: Page) -> None:
    """A base for each unit; the Dreadnought is confirmed as a walker on a 60 mm base."""
    from playwright.sync_api import expect

    count = page.locator(".army-unit").count()
    for index in range(count):
        unit = page.locator(".army-unit").nth(index)
        dreadnought = "Dreadnought" in unit.locator("h3").inner_text()
        unit.get_by_label("Base (mm)").fill("60" if dreadnought else "32")
        if dreadnought:
            unit.locator("input[name=walker]").check()
        # The answer re-renders the whole builder: wait for the new one before the next unit
        # (a twin of the same name may already show no problem before its own answer lands).
        builder = page.locator("#builder")
        builder.evaluate("element => { element.dataset.old = '1'; }")
        unit.get_by_role("button", name="Save").click()
        expect(builder).not_to_have_attribute("data-old", "1")
        expect(page.locator(".army-unit").nth(index).locator(".unit-issues")).to_have_count(0)


def _tap_setup(page: Page) -> str:
    """One tap through the mission setup: a roll-off, the zone choice, the next deployment."""
    tracker = page.locator("#tracker")
    prompt = tracker.locator(".prompt button:not([disabled])")
    if visible(prompt):
        label = prompt.first.inner_text()
        command(page, prompt.first)
        return label
    deploy = tracker.locator(".unit-list").get_by_role("button", name=re.compile("^Deploy"))
    if visible(deploy):
        command(page, deploy.first)
        return "deploy"
    raise AssertionError("the setup offers nothing to tap")


def _cp(page: Page, player: int) -> int:
    figure = page.locator(".scoreboard .score").nth(player).locator(".figure strong").first
    return int(figure.inner_text())


@pytest.mark.usefixtures("catalogue")
def test_upload_an_army_and_play_a_battle_round_on_a_tablet(
    tablet_page: Page, live_server, monkeypatch, tmp_path: Path
) -> None:  # noqa: ANN001
    from playwright.sync_api import expect

    anna = UserFactory(username="anna")
    seeded = random.Random(20261126)
    monkeypatch.setattr("apps.matches.services._server_rng", lambda: seeded)
    page = tablet_page
    failures: list[str] = []
    page.on(
        "response", lambda r: failures.append(f"{r.status} {r.url}") if r.status >= 500 else None
    )
    log_in(page, live_server.url, "anna")

    # The upload: the roster's units, its totals as the file declared them.
    page.get_by_role("link", name="My rosters").click()
    page.get_by_role("link", name="Import a Bunkers and Badasses army").first.click()
    page.get_by_label("Army list (.ros or .rosz)").set_input_files(str(_rosz(tmp_path)))
    page.get_by_label("Points limit").fill("1000")
    page.get_by_role("button", name="Import").click()
    expect(page.locator(".army-source")).to_contain_text("Imported from salamanders.rosz")
    expect(page.locator(".counters")).to_contain_text("625/1000")
    expect(page.locator(".problems")).to_contain_text("only walkers may enter the bunker")

    # What the house rules ask, answered unit by unit: then the army is legal.
    _answer_every_unit(page)
    expect(page.locator(".problems h2")).to_have_text(
        "No problems: this army keeps the house rules."
    )
    salamanders = Roster.objects.get(owner=anna, name="Salamanders test")
    assert salamanders.legal
    blood_angels = bunkers_army(anna, "bloodangels")

    # The match: two armies, the mission and five battle rounds.
    page.get_by_role("link", name="Matches").click()
    page.get_by_role("link", name="New Bunkers and Badasses match").click()
    page.locator("#id_name_0").fill("Anna")
    page.locator("#id_roster_0").select_option(value=str(salamanders.pk))
    page.locator("#id_name_1").fill("Bea")
    page.locator("#id_roster_1").select_option(value=str(blood_angels.pk))
    page.get_by_role("button", name="Open the match").click()
    expect(page).to_have_url(re.compile(r"/matches/\d+/$"))
    expect(page.locator(".tracker-head")).to_contain_text("Erobern und Sichern")
    starting = (_cp(page, 0), _cp(page, 1))
    assert starting == (6, 6)  # "Bis 1000 Punkte = 6 Befehlspunkte"

    taps: list[str] = []
    for _ in range(MAX_TAPS):
        if visible(page.locator(".bb-phases")):
            break
        taps.append(_tap_setup(page))
    else:
        raise AssertionError(f"the setup did not end; the last taps: {taps[-12:]}")
    assert taps.count("deploy") == salamanders.units.count() + blood_angels.units.count()

    # The first player turn: its command phase gave both players +1 CP.
    expect(page.locator(".bb-phases [aria-current=step]")).to_contain_text("Befehlsphase")
    assert (_cp(page, 0), _cp(page, 1)) == (7, 7)
    command(page, page.get_by_role("button", name=re.compile(r"^Next: Bewegungsphase")))

    # A battle option in the own movement phase costs its CP; one not allowed now says why.
    active = (
        0
        if "is-turn" in (page.locator(".scoreboard .score").nth(0).get_attribute("class") or "")
        else 1
    )
    options = page.locator(".bb-option-group").nth(active)
    advance = options.get_by_role("button", name=re.compile("Massives Vorrücken"))
    command(page, advance)
    assert _cp(page, active) == 6
    expect(page.locator(".log")).to_contain_text("Massives Vorrücken")
    # The options not possible now are folded away, each with its reason.
    options = page.locator(".bb-option-group").nth(active)
    options.locator(".bb-refused > summary").click()
    smoke = options.locator("form", has=page.get_by_role("button", name=re.compile("Rauchgranate")))
    expect(smoke.locator(".reason")).to_have_text("Not in this phase.")

    # Both player turns of the round through their phases: round 2 begins.
    for _ in range(20):
        if visible(page.get_by_role("button", name="Score the markers")):
            break
        step = page.locator(".prompt button:not([disabled])").first
        command(page, step)
    expect(page.locator(".tracker-head")).to_contain_text("Round 2")
    assert not failures, failures
