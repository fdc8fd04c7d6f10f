"""Wound against armour, damage and what follows it: shock, the critical state, a colossus's
hit zones, elimination and its panic tests, telematons losing their operator.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Final

from apps.systems.core.distributions import fraction_text
from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import Args
from apps.systems.universalis.catalog import Effect, Weapon
from apps.systems.universalis.match import rules
from apps.systems.universalis.match.context import SIDES, Ctx, eh_test, roll_data
from apps.systems.universalis.match.engagement import release
from apps.systems.universalis.match.odds import (
    BEHIND,
    BEHIND_OR_TIE,
    NEVER,
    Rerolls,
    next_reroll,
    used,
    wound_odds,
    wound_odds_from,
)
from apps.systems.universalis.match.serial import dump
from apps.systems.universalis.match.state import Burn, PanicDue, Roll, Unit, Zone, ZoneName
from apps.systems.universalis.match.values import NO_REROLLS, WoundValues, wound_values

ZONE_ROLL = {
    **dict.fromkeys(range(1, 7), ZoneName.TORSO),
    7: ZoneName.LEFT,
    8: ZoneName.LEFT,
    9: ZoneName.RIGHT,
    10: ZoneName.RIGHT,
    11: ZoneName.MOVEMENT,
    12: ZoneName.MOVEMENT,
}


def reduced_damage(victim: Unit, damage: int, effects: tuple[Effect, ...]) -> int:
    """Damage reduction, then Strukturverstärkt halves (rounded down) unless the weapon is
    Strukturschädigend (10.3.3, 10.5)."""
    armour = victim.card.armour
    if armour is None:
        return damage
    damage = max(0, damage - armour.reduction)
    if Effect.STRUKTURVERSTAERKT in armour.effects and Effect.STRUKTURSCHAEDIGEND not in effects:
        damage //= 2
    return damage


# A reroll's argument (``erschuetterung``, ``adaptiv``, ``robust``): when its owner uses it.
REROLL_WHEN: Final = {"no": NEVER, "behind": BEHIND, "behind_or_tie": BEHIND_OR_TIE}
REROLL_ARGS: Final = ("erschuetterung", "adaptiv", "robust")


def reroll_args(args: Args) -> Rerolls:
    """The owners' choice of the optional rerolls (10.3: "darf"), as a command says it: each
    "no" (the default: never used unasked), "behind" or "behind_or_tie"."""
    when = {name: args.text(name, "no", choices=tuple(REROLL_WHEN)) for name in REROLL_ARGS}
    return Rerolls(**{name: REROLL_WHEN[value] for name, value in when.items()})


def wound_roll(
    ctx: Ctx,
    attacker: Unit | None,
    victim_id: int,
    weapon_: Weapon,
    *,
    extra: int = 0,
    cover: str = "none",
    partial: bool = False,
    rerolls: Rerolls = NO_REROLLS,
) -> None:
    """The wound against armour roll of a hit and the damage it does (10.4-10.5); ``cover``
    is the cover the victim touches (its armour bonus, 9.3), ``rerolls`` the owners' choice."""
    victim = ctx.unit(victim_id)
    if not victim.in_play:
        return
    zone = _hit_zone(ctx, victim)
    values = wound_values(attacker, victim, weapon_, extra=extra, cover=cover, chosen=rerolls)
    wound, armour, rolls = _wound_rolls(ctx, values, weapon_, victim)
    ctx.emit(
        "wound_rolled",
        unit=victim.id,
        weapon=weapon_.name,
        zone=None if zone is None else zone.value,
        wound=wound,
        armour=armour,
        rolls=[roll_data(r) for r in rolls],
    )
    if wound < armour:
        return
    if wound == armour:
        take_shock(ctx, victim.id, 1, cause="tie")
        return
    damage = math.ceil(weapon_.damage / 2) if partial else weapon_.damage
    damage = reduced_damage(victim, damage, tuple(values.effects))
    if Effect.ZERFETZEN in values.effects and damage > 0 and not _resists_shredding(ctx, victim):
        damage *= 2
    if Effect.TRAUMA in values.effects:
        take_shock(ctx, victim.id, damage, cause="trauma")
        return
    lose_hp(ctx, victim.id, damage, zone, cause="wound")
    ko = attacker.card.ko if attacker is not None else 0
    _lasting_effects(ctx, victim.id, weapon_, values.effects, ko, wound - armour)


