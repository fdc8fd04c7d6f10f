"""Issue 13, "Dead ends and defaults": the small defects a table meets, each pinned here."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.template.loader import render_to_string
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import translation

from apps.catalog.models import GameSystem
from apps.matches.models import MatchEvent
from tests.accounts.factories import UserFactory
from tests.matches.factories import concede, small_match
from tests.matches.grundregeln import grund_match
from tests.matches.test_universalis import acting_match, drive, opened

pytestmark = pytest.mark.django_db

CARD_FLIP_HELP = "in Deathmatch by a card flip"


@pytest.fixture
def universalis(catalogue: None) -> GameSystem:
    return GameSystem.objects.get(slug="universalis")


def _form_page(user: Any, slug: str) -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    return client.get(reverse("matches:new", args=[slug])).content.decode()


def test_the_card_flip_help_shows_on_the_deathmatch_form_only(
    deathmatch: GameSystem, universalis: GameSystem, user: Any
) -> None:
    assert CARD_FLIP_HELP in _form_page(user, "deathmatch")
    grundregeln = _form_page(user, "grundregeln")
    assert CARD_FLIP_HELP not in grundregeln
    # Grundregeln draws one of its scenarios instead; Universalis has no random mode at all.
    assert "one of the scenarios is drawn at random" in grundregeln
    page = _form_page(user, "universalis")
    assert CARD_FLIP_HELP not in page and "Random:" not in page


def test_a_logged_out_spectator_of_a_finished_match_is_not_offered_a_new_match(
    deathmatch: GameSystem, user: Any
) -> None:
    grundregeln = GameSystem.objects.get(slug="grundregeln")
    match = concede(grund_match(user, grundregeln), user, 0)
    watcher = Client(HTTP_ACCEPT_LANGUAGE="en")
    page = watcher.get(reverse("matches:spectate", args=[match.spectator_token])).content.decode()
    assert "Match report" in page and "New match" not in page
    player = Client(HTTP_ACCEPT_LANGUAGE="en")
    player.force_login(user)
    assert "New match" in player.get(reverse("matches:tracker", args=[match.pk])).content.decode()


def test_the_deathmatch_result_offers_a_new_match_to_signed_in_users_only(
    deathmatch: GameSystem, user: Any
) -> None:
    # Deathmatch has no concede yet (issue 13's first dead end): its result card on its own.
    match = small_match(user, deathmatch)
    request = RequestFactory().get("/")
    for viewer, offered in ((AnonymousUser(), False), (user, True)):
        request.user = viewer
        with translation.override("en"):
            card = render_to_string(
                "matches/deathmatch/_result.html",
                {"match": match, "view": {"result": None, "players": []}, "spectate": "t"},
                request=request,
            )
        assert ("New match" in card) is offered
        assert "Match report" in card


def test_the_event_that_begins_a_round_is_logged_in_that_round(universalis: GameSystem) -> None:
    """ "Round 2 begins" belongs to round 2 (it was labelled R1: the round before the tap)."""
    match, anna, ben = acting_match(universalis)
    begun = MatchEvent.objects.get(match=match, type="round_started", data__round=1)
    assert begun.round == 1
    for user, type_, faces, args in (
        (anna, "end_phase", (), {}),
        (ben, "end_phase", (), {}),
        (anna, "pick", (), {"player": 0, "unit": 0}),
        (ben, "pick", (12, 1), {"player": 1, "unit": 5}),
        (anna, "end_phase", (), {}),
        (ben, "end_phase", (), {}),
        (anna, "pick", (), {"player": 0, "unit": 1}),
        (ben, "pick", (12, 1), {"player": 1, "unit": 6}),
        (anna, "end_phase", (), {}),
        (ben, "end_phase", (), {}),
        (anna, "end_round", (), {}),
    ):
        drive(match, user, type_, *faces, **args)
    second = MatchEvent.objects.get(match=match, type="round_started", data__round=2)
    assert second.round == 2
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(anna)
    page = client.get(reverse("matches:tracker", args=[match.pk])).content.decode()
    assert re.search(r"R2</span>\s*Round 2 begins", page)
    assert not re.search(r"R1</span>\s*Round 2 begins", page)


def test_a_secret_step_names_its_player_once(universalis: GameSystem) -> None:
    anna = UserFactory()
    match = opened(universalis, anna, anna)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(anna)
    page = client.get(reverse("matches:tracker", args=[match.pk])).content.decode()
    assert "Choose your mission in secret" in page
    assert "Anna: Anna" not in re.sub(r"<[^>]+>|\s+", lambda m: " " if m[0].isspace() else "", page)


def test_one_card_left_is_singular_in_german() -> None:
    flip: dict[str, Any] = {
        "title": None,
        "cards": [],
        "modifier": 0,
        "odds": [],
        "remaining_before_turn": 1,
        "outcome_lines": [],
    }
    with translation.override("de"):
        one = render_to_string("matches/deathmatch/_flip.html", {"flip": flip, "readonly": True})
        flip["remaining_before_turn"] = 3
        three = render_to_string("matches/deathmatch/_flip.html", {"flip": flip, "readonly": True})
    assert "Noch 1 Karte bis zum Wendepunkt." in one and "Noch 1 Karten" not in one
    assert "Noch 3 Karten bis zum Wendepunkt." in three


def _refused_shot(client: Client, match: Any) -> str:
    match.refresh_from_db()
    response = client.post(
        reverse("matches:command", args=[match.pk]),
        {
            "command": "shoot",
            "expected_seq": str(match.seq),
            "selected": "2",
            "args.unit:int": "2",
            "args.weapon:int": "0",
            "args.mode": "normal",
            "args.targets.0._on:bool": "true",
            "args.targets.0.unit:int": "5",
            "args.targets.0.distance:int": "7",
            "args.targets.0.cover": "none",
            "args.targets.0.shots:int": "1",
        },
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 422
    return response.content.decode()


def test_too_few_shots_of_a_sustained_fire_say_how_many_and_keep_the_form(
    universalis: GameSystem,
) -> None:
    """The Maschinenpistole (DF 3) fires 4 shots; a form sent with 1 is refused with the number
    needed, and the form comes back with its target and distance and all 4 shots."""
    match, anna, _ben = acting_match(universalis)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(anna)
    page = _refused_shot(client, match)
    assert "Shots needed for Maschinenpistole: 4; the Shots fields add up to 1." in page
    form = page[page.index('id="st0-2"') :]
    target = re.search(r'<select id="st0-2"[^>]*>(.*?)</select>', page, re.S)
    assert target and re.search(r'<option value="5" selected', target[1])
    assert re.search(r'id="sd0-2"[^>]*value="7"', form)
    assert re.search(r'id="ss0-2"[^>]*value="4"', form)
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    client.force_login(anna)
    assert "Benötigte Schüsse für Maschinenpistole: 4" in _refused_shot(client, match)
