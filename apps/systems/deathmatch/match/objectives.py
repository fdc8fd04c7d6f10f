"""Mission objectives and gadgets on the table (SPEC §1.7): switches, flags, energy cores and
the stations a model touches.
"""

from __future__ import annotations

from apps.systems.core.match import Args
from apps.systems.deathmatch.match import outcomes
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
from apps.systems.deathmatch.match.modes import CORE_REPAIR, ObjectiveKind
from apps.systems.deathmatch.match.rules_text import carries_shimmer_blocker
from apps.systems.deathmatch.match.state import Objective, ObjectiveState, Unit, UnitKind

HEALING_DIE = 5  # the healing station restores 1d5 lost LP (SPEC Decision: uniform 1-5)


def _objective_arg(ctx: Ctx, args: Args, kind: ObjectiveKind) -> Objective:
    objective = ctx.state.objective(args.text("objective"))
    if objective.kind != kind.value:
        raise refuse("wrong_objective", f"{objective.id} is not a {kind.value.replace('_', ' ')}.")
    return objective


@command("activate_switch")
def _activate_switch(ctx: Ctx, args: Args) -> None:
    """1 AP in base contact: a neutral switch becomes yours. Breakthrough: only a flag carrier
    activates an enemy switch, which then stays activated (the flag is spent)."""
    unit = active_unit(ctx, args)
    switch = _objective_arg(ctx, args, ObjectiveKind.SWITCH)
    mode = ctx.mode
    if mode.breakthrough:
        if switch.side == unit.player:
            raise refuse("own_switch", "Your own switches score nothing: break through to theirs.")
        if switch.locked:
            raise refuse("switch_locked", f"{switch.id} is activated for good.")
        marker = next((f for f in unit.flags if ctx.state.objective(f).side == unit.player), None)
        if marker is None:
            raise refuse("needs_flag", "Only a flag carrier can activate an enemy switch.")
        spend_ap(ctx, unit, 1)
        lose_bonuses(ctx, unit)
        ctx.emit(
            "switch_changed", objective=switch.id, owner=unit.player, locked=True, unit=unit.id
        )
        ctx.emit("flag_placed", objective=marker, state="spent", reason="switch")
        return
    if switch.owner == unit.player:
        raise refuse("switch_yours", f"{switch.id} is yours already.")
    if switch.owner is not None:
        raise refuse("switch_owned", f"{switch.id} must be neutralised first.")
    spend_ap(ctx, unit, 1)
    lose_bonuses(ctx, unit)
    ctx.emit("switch_changed", objective=switch.id, owner=unit.player, unit=unit.id)


@command("neutralise_switch")
def _neutralise_switch(ctx: Ctx, args: Args) -> None:
    unit = active_unit(ctx, args)
    switch = _objective_arg(ctx, args, ObjectiveKind.SWITCH)
    if switch.locked:
        raise refuse("switch_locked", f"{switch.id} is activated for good.")
    if switch.owner is None or switch.owner == unit.player:
        raise refuse("switch_not_enemy", f"{switch.id} is not controlled by an enemy.")
    spend_ap(ctx, unit, 1)
    lose_bonuses(ctx, unit)
    ctx.emit("switch_changed", objective=switch.id, owner=None, unit=unit.id)


@command("repair_core")
def _repair_core(ctx: Ctx, args: Args) -> None:
    """Onslaught: Reparieren (1 AP): a core within 3" regains 3/4/5 LP."""
    unit = active_unit(ctx, args)
    core = unit_arg(ctx, args, "core")
    if core.kind is not UnitKind.CORE or not core.in_play:
        raise refuse("not_a_core", "Only a standing energy core can be repaired.")
    if core.lp >= core.max_lp:
        raise refuse("core_intact", f"{core.name} has lost no LP.")
    spend_ap(ctx, unit, 1)
    lose_bonuses(ctx, unit)
    ctx.emit("core_repaired", unit=unit.id, core=core.id, lp=CORE_REPAIR[ctx.state.game_size])


def _flag_unit(ctx: Ctx, args: Args) -> Unit:
    in_activation(ctx)
    unit = unit_arg(ctx, args)
    if not unit.in_play or not unit.team_member:
        raise refuse("cannot_carry", f"{unit.name} cannot carry a flag.")
    return unit


