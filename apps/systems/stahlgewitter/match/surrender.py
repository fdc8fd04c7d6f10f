"""Surrender and cruel leaders at the start of the rally phase ("Moral", "Grausame
Anführer").

"Eine Einheit, die auf 50% ihrer Sollstärke reduziert ist und einem mindestens 2:1 überlegenen
Gegner gegenübersteht (maximal 50 cm Distanz), darf sich zu Beginn ihrer Sammelphase ergeben.
Nimmt der Gegner die Kapitulation an, so wird die Einheit vom Spielfeld entfernt, gibt ... nur
halbe Siegpunkte. Der Gegner kann jedoch auch entscheiden, die sich ergebenden niederzumachen.
In diesem Fall erhalten alle verbleibenden Einheiten der Massakrierten für den Rest des Spiels
+2 auf ihre Moral". Fanatiker never surrender, Khirf neither.

A cruel ("grausam") leader within 5 cm of a panicking unit at the start of its rally phase may
execute one of its models: 1d10, 1-9 the unit is rallied, 10 it mutinies and every model of
it shoots once at the leader.

"Überlebt er diese Attacke, so kann er die Einheit nur durch ein erneutes Exempel in der
folgenden Sammelphase beruhigen": the unit keeps a mark that refuses its rally test until an
example rallies it. Fanatiker "nehmen auch keine Gefangenen": a player whose army has a living
Fanatiker cannot accept a surrender, only massacre the unit.

Decisions: the players confirm the 2:1 within 50 cm by offering the surrender; a unit with a
living Fanatiker never surrenders; a massacred unit's models are taken out (full VP); an
executed model is a loss like any other (the enemy scores its army points); mutineers shoot
with their first working ranged weapon (no cover: the leader stands among them)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import Args, ArgSpec, CommandSpec
from apps.systems.stahlgewitter.combat import Cover
from apps.systems.stahlgewitter.match import attacks
from apps.systems.stahlgewitter.match.context import (
    Ctx,
    active_unit,
    command,
    event,
    refusals,
    refuse,
    require_battle,
    require_phase,
    require_shown,
    specs,
)
from apps.systems.stahlgewitter.match.damage import damage
from apps.systems.stahlgewitter.match.panic import khirf, remove_unit
from apps.systems.stahlgewitter.match.rounds import end_turn, hidden_marker
from apps.systems.stahlgewitter.match.state import MatchState, Phase, Unit
from apps.systems.stahlgewitter.morale import execution, massacre_bonus
from apps.systems.stahlgewitter.odds import execution_weights

Data = Any

specs(
    CommandSpec(
        "surrender",
        _(
            "Start of the rally phase: the active unit, at 50 % of its strength or less and "
            "facing enemies 2:1 within 50 cm (the players confirm), offers its surrender."
        ),
        (ArgSpec("player", "int", help=_("The unit's player (0 or 1).")),),
        own_seat_arg="player",
    ),
    CommandSpec(
        "answer_surrender",
        _("The enemy accepts the surrender (half VP) or massacres the unit (its side: +2 morale)."),
        (
            ArgSpec("player", "int", help=_("The enemy answering (0 or 1).")),
            ArgSpec("accept", "bool", help=_("true: accepted; false: massacred")),
        ),
        own_seat_arg="player",
    ),
    CommandSpec(
        "execute",
        _(
            "Start of the rally phase of a panicking unit: a cruel leader within 5 cm executes "
            "one of its models; 1d10: 1-9 rallied, 10 mutiny (each model shoots at the leader)."
        ),
        (
            ArgSpec("leader", "int", help=_("The cruel leader (a model id).")),
            ArgSpec("victim", "int", help=_("The executed model (a model id).")),
        ),
    ),
)
refusals(
    {
        "too_strong": _("Only a unit at 50 % of its strength or less may surrender."),
        "fanatics": _("Fanatiker never surrender."),
        "khirf_surrender": _("Units under Khirf cannot surrender."),
        "rally_begun": _("That is done at the start of the rally phase, before the rally test."),
        "no_surrender": _("No unit is offering its surrender."),
        "not_the_enemy": _("The enemy answers the surrender, not the unit's own player."),
        "answer_surrender": _("The enemy answers the surrender first."),
        "not_cruel": _("Only a leader marked “grausam” (cruel) sets an example."),
        "not_in_unit": _("The executed model must belong to the panicking unit."),
        "not_friendly": _("That model belongs to the other side."),
        "no_prisoners": _("Fanatiker take no prisoners: an army with a Fanatiker massacres them."),
    }
)


def may_surrender_refusal(state: MatchState, unit: Unit) -> str:
    """Why ``unit`` may not surrender now ("" = it may)."""
    living = state.living(unit.id)
    if any("fanatiker" in m.skills for m in living):
        return "fanatics"
    if khirf(state, unit):
        return "khirf_surrender"
    if len(living) * 2 > len(unit.models):
        return "too_strong"
    return ""


@command("surrender")
def _surrender(ctx: Ctx, args: Args) -> None:
    state = ctx.state
    require_phase(state, Phase.RALLY)
    unit = active_unit(state)
    player = args.integer("player", lo=0, hi=1)
    if player != unit.player:
        refuse("not_your_unit", "That unit belongs to the other player.")
    if state.rallied:
        refuse("rally_begun", "That is done at the start of the rally phase.")
    code = may_surrender_refusal(state, unit)
    if code:
        refuse(code, "This unit may not surrender.")
    ctx.emit(
        "surrender_offered", unit=unit.id, player=unit.player, marker=hidden_marker(state, unit)
    )


@event("surrender_offered")
def _surrender_offered(state: MatchState, data: Data) -> MatchState:
    return replace(state, surrender=data["unit"])


@command("answer_surrender")
def _answer_surrender(ctx: Ctx, args: Args) -> None:
    state = ctx.state
    require_battle(state)
    if state.surrender is None:
        refuse("no_surrender", "No unit is offering its surrender.")
    player = args.integer("player", lo=0, hi=1)
    accept = args.boolean("accept")
    unit = state.units[state.surrender]
    if player == unit.player:
        refuse("not_the_enemy", "The enemy answers the surrender.")
    if accept and takes_no_prisoners(state, player):
        refuse("no_prisoners", "Fanatiker take no prisoners.")
    ctx.emit(
        "surrender_answered",
        unit=unit.id,
        player=unit.player,
        accepted=accept,
        marker=hidden_marker(state, unit),
    )
    if accept:
        remove_unit(ctx, unit.id, "surrendered", half=True)
    else:
        remove_unit(ctx, unit.id, "massacred")
        bonus = massacre_bonus()
        ctx.emit(
            "massacre_rage",
            player=unit.player,
            units=[u.id for u in ctx.state.in_play(unit.player)],
            bonus=bonus,
        )
    if ctx.state.active == unit.id:
        end_turn(ctx)


def takes_no_prisoners(state: MatchState, player: int) -> bool:
    """ "Einheiten, die in der Armeeliste als "Fanatiker" gekennzeichnet sind, dürfen sich
    niemals ergeben. Sie nehmen auch keine Gefangenen": ``player`` has a living Fanatiker."""
    return any("fanatiker" in m.skills for u in state.in_play(player) for m in state.living(u.id))


