"""The values a roll is made against: the FK of a shot, the NK of both sides of a melee, the
wound and armour of a hit, the attribute of a test, each with every modifier the rules give.

``decide`` rolls against these values and the tracker's odds preview computes its chances from
them, so what a button promises is what the roll then has (SPEC §3). Pure functions of the state.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from apps.systems.universalis.catalog import Attribute, Effect, Power, Size, Weapon
from apps.systems.universalis.match import rules
from apps.systems.universalis.match.odds import NEVER, Rerolls
from apps.systems.universalis.match.state import MatchState, Unit

NO_REROLLS = Rerolls()
SHOT_EXTRA = {"normal": 1, "aimed": 2, "snap": 0, "reaction": 0}
SHOT_MODIFIER = {"normal": 0, "aimed": 2, "snap": -2, "reaction": -1}


def attribute_value(
    state: MatchState, unit: Unit, attribute: Attribute | str, modifier: int = 0
) -> int:
    """An attribute test: the attribute (a telematon's through its operator), the critical
    malus and ``modifier``."""
    return rules.attribute(state, unit, attribute) + rules.critical_modifier(unit) + modifier


def panic_modifier(
    *,
    just_eliminated: bool,
    other_eliminated: int = 0,
    enemies: int = 0,
    friends: int = 0,
    friends_in_contact: int = 0,
) -> int:
    """The panic test's modifier (11.4): −3 for the friend just eliminated, −2 per other
    eliminated friend, −1 per enemy, +1 per friend, +3 per friend in base contact."""
    return (
        (-3 if just_eliminated else 0)
        - 2 * other_eliminated
        - enemies
        + friends
        + 3 * friends_in_contact
    )


def shot_base(
    state: MatchState, shooter: Unit, mode: str, *, indirect: bool, friend_sees: bool
) -> int:
    """The shooter's FK with what every target of the shot shares: critical state and
    colossus sides, the kind of shot, lying prone (+2), indirect fire (−5, −3 if a friend sees
    the point) (14.5-14.11)."""
    value = (
        rules.attribute(state, shooter, "fk")
        + rules.critical_modifier(shooter)
        - rules.critical_sides(shooter)
        + SHOT_MODIFIER[mode]
        + (2 if shooter.prone else 0)
    )
    if indirect:
        value += -3 if friend_sees else -5
    return value


def shot_value(
    base: int,
    weapon: Weapon,
    target: Unit | None,
    *,
    cover: str,
    indirect: bool,
    penalty: int,
    number: int,
    count: int,
) -> int:
    """The FK a shot at one target is rolled against (before a dodge): ``base`` (``shot_base``),
    −1 per fully used range band (``penalty``), −1 per target switch before it (``number``), +1
    per extra shot on it (sustained fire, ``count``), the target's size, cover (not with
    indirect fire), −3 for an unwieldy weapon against a small or medium target, −2 against a
    fast-moving target (14.7-14.12)."""
    value = base - penalty - number + (count - 1)
    if target is None:
        return value
    target_size = rules.size(target)
    value += rules.SIZE_MODIFIER[target_size]
    if not indirect:
        value += rules.COVER_MODIFIER[cover]
    if weapon.unwieldy and target_size in (Size.SMALL, Size.MEDIUM):
        value -= 3
    if target.fast:
        value -= 2
    return value


def dodge_values(state: MatchState, target: Unit, shooter: Unit) -> tuple[int, int]:
    """Beschuss Ausweichen: the target's AGI against the shooter's (8.4)."""
    return attribute_value(state, target, "agi"), attribute_value(state, shooter, "agi")


def melee_value(state: MatchState, unit: Unit, other: Unit, friends: int, *, zero: bool) -> int:
    """NK with the modifiers both sides share: +2 per other friend touching the enemy, +2 per
    size step larger, −3 with an unwieldy weapon or equipment, the critical and colossus-side
    maluses (15.7). ``zero``: it fights with NK 0 (a lost reckless attack countered, or a
    disengaging model attacked)."""
    nk = 0 if zero else rules.attribute(state, unit, "nk")
    value = nk + 2 * friends + 2 * max(0, rules.size_steps(unit, other))
    if unit.card.unwieldy:
        value -= 3
    return value + rules.critical_modifier(unit) - rules.critical_sides(unit)


def melee_values(
    state: MatchState,
    attacker: Unit,
    defender: Unit,
    *,
    friends: int,
    enemy_friends: int,
    charge: bool = False,
    reckless: bool = False,
    attacker_zero: bool = False,
    defender_zero: bool = False,
) -> tuple[int, int]:
    """The comparative NK roll of a melee attack: the attacker's value with reckless (+3) and
    charge (+2 unless the defender is in defence); both with camouflage's bonus
    (``camouflage_bonus``) (15.2-15.7)."""
    value_a = (
        melee_value(state, attacker, defender, friends, zero=attacker_zero)
        + camouflage_bonus(state, attacker)
        + (3 if reckless else 0)
        + (2 if charge and not defender.defence else 0)
    )
    value_d = melee_value(
        state, defender, attacker, enemy_friends, zero=defender_zero
    ) + camouflage_bonus(state, defender)
    return value_a, value_d


def camouflage_bonus(state: MatchState, unit: Unit) -> int:
    """A camouflaged model that attacks gets +2 on its NK roll for the first round of the
    fight (15.7.3, l. 1439), +1 more with active camouflage (16.2.1, l. 1501): from hiding, and
    on every NK roll of the rest of the round it attacked in (``Unit.ambush_round``)."""
    camouflage = unit.card.camouflage
    if camouflage is None:
        return 0
    if unit.camouflaged or (unit.ambush_round and unit.ambush_round == state.round):
        return 3 if camouflage.active else 2
    return 0


def melee_tie_values(state: MatchState, attacker: Unit, defender: Unit) -> tuple[int, int]:
    """A melee tie is decided by comparative AGI rolls (15.2)."""
    return attribute_value(state, attacker, "agi"), attribute_value(state, defender, "agi")


def reveal_value(
    state: MatchState, unit: Unit, target: Unit, *, extra: int, supporters: int
) -> int:
    """Aufklären: WN, harder by the camouflage level, +1 per extra AP and per supporter
    (16.4-16.5)."""
    level = target.card.camouflage.level if target.card.camouflage is not None else 0
    return attribute_value(state, unit, "wn") - level + extra + supporters


def power_value(state: MatchState, unit: Unit, power: Power) -> int:
    """A power's (or a block's) roll: the power's attribute and difficulty (20.2)."""
    return attribute_value(state, unit, power.attribute, power.difficulty)


