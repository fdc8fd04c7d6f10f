"""Printed cards show the catalogue's rule texts in the language the export was asked in: the
English version on English cards, the German original on German ones (issue 13)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from apps.cards import services
from apps.cards.models import CardExport
from apps.rosters.models import Roster

pytestmark = pytest.mark.django_db

ABILITY_DE = "Das Team darf den Initiativ-Flip einmal pro Runde kostenlos wiederholen."
ABILITY_EN = "The team may repeat its initiative flip once per round for free."
# Kampfstimulanzien's special action and usage limit.
ACTION_DE = "Das Modell erhält sofort +1 AP."
ACTION_EN = "The model gets +1 AP at once."
USAGE_DE = "Einmal pro Spiel verwendbar."
USAGE_EN = "Usable once per game."


def printed_cards(roster: Roster, language: str, fake_render: list[Any], capture: Any) -> str:
    """The HTML of every card of the roster's export in ``language``, as the renderer gets it."""
    with capture(execute=True):
        export = services.card_export_request(
            roster=roster,
            requested_by=roster.owner,
            options=services.ExportOptions(),
            language=language,
            share_url="",
        )
    export.refresh_from_db()
    assert export.status == CardExport.Status.DONE
    job = fake_render[-1]
    with translation.override(language):
        html = "".join(
            render_to_string(
                f"cards/deathmatch/{card.template}.html", {"card": card, "face": card.face}
            )
            for card in job.cards
        )
    return re.sub(r"\s+", " ", html)


def test_an_english_card_prints_the_english_rule_texts(
    roster, fake_render, django_capture_on_commit_callbacks
) -> None:
    html = printed_cards(roster, "en", fake_render, django_capture_on_commit_callbacks)
    assert ABILITY_EN in html and ACTION_EN in html and USAGE_EN in html
    assert ABILITY_DE not in html and ACTION_DE not in html and USAGE_DE not in html
    assert "Präventivschlag" in html  # the rulebook's name of the ability stays German


def test_a_german_card_prints_the_german_originals(
    roster, fake_render, django_capture_on_commit_callbacks
) -> None:
    html = printed_cards(roster, "de", fake_render, django_capture_on_commit_callbacks)
    assert ABILITY_DE in html and ACTION_DE in html and USAGE_DE in html
    assert ABILITY_EN not in html and ACTION_EN not in html and USAGE_EN not in html
