"""What goes on Universalis's printed unit cards, front and back (no database, no HTML)."""

from __future__ import annotations

from dataclasses import replace

from apps.systems.core.cards import Card
from apps.systems.core.rosters import CatalogData, CatalogEntry, EntryInput, RosterInput
from apps.systems.universalis.cards import (
    BACK,
    FRONT,
    BackFace,
    FrontFace,
    RuleLine,
    UniversalisCardLayouts,
    back_face,
)
from apps.systems.universalis.catalog_stats import card_stats, power_stats
from tests.systems.universalis.helpers import fixture_cards

LAYOUTS = UniversalisCardLayouts()
CARDS, POWERS = fixture_cards()


def catalog() -> CatalogData:
    return CatalogData(
        factions={"eisenwacht": "Eisenwacht", "nebelzirkel": "Nebelzirkel"},
        profiles={
            slug: CatalogEntry(slug, c.name, card_stats(c), sample=True, factions=c.factions)
            for slug, c in CARDS.items()
        },
        items={
            slug: CatalogEntry(slug, p.name, power_stats(p), sample=True, kind="power")
            for slug, p in POWERS.items()
        },
    )


def group() -> RosterInput:
    return RosterInput(
        faction="eisenwacht",
        settings={"points_limit": 300},
        entries=(
            EntryInput("eisenwacht-hauptfrau-vela-korr"),
            EntryInput("eisenwacht-drohnenfuehrer", name="Mira"),
            EntryInput("eisenwacht-spaeherdrohne", attach_to=1),
            EntryInput("eisenwacht-wachsoldat", count=2),
        ),
    )


def test_every_model_gets_a_front_and_a_back_card() -> None:
    printed = LAYOUTS.roster_print(group(), catalog())
    assert [(c.template, c.name) for c in printed.cards] == [
        (FRONT, "Hauptfrau Vela Korr"),
        (BACK, "Hauptfrau Vela Korr"),
        (FRONT, "Mira"),
        (BACK, "Mira"),
        (FRONT, "Späherdrohne"),
        (BACK, "Späherdrohne"),
        (FRONT, "Wachsoldat 1"),
        (BACK, "Wachsoldat 1"),
        (FRONT, "Wachsoldat 2"),
        (BACK, "Wachsoldat 2"),
    ]


def test_the_front_shows_values_derived_values_and_assignments() -> None:
    printed = LAYOUTS.roster_print(group(), catalog())
    leader = printed.cards[0].face
    assert isinstance(leader, FrontFace)
    assert leader.hp == "○" * 8 + "◍" * 3
    assert leader.card.perception_cm == 25 and leader.card.danger_zone_cm == 5
    assert leader.card.group_leader and leader.card.sample
    operator, drone = printed.cards[2].face, printed.cards[4].face
    assert isinstance(operator, FrontFace) and isinstance(drone, FrontFace)
    assert operator.telematons == ("Späherdrohne",) and operator.profile_name == "Drohnenführer"
    assert drone.operator == "Mira"
    assert operator.card.overload == 1


def test_a_colossus_card_has_its_zone_track() -> None:
    roster = RosterInput("eisenwacht", {}, (EntryInput("eisenwacht-belagerungskoloss"),))
    face = LAYOUTS.roster_print(roster, catalog()).cards[0].face
    assert isinstance(face, FrontFace)
    assert [track for _label, track in face.zones] == ["○" * 6 + "◍" * 2] * 3
    roster = RosterInput("nebelzirkel", {}, (EntryInput("nebelzirkel-steinkoloss"),))
    face = LAYOUTS.roster_print(roster, catalog()).cards[0].face
    assert isinstance(face, FrontFace)
    assert [track for _label, track in face.zones] == ["○" * 5 + "◍" * 3] * 3  # ⅔ of 8+4


def test_the_back_carries_the_rules_and_the_chosen_powers() -> None:
    roster = RosterInput(
        "nebelzirkel",
        {},
        (EntryInput("nebelzirkel-zirkelmeisterin-ysra", items=("nebelmagie-geisterhand",)),),
    )
    back = LAYOUTS.roster_print(roster, catalog()).cards[1].face
    assert isinstance(back, BackFace)
    assert [p.name for p in back.powers] == ["Geisterhand"]
    assert back.powers[0].detail == "Nebelmagie · 2 AP · KO"
    assert back.powers[0].hp_loss == "−1 TP ✗"
    leader_back = LAYOUTS.roster_print(group(), catalog()).cards[1].face
    assert isinstance(leader_back, BackFace)
    assert [r.name for r in leader_back.rules] == ["Medizinisches Spray", "Befehlsgewalt I"]


def test_the_sheet_totals_points_and_lists_issues() -> None:
    sheet = LAYOUTS.roster_print(group(), catalog()).sheet
    assert sheet.points == 60 + 35 + 20 + 2 * 30  # type: ignore[attr-defined]
    assert sheet.legal  # type: ignore[attr-defined]


def test_a_full_back_splits_its_rules_in_two_cards() -> None:
    back = back_face(CARDS["eisenwacht-hauptfrau-vela-korr"], name="Vela")
    card = Card(BACK, "Vela", back)
    first, second = LAYOUTS.split(card) or (None, None)
    assert first is not None and second is not None
    assert first.face.continues and second.face.continuation  # type: ignore[attr-defined]
    assert second.part == 2


def test_a_single_long_rule_is_cut_at_a_word() -> None:
    face = replace(
        back_face(CARDS["eisenwacht-wachsoldat"], name="W"),
        rules=(RuleLine("Regel", "eins zwei drei vier"),),
        powers=(),
    )
    halves = LAYOUTS.split(Card(BACK, "W", face))
    assert halves is not None
    assert [r.text for h in halves for r in h.face.rules] == ["eins zwei", "drei vier"]  # type: ignore[attr-defined]


def test_fronts_do_not_split_and_blank_cards_exist() -> None:
    front = LAYOUTS.roster_print(group(), catalog()).cards[0]
    assert LAYOUTS.split(front) is None
    assert [c.template for c in LAYOUTS.blank_cards()] == ["blank_front", "blank_back"]
