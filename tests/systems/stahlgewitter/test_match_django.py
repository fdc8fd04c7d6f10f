"""Stahlgewitter through the generic match apps: two armies saved as rosters open a match, the
API takes commands (the secret marker assignment only from its own seat, hidden from the
other), and the tracker page renders in both languages."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from rest_framework.test import APIClient

from apps.catalog.models import GameSystem
from apps.matches import services
from apps.matches.models import Match
from apps.matches.selectors import match_state
from apps.rosters.models import Roster
from tests.accounts.factories import UserFactory

pytestmark = pytest.mark.django_db

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


def _api(user: Any) -> APIClient:
    client = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    client.force_authenticate(user)
    return client


@pytest.fixture
def match(catalogue: None) -> tuple[Match, Any, Any]:
    anna, ben = UserFactory(), UserFactory()
    rosters = []
    for user, document in ((anna, SEK), (ben, LEGION)):
        created = _api(user).post("/api/v1/rosters/", document, format="json")
        assert created.status_code == 201, created.json()
        rosters.append(created.json()["id"])
    created_match = services.match_create(
        creator=anna,
        system=GameSystem.objects.get(slug="stahlgewitter"),
        mode="free",
        seats=[
            services.Seat("Anna", Roster.objects.get(pk=rosters[0])),
            services.Seat("Ben", Roster.objects.get(pk=rosters[1])),
        ],
        settings={"rounds": 3},
        rng=random.Random(3),
    )
    return created_match, anna, ben


def _send(client: APIClient, match: Match, type_: str, **args: Any) -> Any:
    return client.post(
        f"/api/v1/matches/{match.pk}/commands/", {"type": type_, "args": args}, format="json"
    )


def test_a_match_opens_from_two_saved_armies_and_takes_commands(match: Any) -> None:
    game, anna, _ben = match
    api = _api(anna)
    state = api.get(f"/api/v1/matches/{game.pk}/").json()["state"]
    assert [u["name"] for u in state["units"]] == ["Kommando", "Feuertrupp", "Trupp 1", "Kult"]
    response = _send(api, game, "choose_terrain", method="quarters")
    assert response.status_code == 200, response.json()
    assert response.json()["events"][0]["type"] == "terrain_chosen"


def test_the_marker_assignment_comes_only_from_its_own_seat(match: Any) -> None:
    """Each player's marker→unit mapping is a private command (``seat_arg``)."""
    game, anna, _ben = match
    api = _api(anna)
    assert _send(api, game, "choose_terrain", method="quarters").status_code == 200
    state = api.get(f"/api/v1/matches/{game.pk}/").json()["state"]
    chooser = state["zone_chooser"]
    assert _send(api, game, "choose_zone", player=chooser, edge="north").status_code == 200
    assert _send(api, game, "roll_deployment").status_code == 200
    # Anna holds her own seat only (Ben's seat waits for Ben): she hides her unit, not his.
    mine = _send(api, game, "hide_unit", player=0, unit=0, marker=2)
    assert mine.status_code == 200, mine.json()
    theirs = _send(api, game, "hide_unit", player=1, unit=2, marker=1)
    assert theirs.status_code == 403


def test_the_tracker_page_renders_in_english_and_german(match: Any, client: Any) -> None:
    game, anna, _ben = match
    client.force_login(anna)
    english = client.get(f"/matches/{game.pk}/", HTTP_ACCEPT_LANGUAGE="en")
    assert english.status_code == 200
    assert "Terrain: choose the method" in english.content.decode()
    german = client.get(f"/matches/{game.pk}/", HTTP_ACCEPT_LANGUAGE="de")
    assert german.status_code == 200 and "scoreboard" in german.content.decode()


def _hide_form(page: str, unit: int) -> dict[str, str]:
    """The fields the page's form for hiding ``unit`` sends (its own seq, key, seat)."""
    start = page.index(f'name="args.unit:int" value="{unit}"')
    form = page[page.rindex("<form", 0, start) : page.index("</form>", start)]
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form))
    marker = re.search(r'<option value="(\d+)" selected>', form)
    assert marker is not None, form
    fields["args.marker:int"] = marker.group(1)
    return fields


def test_assigning_markers_keeps_the_secret_view_open_until_the_last_unit(
    match: Any, client: Any
) -> None:
    """Each unit gets its marker in secret (`hide_unit`); the view stays on the owner's seat
    between two of them and closes after the last, so the opponent never sees the list."""
    game, anna, _ben = match
    api = _api(anna)
    assert _send(api, game, "choose_terrain", method="quarters").status_code == 200
    game.refresh_from_db()
    chooser = match_state(game).zone_chooser
    assert _send(api, game, "choose_zone", player=chooser, edge="south").status_code == 200
    assert _send(api, game, "roll_deployment").status_code == 200
    client.force_login(anna)
    url = f"/matches/{game.pk}/"
    page = client.get(f"{url}?seat=0", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'name="seat" value="0"' in page  # two units wait: the first keeps the view
    answer = client.post(
        f"{url}command/", _hide_form(page, 0), HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert answer.status_code == 200
    assert answer["HX-Replace-Url"] == f"{url}?seat=0"
    page = answer.content.decode()
    assert 'name="args.unit:int" value="1"' in page  # still on Anna's secret step
    assert 'name="seat" value="0"' not in page  # the last unit's form closes the view
    answer = client.post(
        f"{url}command/", _hide_form(page, 1), HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert answer.status_code == 200 and "HX-Replace-Url" in answer
    assert "seat=" not in answer["HX-Replace-Url"]


def test_a_kept_seat_shows_nothing_to_a_user_who_does_not_hold_it(match: Any, client: Any) -> None:
    game, anna, _ben = match
    client.force_login(anna)
    url = f"/matches/{game.pk}/"
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', page))
    answer = client.post(
        f"{url}command/",
        {
            "command": "choose_terrain",
            "args.method": "quarters",
            "expected_seq": fields["expected_seq"],
            "idempotency_key": "kept-seat-1",
            "seat": "1",  # Ben's seat, which Anna does not hold
        },
        HTTP_HX_REQUEST="true",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert answer.status_code == 200
    game.refresh_from_db()
    assert match_state(game).stage.value != "terrain"
    assert 'name="seat" value="1"' not in answer.content.decode()
    assert "Assign Ben" not in answer.content.decode()
