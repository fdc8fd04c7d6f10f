"""Fixtures of the card tests: a roster of the shipped catalogue, PDFs under a temporary
MEDIA_ROOT, and a fake renderer for tests that are about everything but the PDF."""

from __future__ import annotations

from collections.abc import Iterator
from io import BytesIO
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from apps.rosters import services as roster_services
from apps.rosters.models import Roster
from apps.rosters.selectors import roster_for_owner
from tests.rosters.factories import legal_standard_team

# The smallest thing a PDF reader opens: the fake renderer's output.
TINY_PDF = (
    b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n"
    b"2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n"
    b"3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 10 10]>>endobj\n"
    b"trailer<</Root 1 0 R>>\n%%EOF\n"
)


def pdf_text(data: bytes) -> tuple[int, str]:
    """Page count and the whole text of a PDF, read back as a person's PDF viewer would."""
    reader = PdfReader(BytesIO(data))
    return len(reader.pages), "\n".join(page.extract_text() for page in reader.pages)


@pytest.fixture(autouse=True)
def media(settings: Any, tmp_path: Path) -> Path:
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


@pytest.fixture
def roster(deathmatch: Any, user: Any) -> Roster:
    created = roster_services.roster_import(owner=user, document=legal_standard_team())
    return roster_for_owner(user, created.pk)


@pytest.fixture
def shared_roster(roster: Roster) -> Roster:
    roster_services.roster_share(owner=roster.owner, roster_id=roster.pk, enabled=True)
    return roster_for_owner(roster.owner, roster.pk)


@pytest.fixture
def fake_render(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Any]]:
    """Replace WeasyPrint by a tiny fixed PDF; yields the print jobs it was given."""
    jobs: list[Any] = []

    def render(job: Any, *, progress: Any = None) -> bytes:
        jobs.append(job)
        return TINY_PDF

    monkeypatch.setattr("apps.cards.services.render_pdf", render)
    yield jobs
