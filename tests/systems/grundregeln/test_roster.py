"""The Grundregeln team rules: one named test per stable issue code, and the totals."""

from __future__ import annotations

import pytest

from apps.systems.core.errors import RuleViolation
from apps.systems.core.rosters import CatalogData, CatalogEntry, EntryInput, RosterInput
from apps.systems.grundregeln.system import GrundregelnRosterRules

RULES = GrundregelnRosterRules()


def stats(points: int, npc: bool = False) -> dict[str, object]:
    return {
        "size": "M",
        "move": 4,
        "morale": 2,
        "morale_dice": 2,
        "lp": 3,
        "defence_dice": 1,
        "points": points,
        "npc": npc,
    }


CATALOG = CatalogData(
    factions={"a": "A", "b": "B", "npc": "NPC"},
    profiles={
        "krieger": CatalogEntry("krieger", "Krieger", stats(20), factions=("a",)),
        "hauptmann": CatalogEntry("hauptmann", "Hauptmann", stats(40), factions=("a",)),
        "fremder": CatalogEntry("fremder", "Fremder", stats(10), factions=("b",)),
        "hund": CatalogEntry("hund", "Hund", stats(0, npc=True), factions=("npc",)),
        "kaputt": CatalogEntry("kaputt", "Kaputt", {"size": "?"}, factions=("a",)),
    },
    items={
        "schild": CatalogEntry("schild", "Schild", {"defence_dice": 1}, kind="armour", cost=5),
        "kette": CatalogEntry("kette", "Kette", {"defence_dice": 2}, kind="armour", cost=10),
        "seil": CatalogEntry("seil", "Seil", {"text": "lang"}, kind="gear", cost=2),
    },
)


def report(*entries: EntryInput, faction: str = "a", limit: int | None = 100):  # noqa: ANN201
    settings = {} if limit is None else {"points_limit": limit}
    return RULES.report(RosterInput(faction=faction, settings=settings, entries=entries), CATALOG)


def codes(*entries: EntryInput, **kwargs: object) -> list[str]:
    return [issue.code for issue in report(*entries, **kwargs).issues]  # type: ignore[arg-type]


def test_a_legal_team_and_its_totals() -> None:
    result = report(EntryInput("hauptmann", ("schild", "seil")), EntryInput("krieger", count=2))
    assert result.valid
    assert result.totals == {
        "points": 40 + 5 + 2 + 40,
        "points_limit": 100,
        "points_left": 13,
        "models": 3,
    }


def test_points_over() -> None:
    assert codes(EntryInput("hauptmann", count=3)) == ["points_over"]


def test_no_points_limit_means_no_points_over() -> None:
    assert codes(EntryInput("hauptmann", count=3), limit=None) == []


def test_no_models() -> None:
    assert codes() == ["no_models"]


def test_faction_mismatch() -> None:
    assert codes(EntryInput("fremder")) == ["faction_mismatch"]


def test_npc_profile() -> None:
    assert codes(EntryInput("hund")) == ["npc_profile"]


def test_armour_twice() -> None:
    assert codes(EntryInput("krieger", ("schild", "kette"))) == ["armour_twice"]


def test_item_twice() -> None:
    assert codes(EntryInput("krieger", ("seil", "seil"))) == ["item_twice"]


def test_unknown_profile_and_a_card_that_no_longer_fits_the_schema() -> None:
    assert codes(EntryInput("gibtsnicht"), EntryInput("kaputt")) == [
        "unknown_profile",
        "unknown_profile",
    ]


def test_unknown_item() -> None:
    assert codes(EntryInput("krieger", ("zauberstab",))) == ["unknown_item"]


def test_unknown_faction() -> None:
    assert "unknown_faction" in codes(EntryInput("krieger"), faction="c")


def test_count_invalid() -> None:
    assert codes(EntryInput("krieger", count=0)) == ["count_invalid"]


def test_settings_are_normalised() -> None:
    assert RULES.normalise_settings({"points_limit": 150}) == {"points_limit": 150}
    assert RULES.normalise_settings({"points_limit": None}) == {}
    for bad in ({"points_limit": 0}, {"points_limit": True}, {"game_size": 5}):
        with pytest.raises(RuleViolation):
            RULES.normalise_settings(bad)


def test_the_builder_offers_the_factions_profiles_with_the_reason_one_does_not_fit() -> None:
    roster = RosterInput(
        faction="a", settings={"points_limit": 50}, entries=(EntryInput("krieger"),)
    )
    view = RULES.builder(roster, CATALOG)
    options = {o.slug: o for o in view.panel.options}
    assert set(options) == {"krieger", "hauptmann"}
    assert options["krieger"].allowed and not options["hauptmann"].allowed
    assert (
        options["hauptmann"].reason is not None
        and options["hauptmann"].reason.code == "points_over"
    )
    fighter = view.fighters[0]
    item_options = {o.slug: o.allowed for o in fighter.item_options}
    assert item_options == {"schild": True, "kette": True, "seil": True}
