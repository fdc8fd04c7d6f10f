"""Real PDFs from WeasyPrint, read back: pages, names, paper sizes, fonts, long texts, and a
renderer that never reaches out to the network."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from io import BytesIO
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation
from pypdf import PdfReader

from apps.cards import rendering
from apps.cards.models import CardExport
from apps.cards.rendering import CardRenderError, LocalOnlyFetcher, PrintJob, render_pdf
from apps.cards.services import ExportOptions, card_export_request, print_job
from apps.systems.core.cards import Card
from apps.systems.core.registry import registry
from apps.systems.deathmatch.cards import AbilityLine, profile_face
from apps.systems.deathmatch.catalog import catalog_from_document
from tests.cards.conftest import pdf_text

MM = 72 / 25.4
CATALOG = catalog_from_document(
    json.loads((Path(settings.BASE_DIR) / "fixtures/deathmatch/catalog.json").read_text())
)
LAYOUTS = registry().get("deathmatch").cards


def roster_job(roster, **options: str) -> PrintJob:
    export = card_export_request(
        roster=roster,
        requested_by=roster.owner,
        options=ExportOptions(**options),
        language="en",
        share_url="http://testserver/rosters/shared/abc/",
    )
    with translation.override("en"):
        return print_job(export)


def card_job(*cards: Card, layout: str = "sheet") -> PrintJob:
    return PrintJob(
        system_slug="deathmatch",
        layouts=LAYOUTS,
        cards=cards,
        sheet=None,
        layout=layout,
        paper="a4",
        title="Test",
    )


def profile_card(slug: str, **changes: object) -> Card:
    face = replace(profile_face(CATALOG.profiles[slug], CATALOG), **changes)
    return Card("profile", face.name, face)


@pytest.mark.django_db
@pytest.mark.slow
def test_a_roster_prints_its_cards_and_sheet_nine_up(roster) -> None:
    job = roster_job(roster)
    assert len(job.cards) == 8  # five fighters, Respawn-Fokus and two bought cards
    with translation.override("en"):
        pdf = render_pdf(job)
    pages, text = pdf_text(pdf)
    assert pages == 2  # one page of cards, the roster sheet
    for name in ["Direktorin Ilva Syn", "Konzernschütze", "Kael", "Syn-Tek-Techniker", "Anzi"]:
        assert name in text
    for equipment in ["Respawn-Fokus", "Kampfstimulanzien", "Sprungmodule"]:
        assert equipment in text
    assert "Team Vortex" in text
    assert "http://testserver/rosters/shared/abc/" in "".join(text.split())
    reader = PdfReader(BytesIO(pdf))
    width, height = reader.pages[0].mediabox.width, reader.pages[0].mediabox.height
    assert (round(width / MM), round(height / MM)) == (210, 297)
    fonts = {
        str(font["/BaseFont"])
        for page in reader.pages
        for font in page["/Resources"]["/Font"].values()
    }
    # Only the vendored fonts (embedded under their @font-face family), never a system font.
    assert fonts and all("Skirmish-Print" in font for font in fonts), fonts


@pytest.mark.django_db
@pytest.mark.slow
def test_one_card_a_page_at_card_size_with_bleed_then_a_letter_sheet(roster) -> None:
    job = roster_job(roster, layout="single", paper="letter")
    with translation.override("en"):
        pdf = render_pdf(job)
    reader = PdfReader(BytesIO(pdf))
    assert len(reader.pages) == 9
    card, sheet = reader.pages[0].mediabox, reader.pages[-1].mediabox
    bleed = 2 * rendering.BLEED_MM
    assert round(card.width / MM) == 63 + bleed
    assert round(card.height / MM) == 88 + bleed
    assert (round(sheet.width), round(sheet.height)) == (612, 792)  # US Letter in points


@pytest.mark.slow
def test_blank_cards_render() -> None:
    with translation.override("de"):
        pages, text = pdf_text(render_pdf(card_job(*LAYOUTS.blank_cards())))
    assert pages == 1
    assert "Widerstand" in text and "FÄHIGKEITEN" in text


@pytest.mark.slow
def test_a_text_too_long_for_a_card_shrinks_and_continues_on_a_second_card() -> None:
    long_text = " ".join(f"Wort{n} schützt Äußeres" for n in range(90)) + " ENDE."
    card = profile_card(
        "organon-direktorin-ilva-syn", abilities=(AbilityLine("Endlose Regel", long_text),)
    )
    with translation.override("en"):
        pdf = render_pdf(card_job(card))
    pages, text = pdf_text(pdf)
    flat = " ".join(text.split())
    parts = re.findall(r"\(\d/(\d)\)", flat)
    assert parts and set(parts) == {str(len(parts))} and len(parts) >= 2
    assert "Continued on the next card" in flat
    assert "Wort0 " in flat and "Wort89" in flat and "ENDE." in flat  # nothing cut


@pytest.mark.slow
def test_a_slightly_full_card_gets_smaller_type_not_a_second_card() -> None:
    text = " ".join(f"Regel{n} gilt" for n in range(40))
    card = profile_card("organon-direktorin-ilva-syn", abilities=(AbilityLine("Lang", text),))
    with translation.override("en"):
        pages, extracted = pdf_text(render_pdf(card_job(card)))
    assert "(1/2)" not in extracted
    assert "Regel39" in extracted


@pytest.mark.slow
def test_a_word_too_long_to_split_fails_with_a_message() -> None:
    card = profile_card(
        "organon-direktorin-ilva-syn", abilities=(AbilityLine("Unteilbar", "X" * 6000),)
    )
    with translation.override("en"), pytest.raises(CardRenderError) as error:
        render_pdf(card_job(card))
    assert "Direktorin Ilva Syn" in error.value.message
    assert "more text than fits on a card" in error.value.message


def test_the_fetcher_refuses_the_network_and_files_outside_the_fonts(tmp_path: Path) -> None:
    fonts = rendering.font_paths()
    fetcher = LocalOnlyFetcher(roots=[fonts["regular"].parent])
    assert fetcher.fetch(fonts["regular"].as_uri()).read()[:4] == b"\x00\x01\x00\x00"
    for url in [
        "http://example.org/font.ttf",
        "https://fonts.example.org/x.css",
        "ftp://example.org/x",
        (tmp_path / "secret.txt").as_uri(),
        "file:///etc/passwd",
    ]:
        with pytest.raises(rendering.RemoteResourceRefused):
            fetcher.fetch(url)
    assert fetcher.fetch("data:text/plain,hello").read() == b"hello"


def test_a_template_asking_for_a_remote_image_renders_without_it(monkeypatch) -> None:
    """The refused URL only costs the image: the render goes on, offline."""
    asked: list[str] = []
    original = LocalOnlyFetcher.fetch

    def spy(self: LocalOnlyFetcher, url: str, headers: object = None) -> object:
        asked.append(url)
        return original(self, url, headers)

    monkeypatch.setattr(LocalOnlyFetcher, "fetch", spy)
    renderer = rendering._Renderer(card_job())
    from weasyprint import HTML

    HTML(string='<img src="http://example.org/x.png">', url_fetcher=renderer.fetcher).render()
    assert asked == ["http://example.org/x.png"]


@pytest.mark.django_db
def test_an_export_of_an_unknown_layout_is_refused_by_the_form(roster) -> None:
    from apps.cards.forms import PrintForm

    form = PrintForm({"contents": "all", "layout": "poster", "paper": "a4"})
    assert not form.is_valid()
    assert CardExport.objects.count() == 0
