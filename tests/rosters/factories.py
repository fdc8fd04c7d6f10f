"""Roster documents for tests, built from the shipped Deathmatch catalogue."""

from __future__ import annotations

from typing import Any


def legal_standard_team(**changes: Any) -> dict[str, Any]:
    """A legal Organon team of 5 with one Söldner (mercenary) and some equipment."""
    document: dict[str, Any] = {
        "format": "skirmish-roster/1",
        "system": "deathmatch",
        "name": "Team Vortex",
        "faction": "organon",
        "settings": {"game_size": 5},
        "entries": [
            {"profile": "organon-direktorin-ilva-syn", "items": ["kampfstimulanzien"]},
            {"profile": "organon-konzernschuetze", "items": ["ruestungsupgrade-sprungmodule"]},
            {"profile": "phalanx-linienschuetze", "items": [], "name": "Kael"},
            {"profile": "organon-syntek-techniker", "items": []},
            {"profile": "atalante-c021-anzi", "items": []},
        ],
    }
    document.update(changes)
    return document
