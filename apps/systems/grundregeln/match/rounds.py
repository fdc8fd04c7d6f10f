"""The commands around the exchanges: the round start roll and who begins, the NPC phase (the
scenario's active NPCs act, the players move passive ones) and the scoring at the round's end."""

from __future__ import annotations

from apps.systems.core.errors import RuleViolation
from apps.systems.core.match import Args
from apps.systems.grundregeln.match import flow
from apps.systems.grundregeln.match.context import Ctx, command, fraction, roll_data
from apps.systems.grundregeln.match.rolls import round_start_chances
from apps.systems.grundregeln.match.rules import (
    NPC_ACTION,
    check_fleeing,
    reaction_sides,
    require_no_pending,
    side_morale,
)
from apps.systems.grundregeln.match.state import MatchState, Phase
from apps.systems.grundregeln.tables import NPC_MOVES


@command("roll_round_start")
def _roll_round_start(ctx: Ctx, args: Args) -> None:
    state = ctx.state
    if state.phase is not Phase.ROUND_START:
        raise RuleViolation("not_now", "The round start roll comes at the start of a round.")
    morale = [side_morale(state, p.index) for p in state.players]
    rolls = []
    while True:
        pair = [ctx.roll(1) for _ in state.players]
        rolls.append([roll_data(roll) for roll in pair])
        totals = [roll.total + morale[i] for i, roll in enumerate(pair)]
        if totals[0] != totals[1]:
            break
    ctx.emit(
        "round_start_rolled",
        rolls=rolls,
        morale=morale,
        winner=0 if totals[0] > totals[1] else 1,
        odds=[fraction(chance) for chance in round_start_chances(state)],
    )


@command("choose_starter")
def _choose_starter(ctx: Ctx, args: Args) -> None:
    state = ctx.state
    if state.phase is not Phase.STARTER:
        raise RuleViolation("not_now", "Roll for the round start first.")
    player = args.integer("player", lo=0, hi=len(state.players) - 1)
    ctx.emit("starter_chosen", player=player)


@command("skip_npc")
def _skip_npc(ctx: Ctx, args: Args) -> None:
    state = ctx.state
    model = state.model(args.integer("unit"))
    if state.phase is not Phase.NPC_ACTIONS or not model.active_npc or model.activated:
        raise RuleViolation("not_now", "Only an active NPC that has not acted can pass.")
    require_no_pending(state)
    check_fleeing(state, model)
    ctx.emit("npc_skipped", unit=model.id)
    flow.continue_npc_phase(ctx)


def _npc_mover(state: MatchState, args: Args) -> int:
    """The player whose NPC move it is (a ``player`` named in the command must be them)."""
    if state.phase is not Phase.NPC_MOVES or state.turn is None:
        raise RuleViolation("not_now", "Passive NPCs are moved in the NPC phase.")
    require_no_pending(state)
    player = args.integer("player", state.turn, lo=0, hi=1)
    if player != state.turn:
        raise RuleViolation("not_your_turn", "It is the other player's NPC move.")
    return player


@command("move_npc")
def _move_npc(ctx: Ctx, args: Args) -> None:
    """Declare a passive NPC's move, or its scenario action ("NPCs können nur NPC-Aktionen
    durchführen ... oder sich bewegen"): the other player's models may react before it is
    resolved ("Reaktionen können in der Phase noch verwendet werden")."""
    state = ctx.state
    model = state.model(args.integer("unit"))
    key = args.text("action", "walk", choices=(*NPC_MOVES, NPC_ACTION))
    mover = _npc_mover(state, args)
    if not model.passive_npc or not model.in_play:
        raise RuleViolation("not_passive_npc", "Players move passive NPCs only.")
    if model.activated:
        raise RuleViolation("npc_already_moved", f"{model.name} has been moved in this phase.")
    ctx.emit(
        "action_declared",
        unit=model.id,
        action=key,
        target=None,
        weapon=None,
        modifier=0,
        note=args.text("note", "")[:120] if key == NPC_ACTION else "",
        reacting=list(reaction_sides(state, model, mover)),
        mover=mover,
    )


@command("end_npc_moves")
def _end_npc_moves(ctx: Ctx, args: Args) -> None:
    player = _npc_mover(ctx.state, args)
    after = ctx.state.with_player(player, npc_done=True)
    ctx.emit("npc_moves_done", player=player, next=flow.npc_move_turn(after, player))
    flow.continue_npc_phase(ctx)


def _holders(state: MatchState, args: Args) -> list[int | None]:
    assert state.scenario is not None
    raw = args.raw("holders") if args.has("holders") else []
    if not isinstance(raw, list) or len(raw) != state.scenario.objectives:
        raise RuleViolation("invalid_args", "Name who holds each objective (or null).")
    for holder in raw:
        if holder is not None and (
            not isinstance(holder, int) or isinstance(holder, bool) or holder not in (0, 1)
        ):
            raise RuleViolation("invalid_args", "A holder is a player index or null.")
    return list(raw)


@command("score_round")
def _score_round(ctx: Ctx, args: Args) -> None:
    state = ctx.state
    if state.phase is not Phase.SCORING:
        raise RuleViolation("not_now", "Objectives are scored at the end of the round.")
    holders = _holders(state, args)
    assert state.scenario is not None
    vp = [
        {
            "player": holder,
            "points": state.scenario.vp_objective,
            "reason": "objective",
            "detail": name,
        }
        for holder, name in zip(holders, state.scenario.objective_names, strict=True)
        if holder is not None
    ]
    ctx.emit("round_scored", holders=holders, vp=vp)
    flow.round_over(ctx)