@command("pick_up_flag")
def _pick_up_flag(ctx: Ctx, args: Args) -> None:
    """A flag is picked up by touch (0 AP), also by the victor of a melee that knocked out its
    carrier. CTF: touching your own dropped flag returns it (1 VP)."""
    unit = _flag_unit(ctx, args)
    flag = _objective_arg(ctx, args, ObjectiveKind.FLAG)
    mode = ctx.mode
    if flag.state is ObjectiveState.CARRIED:
        raise refuse(
            "flag_carried", f"{flag.id} is carried by {ctx.state.unit(flag.carrier or 0).name}."
        )
    if unit.flags:
        raise refuse("one_flag", f"{unit.name} carries a flag already.")
    if mode.breakthrough and flag.side != unit.player:
        raise refuse("not_your_marker", "Only the owner's models pick up a flag marker.")
    if mode.flag_return_vp and flag.side == unit.player:
        if flag.state is ObjectiveState.HOME:
            raise refuse("flag_home", "Your flag is in its place.")
        ctx.emit(
            "flag_placed", objective=flag.id, state=ObjectiveState.HOME.value, reason="returned"
        )
        outcomes.score(ctx, unit.player, mode.flag_return_vp, "flag_returned", flag.id)
        return
    ctx.emit("flag_taken", objective=flag.id, unit=unit.id)


@command("hand_over_flag")
def _hand_over_flag(ctx: Ctx, args: Args) -> None:
    unit = _flag_unit(ctx, args)
    receiver = unit_arg(ctx, args, "to")
    flag_id = args.text("objective", unit.flags[0] if unit.flags else "")
    if flag_id not in unit.flags:
        raise refuse("no_flag", f"{unit.name} carries no such flag.")
    if (
        receiver.player != unit.player
        or not receiver.in_play
        or not receiver.team_member
        or receiver.id == unit.id
    ):
        raise refuse("bad_receiver", "Hand the flag to a friendly model in base contact.")
    if receiver.flags:
        raise refuse("one_flag", f"{receiver.name} carries a flag already.")
    ctx.emit("flag_taken", objective=flag_id, unit=receiver.id, from_unit=unit.id)


@command("score_flag")
def _score_flag(ctx: Ctx, args: Args) -> None:
    """The carrier reached where the mode scores its flag (the players judge where it stands):
    Flag Rush the enemy zone (3 VP); Capture the Flag the enemy flag in your zone (4 VP);
    multiplayer Flag Rush your own flag at the farthest switch (4 VP)."""
    unit = _flag_unit(ctx, args)
    mode = ctx.mode
    if not mode.flag_score_vp:
        raise refuse("no_flag_scoring", "Flags score nothing in this mode.")
    flag_id = next(iter(unit.flags), None)
    if flag_id is None:
        raise refuse("no_flag", f"{unit.name} carries no flag.")
    flag = ctx.state.objective(flag_id)
    if mode.slug == "capture-the-flag" and flag.side == unit.player:
        raise refuse("own_flag", "Bring the enemy flag into your zone, not your own.")
    if mode.slug == "mp-flag-rush" and flag.side != unit.player:
        raise refuse("not_own_flag", "Only your own flag scores at the farthest switch.")
    ctx.emit("flag_placed", objective=flag.id, state=ObjectiveState.HOME.value, reason="scored")
    outcomes.score(ctx, unit.player, mode.flag_score_vp, "flag", flag.id)


_STATION_EFFECTS = {
    1: "heal",
    4: "shield",
    5: "penetration",
    6: "shimmer",
    7: "stim",
    8: "erloeser",
}


@command("touch_gadget")
def _touch_gadget(ctx: Ctx, args: Args) -> None:
    """The first model that reaches a station by an action gets its effect; a used station
    recharges only in the next start phase ("Auffrischen", SPEC §6), the Erlöser is active only
    in rounds 2 and 4."""
    in_activation(ctx)
    unit = unit_arg(ctx, args)
    gadget = ctx.state.gadget(args.text("gadget"))
    effect = _STATION_EFFECTS.get(gadget.option)
    if effect is None or not unit.in_play:
        raise refuse(
            "nothing_to_track", "Teleport and jump fields need no bookkeeping: move the model."
        )
    if gadget.used_round == ctx.state.round:
        raise refuse(
            "gadget_used", "This station was used this round: it recharges in the next start phase."
        )
    if not gadget.active:
        raise refuse(
            "gadget_inactive", "The Erlöser is active only in rounds 2 and 4; unused, it lapses."
        )
    if effect == "stim" and ctx.state.active != unit.id:
        raise refuse("stim_active_only", "The Stim-Terminal's +1 AP is for the activated model.")
    if effect == "shimmer" and carries_shimmer_blocker(unit.items):
        raise refuse("shimmer_tarnfeld", "The Schimmerfeld does not combine with a Tarnfeld.")
    roll = ctx.rng.randint(1, HEALING_DIE) if effect == "heal" else None
    ctx.emit(
        "gadget_used",
        unit=unit.id,
        gadget=gadget.id,
        effect=effect,
        roll=roll,
        round=ctx.state.round,
    )
