"""What goes on the Grundregeln printed cards (no database, no PDF)."""

from __future__ import annotations

from dataclasses import replace

from apps.systems.core.cards import Card
from apps.systems.core.rosters import CatalogData, CatalogEntry, EntryInput, RosterInput
from apps.systems.grundregeln.cards import AbilityLine, GrundregelnCardLayouts, ProfileFace

LAYOUTS = GrundregelnCardLayouts()
STATS = {
    "size": "L",
    "move": 5,
    "morale": 3,
    "morale_dice": 3,
    "lp": 7,
    "defence_dice": 2,
    "points": 45,
    "weapons": [{"name": "Keule", "kind": "melee", "attack_dice": 4}],
    "abilities": [{"name": "Zäh", "text": "Steht wieder auf."}],
    "reroll_ones": ["morale"],
}
CATALOG = CatalogData(
    factions={"a": "Eisenfaust"},
    profiles={"oger": CatalogEntry("oger", "Oger", STATS, factions=("a",), sample=True)},
    items={
        "schild": CatalogEntry("schild", "Schild", {"defence_dice": 1}, kind="armour", cost=5),
        "armbrust": CatalogEntry(
            "armbrust",
            "Armbrust",
            {
                "weapon": {
                    "name": "Armbrust",
                    "kind": "ranged",
                    "attack_dice": 2,
                    "range_inches": 18,
                    "reload": "slow",
                }
            },
            kind="weapon",
            cost=8,
        ),
        "seil": CatalogEntry("seil", "Seil", {"text": "lang"}, kind="gear", cost=2),
    },
)


def printed(*entries: EntryInput):  # noqa: ANN201
    roster = RosterInput(faction="a", settings={"points_limit": 100}, entries=entries)
    return LAYOUTS.roster_print(roster, CATALOG)


def test_each_model_gets_a_profile_card_with_its_items_joined() -> None:
    result = printed(EntryInput("oger", ("schild", "armbrust", "seil"), name="Grimm", count=2))
    assert [card.name for card in result.cards] == ["Grimm 1", "Grimm 2"]
    face = result.cards[0].face
    assert isinstance(face, ProfileFace)
    assert face.defence_dice == 3 and face.points == 45 + 5 + 8 + 2
    assert [w.name for w in face.weapons] == ["Keule", "Armbrust"]
    assert face.weapons[1].reload == "Langsames Nachladen" and face.items == ("Seil",)
    assert face.lp_boxes == "☐" * 7 and face.sample and face.faction == "Eisenfaust"


def test_the_sheet_has_the_totals_and_the_problems() -> None:
    sheet = printed(EntryInput("oger", count=3), EntryInput("gone")).sheet
    assert sheet.points == 135 and sheet.points_limit == 100 and sheet.models == 4
    assert {issue.code for issue in sheet.issues} == {"points_over", "unknown_profile"}
    assert [line.known for line in sheet.lines] == [True, False]


def test_a_blank_profile_card() -> None:
    (card,) = LAYOUTS.blank_cards()
    assert card.template == "blank_profile"


def test_a_card_too_full_splits_its_abilities() -> None:
    face = printed(EntryInput("oger")).cards[0].face
    assert isinstance(face, ProfileFace)
    long = replace(face, abilities=(AbilityLine("Zäh", "sehr " * 40 + "lang"),))
    parts = LAYOUTS.split(Card("profile", "Oger", long))
    assert parts is not None
    head, tail = parts
    assert head.face.continues and tail.face.continuation and tail.part == 2
    assert tail.face.abilities[0].continued
    single_word = replace(face, abilities=(AbilityLine("Zäh", "x" * 300),))
    assert LAYOUTS.split(Card("profile", "Oger", single_word)) is None
