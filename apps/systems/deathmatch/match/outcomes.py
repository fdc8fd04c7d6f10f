"""Knock-outs, victory points and the end of the game (SPEC §1.6, §1.8): credit and respawn, the
king, VIPs, the VP target, teams wiped out, end-of-round scoring per mode and final scoring.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from apps.systems.core.match import Args
from apps.systems.core.results import standing
from apps.systems.deathmatch.match import rounds
from apps.systems.deathmatch.match.context import Ctx, command, player_arg, require_awaiting
from apps.systems.deathmatch.match.modes import ObjectiveKind, Respawn
from apps.systems.deathmatch.match.state import ObjectiveState, Phase, Unit, UnitKind
from apps.systems.deathmatch.match.units import full_ammo


def _respawns(ctx: Ctx, unit: Unit) -> bool:
    if not unit.team_member:
        return False
    rule = ctx.mode.respawn
    if rule is Respawn.NONE:
        return False
    if rule is Respawn.UNLIMITED:
        return True
    return unit.profile.respawner and unit.respawns == 0


def knock_out(
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
        _score_knock_out(ctx, victim, credit)
    if victim.kind is UnitKind.CORE:
        _score_core(ctx, victim)
    # A Breakthrough marker goes back to its owner's zone; a flag drops where the carrier fell.
    dropped = ObjectiveState.IN_ZONE if mode.breakthrough else ObjectiveState.DROPPED
    for flag_id in victim.flags:
        ctx.emit("flag_placed", objective=flag_id, state=dropped.value, reason="knock_out")
    if victim.king:
        _king_falls(ctx, victim, by_unit)
    if _respawns(ctx, victim):
        ctx.emit("respawned", unit=victim.id)
        # "Alle Marker ... werden entfernt", ammunition markers too: the full ammunition again.
        full = full_ammo(victim.weapons)
        if victim.ammo != full:
            ctx.emit("ammo_restored", unit=victim.id, ammo=list(full))
    else:
        ctx.emit("removed", unit=victim.id)
    if ctx.state.active == victim.id:
        ctx.emit("activation_ended", unit=victim.id, reason="knocked_out")
    _check_wiped_out(ctx)


def _score_knock_out(ctx: Ctx, victim: Unit, credit: tuple[int, ...]) -> None:
    """The mode's VP for knocking out a team fighter (and its VIP), to whoever gets credit."""
    mode = ctx.mode
    for player in credit:
        if mode.ko_vp:
            score(ctx, player, mode.ko_vp, "knock_out", victim.name)
        if mode.vip_vp and victim.vip:
            score(ctx, player, mode.vip_vp, "vip", victim.name)
    if mode.ko_vp_to_opponent and len(ctx.state.players) == 2:
        (opponent,) = ctx.state.opponents(victim.player)
        score(ctx, opponent, mode.ko_vp_to_opponent, "knock_out", victim.name)


def _score_core(ctx: Ctx, core: Unit) -> None:
    """Onslaught: a destroyed energy core scores for its owner's opponents."""
    for player in ctx.state.opponents(core.player):
        score(ctx, player, ctx.mode.core_destroyed_vp, "core_destroyed", core.name)
    if ctx.state.first_core_destroyer is None:
        ctx.emit("first_core_destroyed", player=ctx.state.opponents(core.player)[0])


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


def score(ctx: Ctx, player: int, points: int, reason: str, detail: str = "") -> None:
    if points <= 0:
        return
    ctx.emit("vp_scored", player=player, points=points, reason=reason, detail=detail)
    if not ctx.round_end_scoring:
        check_targets(ctx)


def check_targets(ctx: Ctx) -> None:
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
    _end_game(ctx, "wiped_out", winners=_survivors_by_vp(ctx))


def _survivors_by_vp(ctx: Ctx) -> list[int]:
    """A team out ends the game: the one team left wins; with several left, the most VP."""
    survivors = [p.index for p in ctx.state.players if not p.eliminated]
    if len(survivors) == 1:
        return survivors
    scores = {p.index: p.total_vp for p in ctx.state.players}
    return list(standing(scores, among=survivors).winners)


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


@command("score_round")
def _score_round(ctx: Ctx, args: Args) -> None:
    """End phase: the players say who controls each focal point and whether the king stands in
    the zone; switches and flags the tracker knows. Then the round's VP and the end check."""
    require_awaiting(ctx, "score")
    ctx.round_end_scoring = True
    _score_focal_points(ctx, args.mapping("focal_points"))
    _score_switches(ctx)
    if ctx.mode.king:
        king = next((u for u in ctx.state.units if u.king and u.in_play), None)
        if king is not None and args.boolean("king_in_zone"):
            score(ctx, king.player, ctx.mode.king_vp, "king", king.name)
    if ctx.mode.flag_home_vp:
        _score_flags_home(ctx)
    ctx.round_end_scoring = False
    check_targets(ctx)
    _end_of_round_check(ctx)


