"""Victory ("Spielablauf", "Szenario"): a free game lasts the agreed rounds and scores the army
points of the enemy models taken out (a surrendered unit's models count half); a scenario is
won on the mission points the players enter alone ("Es gewinnt der Spieler, der nach Ende des
Szenarios die meisten Missionspunkte ergattert hat"; the VP for models taken out are still
kept and shown); a side whose every unit is eliminated or has surrendered
loses at once. ``concede`` and ``end_on_time`` end the game as in every system."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import Args, ArgSpec, CommandSpec
from apps.systems.core.results import END_ON_TIME, standing
from apps.systems.stahlgewitter.match.context import (
    Ctx,
    command,
    event,
    refusals,
    refuse,
    require_battle,
    specs,
)
from apps.systems.stahlgewitter.match.factions import is_scenario
from apps.systems.stahlgewitter.match.state import MatchState, Result, Stage, VpEntry

Data = Any
MAX_MISSION_POINTS = 100

specs(
    CommandSpec(
        "mission_points",
        _("Scenario: mission points a player earned (or a correction, negative)."),
        (
            ArgSpec("player", "int", help=_("The player (0 or 1).")),
            ArgSpec("points", "int", help=_("Mission points (+/−).")),
        ),
    ),
    CommandSpec(
        "concede",
        _("A player gives up: the other wins."),
        (ArgSpec("player", "int"),),
        own_seat_arg="player",
    ),
    END_ON_TIME,
)
refusals(
    {
        "free_game": _("A free game has no mission points: only a scenario does."),
        "nothing_to_change": _("A correction of 0 changes nothing."),
        "game_over": _("The game is over."),
        "players": _("A Stahlgewitter match has 2 players."),
        "empty_team": _("A team has no units."),
        "bad_team": _("A team's units cannot be read."),
        "unknown_mode": _("There is no such game mode."),
        "not_started": _("The match has not started."),
        "invalid_args": _("The command's details are incomplete or not valid."),
        "unknown_command": _("Stahlgewitter has no such command."),
        "unknown_player": _("There is no such player in this match."),
        "unknown_unit": _("There is no such unit in this match."),
        "unknown_model": _("There is no such model in this match."),
        "nothing_to_undo": _("There is nothing to undo."),
        "stale": _("Another device moved first: this is the match now."),
        "nothing_to_choose": _("There is nothing to choose from."),
        "wrong_phase": _("That is not done in this phase."),
        # Raised by the shared maths and roster rules of the system on values out of range.
        "crt_column_invalid": _("There is no such column in the combat results table."),
        "crt_row_invalid": _("There is no such row in the combat results table."),
        "row_bonus_invalid": _("A result roll bonus cannot be negative."),
        "helpers_invalid": _("The number of helpers is not valid."),
        "fire_face_invalid": _("The fire table has no such result."),
        "points_limit": _("The army is over its points limit."),
        "settings_invalid": _("The army's settings are not valid."),
    }
)


def score(ctx: Ctx, player: int, points: int, reason: str, detail: str = "") -> None:
    if points:
        ctx.emit("vp_scored", player=player, points=points, reason=reason, detail=detail)


@event("vp_scored")
def _vp_scored(state: MatchState, data: Data) -> MatchState:
    player = state.players[data["player"]]
    entry = VpEntry(max(state.round, 1), data["points"], data["reason"], data.get("detail", ""))
    return state.with_player(player.index, vp=(*player.vp, entry))


def eliminated(state: MatchState) -> list[int]:
    """The players none of whose units is still in the game."""
    return [p.index for p in state.players if not state.in_play(p.index)]


def check_elimination(ctx: Ctx) -> None:
    """ "Das Spiel endet vorher, falls alle Einheiten einer Seite ausgelöscht worden sind oder
    sich ergeben haben": that side loses (both at once: a draw)."""
    state = ctx.state
    if state.stage is not Stage.BATTLE:
        return
    gone = eliminated(state)
    if not gone:
        return
    winners = [p.index for p in state.players if p.index not in gone]
    ctx.emit("game_ended", winners=winners, draw=not winners, reason="eliminated")


def deciding_points(state: MatchState, player: int) -> int:
    """What decides the game: a free game's VP, a scenario's mission points."""
    entries = state.players[player].vp
    if is_scenario(state.mode):
        return sum(entry.points for entry in entries if entry.reason == "mission")
    return sum(entry.points for entry in entries)


def finish(ctx: Ctx, reason: str) -> None:
    """The end of the game: the most victory points (a scenario: mission points) win; a tie is a
    draw."""
    state = ctx.state
    result = standing({p.index: deciding_points(state, p.index) for p in state.players})
    ctx.emit("game_ended", winners=list(result.winners), draw=result.draw, reason=reason)


@event("game_ended")
def _game_ended(state: MatchState, data: Data) -> MatchState:
    result = Result(tuple(data["winners"]), data["draw"], data["reason"])
    return replace(state, stage=Stage.OVER, result=result, active=None, blitz=None)


@command("mission_points")
def _mission_points(ctx: Ctx, args: Args) -> None:
    state = ctx.state
    require_battle(state)
    player = args.integer("player", lo=0, hi=1)
    points = args.integer("points", lo=-MAX_MISSION_POINTS, hi=MAX_MISSION_POINTS)
    if not is_scenario(state.mode):
        refuse("free_game", "A free game has no mission points.")
    if points == 0:
        refuse("nothing_to_change", "A correction of 0 changes nothing.")
    score(ctx, player, points, "mission")


@command("concede")
def _concede(ctx: Ctx, args: Args) -> None:
    player = args.integer("player", lo=0, hi=len(ctx.state.players) - 1)
    ctx.emit("conceded", player=player)
    ctx.emit("game_ended", winners=[1 - player], draw=False, reason="conceded")


@event("conceded")
def _conceded(state: MatchState, data: Data) -> MatchState:
    return state


@command("end_on_time")
def _end_on_time(ctx: Ctx, args: Args) -> None:
    """The time is up: decided as at the end of the agreed rounds, most VP win."""
    finish(ctx, "time")
