"""The arithmetic of attacks (SPEC §1.5): modified Reflex, attack value, hit outcome, criticals,
wound flip modifiers and damage. Pure functions of the units and what the players toggled.
Profile values are taken as equipment and corrections changed them (``values``, SPEC §6).

**Decisions**: a kept 0 fails even when a 9 was revealed beside it ("0 is always a failure");
respawn shock lowers Reflex always and FK/NK only where the card prints them red (SPEC; the
printed card marks Reflex red on every fighter it lowers); a stationary model has Reflex 3
against shots, still lowered by shock markers.
"""

from __future__ import annotations

from dataclasses import dataclass

from apps.systems.core.deck import MAX_MODIFIER, Flip
from apps.systems.deathmatch.catalog import RED_WEAPON_PREFIX, Weapon, WeaponKind
from apps.systems.deathmatch.match import values
from apps.systems.deathmatch.match.rules_text import NamedAbility
from apps.systems.deathmatch.match.state import Outcome, Unit

STATIONARY_REFLEX = 3
COVER_BONUS = 2
HARD_COVER_RESISTANCE = 1
DODGE_BONUS = 2
IN_MELEE_BONUS = 2
REAR_MALUS = -2
ELEVATED_TARGET = 1
ELEVATED_ATTACKER = -1
AIM_MALUS = -1
WARNING_BONUS = 1
OBSTACLE_BONUS = 2
SEVERAL_ENEMIES_MALUS = -1
SHIMMER_BONUS = 3
SHIELD_RESISTANCE = 3
POWER_STRIKE_STRENGTH = 1
PENETRATION_STRENGTH = 2
DISENGAGE_FRIENDS_BONUS = 2
DISENGAGE_NOT_IN_CONTACT_BONUS = 1


@dataclass(frozen=True)
class Situation:
    """What the players judged at the table for one target (the app never measures)."""

    cover: str = "none"  # "none", "cover", "hard"
    target_elevated: bool = False
    attacker_elevated: bool = False
    rear: bool = False
    target_in_melee: bool = False  # ranged only
    # Ranged: the shooter stands in an enemy control zone. Only a Handwaffe fires then, at a
    # target in the same melee, so the target counts as in melee.
    attacker_in_melee: bool = False
    obstacle: bool = False  # melee / disengage
    several_enemies: bool = False  # melee / disengage: the target fights several enemies
    warning: bool = False  # the defender pays 1 CP
    friends_engaged: bool = False  # disengage: the striker also fights the mover's friends
    not_in_contact: bool = False  # disengage: not in base contact

    @property
    def is_plain(self) -> bool:
        """No modifier set: the wizard keeps its modifier toggles folded away."""
        return self == Situation()


@dataclass(frozen=True)
class Modified:
    value: int
    notes: tuple[str, ...]


def _red(unit: Unit, weapon_index: int) -> bool:
    return f"{RED_WEAPON_PREFIX}{weapon_index}" in unit.profile.red_values and weapon_index < len(
        unit.profile.weapons
    )


def attack_value(unit: Unit, weapon_index: int) -> Modified:
    """FK or NK of the weapon as equipment and corrections change it, lowered by shock markers
    and, if printed red, respawn shock."""
    weapon = unit.weapons[weapon_index]
    value, notes = weapon.combat_value, []
    changed = values.attack_change(unit, weapon)
    if changed:
        value += changed
        notes.append(f"profile {changed:+d}")
    if unit.markers.shock:
        value -= unit.markers.shock
        notes.append(f"shock -{unit.markers.shock}")
    if unit.respawn_shock and _red(unit, weapon_index):
        value -= 1
        notes.append("respawn_shock -1")
    return Modified(max(0, value), tuple(notes))


