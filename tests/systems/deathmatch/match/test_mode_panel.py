"""The tracker keeps the Deathmatch mode panel (arena map, victory conditions, objectives,
gadgets) per process under ``TrackerView.mode_panel_key`` (issue 16: it was a sixth of a tap's
render). A kept panel must always be the one a fresh render would draw."""

from __future__ import annotations

import pytest
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
    from apps.matches.templatetags import matches

    matches._kept_fragments.clear()


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


def test_the_kept_renders_are_bounded() -> None:
    from django.template import Context, Template

    from apps.matches.templatetags import matches

    piece = Template('{% load matches %}{% kept_fragment "n" n %}<{{ n }}>{% endkept_fragment %}')
    for n in range(matches.KEPT_FRAGMENTS_MAX + 50):
        assert piece.render(Context({"n": n})) == f"<{n}>"
    assert len(matches._kept_fragments) == matches.KEPT_FRAGMENTS_MAX
    assert piece.render(Context({"n": 1})) == "<1>"  # dropped, drawn again
