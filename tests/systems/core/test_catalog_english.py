"""Every rule text a player reads in the shipped catalogues has an English version beside the
German original, and the reader's language picks one of them (issue 13)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from apps.systems.core.i18n import localized_stats, localized_text, split_english, with_english
from apps.systems.core.rosters import CatalogData, CatalogEntry, localized_catalog
from apps.systems.deathmatch import catalog as deathmatch
from apps.systems.grundregeln import catalog as grundregeln

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"
# The keys whose values are prose a player reads (names are rulebook terms and stay German).
PROSE_KEYS = ("text", "usage_limit", "summary")
# Files whose prose is English already: the trackers show their modes' and missions' summaries
# from the systems' gettext-marked msgids (deathmatch/match/modes.py, universalis/match/
# missions.py), which the German message catalogue translates.
ENGLISH_ORIGINALS = {"deathmatch/modes.json", "universalis/missions.json"}
SHIPPED = sorted(
    path
    for path in FIXTURES.glob("*/*.json")
    if path.relative_to(FIXTURES).as_posix() not in ENGLISH_ORIGINALS
)


def _prose(value: object, path: str = "") -> Iterator[tuple[str, dict[str, object], str]]:
    """(path, the object holding it, key) of every non-empty prose text, at any depth."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key in PROSE_KEYS and isinstance(item, str) and item.strip():
                yield f"{path}.{key}", value, key
            else:
                yield from _prose(item, f"{path}.{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _prose(item, f"{path}[{index}]")


def test_the_shipped_catalogues_are_all_checked() -> None:
    names = {path.relative_to(FIXTURES).as_posix() for path in SHIPPED}
    assert {"deathmatch/catalog.json", "grundregeln/catalog.json"} <= names
    assert {"universalis/catalog.json", "grundregeln/scenarios.json"} <= names


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.relative_to(FIXTURES).as_posix())
def test_every_rule_text_in_a_shipped_catalogue_has_an_english_version(path: Path) -> None:
    document = json.loads(path.read_text(encoding="utf-8"))
    found = list(_prose(document))
    missing = [
        where
        for where, holder, key in found
        if not isinstance(holder.get(f"{key}_en"), str) or not str(holder[f"{key}_en"]).strip()
    ]
    assert found, "no rule texts found: has the fixture's shape changed?"
    assert not missing, f"no English version ({'_en'!r} beside the text) at: {missing}"
    untranslated = [where for where, holder, key in found if holder[f"{key}_en"] == holder[key]]
    assert not untranslated, f"the English version repeats the German at: {untranslated}"


def test_a_german_reader_gets_the_original_and_an_english_reader_the_english_version() -> None:
    ability = {"name": "Zäh", "text": "Steht wieder auf.", "text_en": "Gets back up."}
    assert localized_text(ability, "text", "de") == "Steht wieder auf."
    assert localized_text(ability, "text", "en") == "Gets back up."
    assert localized_text(ability, "text", "en-gb") == "Gets back up."
    # A text nobody translated yet is shown in German rather than not at all.
    assert localized_text({"text": "Steht wieder auf."}, "text", "en") == "Steht wieder auf."


def test_localized_stats_swaps_texts_at_any_depth_and_keeps_the_rest() -> None:
    stats = {
        "lp": 5,
        "abilities": [{"name": "Zäh", "text": "Steht wieder auf.", "text_en": "Gets back up."}],
        "special_action": {"name": "Sprung", "ap": 1, "text": "Springt.", "text_en": "Jumps."},
    }
    english = localized_stats(stats, "en")
    assert english == {
        "lp": 5,
        "abilities": [{"name": "Zäh", "text": "Gets back up.", "text_en": "Gets back up."}],
        "special_action": {"name": "Sprung", "ap": 1, "text": "Jumps.", "text_en": "Jumps."},
    }
    assert localized_stats(stats, "de") == stats


def test_a_localized_catalogue_is_still_valid_and_the_german_one_is_untouched() -> None:
    entry = CatalogEntry(
        slug="oger",
        name="Oger",
        factions=("a",),
        stats={
            **grundregeln.profile_stats(
                grundregeln.profile_from_stats(
                    slug="oger",
                    name="Oger",
                    factions=("a",),
                    stats={
                        "size": "L",
                        "move": 5,
                        "morale": 3,
                        "morale_dice": 3,
                        "lp": 7,
                        "defence_dice": 2,
                        "points": 45,
                        "abilities": [
                            {"name": "Zäh", "text": "Steht wieder auf.", "text_en": "Gets back up."}
                        ],
                    },
                )
            )
        },
    )
    catalog = CatalogData(factions={"a": "A"}, profiles={"oger": entry}, items={})
    assert localized_catalog(catalog, "de") is catalog
    english = localized_catalog(catalog, "en").profiles["oger"]
    profile = grundregeln.profile_from_stats(
        slug="oger", name="Oger", factions=("a",), stats=english.stats
    )
    assert profile.abilities[0].name == "Zäh"  # the rulebook's term stays German
    assert profile.abilities[0].text == "Gets back up."


def test_the_admin_line_formats_carry_the_english_version() -> None:
    assert with_english("Springt.", "Jumps.") == "Springt. | Jumps."
    assert split_english("Springt. | Jumps.") == ("Springt.", "Jumps.")
    assert split_english("Springt.") == ("Springt.", "")
    abilities = (deathmatch.Ability("Zäh", "Steht wieder auf.", "Gets back up."),)
    text = deathmatch.format_abilities(abilities)
    assert text == "Zäh: Steht wieder auf. | Gets back up."
    assert deathmatch.parse_abilities(text) == abilities
    action = deathmatch.SpecialAction("Sprung", 1, "Springt.", "Jumps.")
    assert deathmatch.parse_special_action(deathmatch.format_special_action(action)) == action
    spec = next(s for s in grundregeln.PROFILE_FIELDS if s.name == "abilities")
    stats = [{"name": "Zäh", "text": "Steht wieder auf.", "text_en": "Gets back up."}]
    assert grundregeln.parse_field(spec, grundregeln.format_field(spec, stats)) == stats
