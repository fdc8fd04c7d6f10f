"""Small builders for Deathmatch test catalogues and rosters (no database).

Import the helpers directly (``from tests.systems.deathmatch.conftest import fighter``); the
``catalog`` fixture is the standard test catalogue described in ``standard_catalog``.
"""

from __future__ import annotations

import pytest

from apps.systems.deathmatch.catalog import (
    Ability,
    Catalog,
    EquipmentCard,
    Faction,
    FighterProfile,
    ItemKind,
    Rank,
    Weapon,
    WeaponKind,
)
from apps.systems.deathmatch.roster import Roster, RosterEntry

PISTOL = Weapon(
    name="Pistole",
    kind=WeaponKind.RANGED,
    paired=False,
    range_inches=10,
    combat_value=2,
    bonus_cards=0,
    strength=2,
    special_rules=("Handwaffe",),
)


def fighter(
    slug: str,
    rank: Rank = Rank.TROOPER,
    factions: tuple[str, ...] = ("organon",),
    *,
    arp: int = 2,
    command: int = 0,
    hero: bool = False,
    mech: bool = False,
    name: str = "",
) -> FighterProfile:
    return FighterProfile(
        slug=slug,
        name=name or slug.replace("-", " ").title(),
        factions=factions,
        rank=rank,
        arp=arp,
        command=command,
        reflex=7,
        resistance=4,
        lp=5,
        abilities=(Ability("Mech", "Ignoriert den Respawn-Schock."),) if mech else (),
        weapons=(PISTOL,),
        hero=hero,
    )


def card(
    slug: str,
    kind: ItemKind = ItemKind.GEAR,
    *,
    cost: int = 1,
    limit: int = 1,
) -> EquipmentCard:
    return EquipmentCard(
        slug=slug,
        name=slug.replace("-", " ").title(),
        cost=cost,
        limit_per_model=limit,
        kind=kind,
        weapon=PISTOL if kind is ItemKind.WEAPON else None,
    )


def catalog_of(profiles: list[FighterProfile], items: list[EquipmentCard] | None = None) -> Catalog:
    factions = [Faction("organon", "Organon"), Faction("phalanx", "Phalanx")]
    return Catalog.build(factions, profiles, items or [])


def roster_of(
    *entries: RosterEntry | str, faction: str = "organon", size: int | None = None
) -> Roster:
    """A roster of ``entries`` (a bare string is a profile slug with no items); the game size
    defaults to the number of fighters."""
    built = tuple(RosterEntry(entry) if isinstance(entry, str) else entry for entry in entries)
    if size is None:
        size = sum(entry.count for entry in built)
    return Roster(faction=faction, game_size=size, entries=built)


def standard_catalog() -> Catalog:
    """Organon (the usual team faction) and Phalanx (mercenaries), a two-faction veteran, a
    hero, a Mech and one card of each kind."""
    return catalog_of(
        [
            fighter("org-leader", Rank.LEADER, arp=2, command=3, name="Ilva"),
            fighter("org-trooper", Rank.TROOPER, arp=2, name="Klon"),
            fighter("org-specialist", Rank.SPECIALIST, arp=3, command=1, name="Techniker"),
            fighter("org-hero", Rank.SPECIALIST, arp=2, command=1, hero=True, name="Anzi"),
            fighter("pha-leader", Rank.LEADER, ("phalanx",), arp=3, command=2, name="Brandt"),
            fighter("pha-trooper", Rank.TROOPER, ("phalanx",), arp=1, name="Schildträger"),
            fighter("pha-specialist", Rank.SPECIALIST, ("phalanx",), arp=2, name="Harpunier"),
            fighter("pha-mech", Rank.SPECIALIST, ("phalanx",), arp=1, mech=True, name="Koloss"),
            fighter("org-mech", Rank.TROOPER, arp=1, mech=True, name="Drohne"),
            fighter("veteran", Rank.TROOPER, ("phalanx", "organon"), arp=2, name="Raka"),
        ],
        [
            card("pistole", ItemKind.WEAPON, cost=1),
            card("panzerplatten", ItemKind.ARMOUR_UPGRADE, cost=2),
            card("stims", ItemKind.CHARACTER_UPGRADE, cost=1, limit=2),
            card("medkit", ItemKind.GEAR, cost=1),
            card("respawn-fokus", ItemKind.RESPAWN_FOCUS, cost=0),
            card("extra-fokus", ItemKind.RESPAWN_FOCUS, cost=2),
        ],
    )


@pytest.fixture
def catalog() -> Catalog:
    return standard_catalog()
