"""What the table tells the tracker by hand: a fall, a free roll, a model or the VP corrected,
a player giving up, the time being up."""

from __future__ import annotations

from typing import Any

from apps.systems.core.errors import RuleViolation
from apps.systems.core.match import Args
from apps.systems.grundregeln import odds
from apps.systems.grundregeln.match import flow
from apps.systems.grundregeln.match.context import Ctx, command, fraction, roll_data
from apps.systems.grundregeln.match.rolls import attack
from apps.systems.grundregeln.match.rules import MAX_FALL, MAX_FREE_DICE
from apps.systems.grundregeln.match.state import Model


def _in_play(ctx: Ctx, args: Args) -> Model:
    model = ctx.state.model(args.integer("unit"))
    if not model.in_play:
        raise RuleViolation("unit_out", f"{model.name} is out of the game.")
    return model


@command("fall")
def _fall(ctx: Ctx, args: Args) -> None:
    model = _in_play(ctx, args)
    distance = args.integer("distance", lo=1, hi=MAX_FALL)
    if model.passive_npc:
        raise RuleViolation("npc_passive", "Passive NPCs cannot be killed.")
    # A fall rolls one attack die per inch against the model's own size (the tables' diagonal:
    # 4+ to hit and to damage), with its full armour.
    attack(ctx, attacker=None, target=model, dice=distance, action="fall")
    flow.after_correction(ctx)


@command("roll")
def _free_roll(ctx: Ctx, args: Args) -> None:
    dice = args.integer("dice", lo=1, hi=MAX_FREE_DICE)
    need = args.optional_int("need", lo=2, hi=6)
    roll = ctx.roll(dice)
    data: dict[str, Any] = {
        "roll": roll_data(roll),
        "total": roll.successes(need) if need else roll.total,
        "label": args.text("label", "")[:60],
    }
    if args.has("player"):
        data["player"] = args.integer("player", lo=0, hi=1)
    if need:
        data["need"] = need
        chance = odds.at_least(odds.hits(dice, need), data["total"])
        data["odds"] = [["at_least", fraction(chance)]]
    ctx.emit("free_rolled", **data)


@command("adjust")
def _adjust(ctx: Ctx, args: Args) -> None:
    model = _in_play(ctx, args)
    changes: dict[str, Any] = {}
    if args.has("lp"):
        changes["lp"] = args.integer("lp", lo=0, hi=model.max_lp)
    if args.has("fleeing"):
        changes["fleeing"] = args.boolean("fleeing")
    if not changes:
        raise RuleViolation("invalid_args", "Give lp or fleeing.")
    ctx.emit("adjusted", unit=model.id, note=args.text("note", "")[:60], **changes)
    flow.after_correction(ctx)


@command("adjust_vp")
def _adjust_vp(ctx: Ctx, args: Args) -> None:
    player = args.integer("player", lo=0, hi=len(ctx.state.players) - 1)
    points = args.integer("points", lo=-50, hi=50)
    if points == 0:
        raise RuleViolation("invalid_args", "Give the VP to add or take (not 0).")
    ctx.emit("vp_adjusted", player=player, points=points, note=args.text("note", "")[:60])


@command("concede")
def _concede(ctx: Ctx, args: Args) -> None:
    player = args.integer("player", lo=0, hi=len(ctx.state.players) - 1)
    ctx.emit("conceded", player=player)
    ctx.emit("game_ended", winners=[ctx.state.other(player)], draw=False, reason="conceded")


@command("end_on_time")
def _end_on_time(ctx: Ctx, args: Args) -> None:
    """The time is up: the game ends now, decided as the scenario counts at the end of its
    last round (the round in progress is not scored)."""
    flow.final_result(ctx, "time")
