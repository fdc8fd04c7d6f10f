"""Who may do what: the checks the command handlers make before anything is rolled, and the
small facts about models they share with the dice (whose turn follows, how many dice an
attack rolls). Every check raises ``RuleViolation``; the table checks range and sight itself.

A refusal about the acting model itself (in melee, no weapon ready) comes before one about the
target it names, so every target of an action the model cannot take is refused alike.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

from apps.systems.core.errors import RuleViolation
from apps.systems.grundregeln.catalog import Reload
from apps.systems.grundregeln.match.state import Declared, MatchState, Model
from apps.systems.grundregeln.tables import (
    ACTION_BY_KEY,
    FLEEING_ACTIONS,
    MELEE_MOVES,
    NPC_MOVES,
    Action,
    Effect,
)

NPC_ACTION: Final = "npc_action"
# What an active NPC may do in the NPC phase: move, fight, or what its scenario says.
NPC_ACTIONS: Final = frozenset(
    {*NPC_MOVES, "charge", "strike", "shoot", "walk_and_shoot", "push", "block", NPC_ACTION}
)
MAX_MODIFIER: Final = 3
MAX_ATTACK_DICE: Final = 12
MAX_FALL: Final = 12
MAX_FREE_DICE: Final = 12
NPC_MOVES_PER_PLAYER: Final = 2


# --- Facts about models -------------------------------------------------------------------------


def enemies(a: Model, b: Model) -> bool:
    """NPCs are everyone's enemies; the sides are each other's; passive NPCs are no one's."""
    if a.passive_npc or b.passive_npc or a.id == b.id:
        return False
    return a.side != b.side


def can_activate(state: MatchState, player: int) -> bool:
    return any(m.standing and not m.activated for m in state.side(player))


def next_turn(state: MatchState, current: int) -> int | None:
    """Alternate activations; a side that has activated everything lets the other go on."""
    for player in (state.other(current), current):
        if can_activate(state, player):
            return player
    return None


def side_left(state: MatchState, player: int) -> int:
    return sum(1 for m in state.side(player) if m.standing)


def side_morale(state: MatchState, player: int) -> int:
    """The side's highest morale among its standing models: its bonus to the round start roll."""
    return max((m.morale for m in state.side(player) if m.standing), default=0)


def unloaded_weapon(model: Model, speed: Reload) -> int | None:
    return next((i for i in model.unloaded if model.weapons[i].reload is speed), None)


def reload_speed(action: Action) -> Reload:
    return Reload.FAST if action.key == "reload_fast" else Reload.SLOW


def weapon_ready(model: Model, action: Action) -> bool:
    """Whether the model's ready weapon is of the kind the attack needs."""
    weapon = model.weapon
    return weapon is not None and weapon.kind.value == action.weapon


def has_weapon(model: Model, kind: str) -> bool:
    return any(w.kind.value == kind for w in model.weapons)


def needs_dice(model: Model, action: Action) -> bool:
    """A melee attack by a model with no melee weapon on its card (fists, teeth): its profile
    lacks the attack dice, so the table names them (SPEC §2: the app asks for them). A shot
    always needs a ranged weapon."""
    return (
        action.effect is Effect.ATTACK
        and action.weapon == "melee"
        and not has_weapon(model, action.weapon)
    )


def attack_dice(model: Model, action: Action, named: int | None, modifier: int) -> int:
    """The dice an attack rolls: the ready weapon's (or the ``named`` dice of a model without
    one) plus the table's modifier."""
    weapon = model.weapon if weapon_ready(model, action) else None
    base = weapon.attack_dice if weapon is not None else named or 0
    return max(0, base + modifier)


def reaction_sides(state: MatchState, actor: Model, mover: int | None = None) -> tuple[int, ...]:
    """The passive player reacts (l. 71): to a side's action the other side; to a passive NPC
    that a player moves, the other player (the mover is the active one, l. 69); to a scenario
    NPC's action, which no player declares, both."""
    active = actor.side if actor.side is not None else mover
    if active is None:
        return tuple(p.index for p in state.players)
    return (state.other(active),)


# --- Checks -------------------------------------------------------------------------------------


def check_action(state: MatchState, model: Model, action: Action, declared: Declared) -> None:
    """Refuse what the model cannot do now: first what concerns the model, then its target."""
    _check_mover(model, action)
    target = _target(state, model, action, declared)
    check = _EFFECT_CHECKS.get(action.effect) or _KEY_CHECKS.get(action.key)
    if check is not None:
        check(model, action, declared, target)


def _check_mover(model: Model, action: Action) -> None:
    if action.movement and model.engaged and action.key not in MELEE_MOVES:
        raise RuleViolation("in_melee", f"{model.name} is in melee: strike, or Lösen first.")
    if action.key == "disengage" and not model.engaged:
        raise RuleViolation("not_in_melee", f"{model.name} is not in melee.")


def _target(state: MatchState, model: Model, action: Action, declared: Declared) -> Model | None:
    target = state.model(declared.target) if declared.target is not None else None
    if action.target and target is None:
        raise RuleViolation("target_required", f"{action.name} needs a target.")
    if target is not None and (target.out or target.id == model.id):
        raise RuleViolation("invalid_target", "That model cannot be the target.")
    return target


Check = Callable[[Model, Action, Declared, Model | None], None]


def _attack(model: Model, action: Action, declared: Declared, target: Model | None) -> None:
    assert target is not None
    check_attack(model, action, target, declared.dice)


def _pursue(model: Model, action: Action, declared: Declared, target: Model | None) -> None:
    assert target is not None
    if not (target.fleeing and enemies(model, target)):
        raise RuleViolation("target_not_fleeing", "Verfolgung needs a fleeing enemy.")