@event("surrender_answered")
def _surrender_answered(state: MatchState, data: Data) -> MatchState:
    return replace(state, surrender=None)


@event("massacre_rage")
def _massacre_rage(state: MatchState, data: Data) -> MatchState:
    for unit in data["units"]:
        state = state.with_unit(unit, morale_bonus=state.units[unit].morale_bonus + data["bonus"])
    return state


@command("execute")
def _execute(ctx: Ctx, args: Args) -> None:
    state = ctx.state
    require_phase(state, Phase.RALLY)
    unit = active_unit(state)
    leader = state.model(args.integer("leader", lo=0, hi=9999))
    victim = state.model(args.integer("victim", lo=0, hi=9999))
    if not unit.panic:
        refuse("not_panicking", "Only a panicking unit is rallied.")
    require_shown(state, unit.id)
    if state.rallied:
        refuse("rally_begun", "That is done at the start of the rally phase.")
    if leader.player != unit.player:
        refuse("not_friendly", "The leader must belong to the same side.")
    if leader.dead or victim.dead:
        refuse("model_dead", "That model is out of the game.")
    if not leader.leader or "grausam" not in leader.skills:
        refuse("not_cruel", "Only a cruel leader sets an example.")
    if victim.unit != unit.id or victim.id == leader.id:
        refuse("not_in_unit", "The executed model must belong to the panicking unit.")
    rallied, mutiny = execution_weights()
    ctx.emit("executed", unit=unit.id, player=unit.player, leader=leader.id, victim=victim.id)
    damage(ctx, victim.id, victim.tp, leader.id, "executed")
    roll = execution(ctx.rng)
    ctx.emit(
        "example_rolled",
        unit=unit.id,
        player=unit.player,
        dice=list(roll.dice),
        rallied=roll.rallied,
        weights={"rallied": rallied, "mutiny": mutiny},
        denominator=rallied + mutiny,
    )
    if roll.mutiny:
        _mutiny(ctx, unit.id, leader.id)
        if ctx.state.models[leader.id].alive:
            ctx.emit("mutiny_survived", unit=unit.id, player=unit.player, leader=leader.id)


def _mutiny(ctx: Ctx, unit_id: int, leader_id: int) -> None:
    """ "so meutern die Angehörigen gegen den grausamen Anführer und führen sofort und außer der
    Reihe einen Fernkampfangriff auf ihn durch" """
    for model in ctx.state.living(unit_id):
        if ctx.state.models[leader_id].dead:
            return
        if model.id == leader_id or model.stunned:
            continue
        index = next((i for i, w in enumerate(model.weapons) if w.ranged and not w.fault), None)
        if index is None:
            continue
        attacks.fire_at(
            ctx,
            model.id,
            index,
            leader_id,
            shots=1,
            melee=False,
            cover=Cover.OPEN,
            prone=False,
            near=True,
            blocked=False,
            attacker_blocked=False,
            source="mutiny",
            acts=False,
        )


@event("executed")
def _executed(state: MatchState, data: Data) -> MatchState:
    return state


@event("example_rolled")
def _example_rolled(state: MatchState, data: Data) -> MatchState:
    state = replace(state, rallied=True)
    if data["rallied"]:
        state = state.with_unit(data["unit"], panic=False, mutinied=False)
    return state


@event("mutiny_survived")
def _mutiny_survived(state: MatchState, data: Data) -> MatchState:
    return state.with_unit(data["unit"], mutinied=True)
