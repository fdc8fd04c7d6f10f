"""Corrections by hand: command points and victory points."""

from __future__ import annotations

from apps.systems.bunkers.match.context import Ctx, command, refuse
from apps.systems.core.match import Args


@command("adjust_cp")
def _adjust_cp(ctx: Ctx, args: Args) -> None:
    player = ctx.state.player(args.integer("player", lo=0, hi=1))
    points = args.integer("points", lo=-20, hi=20)
    if points == 0:
        refuse("nothing_to_change", "A correction of 0 changes nothing.")
    if player.cp + points < 0:
        refuse("cp_negative", "Command points cannot go below 0.")
    ctx.emit("cp_changed", player=player.index, points=points, reason="adjusted")


@command("adjust_vp")
def _adjust_vp(ctx: Ctx, args: Args) -> None:
    player = ctx.state.player(args.integer("player", lo=0, hi=1))
    points = args.integer("points", lo=-50, hi=50)
    if points == 0:
        refuse("nothing_to_change", "A correction of 0 changes nothing.")
    ctx.vp(player.index, points, "adjusted", args.text("note", "")[:60])
