"""Values the rules read off a model as it stands: attributes through its operator, the critical
and colossus modifiers, costs, ranges and sizes (SPEC §3). Pure functions of the state."""

from __future__ import annotations

import math

from apps.systems.core.errors import RuleViolation
from apps.systems.universalis.catalog import (
    OPERATOR_ATTRIBUTES,
    SIZE_ORDER,
    Attribute,
    Movement,
    Size,
    Weapon,
)
from apps.systems.universalis.match.state import MatchState, Unit, ZoneName

SIZE_MODIFIER = {Size.SMALL: -1, Size.MEDIUM: 0, Size.LARGE: 1, Size.HUGE: 2}
COVER_MODIFIER = {"none": 0, "soft": -1, "hard": -2, "massive": -3}
COVER_ARMOUR = {"none": 0, "soft": 0, "hard": 1, "massive": 2}
COVERS = tuple(COVER_MODIFIER)
FAST_MOVE_CM = 20


def critical_modifier(unit: Unit) -> int:
    """Attribute and comparative rolls of a model in the critical state are 2 harder (11.3)."""
    return -2 if unit.critical else 0


def destroyed_sides(unit: Unit) -> int:
    return sum(1 for z in unit.zones if z.name in (ZoneName.LEFT, ZoneName.RIGHT) and z.destroyed)


def critical_sides(unit: Unit) -> int:
    return sum(
        1
        for z in unit.zones
        if z.name in (ZoneName.LEFT, ZoneName.RIGHT) and z.critical and not z.destroyed
    )


def attribute(state: MatchState, unit: Unit, name: Attribute | str) -> int:
    """The attribute a roll uses: a telematon's AGI, NK, FK and EH are its operator's (19.5);
    AGI carries the overload, a colossus loses 1 AGI and NK per destroyed side (18.3.2)."""
    key = Attribute(name).value
    source = unit
    if unit.telematon and key in OPERATOR_ATTRIBUTES and unit.operator is not None:
        source = state.units[unit.operator]
    card = source.card
    value = card.effective_agi if key == "agi" else getattr(card, key)
    value = 0 if value is None else int(value)
    if key in ("agi", "nk"):
        value -= destroyed_sides(source)
    return value


def speed(unit: Unit) -> int:
    cm = unit.card.effective_speed
    return math.ceil(cm / 2) if unit.critical else cm


def max_move(unit: Unit) -> int:
    """The most one move action takes the model: its speed (overload and critical state
    included, 8.3), 2 cm more on wheels, which the app allows everywhere as it cannot see
    whether the model is on a road (8.1)."""
    return speed(unit) + (2 if unit.card.movement is Movement.WHEELS else 0)


def perception(unit: Unit) -> int:
    cm = unit.card.perception_cm
    return math.ceil(cm / 2) if unit.critical else cm


def size(unit: Unit) -> Size:
    """Prone models count one size smaller; small ones stay small (8.10)."""
    if not unit.prone or unit.card.size is Size.SMALL:
        return unit.card.size
    return SIZE_ORDER[SIZE_ORDER.index(unit.card.size) - 1]


def size_steps(a: Unit, b: Unit) -> int:
    return SIZE_ORDER.index(size(a)) - SIZE_ORDER.index(size(b))


def weapon(unit: Unit, index: int) -> Weapon:
    """The weapon ``index`` of the unit's card; -1 is unarmed melee (15.9)."""
    if index == -1:
        if unit.telematon:
            raise RuleViolation("no_weapon", f"{unit.name}, a telematon, cannot fight unarmed.")
        return unit.card.unarmed
    if not 0 <= index < len(unit.card.weapons):
        raise RuleViolation("unknown_weapon", f"{unit.name} has no weapon number {index}.")
    return unit.card.weapons[index]


def weapon_cost(unit: Unit, weapon_: Weapon, extra: int = 0) -> int:
    """WK + ``extra`` AP; a colossus pays 1 AP less with a WK IV or V weapon (18.1)."""
    cost = weapon_.wk + extra
    if unit.card.colossus and weapon_.wk >= 4:
        cost -= 1
    return max(cost, 0)


def usable(unit: Unit, index: int) -> str:
    """Why weapon ``index`` cannot be used now ("" if it can)."""
    if index == -1:
        return ""
    weapon_ = weapon(unit, index)
    if index in unit.reload:
        return "reload"
    if index < len(unit.weapon_uses) and unit.weapon_uses[index] == 0:
        return "used_up"
    side = {"left": ZoneName.LEFT, "right": ZoneName.RIGHT}.get(weapon_.mount)
    if side is not None and any(z.name is side and z.destroyed for z in unit.zones):
        return "side_destroyed"
    return ""


def band_penalty(weapon_: Weapon, ko: int, distance: int, *, aimed: bool) -> int | None:
    """−1 per fully used range band (14.7); None when out of range. Aimed shots double the
    band length."""
    length, count = weapon_.bands(ko)
    if aimed:
        length *= 2
    if length <= 0 or distance > length * count:
        return None
    return max(0, math.ceil(distance / length) - 1)


def has_ap(state: MatchState, unit: Unit, cost: int) -> bool:
    """Can the unit pay ``cost`` AP, a telematon with its operator's AP too (19.4)?"""
    extra = 0
    if unit.telematon and unit.operator is not None:
        operator = state.units[unit.operator]
        extra = operator.ap if operator.in_play else 0
    return unit.ap + extra >= cost


def reaction_refusal(unit: Unit) -> str:
    """Why a model cannot react ("" if it can): panic and burning forbid reactions."""
    if not unit.in_play:
        return "out"
    if unit.panic:
        return "panic"
    if unit.burning is not None:
        return "burning"
    return ""
