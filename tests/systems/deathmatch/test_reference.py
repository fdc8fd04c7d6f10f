"""The Deathmatch rules reference agrees with the rulings of SPEC §6 and says the same in both
languages: each ruling is on the German and the English page, and the decisions §6 overruled
are gone from "Where the app decides"."""

from __future__ import annotations

import re

import pytest

from apps.systems.core.registry import registry

DECIDES = {"de": "## Festlegungen der App", "en": "## Where the app decides"}


def page(language: str) -> str:
    return registry().get("deathmatch").reference(language)


def decisions(language: str) -> list[str]:
    text = page(language)
    section = text[text.index(DECIDES[language]) :]
    return re.findall(r"^- \*\*(.+?):?\*\*", section, flags=re.MULTILINE)


def test_both_languages_list_the_same_number_of_decisions() -> None:
    assert len(decisions("de")) == len(decisions("en"))
    assert {"Eine zweite Pistole", "Dauerhafte Modifikatoren"} <= set(decisions("de"))
    assert {"A second pistol", "Standing modifiers"} <= set(decisions("en"))


# Each ruling of SPEC §6 (Deathmatch) with a phrase of it on the German and the English page.
RULINGS = {
    "seen cards stay seen (l. 217, l. 243)": (
        "Gesehene Karten bleiben gesehen",
        "Seen cards stay seen",
    ),
    "a second pistol pairs (l. 145)": ("weitere Pistole kauft", "buys another pistol"),
    "equipment changes profile values (l. 128, l. 773)": (
        "ändert ihn im Spiel, im Tracker und bei jedem Flip",
        "changes it in the match, on the tracker and in every roll",
    ),
    "nothing left to activate (l. 331)": (
        "gibt den Zug sofort weiter (auch nach einer Korrektur)",
        "hands the turn on at once (also after a correction)",
    ),
    "Erlöser only in rounds 2 and 4 (l. 910)": (
        "Der Erlöser ist während der Runden 2 und 4 aktiv",
        "The Erlöser is active through rounds 2 and 4",
    ),
    "stations recharge in the start phase (l. 326)": (
        "für den Rest der Runde verbraucht",
        "spent for the rest of the round",
    ),
    "charge ⬠ only on a hit (l. 381)": (
        "bei einem Treffer (nicht bei einer Fleischwunde)",
        "on a hit (not on a flesh wound)",
    ),
    "respawn restores ammunition (l. 209, l. 533)": (
        "auch die Munitionsmarker",
        "ammunition markers too",
    ),
    "heroes are never mercenaries (l. 180)": (
        "ebenso wenig ein Held",
        "nor can a Held (hero)",
    ),
    "respawn shock on cards and tracker agree (l. 675)": (
        "so stimmen Karte und Tracker überein",
        "so card and tracker agree",
    ),
}


@pytest.mark.parametrize("ruling", sorted(RULINGS))
def test_each_ruling_is_on_both_pages(ruling: str) -> None:
    german, english = RULINGS[ruling]
    assert german in page("de")
    assert english in page("en")


# The decisions SPEC §6 overruled (the pages said so before the rulings).
OVERRULED = {
    "de": (
        "erhält jeder zwei",
        "bleibt es, bis ihn jemand nutzt",
        "verbrauchte Munition bleibt verbraucht",
        "Sturmangriff und Wuchtschlag nach einer Fleischwunde",
    ),
    "en": (
        "get two each",
        "stays active until someone uses it",
        "used ammunition stays used",
        "Sturmangriff and Wuchtschlag after a Fleischwunde",
    ),
}


@pytest.mark.parametrize("language", ["de", "en"])
def test_the_overruled_decisions_are_gone(language: str) -> None:
    text = page(language)
    assert [phrase for phrase in OVERRULED[language] if phrase in text] == []
