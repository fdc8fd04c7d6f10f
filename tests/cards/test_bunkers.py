"""Bunkers and Badasses: an imported army's unit cards, the tracker cards (Gefechtsoptionen,
doors, objectives) and the roster sheet with the starting CP, rendered and read back."""

from __future__ import annotations

import pytest
from django.utils import translation

from apps.cards.rendering import PrintJob, render_pdf
from apps.cards.services import ExportOptions, card_export_request, print_job
from apps.rosters import army_services
from apps.systems.bunkers.cards import BunkersCardLayouts, unit_face
from apps.systems.core.registry import registry
from apps.systems.core.rosters import UnitInput
from tests.cards.conftest import pdf_text
from tests.rosters.test_army import _file

LAYOUTS = registry().get("bunkers").cards


def test_a_unit_card_ticks_each_models_wounds_while_they_fit() -> None:
    face = unit_face(UnitInput("Sample Terminators", models=5, wounds=3))
    assert face.per_model and face.tracks == ("☐☐☐",) * 5
    horde = unit_face(UnitInput("Sample Boyz", models=30, wounds=2))
    assert not horde.per_model and horde.tracks == ("☐" * 30,)


def test_the_system_prints_with_the_bunkers_layouts() -> None:
    assert isinstance(LAYOUTS, BunkersCardLayouts)


@pytest.mark.django_db
@pytest.mark.slow
def test_an_imported_army_prints_unit_cards_tracker_cards_and_its_sheet(catalogue, user) -> None:
    roster = army_services.army_import(
        owner=user,
        system=army_services.outside_army_system("bunkers"),
        data=_file("bloodangels-patrol.ros"),
        file_name="ba.ros",
        settings={"points_limit": 1000},
    )
    export = card_export_request(
        roster=roster, requested_by=user, options=ExportOptions(), language="en", share_url=""
    )
    with translation.override("en"):
        job = print_job(export)
        names = [card.name for card in job.cards]
        assert names[-3:] == ["Gefechtsoptionen", "Türen und Laserbarrieren", "Missionsziele"]
        assert len(names) == roster.units.count() + 3
        pages, text = pdf_text(render_pdf(job))
    assert pages >= 2
    for words in ("Bladeguard Veteran Squad", "Verzweiflungstat", "T8 W5 Sv3+", "625"):
        assert words in text


@pytest.mark.slow
def test_bunkers_blank_cards_render_in_german() -> None:
    assert LAYOUTS is not None
    with translation.override("de"):
        pages, text = pdf_text(
            render_pdf(
                PrintJob(
                    system_slug="bunkers",
                    layouts=LAYOUTS,
                    cards=LAYOUTS.blank_cards(),
                    sheet=None,
                    layout="sheet",
                    paper="a4",
                    title="Test",
                )
            )
        )
    assert pages == 1 and "Gefechtsoptionen" in text