def _wound_rolls(
    ctx: Ctx, values: WoundValues, weapon_: Weapon, victim: Unit
) -> tuple[int, int, list[Roll]]:
    """The comparative roll and the rerolls its effects allow: the final wound and armour
    totals and every roll made."""
    rerolls = values.rerolls
    wound_value, armour_value = values.wound, values.armour
    _outcome, roll = ctx.comparative(
        _("Wound against armour: %(weapon)s against %(target)s"),
        wound_value,
        armour_value,
        weapon=weapon_.name,
        target=victim.name,
    )
    # The chances shown are those of the outcome after every reroll, not of these dice alone.
    chance = wound_odds(wound_value, armour_value, rerolls)
    roll = ctx.rolls[-1] = replace(
        roll, odds=fraction_text(chance.damage), tie_odds=fraction_text(chance.shock)
    )
    rolls = [roll]
    wound, armour = roll.totals
    while name := next_reroll(wound, armour, rerolls):
        chance = wound_odds_from(wound, armour, wound_value, armour_value, rerolls)
        rerolls = used(rerolls, name)
        face = ctx.d12()
        if name == "robust":
            wound = wound_value + face
        else:
            armour = armour_value + face
        reroll = Roll(
            label=_("Reroll (%(effect)s)"),
            dice=(face,),
            outcome="win" if wound > armour else "tie" if wound == armour else "loss",
            odds=fraction_text(chance.damage),
            params=(("effect", name),),
            totals=(wound, armour),
            tie_odds=fraction_text(chance.shock),
        )
        ctx.rolls.append(reroll)
        rolls.append(reroll)
    return wound, armour, rolls


def _resists_shredding(ctx: Ctx, victim: Unit) -> bool:
    """Zerfetzen: the victim's KO roll; a failure doubles the damage."""
    passed, _roll = ctx.attribute_roll(
        _("%(unit)s resists Zerfetzen (KO)"),
        victim.card.ko + rules.critical_modifier(victim),
        unit=victim.name,
    )
    return passed


def _lasting_effects(
    ctx: Ctx,
    victim_id: int,
    weapon_: Weapon,
    effects: frozenset[Effect],
    ko: int,
    margin: int,
) -> None:
    """A survivor of a Brand hit catches fire; a Giftig hit leaves half the roll's margin
    (rounded up) in poison markers, with the weapon's profile."""
    victim = ctx.unit(victim_id)
    if not victim.in_play:
        return
    burn = Burn(weapon_.name, weapon_.strength_for(ko), weapon_.damage, weapon_.effects)
    if Effect.BRAND in effects and victim.burning is None:
        ctx.emit("set_on_fire", unit=victim.id, units={victim.id: {"burning": burn}})
    if Effect.GIFTIG in effects:
        markers = math.ceil(margin / 2)
        ctx.emit(
            "poisoned",
            unit=victim.id,
            markers=markers,
            units={victim.id: {"poison": victim.poison + markers, "poison_by": burn}},
        )


def _hit_zone(ctx: Ctx, victim: Unit) -> ZoneName | None:
    """A colossus's hit zone by 1d12; a destroyed zone's hits go to the torso."""
    if not victim.zones:
        return None
    destroyed = {z.name for z in victim.zones if z.destroyed}

    def zone_hit(face: int) -> str:
        zone = ZONE_ROLL[face]
        return (ZoneName.TORSO if zone in destroyed else zone).value

    roll = ctx.banded(_("Hit zone of %(unit)s"), zone_hit, unit=victim.name)
    zone = ZoneName(roll.outcome)
    ctx.emit("zone_rolled", unit=victim.id, zone=zone.value, roll=dump(roll))
    return zone


def take_shock(ctx: Ctx, unit_id: int, count: int, *, cause: str) -> None:
    """Each shock costs 1 AP at once, or becomes a shock token without AP (11.5)."""
    unit = ctx.unit(unit_id)
    if count <= 0 or not unit.in_play:
        return
    from_ap = min(unit.ap, count)
    ctx.emit(
        "shocked",
        unit=unit_id,
        count=count,
        cause=cause,
        units={
            unit_id: {"ap": unit.ap - from_ap, "shock_tokens": unit.shock_tokens + count - from_ap}
        },
    )


def lose_hp(
    ctx: Ctx, unit_id: int, amount: int, zone: ZoneName | None, *, cause: str, shock: bool = True
) -> None:
    """Hit points are lost: at 0 the model is eliminated; a survivor takes 1 shock and, with
    only critical hit points left, falls into the critical state once (later: 1 shock more)
    (10.5, 11.3). A colossus's side and movement zones have their own effects (18.3)."""
    unit = ctx.unit(unit_id)
    if not unit.in_play or amount <= 0:
        return
    if zone is not None and zone is not ZoneName.TORSO:
        _zone_damage(ctx, unit, zone, amount)
        if shock:
            take_shock(ctx, unit_id, 1, cause="survived")
        return
    hp = unit.hp - amount
    ctx.emit("hp_lost", unit=unit_id, amount=amount, cause=cause, units={unit_id: {"hp": hp}})
    if hp <= 0:
        eliminate(ctx, unit_id, cause=cause)
        return
    if shock:
        take_shock(ctx, unit_id, 1, cause="survived")
    if unit.card.hp_critical and hp <= unit.card.hp_critical:
        # The critical state lasts for the rest of the game and comes once; damage that would
        # bring it again costs 1 shock instead (11.3).
        if unit.was_critical:
            take_shock(ctx, unit_id, 1, cause="critical_again")
        else:
            ctx.emit(
                "critical", unit=unit_id, units={unit_id: {"critical": True, "was_critical": True}}
            )


