"""The flow of a round: casualties removed after an exchange, whose turn follows, the NPC
phase, scoring, the next round and the end of the game. Called by the command handlers once
what they resolved has been applied."""

from __future__ import annotations

import random
from typing import Any

from apps.systems.core.match import Event
from apps.systems.core.results import standing
from apps.systems.grundregeln.match.context import Ctx
from apps.systems.grundregeln.match.rules import (
    NPC_MOVES_PER_PLAYER,
    can_activate,
    next_turn,
    side_left,
)
from apps.systems.grundregeln.match.state import MatchState, Model, Phase
from apps.systems.grundregeln.scenario import Scenario, Victory


def _kill_vp(scenario: Scenario, model: Model) -> dict[str, Any] | None:
    """The VP a side scores for eliminating ``model`` (none for a model no attack killed)."""
    if model.killed_by is None:
        return None
    points = scenario.vp_npc if model.side is None else scenario.vp_kill
    if not points:
        return None
    return {
        "player": model.killed_by,
        "points": points,
        "reason": "npc_kill" if model.side is None else "kill",
        "detail": model.name,
    }


def remove_casualties(ctx: Ctx) -> None:
    state = ctx.state
    dead = [m for m in state.models if not m.out and m.lp == 0]
    if not dead:
        return
    scenario = state.scenario
    scored = [_kill_vp(scenario, model) for model in dead] if scenario is not None else []
    ctx.emit("casualties_removed", units=[m.id for m in dead], vp=[v for v in scored if v])


def game_over_by_wipe(ctx: Ctx) -> bool:
    """A side with no model left ends the game at once: the other side wins."""
    left = [side_left(ctx.state, p.index) for p in ctx.state.players]
    if all(left):
        return False
    winners = [p.index for p in ctx.state.players if left[p.index]]
    ctx.emit("game_ended", winners=winners, draw=not winners, reason="wiped_out")
    return True


def final_result(ctx: Ctx, reason: str) -> None:
    """The game ends and is decided as the scenario counts at its end: the models left (Last
    Standing) or the VP; a tie is a draw."""
    state = ctx.state
    assert state.scenario is not None
    if state.scenario.victory is Victory.LAST_STANDING:
        scores = {p.index: side_left(state, p.index) for p in state.players}
    else:
        scores = {p.index: p.total_vp for p in state.players}
    result = standing(scores)
    winners = [] if result.draw else list(result.winners)
    ctx.emit("game_ended", winners=winners, draw=result.draw, reason=reason)


def round_over(ctx: Ctx) -> None:
    state = ctx.state
    assert state.scenario is not None
    if state.scenario.rounds and state.round >= state.scenario.rounds:
        final_result(ctx, "last_round")
        return
    ctx.emit("round_started", round=state.round + 1)
    _open_round(ctx)


def _open_round(ctx: Ctx) -> None:
    """What a round opens with before its start roll: if the scenario says who begins
    ("wenn Szenario nichts anderes vorgibt"), that player starts, with no roll."""
    assert ctx.state.scenario is not None
    fixed = ctx.state.scenario.starter.player
    if fixed is not None:
        ctx.emit("starter_chosen", player=fixed, by="scenario")


def first_round_events(state: MatchState, rng: random.Random) -> list[Event]:
    """The events that open round 1 right after ``match_started`` (``state`` with it applied),
    stamped with the same command number: the path every later round opens through."""
    ctx = Ctx(state, rng, number=state.command_no)
    _open_round(ctx)
    return ctx.events


def npc_move_turn(state: MatchState, after: int | None) -> int | None:
    """Players move passive NPCs alternately, one at a time, up to two different ones each, the
    start player first, each NPC once; ``after`` is the player who moved last (None: the phase
    begins)."""
    if not any(m.passive_npc and m.in_play and not m.activated for m in state.models):
        return None
    if after is None:
        first = state.starter if state.starter is not None else 0
        order = (first, state.other(first))
    else:
        order = (state.other(after), after)
    return next(
        (
            player
            for player in order
            if not state.players[player].npc_done
            and state.players[player].npc_moves < NPC_MOVES_PER_PLAYER
        ),
        None,
    )


def continue_npc_phase(ctx: Ctx) -> None:
    state = ctx.state
    if state.phase is Phase.NPC_ACTIONS and any(
        m.active_npc and m.standing and not m.activated for m in state.models
    ):
        return
    if state.phase is Phase.NPC_ACTIONS:
        turn = npc_move_turn(state, None)
        if turn is not None:
            ctx.emit("npc_phase_started", step="moves", turn=turn)
            return
    elif state.phase is Phase.NPC_MOVES and state.turn is not None:
        return
    _end_of_round(ctx)


def _end_of_round(ctx: Ctx) -> None:
    assert ctx.state.scenario is not None
    if ctx.state.scenario.objectives:
        ctx.emit("scoring_started")
    else:
        round_over(ctx)


def action_phase_over(ctx: Ctx) -> None:
    """Rundenende: status tokens go; then the NPC phase, scoring and the next round."""
    ctx.emit("round_ended")
    state = ctx.state
    if any(m.active_npc and m.standing for m in state.models):
        ctx.emit("npc_phase_started", step="actions")
        return
    turn = npc_move_turn(state, None)
    if turn is not None:
        ctx.emit("npc_phase_started", step="moves", turn=turn)
        return
    _end_of_round(ctx)


def end_activation(ctx: Ctx, side: int) -> None:
    """The side's activation is over: the other goes on, or the action phase ends."""
    turn = next_turn(ctx.state, side)
    ctx.emit("activation_ended", next=turn)
    if turn is None:
        action_phase_over(ctx)


def after_exchange(ctx: Ctx, actor: Model) -> None:
    remove_casualties(ctx)
    if game_over_by_wipe(ctx):
        return
    if ctx.state.phase is Phase.NPC_ACTIONS:
        ctx.emit("activation_ended", next=None)
        continue_npc_phase(ctx)
        return
    pending = ctx.state.pending
    if ctx.state.phase is Phase.NPC_MOVES and pending is not None and pending.mover is not None:
        mover = pending.mover
        after = ctx.state.with_player(mover, npc_moves=ctx.state.players[mover].npc_moves + 1)
        ctx.emit(
            "npc_moved",
            player=mover,
            unit=actor.id,
            action=pending.action.action,
            next=npc_move_turn(after, mover),
        )
        continue_npc_phase(ctx)
        return
    assert actor.side is not None
    end_activation(ctx, actor.side)


def catch_up_turn(ctx: Ctx) -> None:
    """After a model left the game outside an exchange, the turn may have nobody to activate."""
    state = ctx.state
    if state.phase is Phase.ACTIONS and state.turn is not None and state.rallied is None:
        if not can_activate(state, state.turn):
            end_activation(ctx, state.turn)
    elif state.phase is Phase.NPC_ACTIONS:
        continue_npc_phase(ctx)


def after_correction(ctx: Ctx) -> None:
    """A model's LP changed outside an exchange (a fall, a correction by hand): casualties go
    at once, which may end the game or the turn."""
    if ctx.state.pending is not None:
        return
    remove_casualties(ctx)
    if not game_over_by_wipe(ctx):
        catch_up_turn(ctx)