def _base_reflex(target: Unit, *, against: str) -> tuple[int, list[str]]:
    """The target's Reflex before the attack's situation: its card's, changed by equipment and
    corrections (``against`` the kind of attack), Reflex 3 for a stationary model shot at;
    lowered by shock markers and respawn shock."""
    reflex = target.profile.reflex
    notes: list[str] = []
    changed = values.change(target, "reflex", against=against)
    if changed:
        reflex += changed
        notes.append(f"profile {changed:+d}")
    if against == values.RANGED and target.stationary:
        reflex, notes = STATIONARY_REFLEX, ["stationary"]
    if target.markers.shock:
        reflex -= target.markers.shock
        notes.append(f"shock -{target.markers.shock}")
    if target.respawn_shock:
        reflex -= 1
        notes.append("respawn_shock -1")
    return max(0, reflex), notes


def standing_reflex(unit: Unit) -> int:
    """The Reflex the tracker shows: the model's own, without an attack's modifiers (dodges
    included) and without changes that count only against one kind of attack."""
    return _base_reflex(unit, against="")[0]


def _reflex_modifiers(
    attacker: Unit | None, target: Unit, situation: Situation, *, ranged: bool, aimed: bool
) -> tuple[tuple[bool, int, str], ...]:
    """Every Reflex modifier of SPEC §1.5: whether it applies, its amount, its note."""
    steady = attacker is not None and NamedAbility.STEADY_HAND in attacker.abilities
    in_melee = situation.target_in_melee or situation.attacker_in_melee
    return (
        (
            ranged and situation.cover in ("cover", "hard"),
            COVER_BONUS,
            "hard_cover" if situation.cover == "hard" else "cover",
        ),
        (not ranged and situation.obstacle, OBSTACLE_BONUS, "obstacle"),
        (situation.target_elevated, ELEVATED_TARGET, "target_elevated"),
        (situation.attacker_elevated, ELEVATED_ATTACKER, "attacker_elevated"),
        (bool(target.dodges) and not target.stationary, DODGE_BONUS * target.dodges, "dodge"),
        (ranged and in_melee and not steady, IN_MELEE_BONUS, "in_melee"),
        (not ranged and situation.several_enemies, SEVERAL_ENEMIES_MALUS, "several_enemies"),
        (situation.rear, REAR_MALUS, "rear"),
        (ranged and aimed, AIM_MALUS, "aim"),
        (situation.warning, WARNING_BONUS, "warning"),
        (ranged and target.shimmer, SHIMMER_BONUS, "shimmer"),
    )


def target_reflex(
    attacker: Unit | None, target: Unit, situation: Situation, *, ranged: bool, aimed: bool
) -> Modified:
    """The target's Reflex against this attack with every modifier of SPEC §1.5."""
    reflex, notes = _base_reflex(target, against=values.RANGED if ranged else values.MELEE)
    for applies, amount, note in _reflex_modifiers(
        attacker, target, situation, ranged=ranged, aimed=aimed
    ):
        if applies:
            reflex += amount
            notes.append(f"{note} {amount:+d}")
    return Modified(reflex, tuple(notes))


def disengage_reflex(mover: Unit, situation: Situation) -> Modified:
    """The disengaging model's Reflex against a strike: the melee list plus +2 if the striker
    also fights the mover's friends and +1 if not in base contact."""
    base = target_reflex(None, mover, situation, ranged=False, aimed=False)
    reflex, notes = base.value, list(base.notes)
    if situation.friends_engaged:
        reflex += DISENGAGE_FRIENDS_BONUS
        notes.append(f"friends_engaged +{DISENGAGE_FRIENDS_BONUS}")
    if situation.not_in_contact:
        reflex += DISENGAGE_NOT_IN_CONTACT_BONUS
        notes.append(f"not_in_contact +{DISENGAGE_NOT_IN_CONTACT_BONUS}")
    return Modified(reflex, tuple(notes))


def hit_outcome(flip: Flip, attack_value: int, reflex: int) -> Outcome:
    """Greater is a hit, equal a graze/flesh wound, lower a miss; a kept 0 always fails."""
    kept = flip.result
    if kept == 0:
        return Outcome.FAIL
    total = kept + attack_value
    if total > reflex:
        return Outcome.HIT
    return Outcome.GRAZE if total == reflex else Outcome.MISS