def _zone_damage(ctx: Ctx, unit: Unit, name: ZoneName, amount: int) -> None:
    zones = list(unit.zones)
    index = next(i for i, z in enumerate(zones) if z.name is name)
    zone = zones[index]
    hp = max(0, zone.hp - amount)
    critical = zone.critical or (zone.hp_critical > 0 and hp <= zone.hp_critical)
    zones[index] = Zone(
        name=zone.name,
        hp=hp,
        hp_max=zone.hp_max,
        hp_critical=zone.hp_critical,
        critical=critical and hp > 0,
        destroyed=hp <= 0,
    )
    ctx.emit(
        "zone_damaged",
        unit=unit.id,
        zone=name.value,
        amount=amount,
        destroyed=hp <= 0,
        units={unit.id: {"zones": tuple(zones)}},
    )
    if hp <= 0 and name is ZoneName.MOVEMENT:
        roll = ctx.banded(
            _("%(unit)s: movement destroyed"),
            lambda face: "falls" if face == SIDES else "can_turn" if face <= 6 else "cannot_turn",
            unit=unit.name,
        )
        if roll.outcome == "falls":
            ctx.emit("fell_over", unit=unit.id, roll=dump(roll))
            eliminate(ctx, unit.id, cause="fell_over")
        else:
            immobile = "turn" if roll.outcome == "can_turn" else "fixed"
            ctx.emit(
                "immobilised",
                unit=unit.id,
                immobile=immobile,
                roll=dump(roll),
                units={unit.id: {"immobile": immobile}},
            )


def eliminate(ctx: Ctx, unit_id: int, *, cause: str) -> None:
    """Eliminated (11.2): every friend that perceives it tests for panic; its telematons panic;
    a telematon's elimination feeds back on its operator (19.8)."""
    unit = ctx.unit(unit_id)
    runs = ctx.state.panic_moves_due
    ctx.emit(
        "eliminated",
        unit=unit_id,
        cause=cause,
        units={
            unit_id: {"eliminated": True, "ap": 0, "burning": None, "poison": 0, "panic": False}
        },
        # A panicking model that falls before its round-start run makes none.
        state={"panic_moves_due": tuple(u for u in runs if u != unit_id)},
    )
    # Its melee ends with it (15).
    release(ctx, unit_id)
    friends = [
        u for u in ctx.state.units if u.player == unit.player and u.in_play and u.id != unit_id
    ]
    operator_gone(ctx, unit_id)
    due = tuple(
        PanicDue(unit=u.id, cause=unit_id)
        for u in friends
        if not ctx.unit(u.id).panic and not (u.telematon and u.operator == unit_id)
    )
    if due:
        ctx.emit(
            "panic_tests_due",
            units_due=[d.unit for d in due],
            state={"panic_due": ctx.state.panic_due + due},
        )
    _feedback(ctx, unit)


def _feedback(ctx: Ctx, unit: Unit) -> None:
    """An eliminated telematon's operator makes an EH test or loses half the telematon's KO
    (rounded down) in hit points (19.8)."""
    if unit.telematon and unit.operator is not None and ctx.unit(unit.operator).in_play:
        operator = ctx.unit(unit.operator)
        passed, roll = eh_test(ctx, operator, _("%(unit)s withstands the feedback (EH)"))
        ctx.emit("feedback", unit=operator.id, telematon=unit.id, passed=passed, roll=dump(roll))
        if not passed:
            lose_hp(ctx, operator.id, unit.card.ko // 2, None, cause="feedback", shock=False)


def operator_gone(ctx: Ctx, operator_id: int) -> None:
    """Telematons whose operator was eliminated or left the table panic (19.3)."""
    for telematon in ctx.state.units:
        if (
            telematon.telematon
            and telematon.operator == operator_id
            and telematon.in_play
            and not telematon.panic
        ):
            ctx.emit(
                "panicked",
                unit=telematon.id,
                cause="operator",
                units={telematon.id: {"panic": True}},
            )
