"""Free flips and corrections by hand: for everything the tracker does not model, and standing
modifiers of a model's profile values for table effects the app cannot know (SPEC §6)."""

from __future__ import annotations

from typing import Any, Final

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
from apps.systems.deathmatch.match.state import MODIFIER_NAMES, Marker, Unit


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


# A standing modifier is given as the value it has from now on: ``mod_reflex`` ... ``mod_melee``.
MODIFIER_ARGS: Final = {f"mod_{name}": name for name in MODIFIER_NAMES}
MARKER_ARGS: Final = ("fire", "shock", "acid", "poison")
MOST_MODIFIER = 9


@command("adjust")
def _adjust(ctx: Ctx, args: Args) -> None:
    """A correction by hand (a card effect the tracker does not model): LP, AP, markers, and
    standing modifiers of the profile values (SPEC §6), which every later roll uses. A
    modifier of LP changes the model's LP with it (the damage it took stays). LP 0 knocks the
    model out with no credit."""
    no_flip_waiting(ctx)
    unit = unit_arg(ctx, args)
    if not any(args.has(arg) for arg in ("lp", "ap", *MARKER_ARGS, *MODIFIER_ARGS)):
        raise refuse(
            "invalid_args", "Say what to change: lp, ap, a marker count or a standing modifier."
        )
    # Only what differs is recorded: the log says what was corrected, not the whole card.
    changes = _modifier_changes(args, unit)
    changes |= _value_changes(args, unit, changes.get("max_lp", unit.max_lp))
    markers = _marker_changes(args, unit)
    if markers:
        changes["markers"] = markers
    if not changes:
        raise refuse("nothing_changed", "The correction changes nothing.")
    if not unit.in_play:
        raise refuse("bad_target", f"{unit.name} is not in play.")
    ctx.emit("unit_adjusted", unit=unit.id, **changes, note=args.text("note", ""))
    if changes.get("lp") == 0:
        outcomes.knock_out(ctx, unit.id, credit=(), cause="adjusted", by_unit=None)


def _marker_changes(args: Args, unit: Unit) -> dict[str, int]:
    asked = {name: args.integer(name, lo=0, hi=3) for name in MARKER_ARGS if args.has(name)}
    return {name: n for name, n in asked.items() if unit.markers.count(Marker(name)) != n}


def _value_changes(args: Args, unit: Unit, max_lp: int) -> dict[str, Any]:
    """LP and AP as asked, where they differ. When the maximum changes (``max_lp``), LP not
    given, or given as they stand (the correction form sends them), follow it: the damage the
    model took stays."""
    follow = max(0, min(max_lp, unit.lp + max_lp - unit.max_lp))
    lp = args.integer("lp", lo=0, hi=max(max_lp, unit.lp)) if args.has("lp") else unit.lp
    if lp == unit.lp:
        lp = follow
    elif lp > max_lp:
        raise refuse("invalid_args", f"'lp' must be a whole number from 0 to {max_lp}.")
    asked: dict[str, Any] = {"lp": lp}
    if args.has("ap"):
        asked["ap"] = args.integer("ap", lo=0, hi=6)
    return {key: value for key, value in asked.items() if getattr(unit, key) != value}


def _modifier_changes(args: Args, unit: Unit) -> dict[str, Any]:
    """The standing modifiers the correction changes (``modifiers``) and, for one of LP, the
    model's new maximum (``max_lp``)."""
    wanted = {
        name: args.integer(arg, lo=-MOST_MODIFIER, hi=MOST_MODIFIER)
        for arg, name in MODIFIER_ARGS.items()
        if args.has(arg)
    }
    modifiers = {name: v for name, v in wanted.items() if unit.modifiers.get(name) != v}
    if not modifiers:
        return {}
    changes: dict[str, Any] = {"modifiers": modifiers}
    if "lp" in modifiers:
        max_lp = unit.max_lp + modifiers["lp"] - unit.modifiers.lp
        if max_lp < 1:
            raise refuse("invalid_args", f"{unit.name} keeps at least 1 LP.")
        changes["max_lp"] = max_lp
    return changes


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
