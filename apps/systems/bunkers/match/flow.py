"""The battle rounds: each player turn walks the phases as a checklist; every command phase
gives both players +1 CP and (from battle round 2) asks who holds the markers; the end of a
player turn closes the doors nobody keeps open; the end of the last turn scores the game."""

from __future__ import annotations

from apps.systems.bunkers.match.context import (
    Ctx,
    command,
    refuse,
    require_battle,
    require_scored,
)
from apps.systems.bunkers.match.scoring import damage_vp, held_vp
from apps.systems.bunkers.match.tables import (
    FIRST_SCORING_ROUND,
    HOLD_MISSIONS,
    PHASES,
    VP_CARRIER,
    VP_HOME,
    DoorState,
    Mission,
    Phase,
    Stage,
)
from apps.systems.core.match import Args
from apps.systems.core.results import standing

CP_PER_COMMAND_PHASE = 1


def start_battle(ctx: Ctx, first: int) -> None:
    ctx.emit("battle_started", first=first)
    start_turn(ctx, 1, first)


def start_turn(ctx: Ctx, round_: int, player: int) -> None:
    """A player turn begins with its command phase: +1 CP for both players ("die des
    Angreifers & die des Verteidigers"), the artifact's carrier scores, markers are checked."""
    state = ctx.state
    scoring = state.mission in HOLD_MISSIONS and round_ >= FIRST_SCORING_ROUND
    ctx.emit("turn_started", round=round_, player=player, scoring=scoring)
    for index in range(len(state.players)):
        ctx.emit("cp_changed", player=index, points=CP_PER_COMMAND_PHASE, reason="command_phase")
    carrier = ctx.state.carrier
    if state.mission == Mission.ARTEFAKT and carrier is not None:
        ctx.vp(ctx.state.units[carrier].player, VP_CARRIER, "carrier")


@command("next_phase")
def _next_phase(ctx: Ctx, args: Args) -> None:
    """The next phase of the checklist; after the morale phase the player turn ends (the open
    doors close unless ``keep`` names them: a model or sentry gun within 2")."""
    state = ctx.state
    require_battle(state)
    require_scored(state)
    position = PHASES.index(state.phase)
    if position + 1 < len(PHASES):
        args.ints("keep", lo=0, hi=99, most=32)
        ctx.emit("phase_started", phase=PHASES[position + 1].value)
        return
    end_turn(ctx, args)


def end_turn(ctx: Ctx, args: Args) -> None:
    state = ctx.state
    keep = set(args.ints("keep", lo=0, hi=99, most=32))
    open_doors = [d.id for d in state.doors if d.state is DoorState.OPEN]
    if keep - set(open_doors):
        refuse("not_open", "Only an open door or barrier can be kept open.")
    closing = [door for door in open_doors if door not in keep]
    if closing or keep:
        ctx.emit("doors_closed", doors=closing, kept=sorted(keep))
    assert state.active is not None and state.first is not None
    ctx.emit("turn_ended", player=state.active, round=state.round)
    if state.active == state.first:
        start_turn(ctx, state.round, state.other(state.first))
    elif state.round < state.rounds:
        start_turn(ctx, state.round + 1, state.first)
    elif state.mission == Mission.ARTEFAKT and state.carrier is not None:
        ctx.emit("final_stage", reason="last_round")
    else:
        finish(ctx, "last_round")


@command("score_objectives")
def _score_objectives(ctx: Ctx, args: Args) -> None:
    """Who holds each marker at the start of this command phase (the players say: more models
    within 3", Objective Secured); 1 VP each, 2 VP for one the opponent held last time."""
    state = ctx.state
    require_battle(state)
    if not state.scoring_due:
        refuse("no_scoring", "The markers are checked at the start of a command phase.")
    raw = args.raw("holders") if args.has("holders") else []
    if not isinstance(raw, list) or len(raw) != len(state.markers):
        refuse("invalid_args", "Name a holder (or nobody) for every marker.")
    holders: list[int | None] = []
    for value in raw:
        if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
            refuse("invalid_args", "A holder is a player number or nobody.")
        if value is not None and value not in (0, 1):
            refuse("unknown_player", "There is no such player.")
        holders.append(value)
    ctx.emit("objectives_held", holders=holders)
    for player, points, detail in held_vp(state.markers, holders):
        ctx.vp(player, points, "objectives", detail)


@command("score_end")
def _score_end(ctx: Ctx, args: Args) -> None:
    """Sichert das Artefakt: the carrier's player scores 2 VP if it ends in one of their own
    deployment zones."""
    state = ctx.state
    if state.stage is not Stage.FINAL:
        refuse("not_now", "That is not possible at this point of the game.")
    if args.boolean("home", False) and state.carrier is not None:
        ctx.vp(state.units[state.carrier].player, VP_HOME, "artifact_home")
    finish(ctx, state.ending or "last_round")


def finish(ctx: Ctx, reason: str) -> None:
    """The end of the game: Maximaler Schaden for both, then the most VP win."""
    for player, points, detail in damage_vp(ctx.state.units, ctx.state.pieces):
        ctx.vp(player, points, "max_damage", detail)
    scores = {p.index: p.total_vp for p in ctx.state.players}
    result = standing(scores)
    ctx.emit("game_ended", winners=list(result.winners), draw=result.draw, reason=reason)


@command("concede")
def _concede(ctx: Ctx, args: Args) -> None:
    player = args.integer("player", lo=0, hi=len(ctx.state.players) - 1)
    ctx.emit("conceded", player=player)
    ctx.emit("game_ended", winners=[ctx.state.other(player)], draw=False, reason="conceded")


@command("end_on_time")
def _end_on_time(ctx: Ctx, args: Args) -> None:
    """The time is up: scored as at the game's end (Maximaler Schaden), most VP win. In
    Sichert das Artefakt with a carrier the end asks first where the artifact is ("Wer sich am
    Ende des Spiels mit dem Artefakt in einer seiner Aufstellungszone befindet, bekommt 2
    Siegespunkte"): ``home`` answers it at once, else the final question follows (the
    "Match" section's button sends nothing)."""
    state = ctx.state
    carrier = state.carrier if state.mission == Mission.ARTEFAKT else None
    if carrier is not None and not args.has("home"):
        if state.stage is Stage.FINAL:
            refuse("final_question", "Answer where the artifact is first.")
        ctx.emit("final_stage", reason="time")
        return
    if carrier is not None and args.boolean("home"):
        ctx.vp(state.units[carrier].player, VP_HOME, "artifact_home")
    finish(ctx, state.ending or "time")


__all__ = ["Phase", "start_battle"]
