"""The commands of an exchange: a model is activated (a fleeing one tests its morale first) and
declares its one action, the other side declares reactions, and everything is resolved in
order: the reactions first, then the action."""

from __future__ import annotations

from apps.systems.core.errors import RuleViolation
from apps.systems.core.match import Args
from apps.systems.grundregeln.match import flow
from apps.systems.grundregeln.match.context import Ctx, command
from apps.systems.grundregeln.match.rolls import carry_out, flee, morale_test
from apps.systems.grundregeln.match.rules import (
    MAX_ATTACK_DICE,
    MAX_MODIFIER,
    NPC_ACTION,
    NPC_ACTIONS,
    check_action,
    check_fleeing,
    check_reactor,
    needs_dice,
    reaction_sides,
    refuse_marked,
    reload_speed,
    require_no_pending,
    unloaded_weapon,
)
from apps.systems.grundregeln.match.state import Declared, MatchState, Model, Phase
from apps.systems.grundregeln.tables import ACTION_BY_KEY, Effect


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
            raise RuleViolation("npc_only", "Only scenario NPCs take scenario actions.")
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
    # A reaction answers the acting model: it is aimed at it and at no other model.
    actor = state.pending.action.unit
    declared = _declared_from(args, state, default_target=actor)
    model = state.model(declared.unit)
    check_reactor(state, model)
    if declared.target not in (None, actor):
        raise RuleViolation("reaction_target", "A reaction is aimed at the acting model.")
    action = ACTION_BY_KEY.get(declared.action)
    if action is None or not action.reaction:
        raise RuleViolation("not_simple", "Only simple actions can be reactions.")
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


@command("resolve")
def _resolve(ctx: Ctx, args: Args) -> None:
    pending = ctx.state.pending
    if pending is None:
        raise RuleViolation("no_action_pending", "There is no declared action to resolve.")
    possible = args.boolean("possible", True)
    for index, reaction in enumerate(pending.reactions):
        if not reaction.resolved:
            ctx.emit(
                "reaction_resolved",
                index=index,
                possible=possible,
                unit=reaction.unit,
                action=reaction.action,
            )
            if possible:
                carry_out(ctx, reaction)
            return
    ctx.emit(
        "action_resolved",
        possible=possible,
        unit=pending.action.unit,
        action=pending.action.action,
    )
    if possible:
        carry_out(ctx, pending.action)
    flow.after_exchange(ctx, ctx.state.models[pending.action.unit])
