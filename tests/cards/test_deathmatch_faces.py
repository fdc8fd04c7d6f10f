"""What Deathmatch's card templates print (the HTML WeasyPrint is given): the profile card's
◆ (command) and Widerstand (resistance), the equipment card's limits."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

from apps.systems.core.cards import Card
from apps.systems.deathmatch.cards import equipment_face, profile_face
from apps.systems.deathmatch.catalog import catalog_from_document

CATALOG = catalog_from_document(
    json.loads((Path(settings.BASE_DIR) / "fixtures/deathmatch/catalog.json").read_text())
)


def printed(card: Card) -> str:
    """The card's face as the renderer puts it on the page (see ``rendering._card_html``)."""
    with translation.override("en"):
        html = render_to_string(
            f"cards/deathmatch/{card.template}.html", {"card": card, "face": card.face}
        )
    return re.sub(r">\s+<", "><", html)


def stat(html: str, label: str) -> str:
    """The value printed above a stat's label on the profile card."""
    found = re.search(rf"<b[^>]*>([^<]*)</b><small>{re.escape(label)}</small>", html)
    assert found, f"no stat labelled {label!r} on the card"
    return found.group(1)


@pytest.fixture
def ilva() -> str:
    # Her six stats differ (ARP 2, ◆ 3, Reflex 7, Widerstand 4, LP 6, Move 5"), so a value in the
    # wrong place shows.
    face = profile_face(CATALOG.profiles["organon-direktorin-ilva-syn"], CATALOG)
    return printed(Card("profile", face.name, face))


def test_the_profile_card_prints_command_and_resistance(ilva) -> None:
    assert stat(ilva, "◆") == "3"
    assert stat(ilva, "♣ Widerstand") == "4"


def test_the_profile_card_prints_its_other_stats_in_their_places(ilva) -> None:
    assert stat(ilva, "ARP") == "2"
    assert stat(ilva, "↖ Reflex") == "7"
    assert "+ LP 6" in ilva


def test_the_equipment_card_prints_its_usage_limit_and_limit_per_model() -> None:
    face = equipment_face(CATALOG.items["kampfstimulanzien"])
    html = printed(Card("equipment", face.name, face))
    assert '<p class="eq-usage">Einmal pro Spiel verwendbar.</p>' in html
    assert "Limit/model: <b>2</b>" in html


def test_an_equipment_card_without_a_usage_limit_prints_none() -> None:
    face = equipment_face(CATALOG.items["respawn-fokus"])
    assert face.usage_limit == ""
    assert "eq-usage" not in printed(Card("equipment", face.name, face))
