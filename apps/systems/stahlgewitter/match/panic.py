"""Morale, panic and the rally phase ("Moral", "Sammelphase", "Khirf"): a test is 1d10 + the
WIK of the unit's highest-ranking leader (else of an ordinary member) ≥ 10, a rolled 10
counting 0; the unit with the army commander or a banner rerolls a failure once; a failure
panics the unit (its 5 cm flight the players make). In its rally phase a panicking unit with a
leader within 10 cm, or behind hard cover, rallies on a die of at most its morale value and
deserts on a failing 10. Khirf units take no morale tests. A weapon fault without a repair time
(the ranged A) is repaired in the rally phase by a model that did nothing else this turn.

The rally test with a leader within 10 cm is taken "auf den Moralwert des ranghöchsten
Anführers": the command may name that leader (of another unit too); the highest-ranking of it
and the unit's own leaders gives the value. A unit whose cruel leader survived its mutiny is
calmed only "durch ein erneutes Exempel in der folgenden Sammelphase": no rally test for it.

Decisions: the army commander is the army's highest-ranking leader (rank order, then WIK, then
roster order) while that model lives; a unit is under Khirf when every living model of it is;
a massacre's +2 counts on morale tests, not on the rally test ("Auf die Sammelprobe werden nur
Modifikatoren aufgrund der Gruppenstärke angewendet")."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import Args, ArgSpec, CommandSpec
from apps.systems.stahlgewitter.match.context import (
    Ctx,
    active_unit,
    command,
    event,
    own_model,
    refusals,
    refuse,
    require_battle,
    require_phase,
    specs,
)
from apps.systems.stahlgewitter.match.rounds import hidden_marker
from apps.systems.stahlgewitter.match.state import MatchState, Model, Phase, Unit
from apps.systems.stahlgewitter.match.victory import score
from apps.systems.stahlgewitter.morale import morale_test, rally_test
from apps.systems.stahlgewitter.odds import morale_pass_weight, rally_weights

Data = Any
MAX_MODIFIER = 5

specs(
    CommandSpec(
        "morale_test",
        _(
            "A unit takes a morale test: 1d10 + WIK ≥ 10 (a 10 counts 0), one reroll with the "
            "army commander or a banner; a failure panics it."
        ),
        (
            ArgSpec("unit", "int", help=_("The unit (its id).")),
            ArgSpec(
                "modifier",
                "int",
                required=False,
                help=_("A modifier, e.g. +1 for a detached specialist."),
            ),
        ),
    ),
    CommandSpec(
        "rally",
        _(
            "Rally phase: the panicking active unit tries to rally (needs a leader within 10 cm "
            "or hard cover): a die of at most its morale value rallies, a failing 10 deserts."
        ),
        (
            ArgSpec("leader_near", "bool", required=False, help=_("A leader is within 10 cm.")),
            ArgSpec("hard_cover", "bool", required=False, help=_("The unit is behind hard cover.")),
            ArgSpec(
                "leader",
                "int",
                required=False,
                help=_("The leader within 10 cm (a model id; the highest-ranking one tests)."),
            ),
        ),
    ),
    CommandSpec(
        "repair",
        _("Rally phase: a model that did nothing else this turn repairs a weapon fault."),
        (
            ArgSpec("model", "int", help=_("The model (its id).")),
            ArgSpec("weapon", "int", help=_("The weapon (its index).")),
        ),
    ),
)
refusals(
    {
        "khirf": _("Units under Khirf take no morale tests."),
        "already_panicking": _("The unit is panicking already."),
        "not_panicking": _("Only a panicking unit rallies."),
        "rallied_already": _("The unit took its rally test this turn."),
        "rally_needs_leader": _(
            "A rally test needs a leader within 10 cm of the unit, or the unit behind hard cover."
        ),
        "no_fault": _("That weapon works."),
        "mutinied": _(
            "This unit mutinied against its cruel leader: only a new example (execution) calms it."
        ),
        "not_a_leader": _("Name a living leader of the same side."),
        "repair_waits": _("This fault is repaired by itself at the end of the next round."),
        "model_busy": _("Only a model that did nothing else this turn repairs a weapon."),
    }
)


def khirf(state: MatchState, unit: Unit) -> bool:
    living = state.living(unit.id)
    return bool(living) and all("khirf" in m.effects for m in living)


def test_model(state: MatchState, unit: Unit) -> Model | None:
    """The model whose WIK the unit tests on: its highest-ranking living leader, else its
    steadiest ordinary member."""
    living = state.living(unit.id)
    leaders = [m for m in living if m.leader]
    if leaders:
        return max(leaders, key=lambda m: (m.rank_order, m.wik, -m.id))
    return max(living, key=lambda m: (m.wik, -m.id), default=None)


def may_reroll(state: MatchState, unit: Unit) -> bool:
    """ "Wird eine Einheit vom Armeekommandanten begleitet ... Das gleiche gilt, wenn sich in
    der Einheit ein Modell befindet, das deutlich sichtbar eine Fahne ... trägt." """
    commander = state.players[unit.player].commander
    living = state.living(unit.id)
    return any(m.id == commander for m in living) or any("banner" in m.effects for m in living)


