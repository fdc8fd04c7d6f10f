"""Melee: attacks, reckless attacks and charges (the move, then the attack), counter-attacks,
opportunity attacks and defence (SPEC §3 Melee, §6).
"""

from __future__ import annotations

from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import Args
from apps.systems.universalis.catalog import Movement
from apps.systems.universalis.match import rules
from apps.systems.universalis.match.acting import (
    actor,
    answer_threat,
    blocked,
    can_move,
    flight_first,
    make_move,
    move_cm,
    operator_ap_arg,
    reactor,
    spend,
)
from apps.systems.universalis.match.combat import (
    check_target,
    check_weapon,
    readiness_test,
    reveal_attacker,
    target_arg,
    use_weapon,
)
from apps.systems.universalis.match.context import Ctx, command, refuse, roll_data
from apps.systems.universalis.match.damage import reroll_args, wound_roll
from apps.systems.universalis.match.engagement import engage, release
from apps.systems.universalis.match.powers import resolve_power, touch_power
from apps.systems.universalis.match.state import Charge, LastAction, Phase, Unit
from apps.systems.universalis.match.values import melee_tie_values, melee_values


def _melee(
    ctx: Ctx,
    attacker: Unit,
    defender: Unit,
    index: int,
    args: Args,
    *,
    charge: bool = False,
    reckless: bool = False,
    attacker_zero: bool = False,
    defender_zero: bool = False,
    kind: str = "melee",
) -> None:
    weapon_ = check_weapon(attacker, index, melee=True)
    on_win = args.text("on_win", "hit", choices=("hit", "push", "power"))
    if on_win == "push" and rules.size_steps(defender, attacker) > 0:
        raise refuse("push_too_big", f"{defender.name} is too big to be pushed back (15.2).")
    power_index = args.integer("power", 0, lo=0, hi=20) if on_win == "power" else None
    if power_index is not None:
        touch_power(attacker, power_index)
    rerolls = reroll_args(args)
    # Valued before the attack reveals a camouflaged attacker: it strikes from hiding.
    value_a, value_d = melee_values(
        ctx.state,
        attacker,
        defender,
        friends=args.integer("friends", 0, lo=0, hi=8),
        enemy_friends=args.integer("enemy_friends", 0, lo=0, hi=8),
        charge=charge,
        reckless=reckless,
        attacker_zero=attacker_zero,
        defender_zero=defender_zero,
    )
    reveal_attacker(ctx, attacker, ambush=True)
    use_weapon(ctx, attacker, index)
    outcome, roll = ctx.comparative(
        _("%(unit)s attacks %(target)s with %(weapon)s (NK)"),
        value_a,
        value_d,
        unit=attacker.name,
        target=defender.name,
        weapon=weapon_.name,
    )
    rolls = [roll]
    while outcome == "tie":
        outcome, roll = ctx.comparative(
            _("Melee tie: %(unit)s against %(target)s (AGI)"),
            *melee_tie_values(ctx.state, attacker, defender),
            unit=attacker.name,
            target=defender.name,
        )
        rolls.append(roll)
    won = outcome == "win"
    ctx.emit(
        "melee_fought",
        unit=attacker.id,
        target=defender.id,
        weapon=index,
        kind=kind,
        won=won,
        on_win=on_win if won else "",
        rolls=[roll_data(r) for r in rolls],
        units={defender.id: {"defence": False}} if defender.defence else {},
        state={
            "last_action": LastAction(
                kind="melee",
                unit=attacker.id,
                target=defender.id,
                reckless_lost=reckless and not won,
            )
        },
    )
    if not won:
        return
    readiness_test(ctx, defender, attacker)
    if on_win == "hit":
        wound_roll(ctx, attacker, defender.id, weapon_, cover="none", rerolls=rerolls)
    elif on_win == "push":
        # Pushed back: a move away from the attacker, out of base contact (15.2).
        release(ctx, defender.id, (attacker.id,))
    elif on_win == "power" and power_index is not None:
        resolve_power(ctx, ctx.unit(attacker.id), power_index, defender, args)


@command("melee")
def _melee_command(ctx: Ctx, args: Args) -> None:
    """Angriff (WK) and Verwegener Angriff (WK+2: +3 NK) on a model in base contact, which
    puts both in melee; with ``charge`` the Angriffsbewegung (``_charge``)."""
    charge = args.boolean("charge")
    unit = actor(ctx, args, in_melee=not charge, attack=True)
    index = args.integer("weapon", 0, lo=-1, hi=20)
    weapon_ = check_weapon(unit, index, melee=True)
    reckless = args.boolean("reckless")
    cost = rules.weapon_cost(unit, weapon_, 2 if reckless else 0)
    if charge:
        _charge(ctx, unit, index, cost, args, reckless=reckless)
        return
    target = target_arg(ctx, args, unit, "target")
    answer_threat(ctx, unit, (target.id,))
    flight_first(ctx, unit)
    unit = spend(
        ctx,
        unit,
        cost,
        action="reckless" if reckless else "melee",
        operator_ap=operator_ap_arg(args),
    )
    engage(ctx, unit.id, target.id)
    _melee(ctx, ctx.unit(unit.id), target, index, args, reckless=reckless)


