"""Before round 1 and at each round's start: missions, the deployment roll-off, AP refilled,
an operator paying its telematon's shock tokens.
"""

from __future__ import annotations

from typing import Any

from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import Args
from apps.systems.universalis.match import rules
from apps.systems.universalis.match.context import (
    Ctx,
    command,
    decided_roll,
    player_arg,
    refuse,
    roll_data,
)
from apps.systems.universalis.match.missions import MISSIONS
from apps.systems.universalis.match.state import MAX_AP, MatchState, Phase, Unit


@command("choose_mission")
def _choose_mission(ctx: Ctx, args: Args) -> None:
    """Each player picks a mission in secret; both are revealed once both have picked (5.2)."""
    player = player_arg(ctx, args)
    slug = args.text("mission", choices=[m.slug for m in MISSIONS])
    if ctx.state.phase is not Phase.SETUP or ctx.state.missions_revealed:
        raise refuse("not_now", "The missions are chosen before deployment.")
    if ctx.state.players[player].mission is not None:
        raise refuse("mission_chosen", "This player has chosen a mission already.")
    ctx.emit("mission_chosen", player=player, mission=slug, players={player: {"mission": slug}})
    if all(p.mission is not None for p in ctx.state.players):
        ctx.emit(
            "missions_revealed",
            missions=[p.mission for p in ctx.state.players],
            state={"missions_revealed": True},
        )


def _leader(state: MatchState, player: int) -> Unit:
    team = state.team(player)
    return next((u for u in team if u.card.group_leader), team[0])


@command("roll_deployment")
def _roll_deployment(ctx: Ctx, args: Args) -> None:
    """Comparative EH roll of the group leaders; a tie goes to the higher EH, then to chance
    (5.4). The winner marks a zone and deploys first."""
    if ctx.state.phase is not Phase.SETUP or ctx.state.deployment_winner is not None:
        raise refuse("not_now", "The deployment roll-off is made once, before round 1.")
    if not ctx.state.missions_revealed:
        raise refuse("missions_first", "First every player chooses a mission.")
    a, b = _leader(ctx.state, 0), _leader(ctx.state, 1)
    ea, eb = rules.attribute(ctx.state, a, "eh"), rules.attribute(ctx.state, b, "eh")
    outcome, roll = ctx.comparative(
        _("Deployment: %(a)s against %(b)s (EH)"), ea, eb, a=a.name, b=b.name
    )
    rolls = [roll]
    if outcome == "tie" and ea != eb:
        outcome = "win" if ea > eb else "loss"
        rolls.append(decided_roll(ctx, a if ea > eb else b, _("Tie: %(unit)s has the higher EH")))
    while outcome == "tie":
        outcome, roll = ctx.comparative(_("Deployment tie: chance decides"), 0, 0)
        rolls.append(roll)
    winner = 0 if outcome == "win" else 1
    ctx.emit(
        "deployment_rolled",
        winner=winner,
        rolls=[roll_data(r) for r in rolls],
        state={"deployment_winner": winner},
    )


@command("start_game")
def _start_game(ctx: Ctx, args: Args) -> None:
    if ctx.state.phase is not Phase.SETUP or ctx.state.deployment_winner is None:
        raise refuse("deployment_first", "First make the deployment roll-off and deploy.")
    start_round(ctx, 1)


def start_round(ctx: Ctx, number: int) -> None:
    """AP refilled to 6 (telematons 2) plus the carried AP, at most 12; shock tokens cost 1 AP
    each (5.5.1, 11.5); the panicking models are due to move (``panic_move``)."""
    units: dict[int, dict[str, Any]] = {}
    for unit in ctx.state.units:
        if not unit.in_play:
            continue
        ap = min(MAX_AP, unit.card.base_ap + unit.ap)
        paid = min(unit.shock_tokens, ap)
        units[unit.id] = {
            "ap": ap - paid,
            "shock_tokens": unit.shock_tokens - paid,
            "shock_paid": paid if unit.telematon else 0,
            "activated": False,
        }
    ctx.emit(
        "round_started",
        round=number,
        units=units,
        players={p.index: {"pick": None} for p in ctx.state.players},
        state={
            "round": number,
            "phase": Phase.ORDER,
            "active": None,
            "follower": None,
            "last_action": None,
            "panic_moves_due": tuple(u.id for u in ctx.state.units if u.in_play and u.panic),
        },
    )


@command("operator_takes_shock")
def _operator_takes_shock(ctx: Ctx, args: Args) -> None:
    """At the start of a round an operator may remove its telematon's shock tokens with its own
    AP (19.7), 1 AP each: first the tokens left because the telematon's AP ran out, then those
    the telematon paid this round (it gets that AP back)."""
    unit = ctx.unit(args.integer("unit", lo=0))
    if ctx.state.phase is not Phase.ORDER or any(u.activated for u in ctx.state.units):
        raise refuse("not_now", "Only at the start of a round, before the first initiative.")
    tokens = unit.shock_tokens + unit.shock_paid
    if not unit.telematon or tokens <= 0 or unit.operator is None:
        raise refuse("no_shock_paid", f"{unit.name} has no shock token this round.")
    operator = ctx.unit(unit.operator)
    if not operator.in_play or operator.ap < 1:
        raise refuse("not_enough_ap", f"{operator.name} has no AP to pay with.")
    relieved = (
        {"shock_tokens": unit.shock_tokens - 1}
        if unit.shock_tokens
        else {"ap": unit.ap + 1, "shock_paid": unit.shock_paid - 1}
    )
    ctx.emit(
        "operator_took_shock",
        unit=unit.id,
        operator=operator.id,
        units={operator.id: {"ap": operator.ap - 1}, unit.id: relieved},
    )
