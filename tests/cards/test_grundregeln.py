"""Grundregeln profile cards and roster sheet rendered by WeasyPrint and read back."""

from __future__ import annotations

from dataclasses import replace

import pytest
from django.utils import translation

from apps.cards.rendering import PrintJob, render_pdf
from apps.cards.services import ExportOptions, card_export_request, print_job
from apps.catalog.models import GameSystem
from apps.systems.core.cards import Card
from apps.systems.core.registry import registry
from apps.systems.grundregeln.cards import AbilityLine
from tests.cards.conftest import pdf_text
from tests.matches.grundregeln import grund_roster

LAYOUTS = registry().get("grundregeln").cards


@pytest.fixture
def grundregeln(deathmatch) -> GameSystem:  # noqa: ARG001 - loads every shipped catalogue
    return GameSystem.objects.get(slug="grundregeln")


@pytest.mark.django_db
@pytest.mark.slow
def test_a_grundregeln_roster_prints_a_profile_card_per_model_and_its_sheet(
    grundregeln, user
) -> None:
    roster = grund_roster(
        user,
        entries=[
            {
                "profile": "eisenfaust-hauptmann",
                "items": ["schild", "heiltrank"],
                "count": 1,
                "name": "Kurt",
            },
            {"profile": "eisenfaust-armbrustschuetze", "items": [], "count": 2},
        ],
    )
    export = card_export_request(
        roster=roster, requested_by=user, options=ExportOptions(), language="en", share_url=""
    )
    with translation.override("en"):
        job = print_job(export)
        assert [card.name for card in job.cards] == [
            "Kurt",
            "Armbrustschütze 1",
            "Armbrustschütze 2",
        ]
        pages, text = pdf_text(render_pdf(job))
    assert pages == 2
    for words in (
        "Kurt",
        "Hauptmann",
        "Radschlosspistole",
        "Langsames Nachladen",
        "Heiltrank",
        "Team Eisenfaust",
        "sample card",
    ):
        assert words in text


@pytest.mark.slow
def test_grundregeln_blank_and_overfull_cards_render() -> None:
    with translation.override("de"):
        pages, text = pdf_text(
            render_pdf(
                PrintJob(
                    system_slug="grundregeln",
                    layouts=LAYOUTS,
                    cards=LAYOUTS.blank_cards(),
                    sheet=None,
                    layout="sheet",
                    paper="a4",
                    title="Test",
                )
            )
        )
    assert pages == 1 and "Moralwürfel" in text


@pytest.mark.django_db
@pytest.mark.slow
def test_a_long_ability_continues_on_a_second_card(grundregeln, user) -> None:
    roster = grund_roster(
        user, entries=[{"profile": "moorvolk-troll", "items": [], "count": 1}], faction="moorvolk"
    )
    export = card_export_request(
        roster=roster, requested_by=user, options=ExportOptions(), language="en", share_url=""
    )
    with translation.override("en"):
        job = print_job(export)
    card = job.cards[0]
    long = replace(
        card.face, abilities=(AbilityLine("Uralt", " ".join(["Sumpfwasser tropft"] * 120)),)
    )
    job = replace(job, cards=(Card(card.template, card.name, long),), sheet=None)
    with translation.override("en"):
        pages, text = pdf_text(render_pdf(job))
    assert "continued" in text.lower()
