"""The commands of an exchange: a model is activated (a fleeing one tests its morale first) and
declares its one action, the other side declares reactions, and everything is resolved in
order: the reactions first, then the action."""

from __future__ import annotations

from apps.systems.core.errors import RuleViolation
from apps.systems.core.match import Args
from apps.systems.grundregeln.match import flow
from apps.systems.grundregeln.match.context import Ctx, command
from apps.systems.grundregeln.match.rolls import carry_out, flee, morale_test, roll_range
from apps.systems.grundregeln.match.rules import (
    MAX_ATTACK_DICE,
    MAX_MODIFIER,
    NPC_ACTION,
    NPC_ACTIONS,
    check_action,
    check_attack,
    check_fleeing,
    check_reaction_kind,
    check_reactor,
    needs_dice,
    reaction_sides,
    refuse_marked,
    reload_speed,
    require_no_pending,
    unloaded_weapon,
)
from apps.systems.grundregeln.match.state import Declared, MatchState, Model, Pending, Phase
from apps.systems.grundregeln.tables import ACTION_BY_KEY, Action, Effect


def _activated(state: MatchState, model: Model) -> None:
    """A fleeing model tests when it is activated: a side's model on its turn in the action
    phase, an active NPC in the NPC phase."""
    if state.phase is Phase.ACTIONS:
        require_no_pending(state)
        if model.side is None or model.side != state.turn:
            raise RuleViolation("not_your_turn", "It is not this side's turn.")
    elif state.phase is Phase.NPC_ACTIONS and model.active_npc:
        require_no_pending(state)
    else:
        raise RuleViolation("not_now", "Fleeing models test when they are activated.")
    if not model.standing or model.activated:
        raise RuleViolation("already_activated", f"{model.name} cannot be activated now.")


@command("test_morale")
def _test_morale(ctx: Ctx, args: Args) -> None:
    state = ctx.state
    model = state.model(args.integer("unit"))
    _activated(state, model)
    if not model.fleeing:
        raise RuleViolation("not_fleeing", f"{model.name} is not fleeing.")
    if state.rallied == model.id:
        raise RuleViolation("already_tested", f"{model.name} passed its test: choose its action.")
    if state.rallied is not None:
        raise RuleViolation("action_pending", "Another rallied model must act first.")
    if morale_test(ctx, model, "activation"):
        return
    flee(ctx, ctx.state.models[model.id], activation=True)
    if model.side is None:
        flow.continue_npc_phase(ctx)
    else:
        flow.end_activation(ctx, model.side)


def _declared_from(args: Args, state: MatchState, default_target: int | None = None) -> Declared:
    unit = state.model(args.integer("unit"))
    key = args.text("action")
    action = ACTION_BY_KEY.get(key)
    if action is None and key != NPC_ACTION:
        raise RuleViolation("unknown_action", f"There is no action {key!r}.")
    weapon = args.optional_int("weapon", lo=0, hi=20)
    if action is not None and action.effect is Effect.RELOAD and weapon is None:
        weapon = unloaded_weapon(unit, reload_speed(action))
    target = args.optional_int("target", lo=0, hi=len(state.models) - 1)
    if target is None and action is not None and action.target:
        target = default_target
    dice = args.optional_int("dice", lo=1, hi=MAX_ATTACK_DICE)
    if action is None or not needs_dice(unit, action):
        dice = None  # a weapon's card gives the dice
    return Declared(
        unit=unit.id,
        action=key,
        target=target,
        weapon=weapon,
        modifier=args.integer("modifier", 0, lo=-MAX_MODIFIER, hi=MAX_MODIFIER),
        note=args.text("note", "")[:120],
        dice=dice,
    )


def _may_declare(state: MatchState, model: Model, declared: Declared) -> None:
    """Whose model may act in this phase, and how a flight limits it."""
    if state.phase is Phase.ACTIONS:
        if model.side != state.turn:
            raise RuleViolation("not_your_turn", "It is not this side's turn.")
        check_fleeing(state, model, declared.action)
        if declared.action == NPC_ACTION:
            raise RuleViolation("npc_only", "Only NPCs take scenario actions.")
    elif state.phase is Phase.NPC_ACTIONS:
        if not model.active_npc:
            raise RuleViolation("not_now", "In the NPC phase the scenario's NPCs act.")
        check_fleeing(state, model, declared.action)
        if not model.fleeing and declared.action not in NPC_ACTIONS:
            raise RuleViolation("npc_action_invalid", "NPCs move, fight or act per the scenario.")
    else:
        raise RuleViolation("not_now", "No model is activated in this phase.")


def _declared_data(declared: Declared) -> dict[str, object]:
    data: dict[str, object] = {
        "unit": declared.unit,
        "action": declared.action,
        "target": declared.target,
        "weapon": declared.weapon,
        "modifier": declared.modifier,
        "note": declared.note,
    }
    if declared.dice is not None:
        data["dice"] = declared.dice
    return data


