"""The round (SPEC §1.4): command pools, initiative with rerolls and its tie rules, whose turn
it is, activations, passing, coordinated activations, Befehl, and the end of an activation
with fire, poison and shock.
"""

from __future__ import annotations

from apps.systems.core.deck import flip
from apps.systems.core.match import Args
from apps.systems.deathmatch.match import attacks, outcomes, setup
from apps.systems.deathmatch.match.context import (
    Ctx,
    activatable,
    active_unit,
    can_activate,
    command,
    in_activation,
    lose_bonuses,
    no_flip_waiting,
    own_fighter,
    player_arg,
    refuse,
    require_awaiting,
    seat_order,
    spend_cp,
    unit_arg,
)
from apps.systems.deathmatch.match.rules_text import NamedAbility
from apps.systems.deathmatch.match.serial import dump
from apps.systems.deathmatch.match.state import ACTIVATION_AP, MatchState, Phase, UnitKind


def _command_pool(state: MatchState, player: int) -> int:
    fighters = [u for u in state.team(player) if u.in_play]
    harmony = 1 if state.player(player).harmony else 0
    return sum(u.profile.command for u in fighters) + harmony


ERLOESER = 8
ERLOESER_ROUNDS = (2, 4)


def start_round(ctx: Ctx, number: int) -> None:
    """The start phase: an Erlöser still unused lapses when its round is over ("ausschließlich
    am Anfang der zweiten, und vierten Runde aktiv", SPEC §6), then the command pools."""
    lapsed = [
        g.id
        for g in ctx.state.gadgets
        if g.option == ERLOESER and g.active and number not in ERLOESER_ROUNDS
    ]
    if lapsed:
        ctx.emit("gadgets_lapsed", gadgets=lapsed)
    ctx.emit(
        "round_started",
        round=number,
        cp=[_command_pool(ctx.state, p.index) for p in ctx.state.players],
    )


def free_initiative_reroll(state: MatchState, player: int) -> bool:
    """Präventivschlag: the team may reroll its initiative flip once per round for free."""
    return not state.player(player).free_reroll_used and any(
        u.in_play and NamedAbility.PRE_EMPTIVE in u.abilities for u in state.team(player)
    )


@command("flip_initiative")
def _flip_initiative(ctx: Ctx, args: Args) -> None:
    require_awaiting(ctx, "initiative")
    players = [p.index for p in ctx.state.players]
    flips = [flip(ctx.state.player(p).deck, 0, ctx.rng) for p in players]
    # The loser decides first whether to reroll; between equal cards, who would lose the tie.
    tie_order = _initiative_tie_order(ctx.state)
    ranked = sorted(players, key=lambda p: (flips[p].result, -tie_order.index(p)))
    deciders = [
        p
        for p in ranked
        if flips[p].result != 0
        and not ctx.state.player(p).eliminated
        and (ctx.state.player(p).cp >= 1 or free_initiative_reroll(ctx.state, p))
    ]
    ctx.emit("initiative_flipped", flips=[dump(f) for f in flips], deciders=deciders)
    if not deciders:
        resolve_initiative(ctx)


def resolve_initiative(ctx: Ctx) -> None:
    pending = ctx.state.pending
    assert pending is not None
    results = [f.result if f is not None else -1 for f in pending.flips]
    best = max(results)
    tied = [p for p, r in enumerate(results) if r == best]
    tie_order = _initiative_tie_order(ctx.state)
    winner = next(p for p in tie_order if p in tied)
    # The initiative order (drones activate in it): by result, ties as for the winner.
    ranking = sorted(range(len(results)), key=lambda p: (-results[p], tie_order.index(p)))
    ctx.emit("initiative_won", winner=winner, results=results, tie=len(tied) > 1, ranking=ranking)


def _initiative_tie_order(state: MatchState) -> list[int]:
    """Every player, the one who wins an initiative tie first: who activated all their models
    first last round; in round 1 who deployed first (then in deployment order)."""
    deployment = list(setup.deployment_order(state))
    if state.round == 1:
        return deployment
    finished = sorted(
        (p for p in state.players if p.finished_round == state.round - 1),
        key=lambda p: p.finish_order,
    )
    ranking = [p.index for p in finished]
    return ranking + [p for p in deployment if p not in ranking]


@command("choose_starter")
def _choose_starter(ctx: Ctx, args: Args) -> None:
    require_awaiting(ctx, "starter")
    starter = player_arg(ctx, args)
    if ctx.state.player(starter).eliminated:
        raise refuse("eliminated", "That player is out of the game.")
    ctx.emit("starter_chosen", player=starter, order=list(ctx.state.initiative_order))
    if ctx.mode.king and not any(u.king for u in ctx.state.units):
        ctx.emit("awaiting", what="king", player=starter)
        return
    _begin_activations(ctx)