def _score_focal_points(ctx: Ctx, controllers: Mapping[str, Any]) -> None:
    """Who controls each focal point is told by the players; each scores the mode's VP."""
    for objective in ctx.state.objectives:
        if objective.kind != ObjectiveKind.FOCAL_POINT.value:
            continue
        owner = controllers.get(objective.id)
        if owner is not None:
            owner = player_arg(ctx, Args({"player": owner}))
        ctx.emit("switch_changed", objective=objective.id, owner=owner)
        if owner is not None and ctx.mode.focal_vp:
            score(ctx, owner, ctx.mode.focal_vp, "focal_point", objective.id)


def _score_switches(ctx: Ctx) -> None:
    """Each switch held scores its VP; holding enough of them scores Domination."""
    mode = ctx.mode
    if mode.breakthrough:
        return
    for player in ctx.state.players:
        switches = [
            o.id
            for o in ctx.state.objectives
            if o.kind == ObjectiveKind.SWITCH.value and o.owner == player.index
        ]
        for switch in switches if mode.switch_vp else ():
            score(ctx, player.index, mode.switch_vp, "switch", switch)
        if mode.domination is not None and len(switches) >= mode.domination[0]:
            score(ctx, player.index, mode.domination[1], "domination", ", ".join(switches))


def _score_flags_home(ctx: Ctx) -> None:
    for objective in ctx.state.objectives:
        home = objective.side is not None and objective.state is ObjectiveState.HOME
        if objective.kind == ObjectiveKind.FLAG.value and home:
            assert objective.side is not None
            score(ctx, objective.side, ctx.mode.flag_home_vp, "flag_home", objective.id)


def _game_over(ctx: Ctx) -> bool:
    mode, state = ctx.mode, ctx.state
    last_round = mode.rounds is not None and state.round >= mode.rounds
    at_limit = mode.end_at_vp is not None and any(
        p.total_vp >= mode.end_at_vp for p in state.players
    )
    return last_round or state.game_ending or at_limit


def _end_of_round_check(ctx: Ctx) -> None:
    mode, state = ctx.mode, ctx.state
    if not _game_over(ctx):
        rounds.start_round(ctx, state.round + 1)
        return
    _final_scoring(ctx)
    if state.game_ending:
        reason = "vp_target" if mode.vp_target else "core_destroyed"
    else:
        reason = "rounds" if mode.rounds is not None and state.round >= mode.rounds else "vp_limit"
    _end_game(ctx, reason)


def _final_scoring(ctx: Ctx) -> None:
    """What a mode scores only when the game ends (Breakthrough's switches, Onslaught's cores)."""
    if ctx.mode.breakthrough:
        _score_breakthroughs(ctx)
    if ctx.mode.cores:
        _score_core_damage(ctx)


@command("concede")
def _concede(ctx: Ctx, args: Args) -> None:
    """A player gives up and loses at once. Like a team wiped out (SPEC 1.8 "loses at once"),
    it ends the game for everyone: with two players the other wins; with three or four, the
    most VP among the others (a tie is a draw)."""
    player = player_arg(ctx, args)
    ctx.emit("conceded", player=player)
    _end_game(ctx, "conceded", winners=_survivors_by_vp(ctx))


@command("end_on_time")
def _end_on_time(ctx: Ctx, args: Args) -> None:
    """The time is up: the game ends now with the final scoring of its mode and is decided by
    VP as the mode decides a tie (who reached the target or destroyed a core first), else a
    draw. The round in progress is not scored: nobody has told the tracker its end phase."""
    _final_scoring(ctx)
    _end_game(ctx, "time")


def _score_breakthroughs(ctx: Ctx) -> None:
    """Breakthrough: every enemy switch activated for good scores at the end."""
    for objective in ctx.state.objectives:
        locked = objective.locked and objective.owner is not None
        if objective.kind == ObjectiveKind.SWITCH.value and locked:
            assert objective.owner is not None
            score(ctx, objective.owner, ctx.mode.breakthrough_vp, "breakthrough", objective.id)


def _score_core_damage(ctx: Ctx) -> None:
    """Onslaught: a standing core's lost thirds score for its owner's opponents."""
    for core in ctx.state.units:
        if core.kind is UnitKind.CORE and core.in_play:
            thirds = (core.max_lp - core.lp) * 3 // core.max_lp
            for player in ctx.state.opponents(core.player):
                score(ctx, player, thirds * ctx.mode.core_third_vp, "core_damage", core.name)
