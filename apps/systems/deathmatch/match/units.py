"""The models on the table: a team's fighters as their cards and equipment make them, and the
units the rulebook defines itself (A-18 drone, automated defence system, Onslaught's energy core).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from apps.systems.deathmatch.catalog import (
    KAMPFMESSER,
    MAX_BONUS_CARDS,
    Ability,
    EquipmentCard,
    FighterProfile,
    Movement,
    Rank,
    Weapon,
    WeaponKind,
)
from apps.systems.deathmatch.match.modes import CORE_LP, CORE_RESISTANCE, CORE_SHIELDS
from apps.systems.deathmatch.match.rules_text import weapon_rules
from apps.systems.deathmatch.match.state import Unit, UnitKind
from apps.systems.deathmatch.match.values import equipment_change

# A weapon named a pistol ("Pistole", "Schwere Pistole", "Nadelpistole") pairs with another.
PISTOL_WORD: Final = "pistol"

# Gadget 3 (rulebook GADGETS UND POWER-UPS): stationary, 360° sight, readiness every start phase.
DEFENCE_SYSTEM: Final = FighterProfile(
    slug="automatisiertes-verteidigungssystem",
    name="Automatisiertes Verteidigungssystem",
    factions=(),
    rank=Rank.TROOPER,
    arp=0,
    command=0,
    reflex=3,
    resistance=7,
    lp=3,
    respawner=False,
    movement=Movement.NORMAL,
    abilities=(Ability("Stationär"), Ability("Rundumsicht")),
    weapons=(
        Weapon(
            name="Minigun",
            kind=WeaponKind.RANGED,
            paired=False,
            range_inches=6,
            combat_value=2,
            bonus_cards=1,
            strength=2,
        ),
    ),
)

# Gadget 9: activated at the start of each round in initiative order.
DRONE: Final = FighterProfile(
    slug="a-18-drohne",
    name="A-18 Drohne",
    factions=(),
    rank=Rank.TROOPER,
    arp=0,
    command=0,
    reflex=9,
    resistance=4,
    lp=3,
    respawner=False,
    movement=Movement.FAST,
    abilities=(Ability("Schnell"), Ability("Flieger"), Ability("Armlos")),
    weapons=(
        Weapon(
            name="Markerpistole",
            kind=WeaponKind.RANGED,
            paired=False,
            range_inches=10,
            combat_value=2,
            bonus_cards=1,
            strength=2,
            special_rules=("Handwaffe", "Link"),
        ),
    ),
)

# Gadget 8: the one shot the Erlöser station grants.
ERLOESER: Final = Weapon(
    name="Erlöser",
    kind=WeaponKind.RANGED,
    paired=False,
    range_inches=12,
    combat_value=2,
    bonus_cards=0,
    strength=5,
    special_rules=('Flächenschaden 3"', "Explosiv", "Schwerfällig"),
)


def core_profile(game_size: int) -> FighterProfile:
    return FighterProfile(
        slug="energiekern",
        name="Energiekern",
        factions=(),
        rank=Rank.TROOPER,
        arp=0,
        command=0,
        reflex=3,
        resistance=CORE_RESISTANCE,
        lp=CORE_LP[game_size],
        respawner=False,
        abilities=(Ability("Stationär"),),
    )


def full_ammo(weapons: tuple[Weapon, ...]) -> tuple[int | None, ...]:
    """The ammunition markers each weapon begins with (None: unlimited)."""
    return tuple(weapon_rules(weapon).ammo for weapon in weapons)


def _is_single_pistol(weapon: Weapon) -> bool:
    return (
        weapon.kind is WeaponKind.RANGED
        and not weapon.paired
        and PISTOL_WORD in weapon.name.casefold()
    )


def paired_weapons(
    own: tuple[Weapon, ...], bought: tuple[Weapon, ...]
) -> tuple[tuple[Weapon, ...], tuple[Weapon, ...]]:
    """A bought pistol pairs with a single pistol the model carries (rulebook l. 145: "ein
    Modell, das z. B. nur eine einzelne Pistole trägt, [kann] eine weitere Pistole kaufen, um so
    den Bonus für paarweise geführte Waffen zu erhalten"): the carried pistol becomes a pair
    (PP) with the pair's boosted hit flip (⬠ +1, at most ⬠⬠), the bought one joins it. Returns
    the model's weapons and the bought weapons left over. **Decision:** the pair keeps the
    carried pistol's values and special rules."""
    weapons = list(own)
    left: list[Weapon] = []
    for weapon in bought:
        single = next((i for i, w in enumerate(weapons) if _is_single_pistol(w)), None)
        if single is None or not _is_single_pistol(weapon):
            left.append(weapon)
            continue
        carried = weapons[single]
        weapons[single] = replace(
            carried, paired=True, bonus_cards=min(MAX_BONUS_CARDS, carried.bonus_cards + 1)
        )
    return tuple(weapons), tuple(left)


def fighter_unit(
    unit_id: int,
    player: int,
    profile: FighterProfile,
    items: tuple[EquipmentCard, ...],
    name: str = "",
) -> Unit:
    """A team fighter: its card's weapons (a single pistol paired by a bought second one),
    then its weapon cards', then the Kampfmesser if none of them is a melee weapon. Its LP are
    the card's as its equipment changes them (SPEC §6)."""
    own, bought = paired_weapons(
        profile.weapons, tuple(item.weapon for item in items if item.weapon is not None)
    )
    weapons = own + bought
    if not any(weapon.kind is WeaponKind.MELEE for weapon in weapons):
        weapons = (*weapons, KAMPFMESSER)
    lp = max(1, profile.lp + equipment_change(items, "lp"))
    return Unit(
        id=unit_id,
        player=player,
        kind=UnitKind.FIGHTER,
        name=name or profile.name,
        profile=profile,
        items=items,
        weapons=weapons,
        ammo=full_ammo(weapons),
        lp=lp,
        max_lp=lp,
    )


def special_unit(unit_id: int, player: int, kind: UnitKind, profile: FighterProfile) -> Unit:
    """A drone, defence system or core: no Kampfmesser (armless or a turret), no respawner."""
    return Unit(
        id=unit_id,
        player=player,
        kind=kind,
        name=profile.name,
        profile=profile,
        items=(),
        weapons=profile.weapons,
        ammo=full_ammo(profile.weapons),
        lp=profile.lp,
        max_lp=profile.lp,
        shields=CORE_SHIELDS if kind is UnitKind.CORE else 0,
    )


def unit_weapons(unit: Unit) -> tuple[Weapon, ...]:
    """The weapons a unit can use now: the Erlöser's shot comes last while it holds one."""
    return (*unit.weapons, ERLOESER) if unit.erloeser else unit.weapons