@command("name_king")
def _name_king(ctx: Ctx, args: Args) -> None:
    no_flip_waiting(ctx)
    if ctx.state.awaiting not in ("king", "king_unclear"):
        raise refuse("not_now", "No king is to be named now.")
    player = ctx.state.awaiting_player
    assert player is not None
    unit = own_fighter(ctx, args, player)
    first = ctx.state.awaiting == "king"
    ctx.emit("king_named", unit=unit.id, player=player)
    ctx.emit("awaiting", what="", player=None)
    if first:
        _begin_activations(ctx)


def _begin_activations(ctx: Ctx) -> None:
    """Drones go first, one per player in initiative order; then the starter activates."""
    if any(u.kind is UnitKind.DRONE and u.in_play for u in ctx.state.units):
        ctx.emit("phase_changed", phase=Phase.DRONES.value)
        for player in ctx.state.initiative_order:
            if activatable(ctx.state, player):
                ctx.emit("turn_changed", player=player)
                return
    ctx.emit("phase_changed", phase=Phase.ACTIVATION.value)
    _turn_to_next(ctx, ctx.state.starter, include_first=True)


def _turn_to_next(ctx: Ctx, first: int | None, *, include_first: bool) -> None:
    """Give the turn to the first player from ``first`` on (in seat order) who can still
    activate; when nobody can, the activation phase is over."""
    assert first is not None
    order = seat_order(ctx.state, first)
    candidates = order if include_first else order[1:] + order[:1]
    for player in candidates:
        if activatable(ctx.state, player):
            ctx.emit("turn_changed", player=player)
            return
    ctx.emit("round_ended", round=ctx.state.round)


@command("activate")
def _activate(ctx: Ctx, args: Args) -> None:
    in_activation(ctx)
    if ctx.state.active is not None:
        raise refuse("already_active", f"{ctx.state.unit(ctx.state.active).name} is activated.")
    unit = unit_arg(ctx, args)
    if unit.player != ctx.state.turn:
        raise refuse("not_your_turn", f"It is {ctx.state.player(ctx.state.turn or 0).name}'s turn.")
    if not can_activate(ctx.state, unit):
        if unit.activated:
            raise refuse("already_activated", f"{unit.name} has been activated this round.")
        if ctx.state.phase is Phase.DRONES:
            raise refuse("drones_first", "The drones activate first.")
        raise refuse("cannot_activate", f"{unit.name} cannot be activated.")
    ctx.emit("unit_activated", unit=unit.id, ap=1 if unit.ordered else ACTIVATION_AP)


@command("pass")
def _pass(ctx: Ctx, args: Args) -> None:
    in_activation(ctx)
    if ctx.state.phase is not Phase.ACTIVATION or ctx.state.active is not None:
        raise refuse("not_now", "You can pass only instead of activating a model.")
    player = ctx.state.turn
    assert player is not None
    if ctx.state.player(player).passed:
        raise refuse("already_passed", "Your team has passed this round already.")
    if ctx.state.pass_blocked == player:
        raise refuse("pass_back", "Your opponent passed: you must activate a model.")
    if ctx.state.coordinated or ctx.state.second_due:
        raise refuse("not_now", "A coordinated activation cannot be passed.")
    if not any(activatable(ctx.state, p) for p in ctx.state.opponents(player)):
        raise refuse("nobody_to_pass_to", "Nobody else has a model left to activate.")
    ctx.emit("passed", player=player)
    order = seat_order(ctx.state, player)[1:]
    nxt = next(p for p in order if activatable(ctx.state, p))
    ctx.emit("turn_changed", player=nxt, pass_blocked=nxt)


@command("coordinated_activation")
def _coordinated_activation(ctx: Ctx, args: Args) -> None:
    in_activation(ctx)
    player = ctx.state.turn
    assert player is not None
    if ctx.state.phase is not Phase.ACTIVATION or ctx.state.active is not None:
        raise refuse("not_now", "Declare a coordinated activation before activating a model.")
    if ctx.state.coordinated:
        raise refuse("not_now", "This turn is a coordinated activation already.")
    if len(activatable(ctx.state, player)) < 2:
        raise refuse("coordinated_needs_two", "A coordinated activation needs two models.")
    spend_cp(ctx, player, 2, "coordinated_activation")
    ctx.emit("coordinated_activation", player=player)


