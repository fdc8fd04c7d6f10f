"""The order of a round: picks and the initiative roll, a model's initiative phase from its
start (poison, burning) to its end (the panic retest), the round's end and the game's result.
"""

from __future__ import annotations

from typing import Any, Final

from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import Args
from apps.systems.universalis.match import rules
from apps.systems.universalis.match.acting import blocked
from apps.systems.universalis.match.conditions import panic_roll
from apps.systems.universalis.match.context import (
    Ctx,
    command,
    decided_roll,
    player_arg,
    refuse,
    roll_data,
)
from apps.systems.universalis.match.damage import lose_hp, reduced_damage
from apps.systems.universalis.match.melee import lapse_charge
from apps.systems.universalis.match.missions import mission
from apps.systems.universalis.match.order import (
    eligible,
    free_activations,
    phase_group,
    picking,
    retest_refusal,
)
from apps.systems.universalis.match.setup import start_round
from apps.systems.universalis.match.state import MatchState, Phase, Result, Unit
from apps.systems.universalis.match.values import attribute_value


@command("pick")
def _pick(ctx: Ctx, args: Args) -> None:
    """Both players pick a model in secret; when both have, the comparative AGI roll decides
    whose phase comes first (ties: the higher AGI, then chance)."""
    player = player_arg(ctx, args)
    unit = ctx.unit(args.integer("unit", lo=0))
    if not picking(ctx.state):
        raise refuse("not_now", "Models are picked when both players still have one to pick.")
    panic_moves_first(ctx)
    if unit not in eligible(ctx.state, player):
        raise refuse("not_eligible", f"{unit.name} cannot be picked now.")
    if ctx.state.players[player].pick is not None:
        raise refuse("picked_already", "This player has picked a model already.")
    ctx.emit("picked", player=player, unit=unit.id, players={player: {"pick": unit.id}})
    picks = [p.pick for p in ctx.state.players]
    if all(pick is not None for pick in picks):
        _roll_initiative(ctx, ctx.unit(picks[0] or 0), ctx.unit(picks[1] or 0))


def _roll_initiative(ctx: Ctx, a: Unit, b: Unit) -> None:
    agi_a = rules.attribute(ctx.state, a, "agi")
    agi_b = rules.attribute(ctx.state, b, "agi")
    outcome, roll = ctx.comparative(
        _("Initiative: %(a)s against %(b)s (AGI)"),
        attribute_value(ctx.state, a, "agi"),
        attribute_value(ctx.state, b, "agi"),
        a=a.name,
        b=b.name,
    )
    rolls = [roll]
    if outcome == "tie" and agi_a != agi_b:
        outcome = "win" if agi_a > agi_b else "loss"
        rolls.append(
            decided_roll(ctx, a if agi_a > agi_b else b, _("Tie: %(unit)s has the higher AGI"))
        )
    while outcome == "tie":
        outcome, roll = ctx.comparative(_("Initiative tie: chance decides"), 0, 0)
        rolls.append(roll)
    first, second = (a, b) if outcome == "win" else (b, a)
    ctx.emit(
        "initiative_rolled",
        first=first.id,
        second=second.id,
        rolls=[roll_data(r) for r in rolls],
        players={p.index: {"pick": None} for p in ctx.state.players},
        state={"follower": second.id},
    )
    _begin_phase(ctx, first.id)


@command("activate")
def _activate(ctx: Ctx, args: Args) -> None:
    unit = ctx.unit(args.integer("unit", lo=0))
    if unit not in free_activations(ctx.state):
        if picking(ctx.state):
            raise refuse("pick_first", "Both players still have models: pick in secret.")
        raise refuse("not_eligible", f"{unit.name} cannot take its initiative phase now.")
    panic_moves_first(ctx)
    _begin_phase(ctx, unit.id)


def panic_moves_first(ctx: Ctx) -> None:
    """The round's first phase waits for the panicking models' moves (5.5.1)."""
    if ctx.state.panic_moves_due:
        raise refuse("panic_moves_first", "First the panicking models run (round start).")