def _charge(ctx: Ctx, unit: Unit, index: int, cost: int, args: Args, *, reckless: bool) -> None:
    """Angriffsbewegung: a move costing the weapon's WK (8.3). It is a movement action, so
    enemies may answer it with reaction fire (l. 651, l. 1201); when it reached base contact
    the attack (+2 NK unless the defender is in defence) follows as ``charge_attack``, after
    the reactions. A camouflaged charger is revealed as it sets off to attack (16.3)."""
    reached = args.boolean("reached", True)
    target = target_arg(ctx, args, unit, "target") if reached else None
    if not _can_move_freely(unit):
        raise refuse("cannot_move", f"{unit.name} cannot move.")
    named = target.id if target is not None else args.optional_int("target", lo=0, hi=999)
    answer_threat(ctx, unit, (named,))
    cm = move_cm(unit, args)
    unit = spend(ctx, unit, cost, action="charge", operator_ap=operator_ap_arg(args))
    # A colossus with a critical movement zone that fails its KO roll does not move, so its
    # charge never reaches the enemy (18.3.1).
    if not can_move(ctx, unit):
        return
    make_move(ctx, unit, cm, "charge", args)
    if target is None:
        return
    reveal_attacker(ctx, ctx.unit(unit.id), ambush=True)
    ctx.emit(
        "charge_declared",
        unit=unit.id,
        target=target.id,
        weapon=index,
        state={
            "charge": Charge(unit=unit.id, target=target.id, weapon=index, reckless=reckless),
            "last_action": LastAction(kind="move", unit=unit.id, target=target.id),
        },
    )


@command("charge_attack")
def _charge_attack(ctx: Ctx, args: Args) -> None:
    """The charge that reached base contact becomes the attack, once the reactions to its move
    are made: the two are in melee, and the attack was paid with the move (8.3)."""
    pending = ctx.state.charge
    if ctx.state.phase is not Phase.ACTING or pending is None:
        raise refuse("no_charge", "No charge waits for its attack.")
    blocked(ctx)
    unit = ctx.unit(args.integer("unit", lo=0))
    if unit.id != pending.unit:
        raise refuse("no_charge", f"{unit.name} has no charge waiting for its attack.")
    target = check_target(ctx.unit(pending.target), unit)
    ctx.emit("charge_attacks", unit=unit.id, target=target.id, state={"charge": None})
    engage(ctx, unit.id, target.id)
    _melee(
        ctx, ctx.unit(unit.id), target, pending.weapon, args, charge=True, reckless=pending.reckless
    )


def lapse_charge(ctx: Ctx) -> None:
    """A waiting charge lapses when its model or its target left play, or the charger burns or
    panics (a reaction may have done that): it takes no action any more."""
    pending = ctx.state.charge
    if pending is None:
        return
    unit, target = ctx.unit(pending.unit), ctx.unit(pending.target)
    if unit.in_play and target.in_play and unit.burning is None and not unit.panic:
        return
    ctx.emit("charge_lapsed", unit=unit.id, state={"charge": None})


def _can_move_freely(unit: Unit) -> bool:
    """Whether the model may move at all, checked before paying (the KO roll of a damaged
    movement zone comes after, with ``can_move``)."""
    return unit.card.movement is not Movement.STATIONARY and not unit.immobile


@command("counter_attack")
def _counter_attack(ctx: Ctx, args: Args) -> None:
    """Gegenangriff (WK), right after a melee, by its defender; a reckless attacker that lost
    defends with NK 0 (15.3-15.4)."""
    unit = reactor(ctx, args, in_melee=True)
    last = ctx.state.last_action
    if last is None or last.kind != "melee" or last.target != unit.id:
        raise refuse("no_melee", "A counter-attack answers a melee attack on this model.")
    attacker = ctx.unit(last.unit)
    if not attacker.in_play:
        raise refuse("target_out", f"{attacker.name} is no longer in play.")
    index = args.integer("weapon", 0, lo=-1, hi=20)
    weapon_ = check_weapon(unit, index, melee=True)
    unit = spend(ctx, unit, rules.weapon_cost(unit, weapon_), action="counter_attack")
    _melee(
        ctx, unit, attacker, index, args, defender_zero=last.reckless_lost, kind="counter_attack"
    )


@command("opportunity_attack")
def _opportunity_attack(ctx: Ctx, args: Args) -> None:
    """Gelegenheitsangriff (WK) by a model an enemy leaves as it disengages from base contact
    (l. 1415): the disengaging model fights with NK 0."""
    unit = reactor(ctx, args, in_melee=True)
    last = ctx.state.last_action
    if last is None or last.kind != "disengage":
        raise refuse("no_disengage", "An opportunity attack answers a model disengaging.")
    mover = ctx.unit(last.unit)
    if mover.player == unit.player or not mover.in_play:
        raise refuse("no_disengage", "An opportunity attack answers an enemy disengaging.")
    if unit.id not in last.left:
        raise refuse("not_in_contact", f"{mover.name} was not in base contact with {unit.name}.")
    index = args.integer("weapon", 0, lo=-1, hi=20)
    weapon_ = check_weapon(unit, index, melee=True)
    unit = spend(ctx, unit, rules.weapon_cost(unit, weapon_), action="opportunity_attack")
    _melee(ctx, unit, mover, index, args, defender_zero=True, kind="opportunity_attack")
    ctx.emit("last_action", state={"last_action": last})


@command("defence")
def _defence(ctx: Ctx, args: Args) -> None:
    """Verteidigung (2 AP) until its next phase: no charge bonus against it (15.3)."""
    unit = actor(ctx, args)
    flight_first(ctx, unit)
    unit = spend(ctx, unit, 2, action="defence", operator_ap=operator_ap_arg(args))
    ctx.emit("defence_taken", unit=unit.id, units={unit.id: {"defence": True}})
