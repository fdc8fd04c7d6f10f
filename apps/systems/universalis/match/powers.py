"""Traits and equipment with an action, and powers: using, blocking and ending them."""

from __future__ import annotations

from typing import Any

from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import Args
from apps.systems.universalis.catalog import PowerDuration, PowerRange
from apps.systems.universalis.match import rules
from apps.systems.universalis.match.acting import (
    actor,
    answer_threat,
    flight_first,
    operator_ap_arg,
    spend,
)
from apps.systems.universalis.match.combat import defence_test, readiness_test
from apps.systems.universalis.match.context import Ctx, command, refuse
from apps.systems.universalis.match.damage import lose_hp
from apps.systems.universalis.match.serial import dump
from apps.systems.universalis.match.state import Unit
from apps.systems.universalis.match.values import power_value


def _use_marked(ctx: Ctx, unit: Unit, kind: str, index: int, args: Args) -> None:
    """A trait or equipment with an action; ``target`` names the model it is used on (for the
    log, and an attack on a direct threat may be made with it, 4.5.1)."""
    items = unit.card.traits if kind == "trait" else unit.card.equipment
    if not 0 <= index < len(items):
        raise refuse("unknown_item", f"{unit.name} has no {kind} number {index}.")
    item = items[index]
    uses = unit.trait_uses if kind == "trait" else unit.equipment_uses
    if item.ap is None:
        raise refuse("no_action", f"{item.name} needs no action: it always applies.")
    if item.uses is not None and uses[index] == 0:
        raise refuse("used_up", f"{item.name} has no single-use marker left.")
    answer_threat(ctx, unit, (args.optional_int("target", lo=0, hi=999),))
    flight_first(ctx, unit)
    unit = spend(ctx, unit, item.ap, action=f"use_{kind}", operator_ap=operator_ap_arg(args))
    fields: dict[str, Any] = {}
    if item.uses is not None:
        left = list(uses)
        left[index] = (left[index] or 0) - 1
        fields["trait_uses" if kind == "trait" else "equipment_uses"] = tuple(left)
    ctx.emit(f"{kind}_used", unit=unit.id, index=index, units={unit.id: fields} if fields else {})


@command("use_trait")
def _use_trait(ctx: Ctx, args: Args) -> None:
    unit = actor(ctx, args, attack=True)
    _use_marked(ctx, unit, "trait", args.integer("trait", lo=0, hi=30), args)


@command("use_equipment")
def _use_equipment(ctx: Ctx, args: Args) -> None:
    unit = actor(ctx, args, attack=True)
    _use_marked(ctx, unit, "equipment", args.integer("equipment", lo=0, hi=30), args)


def touch_power(unit: Unit, index: int) -> None:
    if not 0 <= index < len(unit.powers):
        raise refuse("unknown_power", f"{unit.name} has no power number {index}.")
    if unit.powers[index].range is not PowerRange.TOUCH:
        raise refuse("not_touch", f"{unit.powers[index].name} is not a touch power.")


def _power_roll(ctx: Ctx, unit: Unit, index: int, owner: Unit, label: str) -> bool:
    """The power's attribute roll with its difficulty; HP are lost on a failure, or always
    (20.2.2-20.2.3). ``owner`` holds the power (a blocker rolls against another's power)."""
    power = owner.powers[index]
    passed, roll = ctx.attribute_roll(
        label,
        power_value(ctx.state, unit, power),
        unit=unit.name,
        power=power.name,
    )
    ctx.emit("power_rolled", unit=unit.id, power=power.name, passed=passed, roll=dump(roll))
    if power.hp_loss and (power.hp_loss_always or not passed):
        lose_hp(ctx, unit.id, power.hp_loss, None, cause="power", shock=False)
    return passed


