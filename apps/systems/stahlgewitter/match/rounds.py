"""The round ("Rundenabfolge", "Aktionsbereitschaft", "Rundenübersicht", "Spielzugabfolge"):
effect markers re-rolled and units counted at its start, alternate activations (two in a row
for a side with more than twice the opponent's units), never the same unit twice in a row
(also across rounds), the rest activated at the end; readiness instead of activation, the
Blitzaktion after the current phase, readiness carried into the next round; each turn walks
the phases movement, ranged, melee, rally."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import Args, ArgSpec, CommandSpec
from apps.systems.stahlgewitter.match import care
from apps.systems.stahlgewitter.match.context import (
    Ctx,
    active_unit,
    command,
    event,
    refusals,
    refuse,
    require_battle,
    specs,
)
from apps.systems.stahlgewitter.match.state import PHASES, Fire, MatchState, Phase, Stage, Unit
from apps.systems.stahlgewitter.match.victory import check_elimination, finish
from apps.systems.stahlgewitter.morale import fire_marker
from apps.systems.stahlgewitter.odds import fire_weights

Data = Any
TRIGGERS = ("attacked", "view", "scanner")
MAX_FIRES = 30
_UNIT = ArgSpec("unit", "int", help=_("The unit (its id)."))

specs(
    CommandSpec(
        "activate", _("The player whose pick it is activates one of their units."), (_UNIT,)
    ),
    CommandSpec(
        "ready",
        _(
            "Instead of activating it, the unit goes on readiness (Aktionsbereitschaft): it may "
            "take a Blitzaktion in an opponent's turn (not while panicking)."
        ),
        (_UNIT,),
    ),
    CommandSpec(
        "blitz",
        _(
            "A ready unit calls a Blitzaktion: a friend within 10 cm was attacked, an enemy "
            "moves through its view, or (motion scanner) an enemy moves within 25 cm. Its full "
            "turn follows the current phase; then the interrupted unit goes on."
        ),
        (_UNIT, ArgSpec("trigger", "str", help=_("attacked, view or scanner"))),
    ),
    CommandSpec(
        "next_phase",
        _(
            "The active unit's next phase (movement, ranged, melee, rally); after rally its "
            "turn ends."
        ),
    ),
    CommandSpec("end_turn", _("The active unit ends its turn (the remaining phases are skipped).")),
    CommandSpec(
        "pass_pick",
        _(
            "A player with more than twice the opponent's units may activate a second unit in a "
            'row ("darf"): this passes the second pick to the opponent.'
        ),
    ),
    CommandSpec("add_fire", _("An effect marker: fire on the table (re-rolled every round).")),
    CommandSpec(
        "remove_fire",
        _("Take a fire marker off the table."),
        (ArgSpec("fire", "int", help=_("The fire marker (its id).")),),
    ),
)
refusals(
    {
        "not_in_battle": _("Only during the battle rounds."),
        "no_active_unit": _("No unit is taking its turn."),
        "turn_running": _("A unit is taking its turn: end it first."),
        "not_your_pick": _("It is the other player's pick."),
        "unit_out": _("That unit is out of the game."),
        "already_activated": _("That unit has had its turn this round."),
        "blitzed_this_round": _(
            "A unit that took a Blitzaktion is not activated in the same round."
        ),
        "twice_in_a_row": _(
            "No unit is activated twice in a row (also across rounds): choose another one."
        ),
        "panicking": _("A panicking unit can do nothing but defend itself in melee."),
        "not_ready": _("Only a unit on readiness can take a Blitzaktion."),
        "own_turn": _("A Blitzaktion interrupts an opponent's turn."),
        "blitz_waiting": _("A Blitzaktion has been called already: it follows this phase."),
        "blitz_running": _("A Blitzaktion is running: no second one interrupts it."),
        "no_scanner": _("Only a unit with a motion scanner reacts to movement within 25 cm."),
        "not_moving": _("This trigger needs an enemy moving: the movement phase."),
        "nobody_attacked": _("None of this player's units has been attacked in this turn."),
        "too_many_fires": _("The table has as many fire markers as the tracker keeps."),
        "fire_out": _("That fire is out already."),
        "no_second_pick": _("Only the second of two activations in a row may be passed."),
        "unknown_fire": _("There is no such fire marker."),
    }
)


# --- Whose pick ------------------------------------------------------------------------------


def available(state: MatchState, unit: Unit) -> bool:
    """The unit may still take its turn this round: not out, not activated, not put on
    readiness and no Blitzaktion taken this round."""
    r = state.round
    return not unit.out and r not in (unit.activated_round, unit.ready_round, unit.blitzed_round)


def choices(state: MatchState, player: int, *, strict: bool = True) -> tuple[Unit, ...]:
    """The player's units that may take the next turn; ``strict`` leaves out the unit whose turn
    ended last ("Unter keinen Umständen darf eine Einheit zweimal direkt hintereinander aktiviert
    werden")."""
    return tuple(
        u
        for u in state.side_units(player)
        if available(state, u) and not (strict and u.id == state.last_unit)
    )


def double(state: MatchState, player: int) -> bool:
    """ "Verfügt ein Spieler über mehr als doppelt so viele Einheiten wie sein Gegner, so darf
    er jedesmal, wenn er an der Reihe ist, zwei Einheiten nacheinander aktivieren." """
    if len(state.counts) < 2:
        return False
    return state.counts[player] > 2 * state.counts[1 - player]


def next_pick(ctx: Ctx) -> None:
    """After a pick (a turn ended or a unit set ready): the same player again while they may
    activate two in a row, else the opponent, else the one with units left ("Anderenfalls
    aktiviert er am Ende der Runde seine verbleibenden Einheiten hintereinander"); when nobody
    has a unit left the round ends."""
    state = ctx.state
    last = state.turn_player if state.turn_player is not None else state.first or 0
    other = state.other(last)
    order: list[tuple[int, int]] = []
    if double(state, last) and state.picks < 2:
        order.append((last, state.picks + 1))
    order += [(other, 1), (last, state.picks + 1)]
    for strict in (True, False):
        for player, picks in order:
            if choices(state, player, strict=strict):
                ctx.emit("pick", player=player, picks=picks)
                return
    end_round(ctx)


@event("pick")
def _pick(state: MatchState, data: Data) -> MatchState:
    return replace(state, turn_player=data["player"], picks=data["picks"])


def start_round(ctx: Ctx, round_: int) -> None:
    """ "1. Alle Effekt-Marker ... werden neu ausgewürfelt. 2. Die Anzahl der Einheiten auf
    jeder Seite wird gezählt." Then the start player picks first (or, when every unit they
    could activate took the last turn, the opponent)."""
    rolls = []
    weights = fire_weights()
    for fire in ctx.state.fires:
        if not fire.out:
            roll = fire_marker(ctx.rng)
            rolls.append(
                {
                    "fire": fire.id,
                    "dice": list(roll.dice),
                    "result": roll.result,
                    "p": f"{weights.get(roll.result, 0)}/{sum(weights.values())}",
                }
            )
    counts = [len(ctx.state.in_play(p.index)) for p in ctx.state.players]
    # A fire that spreads lays a new marker, as many as the tracker keeps (decided here, so
    # that applying the event checks nothing).
    room = MAX_FIRES - len(ctx.state.fires)
    spreads = sum(1 for roll in rolls if roll["result"] == "spreads")
    spread = [len(ctx.state.fires) + i for i in range(max(0, min(spreads, room)))]
    ctx.emit("round_started", round=round_, counts=counts, fires=rolls, spread=spread)
    state = ctx.state
    first = state.first or 0
    for strict in (True, False):
        for player in (first, state.other(first)):
            if choices(state, player, strict=strict):
                ctx.emit("pick", player=player, picks=1)
                return
    end_round(ctx)  # pragma: no cover - a side without units has lost already


@event("round_started")
def _round_started(state: MatchState, data: Data) -> MatchState:
    fires = list(state.fires)
    for roll in data["fires"]:
        if roll["result"] == "out":
            fires[roll["fire"]] = replace(fires[roll["fire"]], out=True)
    fires += [Fire(fire) for fire in data["spread"]]
    return replace(
        state,
        round=data["round"],
        counts=tuple(data["counts"]),
        fires=tuple(fires),
        turn_player=None,
        picks=0,
    )


def end_round(ctx: Ctx) -> None:
    """ "Die Runde endet, wenn alle Einheiten einen Zug durchgeführt haben": a weapon fault of
    "1 Runde Reparatur" is repaired at the end of the next round; then the next round, or the
    end of a free game after the agreed rounds."""
    care.burn_round(ctx)
    check_elimination(ctx)
    if ctx.state.stage is not Stage.BATTLE:
        return
    state = ctx.state
    repaired = [
        [model.id, index]
        for model in state.models
        for index, weapon in enumerate(model.weapons)
        if weapon.fault and 0 < weapon.fault_until <= state.round
    ]
    ctx.emit("round_ended", round=state.round, repaired=repaired)
    if state.round >= state.rounds:
        finish(ctx, "last_round")
        return
    start_round(ctx, state.round + 1)


@event("round_ended")
def _round_ended(state: MatchState, data: Data) -> MatchState:
    for model, index in data["repaired"]:
        state = state.with_weapon(model, index, fault=False, fault_until=0)
    return replace(state, turn_player=None, picks=0)


@command("pass_pick")
def _pass_pick(ctx: Ctx, args: Args) -> None:
    """ "so darf er jedesmal, wenn er an der Reihe ist, zwei Einheiten nacheinander aktivieren":
    the second one is a choice; the opponent picks next."""
    state = ctx.state
    require_battle(state)
    if state.active is not None:
        refuse("turn_running", "A unit is taking its turn: end it first.")
    player = state.turn_player
    if player is None or state.picks != 2 or not double(state, player):
        refuse("no_second_pick", "Only the second of two activations in a row may be passed.")
    ctx.emit("pick_passed", player=player)
    next_pick(ctx)


@event("pick_passed")
def _pick_passed(state: MatchState, data: Data) -> MatchState:
    return state


# --- Activation and readiness ----------------------------------------------------------------


def _pickable(ctx: Ctx, args: Args) -> Unit:
    state = ctx.state
    require_battle(state)
    if state.active is not None:
        refuse("turn_running", "A unit is taking its turn: end it first.")
    unit = state.unit(args.integer("unit", lo=0, hi=999))
    if unit.player != state.turn_player:
        refuse("not_your_pick", "It is the other player's pick.")
    if unit.out:
        refuse("unit_out", "That unit is out of the game.")
    if unit.blitzed_round == state.round:
        refuse("blitzed_this_round", "A unit that took a Blitzaktion waits for the next round.")
    if not available(state, unit):
        refuse("already_activated", "That unit has had its turn this round.")
    if unit.id == state.last_unit and choices(state, unit.player):
        refuse("twice_in_a_row", "No unit is activated twice in a row: choose another one.")
    return unit


def hidden_marker(state: MatchState, unit: Unit) -> int | None:
    """The marker a hidden unit acts as (None once revealed)."""
    marker = state.marker_of(unit.id)
    return marker.number if marker is not None and not unit.revealed else None


@command("activate")
def _activate(ctx: Ctx, args: Args) -> None:
    unit = _pickable(ctx, args)
    state = ctx.state
    marker = hidden_marker(state, unit)
    ctx.emit(
        "activated", unit=unit.id, player=unit.player, round=state.round, marker=marker, blitz=False
    )


def begin_turn(state: MatchState, unit_id: int) -> MatchState:
    """The unit's models start a fresh turn: nothing moved or fought yet, and those stunned now
    stand up at its end."""
    for model_id in state.units[unit_id].models:
        model = state.models[model_id]
        state = state.with_model(model_id, moved="", acted="", wakes=model.stunned)
    return replace(state, active=unit_id, phase=Phase.MOVEMENT, rallied=False)


@event("activated")
def _activated(state: MatchState, data: Data) -> MatchState:
    unit = data["unit"]
    state = state.with_unit(unit, activated_round=data["round"], ready=False)
    return replace(begin_turn(state, unit), struck=(), leader_shots=())


@command("ready")
def _ready(ctx: Ctx, args: Args) -> None:
    """ "Diese Möglichkeit besteht nur für Einheiten, die nicht unter den Auswirkungen einer
    verpatzten Moralprobe leiden"; a ready unit's player has used the pick."""
    unit = _pickable(ctx, args)
    if unit.panic:
        refuse("panicking", "A panicking unit cannot go on readiness.")
    state = ctx.state
    marker = hidden_marker(state, unit)
    ctx.emit("readied", unit=unit.id, player=unit.player, round=state.round, marker=marker)
    next_pick(ctx)


@event("readied")
def _readied(state: MatchState, data: Data) -> MatchState:
    return state.with_unit(data["unit"], ready=True, ready_round=data["round"])


@command("blitz")
def _blitz(ctx: Ctx, args: Args) -> None:
    state = ctx.state
    require_battle(state)
    running = active_unit(state)
    unit = state.unit(args.integer("unit", lo=0, hi=999))
    trigger = args.text("trigger", choices=TRIGGERS)
    _check_blitz_unit(state, unit, running)
    _check_trigger(state, unit, trigger)
    ctx.emit(
        "blitz_called",
        unit=unit.id,
        player=unit.player,
        trigger=trigger,
        marker=hidden_marker(state, unit),
    )


def _check_blitz_unit(state: MatchState, unit: Unit, running: Unit) -> None:
    """A Blitzaktion is for an opponent's ready unit that has not acted this round, one at a
    time."""
    if unit.out:
        refuse("unit_out", "That unit is out of the game.")
    if unit.player == running.player:
        refuse("own_turn", "A Blitzaktion interrupts an opponent's turn.")
    if not unit.ready:
        refuse("not_ready", "Only a unit on readiness can take a Blitzaktion.")
    if unit.activated_round == state.round or unit.blitzed_round == state.round:
        refuse("blitzed_this_round", "Never activated and blitzed in one round.")
    if unit.panic:
        refuse("panicking", "A panicking unit can do nothing.")
    if state.blitz is not None:
        refuse("blitz_waiting", "A Blitzaktion has been called already.")
    if state.interrupted is not None:
        refuse("blitz_running", "A Blitzaktion is running.")


def _check_trigger(state: MatchState, unit: Unit, trigger: str) -> None:
    """The three triggers: a friend attacked, an enemy moving through the view, an enemy moving
    within 25 cm of a motion scanner."""
    if trigger == "scanner" and not any(
        "motion_scanner" in m.effects for m in state.living(unit.id)
    ):
        refuse("no_scanner", "Only a unit with a motion scanner reacts within 25 cm.")
    if trigger in ("view", "scanner") and state.phase is not Phase.MOVEMENT:
        refuse("not_moving", "This trigger needs an enemy moving: the movement phase.")
    if trigger == "attacked" and not any(
        state.units[u].player == unit.player for u in state.struck
    ):
        refuse("nobody_attacked", "None of this player's units has been attacked this turn.")


@event("blitz_called")
def _blitz_called(state: MatchState, data: Data) -> MatchState:
    return replace(state, blitz=data["unit"])


# --- Phases and the end of a turn ------------------------------------------------------------


@command("next_phase")
def _next_phase(ctx: Ctx, args: Args) -> None:
    state = ctx.state
    require_battle(state)
    unit = active_unit(state)
    position = PHASES.index(state.phase)
    if position + 1 >= len(PHASES):
        end_turn(ctx)
        return
    following = PHASES[position + 1]
    if state.blitz is not None:
        start_blitz(ctx, unit.id, following.value)
        return
    ctx.emit(
        "phase_started",
        unit=unit.id,
        player=unit.player,
        phase=following.value,
        marker=hidden_marker(state, unit),
    )


@event("phase_started")
def _phase_started(state: MatchState, data: Data) -> MatchState:
    return replace(state, phase=Phase(data["phase"]))


@command("end_turn")
def _end_turn(ctx: Ctx, args: Args) -> None:
    require_battle(ctx.state)
    active_unit(ctx.state)
    end_turn(ctx)


def start_blitz(ctx: Ctx, interrupted: int | None, resume: str) -> None:
    """ "Die Einheit, die die Blitzaktion ausführt, wird aber erst nach Abschluß dieser Phase
    aktiv. Nach der genommenen Blitzaktion (= ein kompletter Zug) setzt die Einheit, die die
    Blitzaktion ausgelöst hat, ihren Zug mit ihren verbleibenden Phasen fort." """
    state = ctx.state
    assert state.blitz is not None
    unit = state.units[state.blitz]
    stopped = state.units[interrupted] if interrupted is not None else None
    ctx.emit(
        "blitz_started",
        unit=unit.id,
        player=unit.player,
        round=state.round,
        interrupted=interrupted,
        interrupted_marker=hidden_marker(state, stopped) if stopped else None,
        resume=resume,
        marker=hidden_marker(state, unit),
    )


@event("blitz_started")
def _blitz_started(state: MatchState, data: Data) -> MatchState:
    unit = data["unit"]
    state = state.with_unit(unit, ready=False, blitzed_round=data["round"])
    state = replace(state, blitz=None, interrupted=data["interrupted"], resume=data["resume"])
    return begin_turn(state, unit)


def end_turn(ctx: Ctx) -> None:
    """The active unit's turn ends: its models stunned since before the turn stand up. A
    Blitzaktion called in the last phase follows; a Blitzaktion that ends hands the turn back to
    the unit it interrupted; otherwise the next pick."""
    state = ctx.state
    unit = active_unit(state)
    woke = [m.id for m in state.living(unit.id) if m.stunned and m.wakes]
    ctx.emit(
        "turn_ended",
        unit=unit.id,
        player=unit.player,
        woke=woke,
        marker=hidden_marker(state, unit),
    )
    state = ctx.state
    if state.blitz is not None:
        start_blitz(ctx, None, "")
        return
    if state.interrupted is not None:
        resumed = state.units[state.interrupted]
        ctx.emit(
            "turn_resumed",
            unit=resumed.id,
            player=resumed.player,
            phase=state.resume,
            marker=hidden_marker(state, resumed),
        )
        if resumed.out:
            end_turn(ctx)
        return
    if ctx.state.stage is Stage.BATTLE:
        next_pick(ctx)


@event("turn_ended")
def _turn_ended(state: MatchState, data: Data) -> MatchState:
    for model in data["woke"]:
        state = state.with_model(model, stunned=False, wakes=False)
    return replace(state, active=None, last_unit=data["unit"])


@event("turn_resumed")
def _turn_resumed(state: MatchState, data: Data) -> MatchState:
    return replace(
        state,
        active=data["unit"],
        phase=Phase(data["phase"]),
        interrupted=None,
        resume="",
    )


# --- Effect markers --------------------------------------------------------------------------


@command("add_fire")
def _add_fire(ctx: Ctx, args: Args) -> None:
    require_battle(ctx.state)
    if len(ctx.state.fires) >= MAX_FIRES:
        refuse("too_many_fires", "The table has as many fire markers as the tracker keeps.")
    ctx.emit("fire_added", fire=len(ctx.state.fires))


@event("fire_added")
def _fire_added(state: MatchState, data: Data) -> MatchState:
    return replace(state, fires=(*state.fires, Fire(data["fire"])))


@command("remove_fire")
def _remove_fire(ctx: Ctx, args: Args) -> None:
    state = ctx.state
    require_battle(state)
    fire = args.integer("fire", lo=0, hi=MAX_FIRES)
    if fire >= len(state.fires):
        refuse("unknown_fire", "There is no such fire marker.")
    if state.fires[fire].out:
        refuse("fire_out", "That fire is out already.")
    ctx.emit("fire_removed", fire=fire)


@event("fire_removed")
def _fire_removed(state: MatchState, data: Data) -> MatchState:
    fires = list(state.fires)
    fires[data["fire"]] = replace(fires[data["fire"]], out=True)
    return replace(state, fires=tuple(fires))
