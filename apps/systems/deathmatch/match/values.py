"""A model's profile values as they stand in the match (SPEC §6 "Equipment that changes a
profile value applies"): its card's values, changed by what its equipment cards say (read by
``rules_text.profile_changes``) and by the standing modifiers a correction entered
(``Unit.modifiers``). Markers, respawn shock and the situation of an attack come on top
(``combat``)."""

from __future__ import annotations

from collections.abc import Iterable

from apps.systems.deathmatch.catalog import EquipmentCard, Weapon, WeaponKind
from apps.systems.deathmatch.match.rules_text import ProfileChange, profile_changes
from apps.systems.deathmatch.match.state import Unit

# What an attack is, for the changes that count only against one kind ("" for neither: a fall,
# fire, the value the tracker shows).
RANGED, MELEE = "ranged", "melee"


def equipment_change(items: Iterable[EquipmentCard], value: str, *, against: str = "") -> int:
    """What the cards change ``value`` by; a change "against ranged attacks" counts only
    ``against`` such attacks."""
    return sum(
        change.amount
        for card in items
        for change in profile_changes(card)
        if change.value == value and change.against in ("", against)
    )


def change(unit: Unit, value: str, *, against: str = "") -> int:
    """Equipment and standing modifiers together."""
    return equipment_change(unit.items, value, against=against) + unit.modifiers.get(value)


def attack_change(unit: Unit, weapon: Weapon) -> int:
    """What FK (a ranged weapon) or NK (a melee weapon) is changed by."""
    return change(unit, RANGED if weapon.kind is WeaponKind.RANGED else MELEE)


def move_inches(unit: Unit) -> int:
    return max(0, unit.profile.move_inches + change(unit, "move"))


def conditional_changes(unit: Unit) -> tuple[tuple[str, ProfileChange], ...]:
    """The changes that count only against one kind of attack, with the card that makes each:
    the tracker names them beside the values it shows."""
    return tuple(
        (card.name, found)
        for card in unit.items
        for found in profile_changes(card)
        if found.against
    )