def resolve_power(ctx: Ctx, unit: Unit, index: int, target: Unit | None, args: Args) -> bool:
    """Roll, blocks and effect of a power; True when it took effect."""
    power = unit.powers[index]
    blockers = [ctx.unit(uid) for uid in args.ints("blockers", hi=999, most=4)]
    for blocker in blockers:
        _check_blocker(ctx, blocker, unit)
    if power.ap:
        unit = spend(ctx, unit, power.ap, action="use_power", operator_ap=operator_ap_arg(args))
    if target is not None and target.player != unit.player:
        defence_test(ctx, target)
    if not _power_roll(ctx, unit, index, unit, _("%(unit)s uses %(power)s")):
        return False
    for blocker in blockers:
        blocker = spend(ctx, ctx.unit(blocker.id), 3, action="block_power_reaction")
        if _power_roll(ctx, blocker, index, unit, _("%(unit)s tries to block %(power)s")):
            ctx.emit("power_blocked", unit=unit.id, power=power.name, by=blocker.id)
            return False
    unit = ctx.unit(unit.id)
    lasting = power.duration is PowerDuration.LASTING
    ctx.emit(
        "power_used",
        unit=unit.id,
        power=power.name,
        index=index,
        target=None if target is None else target.id,
        units={unit.id: {"powers_in_play": (*unit.powers_in_play, index)}} if lasting else {},
    )
    return True


def _check_blocker(ctx: Ctx, blocker: Unit, owner: Unit) -> None:
    """Only models of a discipline block powers (20.5)."""
    if blocker.player == owner.player or not blocker.card.disciplines:
        raise refuse("cannot_block", f"{blocker.name} cannot block powers.")
    if rules.reaction_refusal(blocker):
        raise refuse("cannot_react", f"{blocker.name} cannot react now.")
    if blocker.engaged:
        raise refuse("melee_reaction", f"{blocker.name} is in melee: it cannot block (15).")


@command("use_power")
def _use_power(ctx: Ctx, args: Args) -> None:
    """Kraft einsetzen (X AP), also in melee (15). A touch power on an enemy needs a won melee
    attack first (``melee`` with on_win "power")."""
    unit = actor(ctx, args, in_melee=True, attack=True)
    index = args.integer("power", lo=0, hi=20)
    if not 0 <= index < len(unit.powers):
        raise refuse("unknown_power", f"{unit.name} has no power number {index}.")
    power = unit.powers[index]
    if index in unit.powers_in_play:
        raise refuse("power_in_play", f"{power.name} is in play: end it before using it again.")
    target = ctx.unit(args.integer("target", lo=0)) if args.has("target") else None
    if power.range is PowerRange.TOUCH and target is not None and target.player != unit.player:
        raise refuse("touch_needs_melee", "A touch power on an enemy needs a won melee first.")
    if target is not None and target.camouflaged and target.player != unit.player:
        raise refuse("target_camouflaged", f"{target.name} is camouflaged.")
    answer_threat(ctx, unit, (None if target is None else target.id,))
    flight_first(ctx, unit)
    if resolve_power(ctx, unit, index, target, args) and target is not None:
        # Here, not in resolve_power: a touch power after a won melee is part of that
        # melee, which made the test already.
        readiness_test(ctx, target, unit)


@command("end_power")
def _end_power(ctx: Ctx, args: Args) -> None:
    unit = actor(ctx, args)
    index = args.integer("power", lo=0, hi=20)
    if index not in unit.powers_in_play:
        raise refuse("power_not_in_play", "That power is not in play.")
    flight_first(ctx, unit)
    unit = spend(ctx, unit, 1, action="end_power", operator_ap=operator_ap_arg(args))
    ctx.emit(
        "power_ended",
        unit=unit.id,
        power=unit.powers[index].name,
        units={unit.id: {"powers_in_play": tuple(i for i in unit.powers_in_play if i != index)}},
    )


@command("block_power")
def _block_power(ctx: Ctx, args: Args) -> None:
    """Kraft blockieren (2 AP, an action): a lasting enemy power in play ends on a successful
    roll against its attribute and difficulty (20.3, 20.5)."""
    unit = actor(ctx, args)
    owner = ctx.unit(args.integer("owner", lo=0))
    index = args.integer("power", lo=0, hi=20)
    if index not in owner.powers_in_play:
        raise refuse("power_not_in_play", "That power is not in play.")
    if owner.player == unit.player:
        raise refuse("block_own_power", "Only an enemy's power is blocked; end an own one.")
    if not unit.card.disciplines:
        raise refuse("cannot_block", f"{unit.name} cannot block that power.")
    flight_first(ctx, unit)
    unit = spend(ctx, unit, 2, action="block_power", operator_ap=operator_ap_arg(args))
    if _power_roll(ctx, unit, index, owner, _("%(unit)s tries to block %(power)s")):
        ctx.emit(
            "power_ended",
            unit=owner.id,
            power=owner.powers[index].name,
            by=unit.id,
            units={
                owner.id: {"powers_in_play": tuple(i for i in owner.powers_in_play if i != index)}
            },
        )
