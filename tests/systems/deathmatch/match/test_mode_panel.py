"""The tracker keeps the Deathmatch mode panel (arena map, victory conditions, objectives,
gadgets) in the cache under ``TrackerView.mode_panel_key`` (issue 16: it was a sixth of a tap's
render). A kept panel must always be the one a fresh render would draw."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils import translation

from tests.systems.deathmatch.match.helpers import ENGINE
from tests.systems.deathmatch.match.test_modes import start


class _Match:
    pk = 7


def _panel(state: object) -> str:
    view = ENGINE.tracker(state, selected=None, params={})
    return render_to_string("matches/deathmatch/_mode.html", {"view": view, "match": _Match()})


def _forget_kept() -> None:
    cache.clear()


@pytest.fixture(autouse=True)
def _no_kept_panels() -> None:
    _forget_kept()


def test_a_kept_panel_shows_a_switch_taken_since() -> None:
    """ "Conquest": the switch's owner is in the panel, before and after it changes hands."""
    g = start("conquest")
    g.activate(0)
    g.do("activate_switch", objective="A")
    g.end()
    before = _panel(g.state)
    assert _panel(g.state) == before  # kept
    g.activate(3)
    g.do("neutralise_switch", objective="A")
    g.do("activate_switch", objective="A")
    after = _panel(g.state)
    assert after != before
    _forget_kept()
    assert _panel(g.state) == after  # what a fresh render draws


def test_a_kept_panel_is_per_language() -> None:
    g = start("conquest")
    with translation.override("en"):
        english = _panel(g.state)
    with translation.override("de"):
        german = _panel(g.state)
    assert "Victory" in english and "Victory" not in german