def active_effects(weapon_effects: tuple[Effect, ...], victim: Unit) -> frozenset[Effect]:
    """A weapon's effects the victim's armour does not cancel (10.3)."""
    armour = victim.card.armour
    cancelled = set(armour.effects) if armour else set()
    return frozenset(e for e in weapon_effects if e not in cancelled)


def protection(victim: Unit, effects: frozenset[Effect]) -> int:
    """The armour roll's value: the armour's protection (halved, rounded up, against
    Panzerbrechend), or KO if it has none or KO is higher (10.4)."""
    armour = victim.card.armour
    if armour is None:
        return victim.card.ko
    value = armour.protection_for(victim.card.ko)
    if Effect.PANZERBRECHEND in effects:
        value = math.ceil(value / 2)
    return max(value, victim.card.ko)


@dataclass(frozen=True)
class WoundValues:
    """What a wound against armour roll is made with: both values, the rerolls the effects
    allow, and the weapon's effects the armour does not cancel."""

    wound: int
    armour: int
    rerolls: Rerolls
    effects: frozenset[Effect]


def wound_values(
    attacker: Unit | None,
    victim: Unit,
    weapon: Weapon,
    *,
    extra: int = 0,
    cover: str = "none",
    chosen: Rerolls = NO_REROLLS,
) -> WoundValues:
    """Strength (doubled by Explosiv, +1 per extra shot) against protection with the armour
    bonus of the cover the victim touches and active camouflage's +1 (not against
    Schrapnell); both with their critical malus (10.4). The rerolls are those the effects allow
    as their owners ``chosen`` (10.3)."""
    effects = active_effects(weapon.effects, victim)
    ko = attacker.card.ko if attacker is not None else 0
    strength = weapon.strength_for(ko) * (2 if Effect.EXPLOSIV in effects else 1) + extra
    armour_value = protection(victim, effects)
    if Effect.SCHRAPNELL not in effects:
        armour_value += rules.COVER_ARMOUR[cover]
        camouflage = victim.card.camouflage
        if camouflage is not None and camouflage.active and not victim.camouflaged:
            armour_value += 1
    armour_effects = victim.card.armour.effects if victim.card.armour else ()
    return WoundValues(
        wound=strength + (rules.critical_modifier(attacker) if attacker else 0),
        armour=armour_value + rules.critical_modifier(victim),
        rerolls=Rerolls(
            erschuetterung=chosen.erschuetterung if Effect.ERSCHUETTERUNG in effects else NEVER,
            adaptiv=chosen.adaptiv if Effect.ADAPTIV in armour_effects else NEVER,
            robust=chosen.robust if Effect.ROBUST in armour_effects else NEVER,
        ),
        effects=effects,
    )