def _begin_phase(ctx: Ctx, unit_id: int) -> None:
    """Tokens for fast move, defence and fire readiness are removed; then poison, then burning
    (5.6) for the model and its telematons."""
    group = phase_group(ctx.state, unit_id)
    ctx.emit(
        "phase_started",
        unit=unit_id,
        units={
            u.id: {
                "fast": False,
                "defence": False,
                "readiness": None,
                "moved_cm": 0,
                "threat_tested": False,
                "threat_failed": False,
                "must_attack": (),
                "acted": False,
            }
            for u in group
        },
        state={"phase": Phase.ACTING, "active": unit_id, "last_action": None},
    )
    for member in group:
        if member.poison > 0 and member.poison_by is not None:
            ctx.emit(
                "poison_acted",
                unit=member.id,
                units={member.id: {"poison": member.poison - 1}},
            )
            burn = member.poison_by
            damage = reduced_damage(ctx.unit(member.id), burn.damage, burn.effects)
            lose_hp(ctx, member.id, damage, None, cause="poison")
    burning = tuple(u.id for u in phase_group(ctx.state, unit_id) if u.burning is not None)
    if burning:
        ctx.emit("burning_due", units_due=list(burning), state={"burning_due": burning})


_RETEST_REFUSALS: Final = {
    "not_now": "No initiative phase is running.",
    "not_active": "It is not {name}'s initiative phase.",
    "not_panicking": "{name} is not panicking.",
    "orphan_panic": "{name} has no operator: its panic stays.",
}


@command("end_phase")
def _end_phase(ctx: Ctx, args: Args) -> None:
    """Ends the initiative phase; a panicking model may retest at its end (11.4.1): the active
    model and the telematons acting in its phase (``panic_retests``, each naming its ``unit``),
    except a telematon without its operator: it has no EH of its own and its panic comes from
    having no operator, so it keeps it (19.3, 19.5)."""
    if ctx.state.phase is not Phase.ACTING or ctx.state.active is None:
        raise refuse("not_now", "No initiative phase is running.")
    blocked(ctx)
    if ctx.state.charge is not None:
        raise refuse("charge_pending", "First the charge ends in its attack.")
    unit = ctx.unit(ctx.state.active)
    if args.has("unit") and args.integer("unit", lo=0) != unit.id:
        raise refuse("not_active", "That model's phase is not running.")
    retests: list[tuple[Unit, Args]] = []
    for retest in args.objects("panic_retests", most=6):
        member = ctx.unit(retest.integer("unit", lo=0))
        reason = retest_refusal(ctx.state, member)
        if reason:
            raise refuse(reason, _RETEST_REFUSALS[reason].format(name=member.name))
        if any(done.id == member.id for done, _retest in retests):
            raise refuse("retest_twice", f"{member.name} retests its panic once.")
        retests.append((member, retest))
    for member, retest in retests:
        panic_roll(ctx, ctx.unit(member.id), retest, just_eliminated=False)
    _finish_phase(ctx)


def _finish_phase(ctx: Ctx) -> None:
    active = ctx.state.active
    assert active is not None
    group = [
        u.id for u in ctx.state.units if u.id == active or (u.telematon and u.operator == active)
    ]
    follower = ctx.state.follower
    ctx.emit(
        "phase_ended",
        unit=active,
        units={uid: {"activated": True, "must_attack": ()} for uid in group},
        state={
            "active": None,
            "phase": Phase.ORDER,
            "last_action": None,
            "follower": None,
            "charge": None,
        },
    )
    if follower is not None and ctx.unit(follower).in_play and not ctx.unit(follower).activated:
        _begin_phase(ctx, follower)
        return
    if not free_activations(ctx.state) and not picking(ctx.state):
        ctx.emit("round_over", round=ctx.state.round, state={"phase": Phase.ROUND_END})


def settle(ctx: Ctx) -> None:
    """After a command: a charge whose model or target is gone lapses; an active model that
    left play ends its phase once nothing waits."""
    lapse_charge(ctx)
    state = ctx.state
    if (
        state.phase is Phase.ACTING
        and state.active is not None
        and not state.units[state.active].in_play
        and not state.panic_due
        and state.area is None
        and not state.burning_due
    ):
        _finish_phase(ctx)