@command("declare")
def _declare(ctx: Ctx, args: Args) -> None:
    state = ctx.state
    declared = _declared_from(args, state)
    model = state.model(declared.unit)
    require_no_pending(state)
    if not model.standing:
        raise RuleViolation("unit_out", f"{model.name} is out of the game.")
    refuse_marked(model)
    _may_declare(state, model, declared)
    action = ACTION_BY_KEY.get(declared.action)
    if action is not None:
        check_action(state, model, action, declared)
    ctx.emit(
        "action_declared",
        **_declared_data(declared),
        reacting=list(reaction_sides(state, model)),
    )


@command("react")
def _react(ctx: Ctx, args: Args) -> None:
    state = ctx.state
    if state.pending is None:
        raise RuleViolation("no_action_pending", "There is no declared action to react to.")
    # Any simple action may be a reaction, aimed at any model it may be aimed at (l. 65); one
    # named without a target answers the acting model.
    declared = _declared_from(args, state, default_target=state.pending.action.unit)
    model = state.model(declared.unit)
    check_reactor(state, model)
    check_reaction_kind(model, declared.action)
    action = ACTION_BY_KEY.get(declared.action)
    if action is not None:
        check_action(state, model, action, declared)
    ctx.emit("reaction_declared", **_declared_data(declared))


@command("reorder_reaction")
def _reorder_reaction(ctx: Ctx, args: Args) -> None:
    pending = ctx.state.pending
    if pending is None or pending.closed:
        raise RuleViolation("reactions_closed", "The order is fixed once resolution begins.")
    index = args.integer("index", lo=1, hi=max(1, len(pending.reactions) - 1))
    if index >= len(pending.reactions):
        raise RuleViolation("invalid_args", "There is no such reaction.")
    ctx.emit("reaction_moved", index=index)


def _measured(
    state: MatchState, declared: Declared, args: Args, possible: bool
) -> dict[str, int | None]:
    """What the table measures when an attack is resolved, after the reactions (Nahkampf and
    Fernkampf, step 4-5): the attack dice modifier, and for a melee attack another target
    ("Angriff umlenken"). Only what differs from the declaration is returned."""
    wanted = [name for name in ("modifier", "target") if args.has(name)]
    if not wanted:
        return {}
    if not possible:
        raise RuleViolation("invalid_args", "An action that lapses is not measured.")
    action = ACTION_BY_KEY.get(declared.action)
    if action is None or action.effect is not Effect.ATTACK:
        if "target" in wanted:
            raise RuleViolation("redirect_melee_only", "Only a melee attack is redirected.")
        raise RuleViolation("modifier_attack_only", "Only an attack takes a modifier.")
    measured = {
        "modifier": args.integer("modifier", declared.modifier, lo=-MAX_MODIFIER, hi=MAX_MODIFIER),
        "target": _redirected(state, declared, action, args),
    }
    return {key: value for key, value in measured.items() if value != getattr(declared, key)}


def _redirected(state: MatchState, declared: Declared, action: Action, args: Args) -> int | None:
    """The target of the attack as resolved: the declared one, or the model a melee attack is
    turned on (Angriff umlenken, Nahkampf step 5), which it must be able to attack."""
    if not args.has("target"):
        return declared.target
    if action.weapon != "melee":
        raise RuleViolation("redirect_melee_only", "Only a melee attack is redirected.")
    model = state.models[declared.unit]
    target = state.model(args.integer("target", lo=0, hi=len(state.models) - 1))
    if target.out or target.id == model.id:
        raise RuleViolation("invalid_target", "That model cannot be the target.")
    check_attack(model, action, target, declared.dice)
    return target.id


@command("resolve")
def _resolve(ctx: Ctx, args: Args) -> None:
    pending = ctx.state.pending
    if pending is None:
        raise RuleViolation("no_action_pending", "There is no declared action to resolve.")
    possible = args.boolean("possible", True)
    for index, reaction in enumerate(pending.reactions):
        if not reaction.resolved:
            measured = _measured(ctx.state, reaction, args, possible)
            if not pending.closed:
                _range_first(ctx, pending.action)
            ctx.emit(
                "reaction_resolved",
                index=index,
                possible=possible,
                unit=reaction.unit,
                action=reaction.action,
                **measured,
            )
            if possible:
                carry_out(ctx, _pending(ctx).reactions[index])
            return
    ctx.emit(
        "action_resolved",
        possible=possible,
        unit=pending.action.unit,
        action=pending.action.action,
        **_measured(ctx.state, pending.action, args, possible),
    )
    if possible:
        carry_out(ctx, _pending(ctx).action)
    flow.after_exchange(ctx, ctx.state.models[pending.action.unit])


def _range_first(ctx: Ctx, declared: Declared) -> None:
    """The first reaction is about to be carried out: a declared move whose range is rolled
    (Rennen, Flucht, Verfolgung) has it rolled now (Bewegung, l. 84-85). Without reactions
    the range is rolled with the move, which is the same moment."""
    action = ACTION_BY_KEY.get(declared.action)
    if action is not None and action.effect is Effect.MOVE and action.dice:
        roll_range(ctx, ctx.state.models[declared.unit], action)


def _pending(ctx: Ctx) -> Pending:
    """The exchange as resolved so far (with what the table measured applied)."""
    assert ctx.state.pending is not None
    return ctx.state.pending
