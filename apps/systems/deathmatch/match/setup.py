"""Setup commands (SPEC §1.4 Setup, §1.7 gadgets): gadgets, the deployment flip, the first
deployer, VIPs and Breakthrough flag markers, then round 1.
"""

from __future__ import annotations

from apps.systems.core.deck import Flip, flip
from apps.systems.core.match import Args
from apps.systems.deathmatch.match import rounds
from apps.systems.deathmatch.match.context import (
    Ctx,
    command,
    own_fighter,
    player_arg,
    refuse,
    require_awaiting,
    seat_order,
)
from apps.systems.deathmatch.match.modes import ObjectiveKind
from apps.systems.deathmatch.match.serial import dump
from apps.systems.deathmatch.match.state import (
    Gadget,
    MatchState,
    Objective,
    ObjectiveState,
    Unit,
    UnitKind,
)
from apps.systems.deathmatch.match.units import DEFENCE_SYSTEM, DRONE, special_unit


def _next_setup_step(ctx: Ctx, after: str) -> None:
    """Setup runs: gadgets, deployment flip, first deployer, VIPs, flag markers, ready."""
    mode = ctx.mode
    order = deployment_order(ctx.state)
    steps = ["gadgets", "deployment_flip", "first_deployer"]
    if mode.vip:
        steps.append("vip")
    if mode.breakthrough:
        steps.append("flags")
    steps.append("ready")
    following = steps[steps.index(after) + 1]
    player = None
    if following in ("vip", "flags"):
        player = order[0]
    if following == "first_deployer":
        player = ctx.state.deployment_chooser
    ctx.emit("awaiting", what=following, player=player)


def deployment_order(state: MatchState) -> tuple[int, ...]:
    first = state.first_deployer if state.first_deployer is not None else 0
    return seat_order(state, first)


@command("choose_gadget")
def _choose_gadget(ctx: Ctx, args: Args) -> None:
    require_awaiting(ctx, "gadgets")
    player = player_arg(ctx, args)
    option = args.integer("option", lo=0, hi=9)
    _gadget_pick(ctx, player, option, None)


@command("flip_gadget")
def _flip_gadget(ctx: Ctx, args: Args) -> None:
    require_awaiting(ctx, "gadgets")
    player = player_arg(ctx, args)
    result = flip(ctx.state.player(player).deck, 0, ctx.rng)
    _gadget_pick(ctx, player, result.result, result)


def _gadget_pick(ctx: Ctx, player: int, option: int, flipped: Flip | None) -> None:
    if ctx.state.player(player).gadget is not None:
        raise refuse("gadget_chosen", "This player has chosen a gadget already.")
    ctx.emit(
        "gadget_chosen",
        player=player,
        option=option,
        flip=dump(flipped) if flipped is not None else None,
    )
    if all(p.gadget is not None for p in ctx.state.players):
        _place_gadgets(ctx)
        _next_setup_step(ctx, "gadgets")


def _place_gadgets(ctx: Ctx) -> None:
    """Every player receives one copy of every option chosen ("je ein Exemplar von allen
    gewählten Optionen", SPEC §6): an option two players chose is still one copy each.
    Defence systems and drones are units; the others are stations."""
    gadgets: list[Gadget] = []
    units: list[Unit] = []
    next_id = len(ctx.state.units)
    chosen = dict.fromkeys(p.gadget for p in ctx.state.players if p.gadget is not None)
    for option in chosen:
        for receiver in ctx.state.players:
            if option == 3:
                units.append(
                    special_unit(next_id, receiver.index, UnitKind.DEFENCE, DEFENCE_SYSTEM)
                )
                next_id += 1
            elif option == 9:
                units.append(special_unit(next_id, receiver.index, UnitKind.DRONE, DRONE))
                next_id += 1
            else:
                gadgets.append(
                    Gadget(
                        id=f"G{len(gadgets) + 1}",
                        option=option,
                        owner=receiver.index,
                        active=option != 8,
                    )
                )
    ctx.emit("gadgets_placed", gadgets=dump(tuple(gadgets)), units=dump(tuple(units)))


@command("skip_gadgets")
def _skip_gadgets(ctx: Ctx, args: Args) -> None:
    """Play without gadgets (agreed by the players)."""
    require_awaiting(ctx, "gadgets")
    _next_setup_step(ctx, "gadgets")


@command("deployment_flip")
def _deployment_flip(ctx: Ctx, args: Args) -> None:
    """Every player flips; the highest names who picks a zone first (and deploys first); tied
    players flip again."""
    require_awaiting(ctx, "deployment_flip")
    contenders = tuple(p.index for p in ctx.state.players)
    while True:
        flips = [flip(ctx.state.player(p).deck, 0, ctx.rng) for p in contenders]
        best = max(f.result for f in flips)
        leaders = tuple(p for p, f in zip(contenders, flips, strict=True) if f.result == best)
        winner = leaders[0] if len(leaders) == 1 else None
        ctx.emit(
            "deployment_flipped",
            players=list(contenders),
            flips=[dump(f) for f in flips],
            winner=winner,
        )
        if winner is not None:
            break
        contenders = leaders
    _next_setup_step(ctx, "deployment_flip")


@command("choose_first_deployer")
def _choose_first_deployer(ctx: Ctx, args: Args) -> None:
    require_awaiting(ctx, "first_deployer")
    ctx.emit("first_deployer_chosen", player=player_arg(ctx, args))
    _next_setup_step(ctx, "first_deployer")


@command("name_vip")
def _name_vip(ctx: Ctx, args: Args) -> None:
    require_awaiting(ctx, "vip")
    player = ctx.state.awaiting_player
    assert player is not None
    unit = own_fighter(ctx, args, player)
    ctx.emit("vip_named", player=player, unit=unit.id)
    _next_in_setup_round(ctx, player, "vip")


def _next_in_setup_round(ctx: Ctx, player: int, step: str) -> None:
    order = deployment_order(ctx.state)
    position = order.index(player)
    if position + 1 < len(order):
        ctx.emit("awaiting", what=step, player=order[position + 1])
    else:
        _next_setup_step(ctx, step)


@command("assign_flags")
def _assign_flags(ctx: Ctx, args: Args) -> None:
    """Breakthrough: a player hands out up to 3 flag markers, one per model."""
    require_awaiting(ctx, "flags")
    player = ctx.state.awaiting_player
    assert player is not None
    ids = args.ints("units", most=3)
    if len(set(ids)) != len(ids):
        raise refuse("flag_per_model", "A model carries at most one flag marker.")
    units = [own_fighter(ctx, Args({"unit": i}), player) for i in ids]
    markers = [
        Objective(
            id=f"M{player + 1}.{n + 1}",
            kind=ObjectiveKind.FLAG.value,
            side=player,
            state=ObjectiveState.CARRIED,
            carrier=unit.id,
        )
        for n, unit in enumerate(units)
    ]
    ctx.emit(
        "flags_assigned", player=player, units=[u.id for u in units], markers=dump(tuple(markers))
    )
    _next_in_setup_round(ctx, player, "flags")


@command("start_game")
def _start_game(ctx: Ctx, args: Args) -> None:
    require_awaiting(ctx, "ready")
    rounds.start_round(ctx, 1)
