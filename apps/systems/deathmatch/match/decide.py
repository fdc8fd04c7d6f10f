"""``decide(state, command, rng)``: the rules of a Deathmatch match (SPEC §1.3-1.8).

Each command handler checks that the command is legal now and emits the events it causes;
every emitted event is applied at once to a working copy of the state, so a handler always sees
the consequences of what it emitted. A ``RuleViolation`` anywhere discards every event: an
illegal command changes nothing.

Flips wait for their player when a reroll is possible (1 CP per card, at most 3 per flip, each
card once, a 0 never) and the command asked to confirm flips; ``reroll`` and ``accept`` then
continue the procedure where it stopped.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

from apps.systems.core.deck import (
    MAX_MODIFIER,
    Flip,
    draw,
    flip,
    reroll,
)
from apps.systems.core.errors import RuleViolation
from apps.systems.core.flip_odds import flip_odds
from apps.systems.core.match import Args, Command, Event
from apps.systems.deathmatch.catalog import WeaponKind
from apps.systems.deathmatch.match import combat
from apps.systems.deathmatch.match.apply import apply
from apps.systems.deathmatch.match.modes import (
    CORE_REPAIR,
    ObjectiveKind,
    Respawn,
    mode_by_slug,
)
from apps.systems.deathmatch.match.odds import (
    attack_odds,
    fraction_text,
    wound_odds,
)
from apps.systems.deathmatch.match.rules_text import (
    NamedAbility,
    UsageScope,
    carries_shimmer_blocker,
    usage_scope,
    weapon_rules,
)
from apps.systems.deathmatch.match.serial import dump
from apps.systems.deathmatch.match.state import (
    ACTIVATION_AP,
    MAX_MARKERS,
    MAX_REROLLS_PER_FLIP,
    Attack,
    AttackKind,
    Disengage,
    FlipPurpose,
    Gadget,
    Marker,
    MatchState,
    Objective,
    ObjectiveState,
    Outcome,
    Phase,
    Target,
    Unit,
    UnitKind,
)
from apps.systems.deathmatch.match.units import DEFENCE_SYSTEM, DRONE, special_unit, unit_weapons

GADGET_OPTIONS = tuple(range(10))
HEALING_DIE = 5  # the healing station restores 1d5 lost LP (SPEC Decision: uniform 1-5)


class Ctx:
    """The decision in progress: the working state and the events emitted so far."""

    def __init__(self, state: MatchState, rng: random.Random) -> None:
        self.state = state
        self.rng = rng
        self.events: list[Event] = []
        self.round_end_scoring = False  # VP scored now count as reached at the same moment

    def emit(self, event_type: str, **data: Any) -> None:
        event = Event(event_type, data)
        self.state = apply(self.state, event)
        self.events.append(event)

    @property
    def mode(self) -> Any:
        return mode_by_slug(self.state.mode)


def refuse(code: str, message: str) -> RuleViolation:
    return RuleViolation(code, message)


Handler = Callable[[Ctx, Args], None]
COMMANDS: dict[str, Handler] = {}


def command(name: str) -> Callable[[Handler], Handler]:
    def register(handler: Handler) -> Handler:
        COMMANDS[name] = handler
        return handler

    return register


def decide(state: MatchState, cmd: Command, rng: random.Random) -> list[Event]:
    if state.phase is Phase.OVER:
        raise refuse("game_over", "The game is over.")
    handler = COMMANDS.get(cmd.type)
    if handler is None:
        raise refuse("unknown_command", f"There is no command {cmd.type!r} in Deathmatch.")
    ctx = Ctx(state, rng)
    args = Args(cmd.args)
    if state.open_free_flip is not None and not _rerolls_free_flip(cmd, args):
        ctx.emit("free_flip_closed")
    handler(ctx, args)
    _settle(ctx)
    return ctx.events


def _rerolls_free_flip(cmd: Command, args: Args) -> bool:
    return cmd.type == "reroll" and args.optional_int("player", lo=0, hi=3) is not None


# --- Guards -----------------------------------------------------------------------------------


def _no_flip_waiting(ctx: Ctx) -> None:
    if ctx.state.attack or ctx.state.pending or ctx.state.disengage:
        raise refuse("flip_pending", "Finish the flip in progress first: reroll or accept it.")


def _awaiting(ctx: Ctx, what: str) -> None:
    _no_flip_waiting(ctx)
    if ctx.state.awaiting != what:
        raise refuse("not_now", _AWAITING_MESSAGES.get(ctx.state.awaiting, "Not now."))


_AWAITING_MESSAGES = {
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


def _in_activation(ctx: Ctx) -> None:
    _no_flip_waiting(ctx)
    if ctx.state.phase not in (Phase.ACTIVATION, Phase.DRONES):
        raise refuse("not_now", "That is only possible in the activation phase.")
    if ctx.state.awaiting:
        raise refuse("not_now", _AWAITING_MESSAGES.get(ctx.state.awaiting, "Not now."))


def _active(ctx: Ctx, args: Args) -> Unit:
    """The activated unit, which the command must name (a stale tap names another one)."""
    _in_activation(ctx)
    if ctx.state.active is None:
        raise refuse("no_active_unit", "No model is activated: activate one first.")
    unit = ctx.state.unit(ctx.state.active)
    if args.has("unit") and args.integer("unit", lo=0) != unit.id:
        raise refuse("not_active", f"{ctx.state.unit(args.integer('unit')).name} is not activated.")
    return unit


def _player_arg(ctx: Ctx, args: Args, name: str = "player") -> int:
    return ctx.state.player(args.integer(name, lo=0, hi=len(ctx.state.players) - 1)).index


def _unit_arg(ctx: Ctx, args: Args, name: str = "unit") -> Unit:
    return ctx.state.unit(args.integer(name, lo=0))


def _spend_ap(ctx: Ctx, unit: Unit, ap: int) -> None:
    if unit.ap < ap:
        raise refuse("not_enough_ap", f"{unit.name} has {unit.ap} AP left; this costs {ap} AP.")
    if ap:
        ctx.emit("ap_spent", unit=unit.id, ap=ap)


def _spend_cp(ctx: Ctx, player: int, cp: int, reason: str) -> None:
    have = ctx.state.player(player).cp
    if have < cp:
        raise refuse(
            "not_enough_cp",
            f"{ctx.state.player(player).name} has {have} command points; this costs {cp}.",
        )
    ctx.emit("cp_spent", player=player, cp=cp, reason=reason)


def _lose_bonuses(ctx: Ctx, unit: Unit, *, keep: str = "") -> None:
    """Aim and Wuchtschlag are lost by any action but the attack they are for or readiness."""
    lost = [name for name in ("aim", "power_strike") if getattr(unit, name) and name != keep]
    if lost:
        ctx.emit("bonus_lost", unit=unit.id, bonuses=lost)


def _can_activate(state: MatchState, unit: Unit) -> bool:
    if not unit.in_play or unit.activated:
        return False
    if state.phase is Phase.DRONES:
        return unit.kind is UnitKind.DRONE
    return unit.kind is UnitKind.FIGHTER


def activatable(state: MatchState, player: int) -> tuple[Unit, ...]:
    return tuple(u for u in state.units if u.player == player and _can_activate(state, u))


def _seat_order(state: MatchState, first: int) -> tuple[int, ...]:
    n = len(state.players)
    return tuple((first + i) % n for i in range(n))


# --- Setup ------------------------------------------------------------------------------------


def _next_setup_step(ctx: Ctx, after: str) -> None:
    """Setup runs: gadgets, deployment flip, first deployer, VIPs, flag markers, ready."""
    mode = ctx.mode
    order = _deployment_order(ctx.state)
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


def _deployment_order(state: MatchState) -> tuple[int, ...]:
    first = state.first_deployer if state.first_deployer is not None else 0
    return _seat_order(state, first)


@command("choose_gadget")
def _choose_gadget(ctx: Ctx, args: Args) -> None:
    _awaiting(ctx, "gadgets")
    player = _player_arg(ctx, args)
    option = args.integer("option", lo=0, hi=9)
    _gadget_pick(ctx, player, option, None)


@command("flip_gadget")
def _flip_gadget(ctx: Ctx, args: Args) -> None:
    _awaiting(ctx, "gadgets")
    player = _player_arg(ctx, args)
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
    """Every player receives one of every chosen option (one per pick: the same option picked
    twice gives two). Defence systems and drones are units; the others are stations."""
    gadgets: list[Gadget] = []
    units: list[Unit] = []
    next_id = len(ctx.state.units)
    for pick in ctx.state.players:
        option = pick.gadget
        assert option is not None
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
    _awaiting(ctx, "gadgets")
    _next_setup_step(ctx, "gadgets")


@command("deployment_flip")
def _deployment_flip(ctx: Ctx, args: Args) -> None:
    """Every player flips; the highest names who picks a zone first (and deploys first); tied
    players flip again."""
    _awaiting(ctx, "deployment_flip")
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
    _awaiting(ctx, "first_deployer")
    ctx.emit("first_deployer_chosen", player=_player_arg(ctx, args))
    _next_setup_step(ctx, "first_deployer")


@command("name_vip")
def _name_vip(ctx: Ctx, args: Args) -> None:
    _awaiting(ctx, "vip")
    player = ctx.state.awaiting_player
    assert player is not None
    unit = _own_fighter(ctx, args, player)
    ctx.emit("vip_named", player=player, unit=unit.id)
    _next_in_setup_round(ctx, player, "vip")


def _next_in_setup_round(ctx: Ctx, player: int, step: str) -> None:
    order = _deployment_order(ctx.state)
    position = order.index(player)
    if position + 1 < len(order):
        ctx.emit("awaiting", what=step, player=order[position + 1])
    else:
        _next_setup_step(ctx, step)


def _own_fighter(ctx: Ctx, args: Args, player: int, name: str = "unit") -> Unit:
    unit = _unit_arg(ctx, args, name)
    if unit.player != player or not unit.team_member or not unit.in_play:
        raise refuse(
            "not_your_fighter", f"Choose a fighter of {ctx.state.player(player).name}'s team."
        )
    return unit


@command("assign_flags")
def _assign_flags(ctx: Ctx, args: Args) -> None:
    """Breakthrough: a player hands out up to 3 flag markers, one per model."""
    _awaiting(ctx, "flags")
    player = ctx.state.awaiting_player
    assert player is not None
    ids = args.ints("units", most=3)
    if len(set(ids)) != len(ids):
        raise refuse("flag_per_model", "A model carries at most one flag marker.")
    units = [_own_fighter(ctx, Args({"unit": i}), player) for i in ids]
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
    _awaiting(ctx, "ready")
    _start_round(ctx, 1)


# --- Start phase: command pool, refresh, initiative -------------------------------------------


def _command_pool(state: MatchState, player: int) -> int:
    fighters = [u for u in state.team(player) if u.in_play]
    harmony = 1 if state.player(player).harmony else 0
    return sum(u.profile.command for u in fighters) + harmony


def _start_round(ctx: Ctx, number: int) -> None:
    ctx.emit(
        "round_started",
        round=number,
        cp=[_command_pool(ctx.state, p.index) for p in ctx.state.players],
    )


def _can_reroll(state: MatchState, player: int, flipped: Flip, used: int) -> bool:
    return (
        state.player(player).cp >= 1
        and used < MAX_REROLLS_PER_FLIP
        and any(not c.rerolled and c.value != 0 for c in flipped.cards)
    )


def _free_initiative_reroll(state: MatchState, player: int) -> bool:
    """Präventivschlag: the team may reroll its initiative flip once per round for free."""
    return not state.player(player).free_reroll_used and any(
        u.in_play and NamedAbility.PRE_EMPTIVE in u.abilities for u in state.team(player)
    )


@command("flip_initiative")
def _flip_initiative(ctx: Ctx, args: Args) -> None:
    _awaiting(ctx, "initiative")
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
        and (ctx.state.player(p).cp >= 1 or _free_initiative_reroll(ctx.state, p))
    ]
    ctx.emit("initiative_flipped", flips=[dump(f) for f in flips], deciders=deciders)
    if not deciders:
        _resolve_initiative(ctx)


def _resolve_initiative(ctx: Ctx) -> None:
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
    deployment = list(_deployment_order(state))
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
    _awaiting(ctx, "starter")
    starter = _player_arg(ctx, args)
    if ctx.state.player(starter).eliminated:
        raise refuse("eliminated", "That player is out of the game.")
    ctx.emit("starter_chosen", player=starter, order=list(ctx.state.initiative_order))
    if ctx.mode.king and not any(u.king for u in ctx.state.units):
        ctx.emit("awaiting", what="king", player=starter)
        return
    _begin_activations(ctx)


@command("name_king")
def _name_king(ctx: Ctx, args: Args) -> None:
    _no_flip_waiting(ctx)
    if ctx.state.awaiting not in ("king", "king_unclear"):
        raise refuse("not_now", "No king is to be named now.")
    player = ctx.state.awaiting_player
    assert player is not None
    unit = _own_fighter(ctx, args, player)
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
    order = _seat_order(ctx.state, first)
    candidates = order if include_first else order[1:] + order[:1]
    for player in candidates:
        if activatable(ctx.state, player):
            ctx.emit("turn_changed", player=player)
            return
    ctx.emit("round_ended", round=ctx.state.round)


# --- Activation phase -------------------------------------------------------------------------


@command("activate")
def _activate(ctx: Ctx, args: Args) -> None:
    _in_activation(ctx)
    if ctx.state.active is not None:
        raise refuse("already_active", f"{ctx.state.unit(ctx.state.active).name} is activated.")
    unit = _unit_arg(ctx, args)
    if unit.player != ctx.state.turn:
        raise refuse("not_your_turn", f"It is {ctx.state.player(ctx.state.turn or 0).name}'s turn.")
    if not _can_activate(ctx.state, unit):
        if unit.activated:
            raise refuse("already_activated", f"{unit.name} has been activated this round.")
        if ctx.state.phase is Phase.DRONES:
            raise refuse("drones_first", "The drones activate first.")
        raise refuse("cannot_activate", f"{unit.name} cannot be activated.")
    ctx.emit("unit_activated", unit=unit.id, ap=1 if unit.ordered else ACTIVATION_AP)


@command("pass")
def _pass(ctx: Ctx, args: Args) -> None:
    _in_activation(ctx)
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
    order = _seat_order(ctx.state, player)[1:]
    nxt = next(p for p in order if activatable(ctx.state, p))
    ctx.emit("turn_changed", player=nxt, pass_blocked=nxt)


@command("coordinated_activation")
def _coordinated_activation(ctx: Ctx, args: Args) -> None:
    _in_activation(ctx)
    player = ctx.state.turn
    assert player is not None
    if ctx.state.phase is not Phase.ACTIVATION or ctx.state.active is not None:
        raise refuse("not_now", "Declare a coordinated activation before activating a model.")
    if ctx.state.coordinated:
        raise refuse("not_now", "This turn is a coordinated activation already.")
    if len(activatable(ctx.state, player)) < 2:
        raise refuse("coordinated_needs_two", "A coordinated activation needs two models.")
    _spend_cp(ctx, player, 2, "coordinated_activation")
    ctx.emit("coordinated_activation", player=player)


@command("order")
def _order(ctx: Ctx, args: Args) -> None:
    """Befehl (1 CP): a model respawned before its activation gets 1 AP and may activate."""
    _in_activation(ctx)
    unit = _unit_arg(ctx, args)
    if not unit.order_allowed:
        raise refuse(
            "order_not_allowed",
            "Befehl is only for a model that respawned before it was activated this round.",
        )
    _spend_cp(ctx, unit.player, 1, "order")
    ctx.emit("order_given", unit=unit.id)


@command("dodge")
def _dodge(ctx: Ctx, args: Args) -> None:
    unit = _active(ctx, args)
    if unit.stationary:
        raise refuse("stationary", f"{unit.name} is stationary and gains nothing by dodging.")
    _spend_ap(ctx, unit, 1)
    _lose_bonuses(ctx, unit)
    ctx.emit("dodged", unit=unit.id)


@command("readiness")
def _readiness(ctx: Ctx, args: Args) -> None:
    unit = _active(ctx, args)
    if unit.readiness_taken:
        raise refuse("readiness_once", "Bereitschaft is allowed once per activation.")
    if unit.readiness:
        raise refuse("already_ready", f"{unit.name} is in readiness already.")
    _spend_ap(ctx, unit, 1)
    ctx.emit("readiness_taken", unit=unit.id, action=True)


@command("aim")
def _aim(ctx: Ctx, args: Args) -> None:
    unit = _active(ctx, args)
    _spend_ap(ctx, unit, 1)
    _lose_bonuses(ctx, unit, keep="aim")
    ctx.emit("aimed", unit=unit.id)


@command("power_strike")
def _power_strike(ctx: Ctx, args: Args) -> None:
    unit = _active(ctx, args)
    _spend_ap(ctx, unit, 1)
    _lose_bonuses(ctx, unit, keep="power_strike")
    ctx.emit("power_strike_readied", unit=unit.id)


@command("move")
def _move(ctx: Ctx, args: Args) -> None:
    """A move (1 AP). The players say whether it ended with a fall (height in inches; a
    deliberate jump down is safe up to 3") or touched dangerous terrain."""
    unit = _active(ctx, args)
    if unit.stationary:
        raise refuse("stationary", f"{unit.name} is stationary and cannot move.")
    fall = args.integer("fall_height", 0, lo=0, hi=50)
    jumped = args.boolean("jumped_down")
    dangerous = args.boolean("dangerous_terrain")
    _spend_ap(ctx, unit, 1)
    _lose_bonuses(ctx, unit)
    ctx.emit("moved", unit=unit.id, inches=unit.profile.move_inches)
    hits = []
    if fall > (3 if jumped else 2):
        hits.append(("fall", fall))
    if dangerous:
        hits.append(("dangerous_terrain", 2))
    _auto_hits(ctx, unit, hits, then="")


@command("special_action")
def _special_action(ctx: Ctx, args: Args) -> None:
    unit = _active(ctx, args)
    slug = args.text("item")
    item = next((i for i in unit.items if i.slug == slug and i.special_action), None)
    if item is None or item.special_action is None:
        raise refuse("unknown_special_action", f"{unit.name} has no special action from {slug!r}.")
    action = item.special_action
    keys = []
    scope = usage_scope(item)
    stamps = {
        UsageScope.ACTIVATION: f"activation:{ctx.state.activation_number}",
        UsageScope.TURN: f"turn:{ctx.state.turn_number}",
        UsageScope.ROUND: f"round:{ctx.state.round}",
        UsageScope.GAME: "game",
    }
    if scope is not None:
        keys.append(f"{stamps[scope]}:{slug}")
    if action.ap == 0:
        # Rulebook: special actions costing 0 AP at most once per turn.
        keys.append(f"{stamps[UsageScope.TURN]}:{slug}")
    for key in keys:
        if key in unit.uses:
            raise refuse("usage_limit", f"{action.name}: {item.usage_limit or 'once per turn'}")
    _spend_ap(ctx, unit, action.ap)
    _lose_bonuses(ctx, unit)
    ctx.emit(
        "special_action_used", unit=unit.id, item=slug, name=action.name, ap=action.ap, uses=keys
    )


@command("end_activation")
def _end_activation(ctx: Ctx, args: Args) -> None:
    """Ends the activation: readiness for 1 CP if asked, then fire, poison and shock -- except
    markers the model received during this very activation (by a reaction): "at the end of its
    next activation" is the one after (decision; the rulebook does not say)."""
    unit = _active(ctx, args)
    if args.boolean("readiness"):
        if not unit.team_member:
            raise refuse(
                "no_command_points", f"{unit.name} is not part of the team: no command points."
            )
        if unit.readiness:
            raise refuse("already_ready", f"{unit.name} is in readiness already.")
        _spend_cp(ctx, unit.player, 1, "readiness")
        ctx.emit("readiness_taken", unit=unit.id, action=False)
    unit = ctx.state.unit(unit.id)
    if unit.in_play and unit.markers.fire and "fire" not in unit.fresh_markers:
        strength = unit.markers.fire
        credit = unit.markers.fire_by if len(unit.markers.fire_by) == 1 else ()
        ctx.emit("markers_cleared", unit=unit.id, markers=["fire"])
        _auto_hits(ctx, unit, [("fire", strength)], then="end_activation", credit=credit)
        return
    _finish_activation(ctx, unit.id)


def _finish_activation(ctx: Ctx, unit_id: int) -> None:
    unit = ctx.state.unit(unit_id)
    if unit.in_play and unit.markers.poison and "poison" not in unit.fresh_markers:
        poison = unit.markers.poison
        credit = unit.markers.poison_by if len(unit.markers.poison_by) == 1 else ()
        ctx.emit("poison_resolved", unit=unit.id, lp=poison)
        if ctx.state.unit(unit.id).lp <= 0:
            _knock_out(ctx, unit.id, credit=credit, cause="poison", by_unit=None)
    unit = ctx.state.unit(unit_id)
    if unit.in_play and unit.markers.shock and "shock" not in unit.fresh_markers:
        ctx.emit("markers_cleared", unit=unit.id, markers=["shock"])
    if ctx.state.active == unit_id and ctx.state.phase is not Phase.OVER:
        ctx.emit("activation_ended", unit=unit_id)


def _settle(ctx: Ctx) -> None:
    """After a command: once nothing waits, an ended activation passes the turn on."""
    state = ctx.state
    if state.phase is Phase.OVER or state.attack or state.pending or state.disengage:
        return
    if state.turn_over and state.awaiting == "":
        _advance_turn(ctx)


def _advance_turn(ctx: Ctx) -> None:
    state = ctx.state
    current = state.turn
    assert current is not None
    order = _seat_order(state, current)
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


# --- Reactions --------------------------------------------------------------------------------


@command("react")
def _react(ctx: Ctx, args: Args) -> None:
    """A model in readiness reacts to the active enemy: a ranged or melee attack against it,
    or a dodge. Its readiness ends."""
    _in_activation(ctx)
    if ctx.state.active is None:
        raise refuse("no_active_unit", "A model reacts to an activated enemy model.")
    unit = _unit_arg(ctx, args)
    enemy = ctx.state.unit(ctx.state.active)
    if unit.player == enemy.player:
        raise refuse("react_enemy", "Only enemies of the activated model can react to it.")
    if not unit.readiness or not unit.in_play:
        raise refuse("not_ready", f"{unit.name} is not in readiness.")
    action = args.text("action", choices=("ranged_attack", "melee_attack", "dodge"))
    if unit.kind is UnitKind.DEFENCE and action != "ranged_attack":
        raise refuse("defence_ranged_only", "A defence system reacts with ranged attacks only.")
    ctx.emit("readiness_used", unit=unit.id)
    if action == "dodge":
        if unit.stationary:
            raise refuse("stationary", f"{unit.name} is stationary and gains nothing by dodging.")
        ctx.emit("dodged", unit=unit.id)
        return
    kind = AttackKind.RANGED if action == "ranged_attack" else AttackKind.MELEE
    targets = args.objects("targets", most=1) or (Args({"unit": enemy.id}),)
    if targets[0].integer("unit", lo=0) != enemy.id:
        raise refuse("react_target", f"A reaction attacks the activated model, {enemy.name}.")
    _declare_attack(ctx, unit, args, kind, targets, reaction=True)


# --- Attacks ----------------------------------------------------------------------------------


@command("ranged_attack")
def _ranged_attack(ctx: Ctx, args: Args) -> None:
    unit = _active(ctx, args)
    _declare_attack(ctx, unit, args, AttackKind.RANGED, args.objects("targets"), reaction=False)


@command("melee_attack")
def _melee_attack(ctx: Ctx, args: Args) -> None:
    unit = _active(ctx, args)
    _declare_attack(
        ctx, unit, args, AttackKind.MELEE, args.objects("targets", most=1), reaction=False
    )


@command("charge")
def _charge(ctx: Ctx, args: Args) -> None:
    """Sturmangriff (2 AP): move +1" towards the target, then a free melee attack whose wound
    flip is boosted on a hit."""
    unit = _active(ctx, args)
    if unit.stationary:
        raise refuse("stationary", f"{unit.name} is stationary and cannot charge.")
    _declare_attack(
        ctx, unit, args, AttackKind.CHARGE, args.objects("targets", most=1), reaction=False
    )


def _situation(args: Args) -> combat.Situation:
    return combat.Situation(
        cover=args.text("cover", "none", choices=("none", "cover", "hard")),
        target_elevated=args.boolean("target_elevated"),
        attacker_elevated=args.boolean("attacker_elevated"),
        rear=args.boolean("rear"),
        target_in_melee=args.boolean("target_in_melee"),
        obstacle=args.boolean("obstacle"),
        several_enemies=args.boolean("several_enemies"),
        warning=args.boolean("warning"),
        friends_engaged=args.boolean("friends_engaged"),
        not_in_contact=args.boolean("not_in_contact"),
    )


def _declare_attack(
    ctx: Ctx,
    attacker: Unit,
    args: Args,
    kind: AttackKind,
    target_args: tuple[Args, ...],
    *,
    reaction: bool,
) -> None:
    weapons = unit_weapons(attacker)
    index = args.integer("weapon", 0, lo=0, hi=len(weapons) - 1)
    weapon = weapons[index]
    rules = weapon_rules(weapon)
    ranged = kind is AttackKind.RANGED
    if ranged != (weapon.kind is WeaponKind.RANGED):
        wanted = "ranged" if ranged else "melee"
        raise refuse("wrong_weapon", f"{weapon.name} is not a {wanted} weapon.")
    if ranged and index < len(attacker.ammo) and attacker.ammo[index] == 0:
        raise refuse("out_of_ammo", f"{weapon.name} has no ammunition left (Limitiert).")
    if reaction and rules.unwieldy:
        raise refuse("unwieldy_reaction", f"{weapon.name} is schwerfällig: not in readiness.")
    if not target_args:
        raise refuse("no_target", "Choose a target.")
    several = ranged and rules.several_targets
    if len(target_args) > 1 and not several:
        raise refuse("one_target", f"{weapon.name} attacks one model at a time.")
    ap = 0 if reaction else 2 if kind is AttackKind.CHARGE or rules.unwieldy else 1
    _spend_ap(ctx, attacker, ap)
    aimed = ranged and attacker.aim
    power_strike = not ranged and attacker.power_strike
    # The attack uses up the bonus it was prepared for and loses the other one.
    _lose_bonuses(ctx, attacker)

    targets: list[Target] = []
    warned: set[int] = set()
    for target_arg in target_args:
        victim = _unit_arg(ctx, target_arg)
        if not victim.in_play or victim.id == attacker.id:
            raise refuse("bad_target", f"{victim.name} cannot be attacked.")
        if not several and victim.player == attacker.player:
            raise refuse(
                "friendly_target", "Only area and spray attacks can touch your own models."
            )
        situation = _situation(target_arg)
        if situation.warning:
            if not victim.team_member or victim.player in warned:
                raise refuse(
                    "warning_once", "A warning is paid once per attack, for a team fighter."
                )
            warned.add(victim.player)
            _spend_cp(ctx, victim.player, 1, "warning")
        interferers = (
            target_arg.ints("interferers", lo=-1, hi=len(ctx.state.units) - 1, most=6)
            if ranged
            else ()
        )
        reflex = combat.target_reflex(attacker, victim, situation, ranged=ranged, aimed=aimed)
        value = (
            combat.attack_value(attacker, index)
            if index < len(attacker.weapons)
            else combat.Modified(weapon.combat_value, ())
        )
        targets.append(
            Target(
                unit=victim.id,
                reflex=reflex.value,
                attack_value=value.value,
                resistance_bonus=combat.HARD_COVER_RESISTANCE
                if ranged and situation.cover == "hard"
                else 0,
                reflex_notes=reflex.notes,
                interferers=interferers,
                auto_hit=not ranged and victim.stationary,
            )
        )
        if ranged and victim.shimmer:
            ctx.emit("shimmer_used", unit=victim.id)
    if rules.ammo is not None and ranged:
        ctx.emit("ammo_used", unit=attacker.id, weapon=index)
    if index >= len(attacker.weapons):
        ctx.emit("erloeser_fired", unit=attacker.id)
    penetration = attacker.penetration
    if penetration:
        ctx.emit("penetration_used", unit=attacker.id)
    hit_modifier = weapon.bonus_cards + int(aimed)  # aimed is only ever true for ranged
    attack = Attack(
        kind=kind,
        player=attacker.player,
        attacker=attacker.id,
        weapon=weapon,
        weapon_index=index,
        targets=tuple(targets),
        reaction=reaction,
        charge=kind is AttackKind.CHARGE,
        power_strike=power_strike,
        penetration=penetration,
        # Drones and defence systems get no command points: their flips cannot be rerolled.
        confirm=args.boolean("confirm_flips", True) and attacker.team_member,
        hit_modifier=max(-MAX_MODIFIER, min(MAX_MODIFIER, hit_modifier)),
    )
    ctx.emit("attack_declared", attack=dump(attack))
    if all(t.auto_hit for t in attack.targets):
        _resolve_hit(ctx, None)
    else:
        _hit_flip(ctx)


def _hit_flip(ctx: Ctx) -> None:
    attack = ctx.state.attack
    assert attack is not None
    deck = ctx.state.player(attack.player).deck
    odds = [_attack_odds_row(deck, attack.hit_modifier, t) for t in attack.targets]
    flipped = flip(deck, attack.hit_modifier, ctx.rng)
    ctx.emit("hit_flipped", flip=dump(flipped), odds=odds)
    if attack.confirm and _can_reroll(ctx.state, attack.player, flipped, 0):
        return
    _resolve_hit(ctx, None)


def _attack_odds_row(deck: Any, modifier: int, target: Target) -> dict[str, object]:
    odds = attack_odds(deck, modifier, target.attack_value, target.reflex)
    return {
        "unit": target.unit,
        "hit": fraction_text(odds.hit),
        "graze": fraction_text(odds.graze),
        "miss": fraction_text(odds.miss + odds.fail),
        "critical": fraction_text(odds.critical),
    }


def _resolve_hit(ctx: Ctx, auto_hits: int | None) -> None:
    attack = ctx.state.attack
    assert attack is not None
    results = []
    for target in attack.targets:
        result: dict[str, object]
        if target.auto_hit or attack.hit_flip is None:
            result = {
                "unit": target.unit,
                "outcome": Outcome.HIT.value,
                "crits_auto_hit": 0,
                "crits_boost": 0,
                "automatic": True,
            }
        else:
            flipped = attack.hit_flip
            outcome = combat.hit_outcome(flipped, target.attack_value, target.reflex)
            nines = 0 if outcome is Outcome.FAIL else flipped.nines
            auto, boost = combat.default_critical_choice(outcome, nines)
            if auto_hits is not None:
                auto = max(0, min(nines, auto_hits))
                boost = nines - auto
            final = combat.with_criticals(outcome, auto)
            result = {
                "unit": target.unit,
                "outcome": final.value,
                "crits_auto_hit": auto,
                "crits_boost": boost,
                "card": flipped.result,
                "attack_value": target.attack_value,
                "reflex": target.reflex,
                "chance": target.hit_odds,
            }
            if (
                final is Outcome.MISS
                and target.interferers
                and combat.near_miss_hits_interferer(flipped, target.attack_value, target.reflex)
            ):
                result["redirected_to"] = _interference(ctx, target)
        results.append(result)
    ctx.emit(
        "hit_resolved",
        attacker=attack.attacker,
        kind=attack.kind.value,
        cause=attack.cause,
        weapon=attack.weapon.name if attack.weapon else "",
        cards=list(attack.hit_flip.values) if attack.hit_flip else [],
        targets=results,
    )
    _next_wound(ctx)


def _interference(ctx: Ctx, target: Target) -> int | None:
    """A near-miss hits the model in the way. With several models/obstacles in the way the
    attacker draws a card for each, +2 for the one closest to the target; the highest is hit
    (a tie goes to the closer one; an obstacle takes the hit harmlessly)."""
    attack = ctx.state.attack
    assert attack is not None
    blockers = target.interferers
    if len(blockers) == 1:
        return blockers[0] if blockers[0] >= 0 else None
    deck = ctx.state.player(attack.player).deck
    cards = []
    for _ in blockers:
        drawn = draw(deck, ctx.rng)
        cards.append(drawn.card)
        deck = drawn.deck
    totals = [card + (2 if i == 0 else 0) for i, card in enumerate(cards)]
    chosen = blockers[totals.index(max(totals))]
    ctx.emit(
        "interference_flipped",
        player=attack.player,
        blockers=list(blockers),
        cards=cards,
        totals=totals,
        chosen=chosen,
        deck=dump(deck),
    )
    return chosen if chosen >= 0 else None


def _wound_victim(target: Target) -> int | None:
    if target.redirected_to is not None:
        return target.redirected_to
    if target.outcome in (Outcome.HIT, Outcome.GRAZE):
        return target.unit
    return None


def _next_wound(ctx: Ctx) -> None:
    """Wound flips target by target; stops where a player may reroll."""
    while True:
        attack = ctx.state.attack
        if attack is None:  # a knock-out ended the game
            return
        index = attack.current + 1
        if index >= len(attack.targets) or attack.kind is AttackKind.STRIKE:
            _finish_attack(ctx)
            return
        target = attack.targets[index]
        victim_id = _wound_victim(target)
        if victim_id is None or not ctx.state.unit(victim_id).in_play:
            ctx.emit("wound_skipped", target=index)
            continue
        victim = ctx.state.unit(victim_id)
        redirected = target.redirected_to is not None
        outcome = Outcome.HIT if redirected else target.outcome
        assert outcome is not None
        weapon = attack.weapon
        melee = attack.kind in (AttackKind.MELEE, AttackKind.CHARGE)
        if weapon is not None:
            strength = combat.strength(
                weapon, power_strike=attack.power_strike, penetration=attack.penetration
            )
        else:
            strength = target.strength
        resistance = combat.resistance(
            victim,
            hard_cover=bool(target.resistance_bonus) and not redirected,
            core_bonus=_core_bonus(ctx.state, victim),
        )
        modifier = combat.wound_modifier(
            outcome=outcome,
            crit_boosts=0 if redirected else target.crits_boost,
            charge=attack.charge,
            power_strike=attack.power_strike and melee,
            stationary_in_melee=melee and victim.stationary,
            target=victim,
        )
        deck = ctx.state.player(attack.player).deck
        odds = wound_odds(deck, modifier, strength, resistance, victim.lp)
        flipped = flip(deck, modifier, ctx.rng)
        ctx.emit(
            "wound_flipped",
            target=index,
            victim=victim.id,
            flip=dump(flipped),
            strength=strength,
            resistance=resistance,
            odds={
                "knock_out": fraction_text(odds.knock_out),
                "expected": fraction_text(odds.expected),
                "damage": {str(d): fraction_text(p) for d, p in odds.damage.items()},
            },
        )
        if attack.confirm and _can_reroll(ctx.state, attack.player, flipped, 0):
            return
        _apply_wound(ctx)


def _core_bonus(state: MatchState, victim: Unit) -> int:
    """Onslaught: +1 Resistance to a core for each switch its owner controls."""
    if victim.kind is not UnitKind.CORE:
        return 0
    return sum(
        1
        for o in state.objectives
        if o.kind == ObjectiveKind.SWITCH.value and o.owner == victim.player
    )


def _apply_wound(ctx: Ctx) -> None:
    attack = ctx.state.attack
    assert attack is not None
    index = attack.current
    target = attack.targets[index]
    flipped = target.wound_flip
    assert flipped is not None
    victim_id = _wound_victim(target)
    assert victim_id is not None
    victim = ctx.state.unit(victim_id)
    dealt = combat.damage(flipped.result, target.strength, target.resistance)
    ctx.emit(
        "wounded",
        unit=victim.id,
        target=index,
        damage=dealt,
        card=flipped.result,
        strength=target.strength,
        resistance=target.resistance,
        lp=max(0, victim.lp - dealt),
        shield_used=victim.shields > 0,
    )
    by = (
        attack.player
        if attack.attacker is not None
        else (attack.credit[0] if len(attack.credit) == 1 else None)
    )
    if attack.weapon is not None:
        rules = weapon_rules(attack.weapon)
        for marker, present in (
            ("fire", rules.fire),
            ("shock", rules.shock),
            ("acid", rules.acid),
            ("poison", rules.poison and dealt > 0),
        ):
            if present and ctx.state.unit(victim.id).markers.count(Marker(marker)) < MAX_MARKERS:
                ctx.emit("marker_added", unit=victim.id, marker=marker, by=by)
    if dealt > 0:
        _lose_bonuses(ctx, ctx.state.unit(victim.id))
    if ctx.state.unit(victim.id).lp <= 0:
        if attack.attacker is None:
            credit = attack.credit
        elif victim.player == attack.player:
            credit = ctx.state.opponents(victim.player)
        else:
            credit = (attack.player,)
        _knock_out(
            ctx,
            victim.id,
            credit=credit,
            cause=attack.cause or "attack",
            by_unit=attack.attacker,
        )


def _finish_attack(ctx: Ctx) -> None:
    attack = ctx.state.attack
    assert attack is not None
    ctx.emit("attack_finished")
    if ctx.state.phase is Phase.OVER:
        return
    if attack.then == "end_activation" and attack.targets:
        _finish_activation(ctx, attack.targets[0].unit)
    elif attack.then.startswith("auto:"):
        _, cause, strength = attack.then.split(":")
        unit = ctx.state.unit(attack.targets[0].unit)
        if unit.in_play:
            _auto_hits(ctx, unit, [(cause, int(strength))], then="")


def _auto_hits(
    ctx: Ctx,
    unit: Unit,
    hits: list[tuple[str, int]],
    *,
    then: str,
    credit: tuple[int, ...] | None = None,
) -> None:
    """Automatic hits (fire, a fall, dangerous terrain): no hit flip, a wound flip of the given
    strength. A self-inflicted knock-out is credited to the opponents; fire to the team that
    set it. The flipping player is the credited one, else the next opponent."""
    if not hits:
        if then == "end_activation":
            _finish_activation(ctx, unit.id)
        return
    (cause, strength), rest = hits[0], hits[1:]
    if credit is None:
        credit = ctx.state.opponents(unit.player)
    flipper = credit[0] if credit else _seat_order(ctx.state, unit.player)[1]
    follow = then if not rest else f"auto:{rest[0][0]}:{rest[0][1]}"
    attack = Attack(
        kind=AttackKind.AUTO,
        player=flipper,
        attacker=None,
        weapon=None,
        weapon_index=None,
        targets=(
            Target(
                unit=unit.id,
                reflex=0,
                attack_value=0,
                auto_hit=True,
                strength=strength,
            ),
        ),
        cause=cause,
        credit=tuple(credit),
        then=follow,
    )
    ctx.emit("attack_declared", attack=dump(attack))
    _resolve_hit(ctx, None)


@command("auto_hit")
def _auto_hit(ctx: Ctx, args: Args) -> None:
    """An automatic hit the tracker does not model itself (a fall after Rückstoß, a card
    effect): S as given; credit to the player named, else to the opponents."""
    _no_flip_waiting(ctx)
    if ctx.state.phase in (Phase.SETUP, Phase.OVER):
        raise refuse("not_now", "Automatic hits happen during a round.")
    unit = _unit_arg(ctx, args)
    if not unit.in_play:
        raise refuse("bad_target", f"{unit.name} is not in play.")
    strength = args.integer("strength", lo=0, hi=20)
    cause = args.text("cause", "effect", choices=("fall", "dangerous_terrain", "effect"))
    credited = args.optional_int("credit", lo=0, hi=len(ctx.state.players) - 1)
    credit = (credited,) if credited is not None else None
    _auto_hits(ctx, unit, [(cause, strength)], then="", credit=credit)


# --- Rerolls and accepting flips --------------------------------------------------------------


@command("reroll")
def _reroll(ctx: Ctx, args: Args) -> None:
    """All rerolls of one player on a flip are declared at once (SPEC §1.3): the procedure goes
    on with the new cards; an attack's hit flip takes ``critical_auto_hits`` as ``accept`` does."""
    positions = args.ints("positions", lo=0, hi=2, most=3)
    if not positions:
        raise refuse("reroll_nothing", "Name the cards to reroll.")
    state = ctx.state
    if state.attack is not None:
        attack = state.attack
        _flip_owner(args, attack.player)
        if _hit_pending(attack):
            flipped, used, purpose = attack.hit_flip, attack.hit_rerolls, FlipPurpose.HIT
        else:
            target = attack.targets[attack.current]
            flipped, used, purpose = target.wound_flip, target.wound_rerolls, FlipPurpose.WOUND
        assert flipped is not None
        _reroll_cards(ctx, attack.player, flipped, used, positions, purpose, cost=1)
        _accept_attack(ctx, args)
        return
    if state.disengage is not None:
        d = state.disengage
        striker = ctx.state.unit(d.strikes[d.current].unit)
        _flip_owner(args, striker.player)
        flipped = d.flips[d.current]
        assert flipped is not None
        _reroll_cards(
            ctx,
            striker.player,
            flipped,
            d.rerolls[d.current],
            positions,
            FlipPurpose.STRIKE,
            cost=1,
        )
        _next_strike(ctx, d.current + 1)
        return
    if state.pending is not None:
        pending = state.pending
        if not pending.deciders:
            raise refuse("not_now", "Nobody may reroll now.")
        player = pending.deciders[0]
        if args.has("player") and args.integer("player", lo=0) != player:
            raise refuse("not_your_decision", f"{state.player(player).name} decides first.")
        slot = pending.players.index(player)
        flipped = pending.flips[slot]
        assert flipped is not None
        free = pending.purpose is FlipPurpose.INITIATIVE and _free_initiative_reroll(state, player)
        _reroll_cards(
            ctx,
            player,
            flipped,
            pending.rerolls[slot],
            positions,
            pending.purpose,
            cost=0 if free else 1,
        )
        if free:
            ctx.emit("free_reroll_used", player=player)
        ctx.emit("reroll_decided", player=player)
        _after_pending_decision(ctx)
        return
    if state.open_free_flip is not None and state.free_flip is not None:
        player = state.open_free_flip
        if args.has("player") and args.integer("player", lo=0) != player:
            raise refuse("not_your_flip", "Only the player who flipped rerolls their cards.")
        _reroll_cards(
            ctx,
            player,
            state.free_flip,
            state.free_flip_rerolls,
            positions,
            FlipPurpose.FREE,
            cost=1,
        )
        ctx.emit("free_flip_closed")
        return
    raise refuse("nothing_to_reroll", "There is no flip to reroll.")


def _flip_owner(args: Args, player: int) -> None:
    """A player rerolls or accepts only their own flip (``player`` is checked if given)."""
    if args.has("player") and args.integer("player", lo=0) != player:
        raise refuse("not_your_flip", "Only the player who flipped rerolls their cards.")


def _hit_pending(attack: Attack) -> bool:
    return attack.hit_flip is not None and attack.stage is FlipPurpose.HIT


def _reroll_cards(
    ctx: Ctx,
    player: int,
    flipped: Flip,
    used: int,
    positions: tuple[int, ...],
    purpose: FlipPurpose,
    *,
    cost: int,
) -> None:
    if used + len(positions) > MAX_REROLLS_PER_FLIP:
        raise refuse(
            "reroll_limit", f"At most {MAX_REROLLS_PER_FLIP} cards of one flip can be rerolled."
        )
    rerolled = reroll(flipped, positions, ctx.rng)  # refuses a 0, a card twice, a bad position
    if cost:
        _spend_cp(ctx, player, cost * len(positions), "reroll")
    ctx.emit(
        "flip_rerolled",
        player=player,
        purpose=purpose.value,
        positions=list(positions),
        count=len(positions),
        flip=dump(rerolled),
    )


@command("accept")
def _accept(ctx: Ctx, args: Args) -> None:
    state = ctx.state
    if state.attack is not None:
        _flip_owner(args, state.attack.player)
        _accept_attack(ctx, args)
    elif state.disengage is not None:
        d = state.disengage
        _flip_owner(args, ctx.state.unit(d.strikes[d.current].unit).player)
        _next_strike(ctx, d.current + 1)
    elif state.pending is not None:
        pending = state.pending
        if not pending.deciders:
            raise refuse("not_now", "Nothing to accept.")
        player = pending.deciders[0]
        if args.has("player") and args.integer("player", lo=0) != player:
            raise refuse("not_your_decision", f"{state.player(player).name} decides first.")
        ctx.emit("reroll_decided", player=player)
        _after_pending_decision(ctx)
    elif state.open_free_flip is not None:
        ctx.emit("free_flip_closed")
    else:
        raise refuse("nothing_to_accept", "There is no flip waiting.")


def _accept_attack(ctx: Ctx, args: Args) -> None:
    attack = ctx.state.attack
    assert attack is not None
    if _hit_pending(attack):
        auto = args.optional_int("critical_auto_hits", lo=0, hi=3)
        _resolve_hit(ctx, auto)
    else:
        _apply_wound(ctx)
        if ctx.state.phase is not Phase.OVER and ctx.state.attack is not None:
            _next_wound(ctx)


def _after_pending_decision(ctx: Ctx) -> None:
    pending = ctx.state.pending
    assert pending is not None
    # A decider whose card became a 0 or who has no CP left has nothing more to decide.
    while pending.deciders:
        player = pending.deciders[0]
        slot = pending.players.index(player)
        flipped = pending.flips[slot]
        assert flipped is not None
        free = pending.purpose is FlipPurpose.INITIATIVE and _free_initiative_reroll(
            ctx.state, player
        )
        if (free or ctx.state.player(player).cp >= 1) and any(
            not c.rerolled and c.value != 0 for c in flipped.cards
        ):
            return
        ctx.emit("reroll_decided", player=player)
        pending = ctx.state.pending
        assert pending is not None
    _resolve_initiative(ctx)


# --- Disengaging ------------------------------------------------------------------------------


@command("disengage")
def _disengage(ctx: Ctx, args: Args) -> None:
    """Lösen: a move out of enemy control zones. Each enemy in whose zone it stands may strike
    first with one melee weapon: exactly one card, never boosted, no damage; a hit stops the
    move where it would leave the zone."""
    unit = _active(ctx, args)
    if unit.stationary:
        raise refuse("stationary", f"{unit.name} is stationary and cannot move.")
    strike_args = args.objects("strikes", most=8)
    _spend_ap(ctx, unit, 1)
    _lose_bonuses(ctx, unit)
    strikes = []
    seen: set[int] = set()
    for strike in strike_args:
        striker = _unit_arg(ctx, strike, "striker")
        if striker.player == unit.player or not striker.in_play or striker.id in seen:
            raise refuse("bad_striker", f"{striker.name} cannot strike at {unit.name}.")
        if striker.stationary:
            raise refuse("bad_striker", f"{striker.name} is stationary: it has no control zone.")
        seen.add(striker.id)
        melee = [i for i, w in enumerate(striker.weapons) if w.kind is WeaponKind.MELEE]
        if not melee:
            raise refuse("bad_striker", f"{striker.name} has no melee weapon.")
        best = max(melee, key=lambda i: combat.attack_value(striker, i).value)
        weapon_index = strike.integer("weapon", best, lo=0, hi=len(striker.weapons) - 1)
        if weapon_index not in melee:
            raise refuse("wrong_weapon", "A disengage strike uses a melee weapon.")
        situation = _situation(strike)
        if situation.warning:
            _spend_cp(ctx, unit.player, 1, "warning")
        reflex = combat.disengage_reflex(unit, situation)
        strikes.append(
            Target(
                unit=striker.id,
                reflex=reflex.value,
                attack_value=combat.attack_value(striker, weapon_index).value,
                reflex_notes=reflex.notes,
            )
        )
    disengage = Disengage(
        unit=unit.id,
        strikes=tuple(strikes),
        flips=tuple(None for _ in strikes),
        rerolls=tuple(0 for _ in strikes),
        confirm=args.boolean("confirm_flips", True),
    )
    ctx.emit("disengage_declared", disengage=dump(disengage))
    _next_strike(ctx, 0)


def _strike_hits(flipped: Flip, attack_value: int, reflex: int) -> bool:
    """A strike stops the move unless it misses: a 0 fails, a 9 hits, equal counts as a hit
    (a flesh wound is a hit; the strike deals no damage either way)."""
    if flipped.result == 0:
        return False
    return flipped.nines > 0 or flipped.result + attack_value >= reflex


def _next_strike(ctx: Ctx, index: int) -> None:
    d = ctx.state.disengage
    assert d is not None
    while index < len(d.strikes):
        strike = d.strikes[index]
        striker = ctx.state.unit(strike.unit)
        deck = ctx.state.player(striker.player).deck
        odds = attack_odds(deck, 0, strike.attack_value, strike.reflex)
        flipped = flip(deck, 0, ctx.rng)
        ctx.emit(
            "strike_flipped",
            index=index,
            player=striker.player,
            striker=striker.id,
            flip=dump(flipped),
            hits=_strike_hits(flipped, strike.attack_value, strike.reflex),
            odds={"hit": fraction_text(odds.hit + odds.graze)},
        )
        if d.confirm and _can_reroll(ctx.state, striker.player, flipped, 0):
            return
        index += 1
        d = ctx.state.disengage
        assert d is not None
    stopped = [
        s.unit
        for s, f in zip(d.strikes, d.flips, strict=True)
        if f is not None and _strike_hits(f, s.attack_value, s.reflex)
    ]
    ctx.emit("disengage_resolved", unit=d.unit, stopped=bool(stopped), by=stopped)


# --- Knock-outs -------------------------------------------------------------------------------


def _respawns(ctx: Ctx, unit: Unit) -> bool:
    if not unit.team_member:
        return False
    rule = ctx.mode.respawn
    if rule is Respawn.NONE:
        return False
    if rule is Respawn.UNLIMITED:
        return True
    return unit.profile.respawner and unit.respawns == 0


def _knock_out(
    ctx: Ctx,
    unit_id: int,
    *,
    credit: Iterable[int],
    cause: str,
    by_unit: int | None,
) -> None:
    """0 LP: credit, victory points, flags, the king, then respawn or removal."""
    victim = ctx.state.unit(unit_id)
    mode = ctx.mode
    credit = tuple(credit)
    if victim.player in credit:
        # Self-inflicted (own area damage, a marker from it): credited to the opponents.
        credit = ctx.state.opponents(victim.player)
    ctx.emit("knocked_out", unit=victim.id, credit=list(credit), cause=cause, by=by_unit)
    if victim.team_member:
        for player in credit:
            if mode.ko_vp:
                _score(ctx, player, mode.ko_vp, "knock_out", victim.name)
            if mode.vip_vp and victim.vip:
                _score(ctx, player, mode.vip_vp, "vip", victim.name)
        if mode.ko_vp_to_opponent and len(ctx.state.players) == 2:
            (opponent,) = ctx.state.opponents(victim.player)
            _score(ctx, opponent, mode.ko_vp_to_opponent, "knock_out", victim.name)
    if victim.kind is UnitKind.CORE:
        for player in ctx.state.opponents(victim.player):
            _score(ctx, player, mode.core_destroyed_vp, "core_destroyed", victim.name)
        if ctx.state.first_core_destroyer is None:
            ctx.emit("first_core_destroyed", player=ctx.state.opponents(victim.player)[0])
    # A Breakthrough marker goes back to its owner's zone; a flag drops where the carrier fell.
    dropped = ObjectiveState.IN_ZONE if mode.breakthrough else ObjectiveState.DROPPED
    for flag_id in victim.flags:
        ctx.emit("flag_placed", objective=flag_id, state=dropped.value, reason="knock_out")
    if victim.king:
        _king_falls(ctx, victim, by_unit)
    if _respawns(ctx, victim):
        ctx.emit("respawned", unit=victim.id)
    else:
        ctx.emit("removed", unit=victim.id)
    if ctx.state.active == victim.id:
        ctx.emit("activation_ended", unit=victim.id, reason="knocked_out")
    _check_wiped_out(ctx)


def _king_falls(ctx: Ctx, king: Unit, by_unit: int | None) -> None:
    killer = ctx.state.unit(by_unit) if by_unit is not None else None
    # The knocking model becomes king, whichever team it belongs to (a friend's stray area
    # hit crowns the friend); a king that knocked itself out leaves it unclear.
    if killer is not None and killer.team_member and killer.id != king.id and killer.in_play:
        ctx.emit("king_named", unit=killer.id, player=killer.player)
        return
    n = len(ctx.state.players)
    if ctx.mode.unclear_king_right:
        chooser = (king.player + 1) % n
    else:
        chooser = next(p for p in ctx.state.opponents(king.player))
    ctx.emit("awaiting", what="king_unclear", player=chooser)


def _score(ctx: Ctx, player: int, points: int, reason: str, detail: str = "") -> None:
    if points <= 0:
        return
    ctx.emit("vp_scored", player=player, points=points, reason=reason, detail=detail)
    if not ctx.round_end_scoring:
        _check_targets(ctx)


def _check_targets(ctx: Ctx) -> None:
    """Deathmatch: who reaches the VP target starts the end of the game. Players who reach it
    in the same round-end scoring reach it together: neither of them was first (SPEC: a tie goes
    to whoever reached the target first; if unclear, draw), so their order is not recorded."""
    target = ctx.mode.vp_target
    if target is None:
        return
    needed = target[{3: 0, 5: 1, 7: 2}[ctx.state.game_size]]
    reached = [
        p.index
        for p in ctx.state.players
        if p.index not in ctx.state.target_reached and p.total_vp >= needed
    ]
    for player in reached:
        ctx.emit("target_reached", player=player, target=needed, together=len(reached) > 1)
    if reached and not ctx.state.game_ending:
        ctx.emit("game_ending", reason="vp_target")


def _check_wiped_out(ctx: Ctx) -> None:
    """A team with no fighter left loses at once (Last Man Standing ends the same way)."""
    if ctx.state.phase is Phase.OVER:
        return
    wiped = [
        p.index
        for p in ctx.state.players
        if not p.eliminated and not any(u.in_play for u in ctx.state.team(p.index))
    ]
    if not wiped:
        return
    for player in wiped:
        ctx.emit("player_eliminated", player=player)
    survivors = [p for p in ctx.state.players if not p.eliminated]
    if len(survivors) == 1:
        _end_game(ctx, "wiped_out", winners=[survivors[0].index])
        return
    best = max((p.total_vp for p in survivors), default=0)
    leaders = [p.index for p in survivors if p.total_vp == best]
    _end_game(ctx, "wiped_out", winners=leaders)


def _end_game(ctx: Ctx, reason: str, *, winners: list[int] | None = None) -> None:
    if winners is None:
        winners = _winners_by_vp(ctx)
    draw = len(winners) != 1
    ctx.emit(
        "game_ended",
        winners=winners,
        draw=draw,
        reason=reason,
        vp=[p.total_vp for p in ctx.state.players],
    )


def _winners_by_vp(ctx: Ctx) -> list[int]:
    state = ctx.state
    contenders = [p for p in state.players if not p.eliminated]
    best = max(p.total_vp for p in contenders)
    tied = [p.index for p in contenders if p.total_vp == best]
    if len(tied) > 1 and ctx.mode.vp_target is not None:
        first = next((p for p in state.target_reached if p in tied), None)
        if first is not None:
            return [first]
    if len(tied) > 1 and ctx.mode.cores and state.first_core_destroyer in tied:
        assert state.first_core_destroyer is not None
        return [state.first_core_destroyer]
    return tied


# --- End phase --------------------------------------------------------------------------------


@command("score_round")
def _score_round(ctx: Ctx, args: Args) -> None:
    """End phase: the players say who controls each focal point and whether the king stands in
    the zone; switches and flags the tracker knows. Then the round's VP and the end check."""
    _awaiting(ctx, "score")
    mode, state = ctx.mode, ctx.state
    controllers = args.mapping("focal_points")
    ctx.round_end_scoring = True
    for objective in state.objectives:
        if objective.kind != ObjectiveKind.FOCAL_POINT.value:
            continue
        owner = controllers.get(objective.id)
        if owner is not None:
            owner = _player_arg(ctx, Args({"player": owner}))
        ctx.emit("switch_changed", objective=objective.id, owner=owner)
        if owner is not None and mode.focal_vp:
            _score(ctx, owner, mode.focal_vp, "focal_point", objective.id)
    owned = {
        p.index: [
            o.id
            for o in ctx.state.objectives
            if o.kind == ObjectiveKind.SWITCH.value and o.owner == p.index and not mode.breakthrough
        ]
        for p in state.players
    }
    for player, switches in owned.items():
        if mode.switch_vp:
            for switch in switches:
                _score(ctx, player, mode.switch_vp, "switch", switch)
        if mode.domination is not None and len(switches) >= mode.domination[0]:
            _score(ctx, player, mode.domination[1], "domination", ", ".join(switches))
    if mode.king:
        king = next((u for u in ctx.state.units if u.king and u.in_play), None)
        if king is not None and args.boolean("king_in_zone"):
            _score(ctx, king.player, mode.king_vp, "king", king.name)
    if mode.flag_home_vp:
        for objective in ctx.state.objectives:
            if (
                objective.kind == ObjectiveKind.FLAG.value
                and objective.side is not None
                and objective.state is ObjectiveState.HOME
            ):
                _score(ctx, objective.side, mode.flag_home_vp, "flag_home", objective.id)
    ctx.round_end_scoring = False
    _check_targets(ctx)
    _end_of_round_check(ctx)


def _end_of_round_check(ctx: Ctx) -> None:
    mode, state = ctx.mode, ctx.state
    over = (
        (mode.rounds is not None and state.round >= mode.rounds)
        or state.game_ending
        or (mode.end_at_vp is not None and any(p.total_vp >= mode.end_at_vp for p in state.players))
    )
    if not over:
        _start_round(ctx, state.round + 1)
        return
    if mode.breakthrough:
        for objective in ctx.state.objectives:
            if (
                objective.kind == ObjectiveKind.SWITCH.value
                and objective.locked
                and objective.owner is not None
            ):
                _score(ctx, objective.owner, mode.breakthrough_vp, "breakthrough", objective.id)
    if mode.cores:
        for core in ctx.state.units:
            if core.kind is UnitKind.CORE and core.in_play:
                thirds = (core.max_lp - core.lp) * 3 // core.max_lp
                for player in ctx.state.opponents(core.player):
                    _score(ctx, player, thirds * mode.core_third_vp, "core_damage", core.name)
    if state.game_ending:
        reason = "vp_target" if mode.vp_target else "core_destroyed"
    else:
        reason = "rounds" if mode.rounds is not None and state.round >= mode.rounds else "vp_limit"
    _end_game(ctx, reason)


# --- Objectives -------------------------------------------------------------------------------


def _objective_arg(ctx: Ctx, args: Args, kind: ObjectiveKind) -> Objective:
    objective = ctx.state.objective(args.text("objective"))
    if objective.kind != kind.value:
        raise refuse("wrong_objective", f"{objective.id} is not a {kind.value.replace('_', ' ')}.")
    return objective


@command("activate_switch")
def _activate_switch(ctx: Ctx, args: Args) -> None:
    """1 AP in base contact: a neutral switch becomes yours. Breakthrough: only a flag carrier
    activates an enemy switch, which then stays activated (the flag is spent)."""
    unit = _active(ctx, args)
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
        _spend_ap(ctx, unit, 1)
        _lose_bonuses(ctx, unit)
        ctx.emit(
            "switch_changed", objective=switch.id, owner=unit.player, locked=True, unit=unit.id
        )
        ctx.emit("flag_placed", objective=marker, state="spent", reason="switch")
        return
    if switch.owner == unit.player:
        raise refuse("switch_yours", f"{switch.id} is yours already.")
    if switch.owner is not None:
        raise refuse("switch_owned", f"{switch.id} must be neutralised first.")
    _spend_ap(ctx, unit, 1)
    _lose_bonuses(ctx, unit)
    ctx.emit("switch_changed", objective=switch.id, owner=unit.player, unit=unit.id)


@command("neutralise_switch")
def _neutralise_switch(ctx: Ctx, args: Args) -> None:
    unit = _active(ctx, args)
    switch = _objective_arg(ctx, args, ObjectiveKind.SWITCH)
    if switch.locked:
        raise refuse("switch_locked", f"{switch.id} is activated for good.")
    if switch.owner is None or switch.owner == unit.player:
        raise refuse("switch_not_enemy", f"{switch.id} is not controlled by an enemy.")
    _spend_ap(ctx, unit, 1)
    _lose_bonuses(ctx, unit)
    ctx.emit("switch_changed", objective=switch.id, owner=None, unit=unit.id)


@command("repair_core")
def _repair_core(ctx: Ctx, args: Args) -> None:
    """Onslaught: Reparieren (1 AP): a core within 3" regains 3/4/5 LP."""
    unit = _active(ctx, args)
    core = _unit_arg(ctx, args, "core")
    if core.kind is not UnitKind.CORE or not core.in_play:
        raise refuse("not_a_core", "Only a standing energy core can be repaired.")
    if core.lp >= core.max_lp:
        raise refuse("core_intact", f"{core.name} has lost no LP.")
    _spend_ap(ctx, unit, 1)
    _lose_bonuses(ctx, unit)
    ctx.emit("core_repaired", unit=unit.id, core=core.id, lp=CORE_REPAIR[ctx.state.game_size])


def _flag_unit(ctx: Ctx, args: Args) -> Unit:
    _in_activation(ctx)
    unit = _unit_arg(ctx, args)
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
        _score(ctx, unit.player, mode.flag_return_vp, "flag_returned", flag.id)
        return
    ctx.emit("flag_taken", objective=flag.id, unit=unit.id)


@command("hand_over_flag")
def _hand_over_flag(ctx: Ctx, args: Args) -> None:
    unit = _flag_unit(ctx, args)
    receiver = _unit_arg(ctx, args, "to")
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
    _score(ctx, unit.player, mode.flag_score_vp, "flag", flag.id)


# --- Gadgets ----------------------------------------------------------------------------------

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
    """The first model per turn that reaches a station by an action gets its effect."""
    _in_activation(ctx)
    unit = _unit_arg(ctx, args)
    gadget = ctx.state.gadget(args.text("gadget"))
    effect = _STATION_EFFECTS.get(gadget.option)
    if effect is None or not unit.in_play:
        raise refuse(
            "nothing_to_track", "Teleport and jump fields need no bookkeeping: move the model."
        )
    if gadget.used_turn == ctx.state.turn_number:
        raise refuse("gadget_used", "This station served a model this turn already.")
    if not gadget.active:
        raise refuse(
            "gadget_inactive", "The Erlöser is active only from the start of rounds 2 and 4."
        )
    if effect == "stim" and ctx.state.active != unit.id:
        raise refuse("stim_active_only", "The Stim-Terminal's +1 AP is for the activated model.")
    if effect == "shimmer" and carries_shimmer_blocker(unit.items):
        raise refuse("shimmer_tarnfeld", "The Schimmerfeld does not combine with a Tarnfeld.")
    roll = ctx.rng.randint(1, HEALING_DIE) if effect == "heal" else None
    ctx.emit("gadget_used", unit=unit.id, gadget=gadget.id, effect=effect, roll=roll)


# --- Free flips and corrections ---------------------------------------------------------------


@command("flip")
def _free_flip(ctx: Ctx, args: Args) -> None:
    """A flip for anything the tracker does not model: cards, result, odds, deck."""
    _no_flip_waiting(ctx)
    player = _player_arg(ctx, args)
    boost = args.integer("boost", 0, lo=-MAX_MODIFIER, hi=MAX_MODIFIER)
    deck = ctx.state.player(player).deck
    flipped = flip(deck, boost, ctx.rng)
    at_least = flip_odds(deck, boost).at_least
    ctx.emit(
        "free_flipped",
        player=player,
        flip=dump(flipped),
        odds={str(k): fraction_text(p) for k, p in enumerate(at_least) if k > 0},
        chance=fraction_text(at_least[flipped.result]),
        label=args.text("label", ""),
    )


@command("adjust")
def _adjust(ctx: Ctx, args: Args) -> None:
    """A correction by hand (a card effect the tracker does not model). Setting LP to 0 knocks
    the model out with no credit."""
    _no_flip_waiting(ctx)
    unit = _unit_arg(ctx, args)
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
        _knock_out(ctx, unit.id, credit=(), cause="adjusted", by_unit=None)


@command("adjust_vp")
def _adjust_vp(ctx: Ctx, args: Args) -> None:
    _no_flip_waiting(ctx)
    player = _player_arg(ctx, args)
    points = args.integer("points", lo=-50, hi=50)
    if points == 0:
        raise refuse("invalid_args", "Adjust by at least one point.")
    ctx.emit(
        "vp_scored", player=player, points=points, reason="adjusted", detail=args.text("note", "")
    )
    _check_targets(ctx)


@command("adjust_cp")
def _adjust_cp(ctx: Ctx, args: Args) -> None:
    _no_flip_waiting(ctx)
    player = _player_arg(ctx, args)
    ctx.emit(
        "cp_adjusted", player=player, cp=args.integer("cp", lo=0, hi=30), note=args.text("note", "")
    )