def _hand_over(model: Model, action: Action, declared: Declared, target: Model | None) -> None:
    assert target is not None
    if target.side != model.side or target.side is None:
        raise RuleViolation("not_a_friend", "Items are handed over to a model of the side.")


def _switch(model: Model, action: Action, declared: Declared, target: Model | None) -> None:
    if declared.weapon is None or not 0 <= declared.weapon < len(model.weapons):
        raise RuleViolation("invalid_args", "Name the weapon to change to.")
    if declared.weapon == model.ready_weapon:
        raise RuleViolation("same_weapon", f"{model.name} holds that weapon already.")


def _reload(model: Model, action: Action, declared: Declared, target: Model | None) -> None:
    if declared.weapon is None or declared.weapon not in model.unloaded:
        raise RuleViolation("nothing_to_reload", f"{model.name} has nothing to reload.")
    if model.weapons[declared.weapon].reload is not reload_speed(action):
        raise RuleViolation("wrong_reload", "That weapon is not reloaded that way.")


def _restore(model: Model, action: Action, declared: Declared, target: Model | None) -> None:
    if not model.fleeing:
        raise RuleViolation("not_fleeing", f"{model.name} is not fleeing.")


_EFFECT_CHECKS: Final[Mapping[Effect, Check]] = {
    Effect.ATTACK: _attack,
    Effect.SWITCH_WEAPON: _switch,
    Effect.RELOAD: _reload,
    Effect.RESTORE_MORALE: _restore,
}
_KEY_CHECKS: Final[Mapping[str, Check]] = {"pursue": _pursue, "hand_over": _hand_over}


def check_attack(model: Model, action: Action, target: Model, dice: int | None = None) -> None:
    """The attacker's weapon first (the same for every target), then the target."""
    if action.weapon == "ranged" and not has_weapon(model, action.weapon):
        raise RuleViolation("no_ranged_weapon", f"{model.name} has no ranged weapon.")
    if needs_dice(model, action):
        if dice is None:
            raise RuleViolation(
                "attack_dice_required", f"{model.name} has no such weapon: name the attack dice."
            )
    elif not weapon_ready(model, action):
        raise RuleViolation(
            "wrong_weapon", f"{model.name} has no {action.weapon} weapon ready (Waffe wechseln)."
        )
    elif model.ready_weapon in model.unloaded:
        assert model.weapon is not None
        raise RuleViolation("not_loaded", f"{model.weapon.name} must be reloaded first.")
    if target.passive_npc:
        raise RuleViolation("npc_passive", "Passive NPCs cannot be attacked.")
    if not enemies(model, target):
        raise RuleViolation("not_an_enemy", f"{target.name} is not an enemy of {model.name}.")
    if action.weapon == "ranged" and target.engaged:
        raise RuleViolation("target_in_melee", "Shooting into a melee is not allowed.")


def check_reactor(state: MatchState, model: Model) -> None:
    pending = state.pending
    if pending is None:
        raise RuleViolation("no_action_pending", "There is no declared action to react to.")
    if pending.closed:
        raise RuleViolation("reactions_closed", "The resolution has begun: no more reactions.")
    actor = state.model(pending.action.unit)
    if model.id == actor.id:
        raise RuleViolation("own_action", "A model does not react to its own action.")
    npc_reacts = model.active_npc and actor.side is not None
    if not npc_reacts and model.side not in pending.reacting:
        raise RuleViolation("not_reacting_side", f"{model.name} is not on the reacting side.")
    if not model.standing:
        raise RuleViolation("unit_out", f"{model.name} is out of the game.")
    if model.fleeing:
        raise RuleViolation("fleeing_no_reaction", "Fleeing models cannot react.")
    # Every model with sight that is not fleeing may react (l. 71), one that has acted too;
    # but once per round (SPEC §6).
    if model.reacted:
        raise RuleViolation("already_reacted", f"{model.name} has reacted this round already.")


def check_reaction_kind(model: Model, key: str) -> None:
    """Any simple action may be a reaction (l. 65); a scenario NPC also reacts "mit ihren
    Aktionen", its scenario action included."""
    if key == NPC_ACTION:
        if not model.active_npc:
            raise RuleViolation("npc_only", "Only NPCs take scenario actions.")
        return
    action = ACTION_BY_KEY.get(key)
    if action is None or not action.reaction:
        raise RuleViolation("not_simple", "Only simple actions can be reactions.")


def refuse_marked(model: Model) -> None:
    """A model has one action per round; a reaction before its activation was that action (it
    carries the same marker, l. 72)."""
    if model.activated:
        raise RuleViolation("already_activated", f"{model.name} has taken its action this round.")


def require_no_pending(state: MatchState) -> None:
    if state.pending is not None:
        raise RuleViolation("action_pending", "Resolve the declared action first.")


_FLEEING_MESSAGES: Final = {
    "action_pending": "The rallied model acts first.",
    "morale_test_first": "{name} flees: test its morale first.",
    "fleeing_restricted": "A fleeing model may only restore its morale or move.",
}


def fleeing_refusal(state: MatchState, model: Model, action: str | None = None) -> str:
    """Why ``model`` may not act (declare ``action``, or pass when None) because of flight:
    a rallied model acts first; a fleeing model tests its morale first; after a pass it may
    only rally or move. "" when nothing stands in the way."""
    if state.rallied is not None and state.rallied != model.id:
        return "action_pending"
    if model.fleeing and state.rallied != model.id:
        return "morale_test_first"
    if model.fleeing and action is not None and action not in FLEEING_ACTIONS:
        return "fleeing_restricted"
    return ""


def check_fleeing(state: MatchState, model: Model, action: str | None = None) -> None:
    code = fleeing_refusal(state, model, action)
    if code:
        raise RuleViolation(code, _FLEEING_MESSAGES[code].format(name=model.name))