@command("surrender")
def _surrender(ctx: Ctx, args: Args) -> None:
    """At a round's end a player may give up and loses at once (5.7)."""
    player = player_arg(ctx, args)
    if ctx.state.phase is not Phase.ROUND_END:
        raise refuse("surrender_at_round_end", "A player surrenders at the end of a round.")
    _give_up(ctx, player, "surrendered", "surrender")


@command("concede")
def _concede(ctx: Ctx, args: Args) -> None:
    """A player gives up at any moment (the table must stop, a player leaves) and loses: the
    other wins. Not the rules' surrender, which waits for the round's end (5.7); both end the
    game the same way."""
    _give_up(ctx, player_arg(ctx, args), "conceded", "conceded")


def _give_up(ctx: Ctx, player: int, event: str, reason: str) -> None:
    winners = tuple(p.index for p in ctx.state.players if p.index != player)
    ctx.emit(
        event,
        player=player,
        players={player: {"surrendered": True}},
        state={
            "phase": Phase.OVER,
            "result": Result(winners=winners, draw=False, reason=reason),
            "missions_revealed": True,
        },
    )


@command("end_on_time")
def _end_on_time(ctx: Ctx, args: Args) -> None:
    """The time is up: the game ends now and is decided as a round's end decides it (5.7),
    without the round limit: a group with no model left loses, then missions accomplished
    win (a declared mission counts the rounds confirmed so far); otherwise a draw."""
    met = [p.index for p in ctx.state.players if _accomplished(ctx.state, p.index)]
    decided = _result(ctx.state, met)
    winners = decided.winners if decided is not None else ()
    result = Result(winners=winners, draw=len(winners) != 1, reason="time")
    ctx.emit(
        "game_over",
        accomplished=met,
        players={i: {"accomplished": True} for i in met},
        state={"phase": Phase.OVER, "result": result, "missions_revealed": True},
    )


def _accomplished(state: MatchState, player: int) -> bool:
    slug = state.players[player].mission
    if slug is None:
        return False
    goal = mission(slug)
    enemies = [u for u in state.units if u.player != player]
    if goal.victory == "eliminate":
        return not any(u.in_play for u in enemies)
    if goal.victory == "leader":
        return any(u.card.group_leader and not u.in_play for u in enemies)
    return state.players[player].held_rounds >= goal.rounds_needed


@command("end_round")
def _end_round(ctx: Ctx, args: Args) -> None:
    """Round end (5.7): declared missions are confirmed for this round, victory conditions are
    checked; a group with no model left loses; otherwise unspent AP are halved (rounded down)
    and carried into the next round."""
    if ctx.state.phase is not Phase.ROUND_END:
        raise refuse("not_now", "The round is not over yet.")
    blocked(ctx)
    held = set(args.ints("held", hi=9, most=4))
    players: dict[int, dict[str, Any]] = {
        p.index: {"held_rounds": p.held_rounds + 1}
        for p in ctx.state.players
        if p.index in held and _declared(p.mission)
    }
    ctx.emit("round_checked", round=ctx.state.round, held=sorted(held), players=players)
    met = [p.index for p in ctx.state.players if _accomplished(ctx.state, p.index)]
    result = _result(ctx.state, met)
    if result is not None:
        ctx.emit(
            "game_over",
            accomplished=met,
            players={i: {"accomplished": True} for i in met},
            state={"phase": Phase.OVER, "result": result},
        )
        return
    ctx.emit(
        "ap_carried",
        units={u.id: {"ap": u.ap // 2} for u in ctx.state.units if u.in_play},
    )
    start_round(ctx, ctx.state.round + 1)


def _declared(slug: str | None) -> bool:
    """A mission the players declare met (the tracker cannot see it)."""
    return slug is not None and mission(slug).victory == "declared"


def _result(state: MatchState, met: list[int]) -> Result | None:
    """The game's result at a round end, if it is over: a group with no model left loses,
    then missions accomplished win, then the round limit draws."""
    standing = [p.index for p in state.players if any(u.in_play for u in state.team(p.index))]
    if len(standing) < len(state.players):
        return Result(winners=tuple(standing), draw=not standing, reason="group_gone")
    if met:
        return Result(winners=tuple(met), draw=len(met) > 1, reason="mission")
    if state.max_rounds and state.round >= state.max_rounds:
        return Result(winners=(), draw=True, reason="round_limit")
    return None
