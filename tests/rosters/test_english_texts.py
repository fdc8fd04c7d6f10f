"""The builder and the read-only roster page show the catalogue's rule texts in the reader's
language: the English version in English, the German original in German (issue 13)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from apps.rosters import services
from apps.rosters.models import Roster
from apps.rosters.templatetags.rosters import localized
from apps.systems.grundregeln.match.tracker.models import ScenarioView
from tests.rosters.factories import legal_standard_team

pytestmark = pytest.mark.django_db

ABILITY_DE = "Das Team darf den Initiativ-Flip einmal pro Runde kostenlos wiederholen."
ABILITY_EN = "The team may repeat its initiative flip once per round for free."


@pytest.fixture
def roster(deathmatch, user) -> Roster:
    document = legal_standard_team()
    document["entries"] = document["entries"][:1]  # Ilva Syn: Präventivschlag
    return services.roster_import(owner=user, document=document)


def builder_page(client, roster: Roster, language: str) -> str:
    client.force_login(roster.owner)
    response = client.get(
        reverse("rosters:builder", args=[roster.pk]), HTTP_ACCEPT_LANGUAGE=language
    )
    assert response.status_code == 200
    return response.content.decode()


def test_the_english_builder_shows_the_english_ability_text(client, roster) -> None:
    html = builder_page(client, roster, "en")
    assert ABILITY_EN in html
    assert ABILITY_DE not in html
    assert "Präventivschlag" in html  # the rulebook's name stays German


def test_the_german_builder_shows_the_german_original(client, roster) -> None:
    html = builder_page(client, roster, "de")
    assert ABILITY_DE in html
    assert ABILITY_EN not in html


def test_switching_language_does_not_serve_the_other_languages_cached_fighter(
    client, roster
) -> None:
    # The fighter fragment is cached; the language must be part of what it is cached under.
    assert ABILITY_DE in builder_page(client, roster, "de")
    assert ABILITY_EN in builder_page(client, roster, "en")


SUMMARY_DE = "Es gibt kein Rundenlimit"
SUMMARY_EN = "There is no round limit"


@pytest.mark.parametrize(
    ("language", "shown", "hidden"),
    [("en", SUMMARY_EN, SUMMARY_DE), ("de", SUMMARY_DE, SUMMARY_EN)],
)
def test_the_scenario_list_shows_the_summary_in_the_readers_language(
    client, catalogue, user, language, shown, hidden
) -> None:
    client.force_login(user)
    response = client.get(
        reverse("scenarios:list", args=["grundregeln"]), HTTP_ACCEPT_LANGUAGE=language
    )
    html = response.content.decode()
    assert shown in html and hidden not in html


def test_the_grundregeln_tracker_carries_both_versions_of_the_summary() -> None:
    # The tracker's scenario panel shows ``scenario|localized:"summary"``.
    view = ScenarioView(
        name="Letzte Stellung",
        summary="Kein Rundenlimit.",
        victory="",
        rounds=0,
        starter="",
        objectives=(),
        vp_kill=0,
        vp_npc=0,
        vp_objective=0,
        sample=True,
        npcs=(),
        summary_en="No round limit.",
    )
    with translation.override("en"):
        assert localized(view, "summary") == "No round limit."
    with translation.override("de"):
        assert localized(view, "summary") == "Kein Rundenlimit."
