"""What an activated model does besides attacking (SPEC §1.4): dodge, readiness, aim,
Wuchtschlag, moves with falls and dangerous terrain, special actions of equipment cards, and
reactions from readiness.
"""

from __future__ import annotations

from apps.systems.core.match import Args
from apps.systems.deathmatch.match import attacks, values
from apps.systems.deathmatch.match.context import (
    Ctx,
    active_unit,
    command,
    in_activation,
    lose_bonuses,
    refuse,
    spend_ap,
    unit_arg,
)
from apps.systems.deathmatch.match.rules_text import UsageScope, usage_scope
from apps.systems.deathmatch.match.state import AttackKind, UnitKind


@command("dodge")
def _dodge(ctx: Ctx, args: Args) -> None:
    unit = active_unit(ctx, args)
    if unit.stationary:
        raise refuse("stationary", f"{unit.name} is stationary and gains nothing by dodging.")
    spend_ap(ctx, unit, 1)
    lose_bonuses(ctx, unit)
    ctx.emit("dodged", unit=unit.id)


@command("readiness")
def _readiness(ctx: Ctx, args: Args) -> None:
    unit = active_unit(ctx, args)
    if unit.readiness_taken:
        raise refuse("readiness_once", "Bereitschaft is allowed once per activation.")
    if unit.readiness:
        raise refuse("already_ready", f"{unit.name} is in readiness already.")
    spend_ap(ctx, unit, 1)
    ctx.emit("readiness_taken", unit=unit.id, action=True)


@command("aim")
def _aim(ctx: Ctx, args: Args) -> None:
    unit = active_unit(ctx, args)
    spend_ap(ctx, unit, 1)
    lose_bonuses(ctx, unit, keep="aim")
    ctx.emit("aimed", unit=unit.id)


@command("power_strike")
def _power_strike(ctx: Ctx, args: Args) -> None:
    unit = active_unit(ctx, args)
    spend_ap(ctx, unit, 1)
    lose_bonuses(ctx, unit, keep="power_strike")
    ctx.emit("power_strike_readied", unit=unit.id)


@command("move")
def _move(ctx: Ctx, args: Args) -> None:
    """A move (1 AP). The players say whether it ended with a fall (height in inches; a
    deliberate jump down is safe up to 3") or touched dangerous terrain."""
    unit = active_unit(ctx, args)
    if unit.stationary:
        raise refuse("stationary", f"{unit.name} is stationary and cannot move.")
    fall, dangerous = attacks.move_hazards(args)
    spend_ap(ctx, unit, 1)
    lose_bonuses(ctx, unit)
    ctx.emit("moved", unit=unit.id, inches=values.move_inches(unit))
    attacks.auto_hits(ctx, unit, attacks.hazard_hits(fall, dangerous), then="")


@command("special_action")
def _special_action(ctx: Ctx, args: Args) -> None:
    unit = active_unit(ctx, args)
    slug = args.text("item")
    item = next((i for i in unit.items if i.slug == slug and i.special_action), None)
    if item is None or item.special_action is None:
        raise refuse("unknown_special_action", f"{unit.name} has no special action from {slug!r}.")
    action = item.special_action
    keys = []
    scope = usage_scope(item)
    stamps = {
        UsageScope.ACTIVATION: f"activation:{ctx.state.activation_number}",
        UsageScope.TURN: f"turn:{ctx.state.turn_number}",
        UsageScope.ROUND: f"round:{ctx.state.round}",
        UsageScope.GAME: "game",
    }
    if scope is not None:
        keys.append(f"{stamps[scope]}:{slug}")
    if action.ap == 0:
        # Rulebook: special actions costing 0 AP at most once per turn.
        keys.append(f"{stamps[UsageScope.TURN]}:{slug}")
    for key in keys:
        if key in unit.uses:
            raise refuse("usage_limit", f"{action.name}: {item.usage_limit or 'once per turn'}")
    spend_ap(ctx, unit, action.ap)
    lose_bonuses(ctx, unit)
    ctx.emit(
        "special_action_used", unit=unit.id, item=slug, name=action.name, ap=action.ap, uses=keys
    )


@command("react")
def _react(ctx: Ctx, args: Args) -> None:
    """A model in readiness reacts to the active enemy: a ranged or melee attack against it,
    or a dodge. Its readiness ends."""
    in_activation(ctx)
    if ctx.state.active is None:
        raise refuse("no_active_unit", "A model reacts to an activated enemy model.")
    unit = unit_arg(ctx, args)
    enemy = ctx.state.unit(ctx.state.active)
    if unit.player == enemy.player:
        raise refuse("react_enemy", "Only enemies of the activated model can react to it.")
    if not unit.readiness or not unit.in_play:
        raise refuse("not_ready", f"{unit.name} is not in readiness.")
    action = args.text("action", choices=("ranged_attack", "melee_attack", "dodge"))
    if unit.kind is UnitKind.DEFENCE and action != "ranged_attack":
        raise refuse("defence_ranged_only", "A defence system reacts with ranged attacks only.")
    ctx.emit("readiness_used", unit=unit.id)
    if action == "dodge":
        if unit.stationary:
            raise refuse("stationary", f"{unit.name} is stationary and gains nothing by dodging.")
        lose_bonuses(ctx, unit)  # dodging is an action other than the attack they are for
        ctx.emit("dodged", unit=unit.id)
        return
    kind = AttackKind.RANGED if action == "ranged_attack" else AttackKind.MELEE
    targets = args.objects("targets", most=1) or (Args({"unit": enemy.id}),)
    if targets[0].integer("unit", lo=0) != enemy.id:
        raise refuse("react_target", f"A reaction attacks the activated model, {enemy.name}.")
    attacks.declare_attack(ctx, unit, args, kind, targets, reaction=True)