def pass_chance(state: MatchState, unit: Unit, modifier: int = 0) -> Fraction | None:
    model = test_model(state, unit)
    if model is None:
        return None
    num, den = morale_pass_weight(
        model.wik, modifier + unit.morale_bonus, reroll=may_reroll(state, unit)
    )
    return Fraction(num, den)


def run_test(ctx: Ctx, unit: Unit, modifier: int, cause: str) -> None:
    state = ctx.state
    model = test_model(state, unit)
    if model is None:
        return
    total = modifier + unit.morale_bonus
    reroll = may_reroll(state, unit)
    num, den = morale_pass_weight(model.wik, total, reroll=reroll)
    roll = morale_test(ctx.rng, model.wik, total, reroll=reroll)
    ctx.emit(
        "morale_tested",
        unit=unit.id,
        player=unit.player,
        marker=hidden_marker(state, unit),
        model=model.id,
        wik=model.wik,
        modifier=total,
        reroll=reroll,
        dice=list(roll.dice),
        rerolled=roll.rerolled,
        passed=roll.passed,
        p_pass=f"{num}/{den}",
        cause=cause,
    )


@event("morale_tested")
def _morale_tested(state: MatchState, data: Data) -> MatchState:
    if data["passed"]:
        return state
    return state.with_unit(data["unit"], panic=True, ready=False)


@command("morale_test")
def _morale_test(ctx: Ctx, args: Args) -> None:
    state = ctx.state
    require_battle(state)
    unit = state.unit(args.integer("unit", lo=0, hi=999))
    modifier = args.integer("modifier", 0, lo=-MAX_MODIFIER, hi=MAX_MODIFIER)
    if unit.out:
        refuse("unit_out", "That unit is out of the game.")
    if khirf(state, unit):
        refuse("khirf", "Units under Khirf take no morale tests.")
    if unit.panic:
        refuse("already_panicking", "The unit is panicking already.")
    run_test(ctx, unit, modifier, "players")


def forced_test(ctx: Ctx, unit_id: int, cause: str) -> None:
    """A test the rules call for at once (Schallgewehre: "sofortige Moralprobe")."""
    unit = ctx.state.units[unit_id]
    if unit.out or unit.panic or khirf(ctx.state, unit):
        return
    run_test(ctx, unit, 0, cause)


def rally_value(
    state: MatchState,
    unit: Unit,
    *,
    leader_near: bool,
    hard_cover: bool,
    leader: Model | None = None,
) -> int:
    """The morale value of the rally test; refuses when the unit may not try. "Sie wird auf den
    Moralwert des ranghöchsten Anführers durchgeführt": of the unit's own leaders and ``leader``
    (within 10 cm), the highest-ranking one (then the higher WIK)."""
    model = test_model(state, unit)
    if model is None:
        refuse("unit_out", "That unit is out of the game.")
    if leader is not None:
        if leader.dead or not leader.leader or leader.player != unit.player:
            refuse("not_a_leader", "Name a living leader of the same side.")
        own = [model] if model.leader else []
        model = max([*own, leader], key=lambda m: (m.rank_order, m.wik, -m.id))
    if not model.leader and not (leader_near or hard_cover):
        refuse("rally_needs_leader", "A rally test needs a leader within 10 cm or hard cover.")
    return model.wik