@command("order")
def _order(ctx: Ctx, args: Args) -> None:
    """Befehl (1 CP): a model respawned before its activation gets 1 AP and may activate."""
    in_activation(ctx)
    unit = unit_arg(ctx, args)
    if not unit.order_allowed:
        raise refuse(
            "order_not_allowed",
            "Befehl is only for a model that respawned before it was activated this round.",
        )
    spend_cp(ctx, unit.player, 1, "order")
    ctx.emit("order_given", unit=unit.id)


@command("end_activation")
def _end_activation(ctx: Ctx, args: Args) -> None:
    """Ends the activation: readiness for 1 CP if asked, then fire, poison and shock -- except
    markers the model received during this very activation (by a reaction): "at the end of its
    next activation" is the one after (decision; the rulebook does not say)."""
    unit = active_unit(ctx, args)
    if args.boolean("readiness"):
        if not unit.team_member:
            raise refuse(
                "no_command_points", f"{unit.name} is not part of the team: no command points."
            )
        if unit.readiness:
            raise refuse("already_ready", f"{unit.name} is in readiness already.")
        spend_cp(ctx, unit.player, 1, "readiness")
        ctx.emit("readiness_taken", unit=unit.id, action=False)
    unit = ctx.state.unit(unit.id)
    if unit.in_play and unit.markers.fire and "fire" not in unit.fresh_markers:
        strength = unit.markers.fire
        credit = unit.markers.fire_by if len(unit.markers.fire_by) == 1 else ()
        ctx.emit("markers_cleared", unit=unit.id, markers=["fire"])
        attacks.auto_hits(ctx, unit, [("fire", strength)], then="end_activation", credit=credit)
        return
    finish_activation(ctx, unit.id)


def finish_activation(ctx: Ctx, unit_id: int) -> None:
    unit = ctx.state.unit(unit_id)
    if unit.in_play and unit.markers.poison and "poison" not in unit.fresh_markers:
        poison = unit.markers.poison
        credit = unit.markers.poison_by if len(unit.markers.poison_by) == 1 else ()
        ctx.emit("poison_resolved", unit=unit.id, lp=poison)
        lose_bonuses(ctx, ctx.state.unit(unit.id))  # lost LP are damage: aim and Wuchtschlag go
        if ctx.state.unit(unit.id).lp <= 0:
            outcomes.knock_out(ctx, unit.id, credit=credit, cause="poison", by_unit=None)
    unit = ctx.state.unit(unit_id)
    if unit.in_play and unit.markers.shock and "shock" not in unit.fresh_markers:
        ctx.emit("markers_cleared", unit=unit.id, markers=["shock"])
    if ctx.state.active == unit_id and ctx.state.phase is not Phase.OVER:
        ctx.emit("activation_ended", unit=unit_id)


def settle(ctx: Ctx) -> None:
    """After a command: once nothing waits, an ended activation passes the turn on -- and so
    does a turn whose player has nothing left to activate (a correction knocked out its last
    model between activations): "Wenn ein Spieler kein Modell mehr zum Aktivieren hat, darf
    sein Gegner nacheinander seine restlichen Modelle aktivieren" (SPEC §6)."""
    state = ctx.state
    if state.phase is Phase.OVER or state.attack or state.pending or state.disengage:
        return
    if state.awaiting != "":
        return
    if state.turn_over or _nothing_to_activate(state):
        _advance_turn(ctx)


def _nothing_to_activate(state: MatchState) -> bool:
    """Between activations, the player whose turn it is has no model left to activate."""
    return (
        state.phase in (Phase.ACTIVATION, Phase.DRONES)
        and state.turn is not None
        and state.active is None
        and not activatable(state, state.turn)
    )


def _advance_turn(ctx: Ctx) -> None:
    state = ctx.state
    current = state.turn
    assert current is not None
    order = seat_order(state, current)
    for player in order:
        p = state.player(player)
        if (
            not activatable(state, player)
            and p.finished_round != state.round
            and state.phase is Phase.ACTIVATION
        ):
            done = sum(1 for q in ctx.state.players if q.finished_round == state.round)
            ctx.emit("player_finished", player=player, order=done + 1)
    if state.coordinated and activatable(ctx.state, current):
        ctx.emit("second_activation", player=current)
        return
    if state.phase is Phase.DRONES:
        later = state.initiative_order[state.initiative_order.index(current) + 1 :]
        for player in later:
            if activatable(ctx.state, player):
                ctx.emit("turn_changed", player=player)
                return
        ctx.emit("phase_changed", phase=Phase.ACTIVATION.value)
        _turn_to_next(ctx, state.starter, include_first=True)
        return
    _turn_to_next(ctx, current, include_first=False)
