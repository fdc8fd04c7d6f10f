"""What Deathmatch's card templates print (the HTML WeasyPrint is given): the profile card's
◆ (command) and Widerstand (resistance), the equipment card's limits."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

from apps.systems.core.cards import Card
from apps.systems.deathmatch.cards import equipment_face, profile_face
from apps.systems.deathmatch.catalog import FighterProfile, catalog_from_document
from apps.systems.deathmatch.match import combat
from apps.systems.deathmatch.match.state import Unit
from apps.systems.deathmatch.match.units import fighter_unit

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


def _lowered_by_respawn_shock(profile: FighterProfile) -> tuple[bool, tuple[bool, ...]]:
    """What the tracker lowers once the fighter has respawned: its Reflex, and each weapon's
    FK/NK, in the order the card prints them."""
    fresh = fighter_unit(0, 0, profile, ())
    shocked = replace(fresh, respawns=1)

    def reflex(unit: Unit) -> int:
        return combat.target_reflex(None, unit, combat.Situation(), ranged=False, aimed=False).value

    weapons = tuple(
        combat.attack_value(shocked, index).value < combat.attack_value(fresh, index).value
        for index in range(len(fresh.weapons))
    )
    return reflex(shocked) < reflex(fresh), weapons


@pytest.mark.parametrize("slug", sorted(CATALOG.profiles))
def test_the_printed_card_marks_exactly_what_respawn_shock_lowers_on_the_tracker(slug) -> None:
    # SPEC §6 "Respawn shock on cards and tracker agree"; rulebook l. 675: "... einen Malus von
    # -1 auf seinen Reflexwert (↘), und seine Kampfwerte (☠ ⚔), sofern sie auf der Profilkarte
    # rot markiert sind."
    profile = CATALOG.profiles[slug]
    face = profile_face(profile, CATALOG)
    printed_red = (face.reflex_red, tuple(weapon.red for weapon in face.weapons))
    assert printed_red == _lowered_by_respawn_shock(profile)
