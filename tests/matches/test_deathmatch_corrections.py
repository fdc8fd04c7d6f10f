"""The tracker's correction form enters a standing modifier (SPEC §6 "Equipment that changes a
profile value applies": "Table effects the app cannot know may be entered as a standing
modifier on a model (a correction, logged)"; Deathmatch rulebook l. 128 "aufwerten", l. 773
"verbessern"): the form sends every field as it stands, and only what changed is logged."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from apps.matches.models import MatchEvent
from tests.matches.test_views import tap, to_first_turn

pytestmark = pytest.mark.django_db


@pytest.fixture
def browser(user) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    return client


def _correction_fields(html: str) -> dict[str, str]:
    """The correction form's number fields as the browser sends them (current values)."""
    form = html[html.index('value="adjust"') :]
    form = form[: form.index("</form>")]
    fields = re.findall(r'type="number" name="([^"]+)"[^>]*value="(-?\d+)"', form)
    return dict(fields)


def _resistance_shown(html: str, name: str) -> str:
    card = html[html.index(name) :]
    found = re.search(r"Widerstand (\d+)", card)
    assert found is not None
    return found.group(1)


def test_the_correction_form_enters_a_standing_modifier(browser, match) -> None:
    to_first_turn(browser, match)
    match.refresh_from_db()
    unit = match.state["units"][0]
    page = browser.get(f"/matches/{match.pk}/?unit={unit['id']}").content.decode()
    assert "Widerstand (resistance)" in page and "Bewegung (movement, inches)" in page
    fields = _correction_fields(page)
    assert fields["args.mod_resistance:int"] == "0"
    before = _resistance_shown(page, unit["name"])
    fields["args.mod_resistance:int"] = "1"
    fields["args.unit:int"] = str(unit["id"])
    response = tap(browser, match, "adjust", **fields, selected=str(unit["id"]))
    assert response.status_code == 200
    (adjusted,) = [e.data for e in MatchEvent.objects.filter(match=match, type="unit_adjusted")]
    assert adjusted == {"unit": unit["id"], "modifiers": {"resistance": 1}, "note": ""}
    page = browser.get(f"/matches/{match.pk}/?unit={unit['id']}").content.decode()
    assert int(_resistance_shown(page, unit["name"])) == int(before) + 1
    assert _correction_fields(page)["args.mod_resistance:int"] == "1"
