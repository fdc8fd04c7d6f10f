"""Stahlgewitter: an army's unit cards, the rulebook's tables for each player and the roster
sheet, rendered by WeasyPrint and read back; and the blank cards in German."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from apps.cards.rendering import PrintJob, render_pdf
from apps.rosters import services as roster_services
from apps.rosters.selectors import roster_for_owner
from apps.systems.core.registry import registry
from tests.accounts.factories import UserFactory
from tests.cards.conftest import pdf_text
from tests.cards.test_rendering import roster_job

LAYOUTS = registry().get("stahlgewitter").cards


def army() -> dict[str, Any]:
    return {
        "format": "skirmish-roster/1",
        "system": "stahlgewitter",
        "name": "Legion Kurtz",
        "faction": "legion-666",
        "settings": {"game_type": "gefecht", "points_limit": 600},
        "entries": [
            {
                "profile": "legion-666-offizier-e",
                "name": "Kommandotrupp Kurtz",
                "items": ["plasmapistolen", "schwerter", "vibro-variante", "fahne"],
            },
            {
                "profile": "legion-666-soldat-v",
                "count": 2,
                "items": ["sturmgewehre", "bajonette"],
                "attach_to": 0,
            },
            {"profile": "legion-666-kultist", "count": 8, "name": "Kult", "items": ["messer"]},
        ],
    }


@pytest.mark.django_db
@pytest.mark.slow
@pytest.mark.usefixtures("catalogue")
def test_an_army_prints_unit_cards_the_tables_and_its_sheet() -> None:
    owner = UserFactory()
    created = roster_services.roster_import(owner=owner, document=army())
    job = roster_job(roster_for_owner(owner, created.pk))
    assert [card.name for card in job.cards][:2] == ["Kommandotrupp Kurtz", "Kult"]
    assert len(job.cards) == 2 + 4
    with translation.override("en"):
        pages, text = pdf_text(render_pdf(job))
    assert pages == 2  # the cards on one page, the roster sheet
    for words in (
        "Offizier (E)",
        "TiPla-Kampfpanzerung",
        "Schwerter (Vibro-Varianten)",
        "2× 40 cm",  # the Sturmgewehre's burst at half range
        "Kampf-Ergebnistabelle",
        "The defender takes cover",
        "Mögliche Schüsse auf Anführer",
        "Legion Kurtz",
        "Deployment markers",
        "provisional",
    ):
        assert words in text, words


@pytest.mark.slow
def test_stahlgewitter_blank_cards_render_in_german() -> None:
    assert LAYOUTS is not None
    with translation.override("de"):
        pages, text = pdf_text(
            render_pdf(
                PrintJob(
                    system_slug="stahlgewitter",
                    layouts=LAYOUTS,
                    cards=LAYOUTS.blank_cards(),
                    sheet=None,
                    layout="sheet",
                    paper="a4",
                    title="Test",
                )
            )
        )
    assert pages == 1
    for words in ("Kampf-Ergebnistabelle", "Verteidiger sucht Schutz", "FKW", "WIK"):
        assert words in text, words
