"""The parts of a shared tracker render that depend on the viewer (apps.matches.viewer_slots):
kept with both branches, and each response keeps the branch its viewer's facts choose."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.template import Context, Template, TemplateSyntaxError
from django.utils.html import escape

from apps.matches.viewer_slots import ViewerFacts, fill

PARTS = (
    '{% load matches %}{% viewer_only "seats" %}[any'
    '{% for i in seats %}{% viewer_only "seat" i %}<{{ i }}>{% otherwise %}-{% endviewer_only %}'
    "{% endfor %}]{% otherwise %}(none){% endviewer_only %}"
    '{% viewer_only "creator" %}D{% endviewer_only %}'
)
VIEWERS = [
    ViewerFacts(),
    ViewerFacts(held=(0,)),
    ViewerFacts(held=(1,), creator=True),
    ViewerFacts(held=(0, 1)),
    ViewerFacts(creator=True),
]


class _Match:
    def __init__(self, created_by_id: int) -> None:
        self.created_by_id = created_by_id


class _User:
    is_authenticated = True

    def __init__(self, pk: int) -> None:
        self.pk = pk


def _for_one(facts: ViewerFacts) -> str:
    context = {
        "seats": [0, 1],
        "held_seats": list(facts.held),
        "match": _Match(created_by_id=7),
        "user": _User(7 if facts.creator else 8),
    }
    return Template(PARTS).render(Context(context))


def _kept() -> str:
    import itertools

    context = {"seats": [0, 1], "viewer_slots": True, "viewer_slot_numbers": itertools.count()}
    return Template(PARTS).render(Context(context))


@pytest.mark.parametrize("facts", VIEWERS, ids=repr)
def test_a_kept_render_filled_for_a_viewer_is_their_own_render(facts: ViewerFacts) -> None:
    assert fill(_kept(), facts) == _for_one(facts)


def test_the_branches_each_viewer_gets() -> None:
    assert _for_one(ViewerFacts()) == "(none)"
    assert _for_one(ViewerFacts(held=(1,), creator=True)) == "[any-<1>]D"


def test_text_in_a_part_cannot_forge_a_marker() -> None:
    """Whatever a player types is escaped before it reaches the page, so it can never open or
    close a part (an HTML comment needs a literal "<!--")."""
    typed = "<!--viewer 0 creator-->secret<!--/viewer 0-->"
    html = Template("{{ name }}").render(Context({"name": typed}))
    assert html == escape(typed)
    assert fill(html, ViewerFacts()) == html


def test_a_wrong_condition_is_refused_when_the_template_is_read() -> None:
    with pytest.raises(TemplateSyntaxError):
        Template('{% load matches %}{% viewer_only "admin" %}x{% endviewer_only %}')
    with pytest.raises(TemplateSyntaxError):
        Template('{% load matches %}{% viewer_only "seat" %}x{% endviewer_only %}')


def test_no_tracker_template_reads_the_held_seats_itself() -> None:
    """A render is shared by every participant (apps.matches.tracker_cache): a template that
    asked ``held_seats`` directly would show one viewer's controls to all of them. What depends
    on the seats a viewer holds is written with ``viewer_only``."""
    templates = Path(settings.BASE_DIR) / "templates" / "matches"
    readers = [
        str(path.relative_to(templates))
        for path in templates.rglob("*.html")
        if "held_seats" in path.read_text()
    ]
    assert readers == []
