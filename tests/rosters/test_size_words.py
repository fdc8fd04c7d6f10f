"""How big an army is, in its system's words: a Stahlgewitter army sized by a game type and no
agreed limit names the game type and its range (SPEC §4: "Scharmützel 200-400, Gefecht
400-800, Schlacht 800-1500 army points", catalogue data), never "no points limit"; the game
types offered are the catalogue's, one an organiser adds included; the roster pages speak of
models and entries, not of fighters, where every system reads them."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from apps.catalog.models import Faction, GameSystem, Item
from apps.matches.forms import MatchSetupForm
from apps.rosters import services
from apps.rosters.forms import roster_size_text

pytestmark = pytest.mark.django_db


@pytest.fixture
def stahlgewitter(catalogue: None) -> GameSystem:
    return GameSystem.objects.get(slug="stahlgewitter")


def army(user: Any, system: GameSystem, **settings: object) -> Any:
    return services.roster_create(
        owner=user,
        system=system,
        name="Höllenhunde",
        faction=Faction.objects.get(system=system, slug="legion-666"),
        settings=settings,
    )


@pytest.mark.parametrize(
    ("settings", "words"),
    [
        ({"game_type": "gefecht"}, "Gefecht (400-800 points)"),
        ({"game_type": "gefecht", "points_limit": 600}, "600 points · Gefecht (400-800 points)"),
        ({"points_limit": 600}, "600 points"),
        ({}, "no points limit"),
        ({"game_type": "gone"}, "gone"),
    ],
)
def test_the_size_of_an_army_names_its_game_type_and_range(
    stahlgewitter, settings: dict[str, object], words: str
) -> None:
    with translation.override("en"):
        assert roster_size_text("stahlgewitter", settings) == words


def test_the_roster_list_the_shared_page_and_the_match_form_name_the_game_type(
    stahlgewitter, user, client
) -> None:
    roster = army(user, stahlgewitter, game_type="schlacht")
    roster = services.roster_share(owner=user, roster_id=roster.pk, enabled=True)
    client.force_login(user)
    listing = client.get("/rosters/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Schlacht (800-1500 points)" in listing and "no points limit" not in listing
    shared = client.get(
        f"/rosters/shared/{roster.share_token}/", HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert "Schlacht (800-1500 points)" in shared
    with translation.override("en"):
        form = MatchSetupForm(system=stahlgewitter, rosters=[roster])
    labels = [label for _value, label in form.fields["roster_0"].choices]  # type: ignore[attr-defined]
    assert "Höllenhunde · Schlacht (800-1500 points) · illegal" in labels  # (an empty army)


def test_a_game_type_an_organiser_adds_is_offered_and_taken(stahlgewitter, user, client) -> None:
    Item.objects.create(
        system=stahlgewitter,
        slug="patrouille",
        name="Patrouille",
        kind="game_type",
        stats={"min_points": 100, "max_points": 200, "provisional": True},
    )
    roster = army(user, stahlgewitter, points_limit=150)
    client.force_login(user)
    page = client.get(f"/rosters/{roster.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    options = page[page.index('name="game_type"') :]
    options = options[: options.index("</select>")]
    assert options.index("Patrouille (100-200 points)") < options.index("Scharmützel (200-400")
    assert options.index("Gefecht (400-800 points)") < options.index("Schlacht (800-1500")
    response = client.post(
        f"/rosters/{roster.pk}/settings/",
        {"name": "Höllenhunde", "points_limit": "", "game_type": "patrouille"},
        HTTP_HX_REQUEST="true",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 200
    roster.refresh_from_db()
    assert roster.settings == {"game_type": "patrouille"}
    assert "100-200 points" in response.content.decode()


def test_the_first_roster_card_speaks_of_models(catalogue, user, client) -> None:
    client.force_login(user)
    page = client.get("/rosters/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "add your models" in page and "fighters" not in page
