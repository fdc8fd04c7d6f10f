"""Camouflage: revealing a camouflaged enemy, and the table setting a model's camouflage."""

from __future__ import annotations

from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import Args
from apps.systems.universalis.match import rules
from apps.systems.universalis.match.acting import actor, flight_first, operator_ap_arg, spend
from apps.systems.universalis.match.combat import readiness_test
from apps.systems.universalis.match.context import Ctx, command, refuse
from apps.systems.universalis.match.serial import dump
from apps.systems.universalis.match.state import Phase
from apps.systems.universalis.match.values import reveal_value


@command("reveal")
def _reveal(ctx: Ctx, args: Args) -> None:
    """Aufklären (2+ AP): a WN roll, harder by the camouflage level, 1 easier per extra AP and
    per model giving Aufklärungsunterstützung (2 AP each, a reaction) (16.4-16.5)."""
    unit = actor(ctx, args)
    target = ctx.unit(args.integer("target", lo=0))
    if target.player == unit.player:
        raise refuse("reveal_friend", "Aufklären looks for a camouflaged enemy (16.4).")
    if not target.in_play or not target.camouflaged or target.card.camouflage is None:
        raise refuse("not_camouflaged", f"{target.name} is not camouflaged.")
    extra = args.integer("extra_ap", 0, lo=0, hi=10)
    supporters = [ctx.unit(uid) for uid in args.ints("supporters", hi=999, most=6)]
    for supporter in supporters:
        if supporter.player != unit.player or supporter.id == unit.id:
            raise refuse("bad_supporter", f"{supporter.name} cannot support this reveal.")
        if rules.reaction_refusal(supporter):
            raise refuse("cannot_react", f"{supporter.name} cannot react now.")
        if supporter.engaged:
            raise refuse("melee_reaction", f"{supporter.name} is in melee: it cannot support.")
    flight_first(ctx, unit)
    unit = spend(ctx, unit, 2 + extra, action="reveal", operator_ap=operator_ap_arg(args))
    for supporter in supporters:
        spend(ctx, ctx.unit(supporter.id), 2, action="recon_support")
    value = reveal_value(ctx.state, unit, target, extra=extra, supporters=len(supporters))
    passed, roll = ctx.attribute_roll(
        _("%(unit)s tries to reveal %(target)s (WN)"), value, unit=unit.name, target=target.name
    )
    ctx.emit(
        "reveal_rolled",
        unit=unit.id,
        target=target.id,
        passed=passed,
        roll=dump(roll),
        units={target.id: {"camouflaged": False, "revealed_moves": 0}} if passed else {},
    )
    if passed:
        readiness_test(ctx, target, unit)


@command("camouflage")
def _camouflage(ctx: Ctx, args: Args) -> None:
    """The table says a model's camouflage is (again) on or off: passive camouflage needs
    contact with terrain, which only the players see (16.1)."""
    if ctx.state.phase is Phase.OVER:
        raise refuse("game_over", "The game is over.")
    unit = ctx.unit(args.integer("unit", lo=0))
    hidden = args.boolean("hidden")
    if unit.card.camouflage is None or not unit.in_play:
        raise refuse("no_camouflage", f"{unit.name} has no camouflage.")
    ctx.emit(
        "camouflage_set",
        unit=unit.id,
        hidden=hidden,
        units={unit.id: {"camouflaged": hidden, "revealed_moves": 0}},
    )
