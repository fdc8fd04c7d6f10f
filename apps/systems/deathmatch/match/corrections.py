"""Free flips and corrections by hand: for everything the tracker does not model."""

from __future__ import annotations

from typing import Any

from apps.systems.core.deck import MAX_MODIFIER, flip
from apps.systems.core.distributions import fraction_text
from apps.systems.core.flip_odds import flip_odds
from apps.systems.core.match import Args
from apps.systems.deathmatch.match import outcomes
from apps.systems.deathmatch.match.context import (
    Ctx,
    command,
    no_flip_waiting,
    player_arg,
    refuse,
    unit_arg,
)
from apps.systems.deathmatch.match.serial import dump
from apps.systems.deathmatch.match.state import Marker


@command("flip")
def _free_flip(ctx: Ctx, args: Args) -> None:
    """A flip for anything the tracker does not model: cards, result, odds, deck."""
    no_flip_waiting(ctx)
    player = player_arg(ctx, args)
    boost = args.integer("boost", 0, lo=-MAX_MODIFIER, hi=MAX_MODIFIER)
    deck = ctx.state.player(player).deck
    flipped = flip(deck, boost, ctx.rng)
    at_least = flip_odds(deck, boost).at_least
    ctx.emit(
        "free_flipped",
        player=player,
        flip=dump(flipped),
        result=flipped.result,
        odds={str(k): fraction_text(p) for k, p in enumerate(at_least) if k > 0},
        chance=fraction_text(at_least[flipped.result]),
        label=args.text("label", ""),
    )


@command("adjust")
def _adjust(ctx: Ctx, args: Args) -> None:
    """A correction by hand (a card effect the tracker does not model). Setting LP to 0 knocks
    the model out with no credit."""
    no_flip_waiting(ctx)
    unit = unit_arg(ctx, args)
    asked: dict[str, Any] = {}
    if args.has("lp"):
        asked["lp"] = args.integer("lp", lo=0, hi=unit.max_lp)
    if args.has("ap"):
        asked["ap"] = args.integer("ap", lo=0, hi=6)
    markers = {
        name: args.integer(name, lo=0, hi=3)
        for name in ("fire", "shock", "acid", "poison")
        if args.has(name)
    }
    if not asked and not markers:
        raise refuse("invalid_args", "Say what to change: lp, ap or a marker count.")
    # Only what differs is recorded: the log says what was corrected, not the whole card.
    changes: dict[str, Any] = {k: v for k, v in asked.items() if getattr(unit, k) != v}
    changed_markers = {
        name: count for name, count in markers.items() if unit.markers.count(Marker(name)) != count
    }
    if changed_markers:
        changes["markers"] = changed_markers
    if not changes:
        raise refuse("nothing_changed", "The correction changes nothing.")
    if not unit.in_play:
        raise refuse("bad_target", f"{unit.name} is not in play.")
    ctx.emit("unit_adjusted", unit=unit.id, **changes, note=args.text("note", ""))
    if changes.get("lp") == 0:
        outcomes.knock_out(ctx, unit.id, credit=(), cause="adjusted", by_unit=None)


@command("adjust_vp")
def _adjust_vp(ctx: Ctx, args: Args) -> None:
    no_flip_waiting(ctx)
    player = player_arg(ctx, args)
    points = args.integer("points", lo=-50, hi=50)
    if points == 0:
        raise refuse("invalid_args", "Adjust by at least one point.")
    ctx.emit(
        "vp_scored", player=player, points=points, reason="adjusted", detail=args.text("note", "")
    )
    outcomes.check_targets(ctx)


@command("adjust_cp")
def _adjust_cp(ctx: Ctx, args: Args) -> None:
    no_flip_waiting(ctx)
    player = player_arg(ctx, args)
    ctx.emit(
        "cp_adjusted", player=player, cp=args.integer("cp", lo=0, hi=30), note=args.text("note", "")
    )
