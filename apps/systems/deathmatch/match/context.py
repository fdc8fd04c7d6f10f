"""The decision context shared by every command: the working state, the command registry and
the checks most commands begin with (phase, turn, AP, CP).
"""

from __future__ import annotations

import random

from apps.systems.core.deck import Flip
from apps.systems.core.engine import Decision
from apps.systems.core.errors import RuleViolation
from apps.systems.core.match import Args, CommandHandlers
from apps.systems.deathmatch.match.apply import apply
from apps.systems.deathmatch.match.modes import Mode, mode_by_slug
from apps.systems.deathmatch.match.state import (
    MAX_REROLLS_PER_FLIP,
    MatchState,
    Phase,
    Unit,
    UnitKind,
)


class Ctx(Decision[MatchState]):
    """The decision in progress: the working state and the events emitted so far."""

    def __init__(self, state: MatchState, rng: random.Random, *, probe: bool = False) -> None:
        super().__init__(apply, state, rng, probe=probe)
        self.round_end_scoring = False  # VP scored now count as reached at the same moment

    @property
    def mode(self) -> Mode:
        return mode_by_slug(self.state.mode)


def refuse(code: str, message: str) -> RuleViolation:
    return RuleViolation(code, message)


COMMANDS: CommandHandlers[Ctx] = CommandHandlers()
command = COMMANDS.command


def no_flip_waiting(ctx: Ctx) -> None:
    if ctx.state.attack or ctx.state.pending or ctx.state.disengage:
        raise refuse("flip_pending", "Finish the flip in progress first: reroll or accept it.")


def require_awaiting(ctx: Ctx, what: str) -> None:
    no_flip_waiting(ctx)
    if ctx.state.awaiting != what:
        raise refuse("not_now", AWAITING_MESSAGES.get(ctx.state.awaiting, "Not now."))


AWAITING_MESSAGES = {
    "gadgets": "First every player chooses or flips a gadget.",
    "deployment_flip": "First flip for deployment.",
    "first_deployer": "First the winner of the deployment flip names who deploys first.",
    "vip": "First every player names a VIP.",
    "flags": "First every player hands out their flag markers.",
    "ready": "Deploy the teams, then start the game.",
    "initiative": "First flip for initiative.",
    "starter": "First the initiative winner chooses who starts.",
    "king": "First the starting player names a king.",
    "king_unclear": "First a new king must be named.",
    "score": "The round is over: score it first.",
    "": "Not now.",
}


def in_activation(ctx: Ctx) -> None:
    no_flip_waiting(ctx)
    if ctx.state.phase not in (Phase.ACTIVATION, Phase.DRONES):
        raise refuse("not_now", "That is only possible in the activation phase.")
    if ctx.state.awaiting:
        raise refuse("not_now", AWAITING_MESSAGES.get(ctx.state.awaiting, "Not now."))


def active_unit(ctx: Ctx, args: Args) -> Unit:
    """The activated unit, which the command must name (a stale tap names another one)."""
    in_activation(ctx)
    if ctx.state.active is None:
        raise refuse("no_active_unit", "No model is activated: activate one first.")
    unit = ctx.state.unit(ctx.state.active)
    if args.has("unit") and args.integer("unit", lo=0) != unit.id:
        raise refuse("not_active", f"{ctx.state.unit(args.integer('unit')).name} is not activated.")
    return unit


def player_arg(ctx: Ctx, args: Args, name: str = "player") -> int:
    return ctx.state.player(args.integer(name, lo=0, hi=len(ctx.state.players) - 1)).index


def unit_arg(ctx: Ctx, args: Args, name: str = "unit") -> Unit:
    return ctx.state.unit(args.integer(name, lo=0))


def spend_ap(ctx: Ctx, unit: Unit, ap: int) -> None:
    if unit.ap < ap:
        raise refuse("not_enough_ap", f"{unit.name} has {unit.ap} AP left; this costs {ap} AP.")
    if ap:
        ctx.emit("ap_spent", unit=unit.id, ap=ap)


def spend_cp(ctx: Ctx, player: int, cp: int, reason: str) -> None:
    have = ctx.state.player(player).cp
    if have < cp:
        raise refuse(
            "not_enough_cp",
            f"{ctx.state.player(player).name} has {have} command points; this costs {cp}.",
        )
    ctx.emit("cp_spent", player=player, cp=cp, reason=reason)


def lose_bonuses(ctx: Ctx, unit: Unit, *, keep: str = "") -> None:
    """Aim and Wuchtschlag are lost by any action but the attack they are for or readiness."""
    lost = [name for name in ("aim", "power_strike") if getattr(unit, name) and name != keep]
    if lost:
        ctx.emit("bonus_lost", unit=unit.id, bonuses=lost)


def can_activate(state: MatchState, unit: Unit) -> bool:
    if not unit.in_play or unit.activated:
        return False
    if state.phase is Phase.DRONES:
        return unit.kind is UnitKind.DRONE
    return unit.kind is UnitKind.FIGHTER


def activatable(state: MatchState, player: int) -> tuple[Unit, ...]:
    return tuple(u for u in state.units if u.player == player and can_activate(state, u))


def seat_order(state: MatchState, first: int) -> tuple[int, ...]:
    n = len(state.players)
    return tuple((first + i) % n for i in range(n))


def own_fighter(ctx: Ctx, args: Args, player: int, name: str = "unit") -> Unit:
    unit = unit_arg(ctx, args, name)
    if unit.player != player or not unit.team_member or not unit.in_play:
        raise refuse(
            "not_your_fighter", f"Choose a fighter of {ctx.state.player(player).name}'s team."
        )
    return unit


def can_reroll(state: MatchState, player: int, flipped: Flip, used: int) -> bool:
    return (
        state.player(player).cp >= 1
        and used < MAX_REROLLS_PER_FLIP
        and any(not c.rerolled and c.value != 0 for c in flipped.cards)
    )