@command("rally")
def _rally(ctx: Ctx, args: Args) -> None:
    state = ctx.state
    require_phase(state, Phase.RALLY)
    unit = active_unit(state)
    leader_near = args.boolean("leader_near", False)
    hard_cover = args.boolean("hard_cover", False)
    leader = state.model(args.integer("leader", lo=0, hi=9999)) if args.has("leader") else None
    if not unit.panic:
        refuse("not_panicking", "Only a panicking unit rallies.")
    if state.rallied:
        refuse("rallied_already", "The unit took its rally test this turn.")
    if unit.mutinied:
        refuse("mutinied", "Only a new example calms a unit that mutinied.")
    value = rally_value(
        state,
        unit,
        leader_near=leader_near or leader is not None,
        hard_cover=hard_cover,
        leader=leader,
    )
    rallied, stays, deserts = rally_weights(value)
    roll = rally_test(ctx.rng, value)
    result = "rallied" if roll.rallied else ("deserted" if roll.deserted else "panic")
    ctx.emit(
        "rally_tested",
        unit=unit.id,
        player=unit.player,
        marker=hidden_marker(state, unit),
        value=value,
        dice=list(roll.dice),
        result=result,
        weights={"rallied": rallied, "panic": stays, "deserted": deserts},
        denominator=rallied + stays + deserts,
    )
    if result == "deserted":
        remove_unit(ctx, unit.id, "deserted")


@event("rally_tested")
def _rally_tested(state: MatchState, data: Data) -> MatchState:
    state = replace(state, rallied=True)
    if data["result"] == "rallied":
        state = state.with_unit(data["unit"], panic=False)
    return state


def remove_unit(ctx: Ctx, unit_id: int, reason: str, *, half: bool = False) -> None:
    """The unit's living models leave the game as losses: the enemy scores their army points
    (half for a surrender, rounded down)."""
    state = ctx.state
    unit = state.units[unit_id]
    living = state.living(unit_id)
    points = sum(m.points for m in living)
    marker = hidden_marker(state, unit)
    ctx.emit(
        "unit_removed",
        unit=unit_id,
        player=unit.player,
        reason=reason,
        models=[m.id for m in living],
        marker=marker,
    )
    detail = unit.name if marker is None else f"#{marker}"
    score(ctx, 1 - unit.player, points // 2 if half else points, reason, detail)


@event("unit_removed")
def _unit_removed(state: MatchState, data: Data) -> MatchState:
    for model in data["models"]:
        state = state.with_model(model, dead=True, stunned=False, wakes=False, prone=False)
    return state.with_unit(data["unit"], out=data["reason"], panic=False, ready=False)


@command("repair")
def _repair(ctx: Ctx, args: Args) -> None:
    state = ctx.state
    require_phase(state, Phase.RALLY)
    model = own_model(state, args.integer("model", lo=0, hi=9999))
    index = args.integer("weapon", lo=0, hi=20)
    if not 0 <= index < len(model.weapons):
        refuse("no_such_weapon", "The model has no such weapon.")
    weapon = model.weapons[index]
    if not weapon.fault:
        refuse("no_fault", "That weapon works.")
    if weapon.fault_until:
        refuse("repair_waits", "This fault is repaired by itself at the end of the next round.")
    if model.stunned or model.moved or model.acted:
        refuse("model_busy", "Only a model that did nothing else this turn repairs a weapon.")
    ctx.emit("weapon_repaired", model=model.id, weapon=index, weapon_name=weapon.name)


@event("weapon_repaired")
def _weapon_repaired(state: MatchState, data: Data) -> MatchState:
    return state.with_weapon(data["model"], data["weapon"], fault=False, fault_until=0)