def default_critical_choice(outcome: Outcome, nines: int) -> tuple[int, int]:
    """(auto-hits, wound boosts) the attacker most likely wants: one 9 turns a graze or miss
    into a normal hit, every other 9 boosts the wound flip."""
    if outcome is Outcome.FAIL or nines == 0:
        return (0, 0)
    if outcome is Outcome.HIT:
        return (0, nines)
    return (1, nines - 1)


def critical_split(outcome: Outcome, nines: int, wanted: int | None) -> tuple[int, int]:
    """(automatic hits, wound boosts) from a flip's 9s against one target (KRITISCHE
    TREFFER): the attacker picks each 9's effect "je nachdem was er gerade benötigt". ``wanted``
    is the number of 9s spent on automatic hits (at most ``nines``; against a target the flip
    already hits that only declines the boost); ``None`` takes the default choice. A kept 0
    fails: its 9s do nothing."""
    if outcome is Outcome.FAIL or nines <= 0:
        return (0, 0)
    if wanted is None:
        return default_critical_choice(outcome, nines)
    auto = max(0, min(nines, wanted))
    return (auto, nines - auto)


def with_criticals(outcome: Outcome, auto_hits: int) -> Outcome:
    if outcome in (Outcome.GRAZE, Outcome.MISS) and auto_hits > 0:
        return Outcome.HIT
    return outcome


def near_miss_hits_interferer(flip: Flip, attack_value: int, reflex: int) -> bool:
    """A miss that the target's cover from another model alone caused (SPEC: interfering
    models): without that +2 the shot would not have missed. The rulebook's example counts a
    total equal to the Reflex without the +2 (a graze) as such a near miss."""
    kept = flip.result
    return kept != 0 and reflex - COVER_BONUS <= kept + attack_value < reflex


def wound_modifier(
    *,
    outcome: Outcome,
    crit_boosts: int,
    charge: bool,
    power_strike: bool,
    stationary_in_melee: bool,
    target: Unit,
) -> int:
    # Sturmangriff: ⬠ "im Falle eines erfolgreichen Treffers" -- not after a Fleischwunde (SPEC
    # §6). A Wuchtschlag's ⬠ has no such condition.
    charged = charge and outcome is Outcome.HIT
    modifier = crit_boosts + int(charged) + int(power_strike) + int(stationary_in_melee)
    if outcome is Outcome.GRAZE:
        modifier -= 1
    if NamedAbility.TOUGH in target.abilities:
        modifier -= 1
    return max(-MAX_MODIFIER, min(MAX_MODIFIER, modifier))


def strength(weapon: Weapon, *, power_strike: bool, penetration: bool) -> int:
    value = weapon.strength
    if power_strike and weapon.kind is WeaponKind.MELEE:
        value += POWER_STRIKE_STRENGTH
    if penetration:
        value += PENETRATION_STRENGTH
    return value


def resistance(target: Unit, *, hard_cover: bool, core_bonus: int = 0, against: str = "") -> int:
    """Resistance against this hit (``against`` the kind of attack, "" for a fall or fire): as
    equipment and corrections change it, acid lowers it (never below 1), hard cover and an
    energy shield marker raise it, as does each switch the core's owner controls (Onslaught)."""
    value = standing_resistance(target, against=against)
    if hard_cover:
        value += HARD_COVER_RESISTANCE
    if target.shields:
        value += SHIELD_RESISTANCE
    return value + core_bonus


def standing_resistance(unit: Unit, *, against: str = "") -> int:
    """The model's Resistance before the hit's situation (no cover, no shield marker)."""
    changed = values.change(unit, "resistance", against=against)
    return max(1, unit.profile.resistance + changed - unit.markers.acid)


def damage(card: int, strength_value: int, resistance_value: int) -> int:
    return max(0, card + strength_value - resistance_value)
