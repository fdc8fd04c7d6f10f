"""Universalis unit cards rendered by WeasyPrint and read back: a front and a back per model,
the roster sheet, and the blank cards."""

from __future__ import annotations

import pytest
from django.utils import translation

from apps.cards.rendering import PrintJob, render_pdf
from apps.rosters import services as roster_services
from apps.rosters.selectors import roster_for_owner
from apps.systems.core.registry import registry
from tests.accounts.factories import UserFactory
from tests.cards.conftest import pdf_text
from tests.cards.test_rendering import roster_job
from tests.matches.test_universalis import group

LAYOUTS = registry().get("universalis").cards


@pytest.mark.django_db
@pytest.mark.slow
@pytest.mark.usefixtures("catalogue")
def test_a_group_prints_front_and_back_cards_and_its_sheet() -> None:
    owner = UserFactory()
    created = roster_services.roster_import(owner=owner, document=group("nebelzirkel"))
    job = roster_job(roster_for_owner(owner, created.pk))
    assert len(job.cards) == 6
    with translation.override("en"):
        pages, text = pdf_text(render_pdf(job))
    assert pages == 2  # six cards on one page, the roster sheet
    for name in ["Zirkelmeisterin Ysra", "Kultist", "Schattenläufer", "Geisterhand"]:
        assert name in text
    assert "Rules (back)" in text and "Gruppe Nebelzirkel" in text


@pytest.mark.slow
def test_universalis_blank_cards_render() -> None:
    assert LAYOUTS is not None
    job = PrintJob(
        system_slug="universalis",
        layouts=LAYOUTS,
        cards=LAYOUTS.blank_cards(),
        sheet=None,
        layout="sheet",
        paper="a4",
        title="Blank",
    )
    with translation.override("de"):
        pages, text = pdf_text(render_pdf(job))
    assert pages == 1 and "AGI" in text
