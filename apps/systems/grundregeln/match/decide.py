"""``decide``: the events a command causes, with every die rolled here and written into them.

An ``_Emitter`` applies each event as it is emitted, so the rules always look at the state the
previous events made (a reaction's damage before the action, the casualties before the next
turn). A refused command raises ``RuleViolation`` before anything is returned: nothing changes.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any, Final

from apps.systems.core.dice import ExplodingRoll, roll_exploding_once
from apps.systems.core.errors import RuleViolation
from apps.systems.core.match import Args, Command, Event
from apps.systems.grundregeln import odds
from apps.systems.grundregeln.catalog import Reload, RollKind
from apps.systems.grundregeln.match.apply import apply
from apps.systems.grundregeln.match.state import Declared, MatchState, Model, Phase
from apps.systems.grundregeln.scenario import Victory
from apps.systems.grundregeln.tables import (
    ACTION_BY_KEY,
    FLEEING_ACTIONS,
    MELEE_MOVES,
    NPC_MOVES,
    Action,
    Effect,
    damage_value,
    hit_value,
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


def fraction(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


def roll_data(roll: ExplodingRoll) -> dict[str, list[int]]:
    return {"dice": list(roll.dice), "extra": list(roll.extra), "rerolled": list(roll.rerolled)}


class _Emitter:
    def __init__(self, state: MatchState, rng: random.Random, number: int | None = None) -> None:
        self.state = state
        self.rng = rng
        self.events: list[Event] = []
        self.number = state.command_no + 1 if number is None else number

    def emit(self, type_: str, **data: Any) -> None:
        event = Event(type_, {**data, "n": self.number})
        self.events.append(event)
        self.state = apply(self.state, event)

    def roll(self, count: int, reroll: bool = False) -> ExplodingRoll:
        return roll_exploding_once(self.rng, count, reroll_ones=reroll)


# --- Who may do what ------------------------------------------------------------------------


def enemies(a: Model, b: Model) -> bool:
    """NPCs are everyone's enemies; the sides are each other's; passive NPCs are no one's."""
    if a.passive_npc or b.passive_npc or a.id == b.id:
        return False
    if a.side is None or b.side is None:
        return a.side != b.side
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


def unloaded_weapon(model: Model, speed: Reload) -> int | None:
    return next((i for i in model.unloaded if model.weapons[i].reload is speed), None)


def check_action(state: MatchState, model: Model, action: Action, declared: Declared) -> None:
    """Refuse what the model cannot do now (the table checks range and sight itself)."""
    if action.movement and model.engaged and action.key not in MELEE_MOVES:
        raise RuleViolation("in_melee", f"{model.name} is in melee: strike, or Lösen first.")
    if action.key == "disengage" and not model.engaged:
        raise RuleViolation("not_in_melee", f"{model.name} is not in melee.")
    if action.key == "restore_morale" and not model.fleeing:
        raise RuleViolation("not_fleeing", f"{model.name} is not fleeing.")
    target = state.model(declared.target) if declared.target is not None else None
    if action.target and target is None:
        raise RuleViolation("target_required", f"{action.name} needs a target.")
    if target is not None and (target.out or target.id == model.id):
        raise RuleViolation("invalid_target", "That model cannot be the target.")
    if action.effect is Effect.ATTACK:
        assert target is not None
        check_attack(model, action, target, declared.dice)
    elif action.key == "pursue":
        assert target is not None
        if not (target.fleeing and enemies(model, target)):
            raise RuleViolation("target_not_fleeing", "Verfolgung needs a fleeing enemy.")
    elif action.key == "hand_over":
        assert target is not None
        if target.side != model.side or target.side is None:
            raise RuleViolation("not_a_friend", "Items are handed over to a model of the side.")
    elif action.effect is Effect.SWITCH_WEAPON:
        if declared.weapon is None or not 0 <= declared.weapon < len(model.weapons):
            raise RuleViolation("invalid_args", "Name the weapon to change to.")
        if declared.weapon == model.ready_weapon:
            raise RuleViolation("same_weapon", f"{model.name} holds that weapon already.")
    elif action.effect is Effect.RELOAD:
        speed = Reload.FAST if action.key == "reload_fast" else Reload.SLOW
        if declared.weapon is None or declared.weapon not in model.unloaded:
            raise RuleViolation("nothing_to_reload", f"{model.name} has nothing to reload.")
        if model.weapons[declared.weapon].reload is not speed:
            raise RuleViolation("wrong_reload", "That weapon is not reloaded that way.")
    if action.key == NPC_ACTION and model.side is not None:
        raise RuleViolation("npc_only", "Only scenario NPCs take scenario actions.")


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


def check_attack(model: Model, action: Action, target: Model, dice: int | None = None) -> None:
    if target.passive_npc:
        raise RuleViolation("npc_passive", "Passive NPCs cannot be attacked.")
    if not enemies(model, target):
        raise RuleViolation("not_an_enemy", f"{target.name} is not an enemy of {model.name}.")
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
    if action.weapon == "ranged" and target.engaged:
        raise RuleViolation("target_in_melee", "Shooting into a melee is not allowed.")


def reaction_sides(state: MatchState, actor: Model) -> tuple[int, ...]:
    """The passive player reacts to a side's action; both players react to an NPC's."""
    if actor.side is None:
        return tuple(p.index for p in state.players)
    return (state.other(actor.side),)


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
    refuse_marked(model)


def refuse_marked(model: Model) -> None:
    """A reaction is the model's one action: acting and reacting share one marker."""
    if model.reacted:
        raise RuleViolation("already_reacted", f"{model.name} has reacted this round already.")
    if model.activated:
        raise RuleViolation("already_activated", f"{model.name} has acted this round already.")


# --- Rolls and their effects ----------------------------------------------------------------


def _morale_test(em: _Emitter, model: Model, reason: str) -> bool:
    reroll = model.rerolls(RollKind.MORALE)
    roll = em.roll(model.morale_dice, reroll)
    successes = roll.successes(4)
    passed = successes >= model.lost
    chance = odds.morale_pass(model.morale_dice, model.lost, reroll)
    em.emit(
        "morale_tested",
        unit=model.id,
        reason=reason,
        roll=roll_data(roll),
        successes=successes,
        lost=model.lost,
        passed=passed,
        odds=[["pass", fraction(chance)]],
    )
    return passed


def _flee(em: _Emitter, model: Model, *, activation: bool = False) -> None:
    reroll = model.rerolls(RollKind.MOVEMENT)
    roll = em.roll(1, reroll)
    distance = roll.total + model.move
    chance = odds.at_least(odds.movement(1, model.move, reroll), distance)
    em.emit(
        "fled",
        unit=model.id,
        roll=roll_data(roll),
        distance=distance,
        activation=activation,
        odds=[["at_least", fraction(chance)]],
    )


def _after_damage(em: _Emitter, target_id: int, lost: int) -> None:
    """Morale: test at once when more than half the LP are lost, and after every further loss;
    an attack or a fall that cost no LP tests nothing."""
    target = em.state.models[target_id]
    if (
        lost > 0
        and target.standing
        and target.lost * 2 > target.max_lp
        and not _morale_test(em, target, "damage")
    ):
        _flee(em, em.state.models[target_id])


def cancelled_dice(damage: Sequence[int], defence: Sequence[int]) -> list[int]:
    """Positions in ``damage`` that defence dice cancel: from the highest damage die down, each
    takes one defence die showing at least as much (as many as any matching can cancel)."""
    order = sorted(range(len(damage)), key=lambda i: -damage[i])
    shields = sorted(defence, reverse=True)
    reach = used = 0
    cancelled = []
    for position in order:
        while reach < len(shields) and shields[reach] >= damage[position]:
            reach += 1
        if reach > used:
            used += 1
            cancelled.append(position)
    return sorted(cancelled)


def attack(
    em: _Emitter,
    *,
    attacker: Model | None,
    target: Model,
    dice: int,
    action: str,
    weapon: int | None = None,
    melee: bool = False,
    size_values: tuple[int, int] | None = None,
) -> None:
    """Roll an attack: hits, one damage die per hit, defence dice cancelling damage dice."""
    hit, dmg = (
        size_values
        if size_values is not None
        else (
            hit_value(attacker.size, target.size) if attacker else 4,
            damage_value(attacker.size, target.size) if attacker else 4,
        )
    )
    attack_reroll = attacker is not None and attacker.rerolls(RollKind.ATTACK)
    defence_reroll = target.rerolls(RollKind.DEFENCE)
    dist = odds.attack_damage(dice, hit, dmg, target.defence, attack_reroll, defence_reroll)
    hit_roll = em.roll(dice, attack_reroll)
    hits = hit_roll.successes(hit)
    damage_roll = em.roll(hits, attack_reroll)
    damage = damage_roll.all_dice
    successes = [i for i, value in enumerate(damage) if value >= dmg]
    defence_roll = em.roll(target.defence, defence_reroll) if successes else ExplodingRoll((), ())
    cancelled = cancelled_dice([damage[i] for i in successes], defence_roll.all_dice)
    lost = len(successes) - len(cancelled)
    weapon_used = attacker.weapons[weapon] if attacker is not None and weapon is not None else None
    em.emit(
        "attacked",
        attacker=None if attacker is None else attacker.id,
        side=None if attacker is None else attacker.side,
        target=target.id,
        action=action,
        weapon=weapon,
        melee=weapon_used.melee if weapon_used is not None else melee,
        unloads=weapon_used is not None and weapon_used.reload is not Reload.NONE,
        attack_dice=dice,
        hit_value=hit,
        damage_value=dmg,
        hit=roll_data(hit_roll),
        hits=hits,
        damage=roll_data(damage_roll),
        successes=len(successes),
        defence=roll_data(defence_roll),
        cancelled=[successes[i] for i in cancelled],
        lost=lost,
        odds=[
            ["damage", fraction(odds.at_least(dist, 1))],
            ["kill", fraction(odds.at_least(dist, max(target.lp, 1)))],
            ["expected", fraction(odds.mean(dist))],
        ],
    )
    _after_damage(em, target.id, lost)


def _move(em: _Emitter, model: Model, action: Action, target: int | None = None) -> None:
    data: dict[str, Any] = {"unit": model.id, "action": action.key}
    if target is not None:
        data["target"] = target
    if action.dice:
        reroll = model.rerolls(RollKind.MOVEMENT)
        roll = em.roll(action.dice, reroll)
        distance: float = roll.total + model.move
        chance = odds.at_least(
            odds.movement(action.dice, model.move, reroll), roll.total + model.move
        )
        data.update(roll=roll_data(roll), odds=[["at_least", fraction(chance)]])
    else:
        distance = model.move * (action.distance or 0)
    data["distance"] = int(distance) if float(distance).is_integer() else distance
    em.emit("moved", **data)


def carry_out(em: _Emitter, declared: Declared) -> None:
    """Resolve one action or reaction: rolls and effects. The model acts even on 0 LP (the
    exchange is resolved in full; losses are removed afterwards)."""
    action = ACTION_BY_KEY.get(declared.action)
    model = em.state.models[declared.unit]
    if declared.action == NPC_ACTION or action is None:
        em.emit("item_used", unit=model.id, action=declared.action, note=declared.note)
        return
    target = em.state.models[declared.target] if declared.target is not None else None
    if action.effect is Effect.ATTACK:
        assert target is not None
        if action.movement:
            _move(em, model, action, target.id)
        weapon = model.weapon if weapon_ready(model, action) else None
        base = weapon.attack_dice if weapon is not None else declared.dice or 0
        attack(
            em,
            attacker=em.state.models[model.id],
            target=em.state.models[target.id],
            dice=max(0, base + declared.modifier),
            action=action.key,
            weapon=model.ready_weapon if weapon is not None else None,
            melee=action.weapon == "melee",
        )
    elif action.effect in (Effect.MOVE, Effect.DISENGAGE):
        _move(em, model, action, declared.target)
    elif action.effect is Effect.PUSH:
        assert target is not None
        roll = em.roll(1)
        em.emit(
            "pushed",
            unit=model.id,
            target=target.id,
            roll=roll_data(roll),
            distance=roll.total,
            odds=[["at_least", fraction(odds.at_least(odds.push(), roll.total))]],
        )
    elif action.effect is Effect.SWITCH_WEAPON:
        em.emit("weapon_switched", unit=model.id, weapon=declared.weapon)
    elif action.effect is Effect.RELOAD:
        em.emit("reloaded", unit=model.id, weapon=declared.weapon)
    elif action.effect is Effect.RESTORE_MORALE:
        em.emit("morale_restored", unit=model.id)
    elif action.effect is Effect.BLOCK:
        em.emit("blocked", unit=model.id)
    else:
        em.emit(
            "item_used",
            unit=model.id,
            action=action.key,
            target=declared.target,
            note=declared.note,
        )


# --- The flow of a round --------------------------------------------------------------------


def _remove_casualties(em: _Emitter) -> None:
    state = em.state
    dead = [m for m in state.models if not m.out and m.lp == 0]
    if not dead:
        return
    scenario = state.scenario
    vp = []
    if scenario is not None:
        for model in dead:
            if model.killed_by is None:
                continue
            points = scenario.vp_npc if model.side is None else scenario.vp_kill
            if points:
                reason = "npc_kill" if model.side is None else "kill"
                vp.append(
                    {
                        "player": model.killed_by,
                        "points": points,
                        "reason": reason,
                        "detail": model.name,
                    }
                )
    em.emit("casualties_removed", units=[m.id for m in dead], vp=vp)


def _game_over_by_wipe(em: _Emitter) -> bool:
    """A side with no model left ends the game at once: the other side wins."""
    left = [side_left(em.state, p.index) for p in em.state.players]
    if all(left):
        return False
    winners = [p.index for p in em.state.players if left[p.index]]
    em.emit("game_ended", winners=winners, draw=not winners, reason="wiped_out")
    return True


def _final_result(em: _Emitter) -> None:
    state = em.state
    assert state.scenario is not None
    if state.scenario.victory is Victory.LAST_STANDING:
        scores = [side_left(state, p.index) for p in state.players]
    else:
        scores = [p.total_vp for p in state.players]
    best = max(scores)
    winners = [i for i, score in enumerate(scores) if score == best]
    draw = len(winners) > 1
    em.emit("game_ended", winners=[] if draw else winners, draw=draw, reason="last_round")


def _round_over(em: _Emitter) -> None:
    state = em.state
    assert state.scenario is not None
    if state.scenario.rounds and state.round >= state.scenario.rounds:
        _final_result(em)
        return
    em.emit("round_started", round=state.round + 1)
    _open_round(em)


def _open_round(em: _Emitter) -> None:
    """What a round opens with before its start roll: if the scenario says who begins
    ("wenn Szenario nichts anderes vorgibt"), that player starts, with no roll."""
    assert em.state.scenario is not None
    fixed = em.state.scenario.starter.player
    if fixed is not None:
        em.emit("starter_chosen", player=fixed, by="scenario")


def first_round_events(state: MatchState, rng: random.Random) -> list[Event]:
    """The events that open round 1 right after ``match_started`` (``state`` with it applied),
    stamped with the same command number: the path every later round opens through."""
    em = _Emitter(state, rng, number=state.command_no)
    _open_round(em)
    return em.events


def _npc_move_turn(state: MatchState, after: int | None) -> int | None:
    """Players move passive NPCs alternately, one at a time, up to two different ones each, the
    start player first, each NPC once; ``after`` is the player who moved last (None: the phase
    begins)."""
    if not any(m.passive_npc and m.in_play and not m.activated for m in state.models):
        return None
    if after is None:
        first = state.starter if state.starter is not None else 0
        order = (first, state.other(first))
    else:
        order = (state.other(after), after)
    return next(
        (
            player
            for player in order
            if not state.players[player].npc_done
            and state.players[player].npc_moves < NPC_MOVES_PER_PLAYER
        ),
        None,
    )


def _continue_npc_phase(em: _Emitter) -> None:
    state = em.state
    if state.phase is Phase.NPC_ACTIONS and any(
        m.active_npc and m.standing and not m.activated for m in state.models
    ):
        return
    if state.phase is Phase.NPC_ACTIONS:
        turn = _npc_move_turn(state, None)
        if turn is not None:
            em.emit("npc_phase_started", step="moves", turn=turn)
            return
    elif state.phase is Phase.NPC_MOVES and state.turn is not None:
        return
    _end_of_round(em)


def _end_of_round(em: _Emitter) -> None:
    assert em.state.scenario is not None
    if em.state.scenario.objectives:
        em.emit("scoring_started")
    else:
        _round_over(em)


def _action_phase_over(em: _Emitter) -> None:
    """Rundenende: status tokens go; then the NPC phase, scoring and the next round."""
    em.emit("round_ended")
    state = em.state
    if any(m.active_npc and m.standing for m in state.models):
        em.emit("npc_phase_started", step="actions")
        return
    turn = _npc_move_turn(state, None)
    if turn is not None:
        em.emit("npc_phase_started", step="moves", turn=turn)
        return
    _end_of_round(em)


def _after_exchange(em: _Emitter, actor: Model) -> None:
    _remove_casualties(em)
    if _game_over_by_wipe(em):
        return
    if em.state.phase is Phase.NPC_ACTIONS:
        em.emit("activation_ended", next=None)
        _continue_npc_phase(em)
        return
    pending = em.state.pending
    if em.state.phase is Phase.NPC_MOVES and pending is not None and pending.mover is not None:
        mover = pending.mover
        after = em.state.with_player(mover, npc_moves=em.state.players[mover].npc_moves + 1)
        em.emit(
            "npc_moved",
            player=mover,
            unit=actor.id,
            action=pending.action.action,
            next=_npc_move_turn(after, mover),
        )
        _continue_npc_phase(em)
        return
    assert actor.side is not None
    turn = next_turn(em.state, actor.side)
    em.emit("activation_ended", next=turn)
    if turn is None:
        _action_phase_over(em)


# --- Commands -------------------------------------------------------------------------------


def _roll_round_start(em: _Emitter, args: Args) -> None:
    state = em.state
    if state.phase is not Phase.ROUND_START:
        raise RuleViolation("not_now", "The round start roll comes at the start of a round.")
    morale = [
        max((m.morale for m in state.side(p.index) if m.standing), default=0) for p in state.players
    ]
    chances = odds.round_start_win(morale[0], morale[1])
    rolls = []
    while True:
        pair = [em.roll(1) for _ in state.players]
        rolls.append([roll_data(roll) for roll in pair])
        totals = [roll.total + morale[i] for i, roll in enumerate(pair)]
        if totals[0] != totals[1]:
            break
    em.emit(
        "round_start_rolled",
        rolls=rolls,
        morale=morale,
        winner=0 if totals[0] > totals[1] else 1,
        odds=[fraction(chance) for chance in chances],
    )


def _choose_starter(em: _Emitter, args: Args) -> None:
    state = em.state
    if state.phase is not Phase.STARTER:
        raise RuleViolation("not_now", "Roll for the round start first.")
    player = args.integer("player", lo=0, hi=len(state.players) - 1)
    em.emit("starter_chosen", player=player)


def _require_actions(state: MatchState) -> None:
    if state.pending is not None:
        raise RuleViolation("action_pending", "Resolve the declared action first.")


def _test_morale(em: _Emitter, args: Args) -> None:
    """A fleeing model tests when it is activated: a side's model in the action phase, an
    active NPC in the NPC phase."""
    state = em.state
    model = state.model(args.integer("unit"))
    if state.phase is Phase.ACTIONS:
        _require_actions(state)
        if model.side is None or model.side != state.turn:
            raise RuleViolation("not_your_turn", "It is not this side's turn.")
    elif state.phase is Phase.NPC_ACTIONS and model.active_npc:
        _require_actions(state)
    else:
        raise RuleViolation("not_now", "Fleeing models test when they are activated.")
    if not model.standing or model.activated:
        raise RuleViolation("already_activated", f"{model.name} cannot be activated now.")
    if not model.fleeing:
        raise RuleViolation("not_fleeing", f"{model.name} is not fleeing.")
    if state.rallied == model.id:
        raise RuleViolation("already_tested", f"{model.name} passed its test: choose its action.")
    if state.rallied is not None:
        raise RuleViolation("action_pending", "Another rallied model must act first.")
    if _morale_test(em, model, "activation"):
        return
    _flee(em, em.state.models[model.id], activation=True)
    if model.side is None:
        _continue_npc_phase(em)
        return
    turn = next_turn(em.state, model.side)
    em.emit("activation_ended", next=turn)
    if turn is None:
        _action_phase_over(em)


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


def _check_fleeing(state: MatchState, model: Model, action: str | None = None) -> None:
    code = fleeing_refusal(state, model, action)
    if code:
        raise RuleViolation(code, _FLEEING_MESSAGES[code].format(name=model.name))


def _declared_from(args: Args, state: MatchState, default_target: int | None = None) -> Declared:
    unit = state.model(args.integer("unit"))
    key = args.text("action")
    action = ACTION_BY_KEY.get(key)
    if action is None and key != NPC_ACTION:
        raise RuleViolation("unknown_action", f"There is no action {key!r}.")
    weapon = args.optional_int("weapon", lo=0, hi=20)
    if action is not None and action.effect is Effect.RELOAD and weapon is None:
        speed = Reload.FAST if key == "reload_fast" else Reload.SLOW
        weapon = unloaded_weapon(unit, speed)
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


def _declare(em: _Emitter, args: Args) -> None:
    state = em.state
    declared = _declared_from(args, state)
    model = state.model(declared.unit)
    _require_actions(state)
    if not model.standing:
        raise RuleViolation("unit_out", f"{model.name} is out of the game.")
    refuse_marked(model)
    if state.phase is Phase.ACTIONS:
        if model.side != state.turn:
            raise RuleViolation("not_your_turn", "It is not this side's turn.")
        _check_fleeing(state, model, declared.action)
        if declared.action == NPC_ACTION:
            raise RuleViolation("npc_only", "Only scenario NPCs take scenario actions.")
    elif state.phase is Phase.NPC_ACTIONS:
        if not model.active_npc:
            raise RuleViolation("not_now", "In the NPC phase the scenario's NPCs act.")
        _check_fleeing(state, model, declared.action)
        if not model.fleeing and declared.action not in NPC_ACTIONS:
            raise RuleViolation("npc_action_invalid", "NPCs move, fight or act per the scenario.")
    else:
        raise RuleViolation("not_now", "No model is activated in this phase.")
    action = ACTION_BY_KEY.get(declared.action)
    if action is not None:
        check_action(state, model, action, declared)
    em.emit(
        "action_declared",
        unit=model.id,
        action=declared.action,
        target=declared.target,
        weapon=declared.weapon,
        modifier=declared.modifier,
        note=declared.note,
        reacting=list(reaction_sides(state, model)),
        **_named_dice(declared),
    )


def _react(em: _Emitter, args: Args) -> None:
    state = em.state
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
    em.emit(
        "reaction_declared",
        unit=model.id,
        action=declared.action,
        target=declared.target,
        weapon=declared.weapon,
        modifier=declared.modifier,
        note=declared.note,
        **_named_dice(declared),
    )


def _named_dice(declared: Declared) -> dict[str, int]:
    return {} if declared.dice is None else {"dice": declared.dice}


def _reorder_reaction(em: _Emitter, args: Args) -> None:
    pending = em.state.pending
    if pending is None or pending.closed:
        raise RuleViolation("reactions_closed", "The order is fixed once resolution begins.")
    index = args.integer("index", lo=1, hi=max(1, len(pending.reactions) - 1))
    if index >= len(pending.reactions):
        raise RuleViolation("invalid_args", "There is no such reaction.")
    em.emit("reaction_moved", index=index)


def _resolve(em: _Emitter, args: Args) -> None:
    pending = em.state.pending
    if pending is None:
        raise RuleViolation("no_action_pending", "There is no declared action to resolve.")
    possible = args.boolean("possible", True)
    for index, reaction in enumerate(pending.reactions):
        if not reaction.resolved:
            em.emit(
                "reaction_resolved",
                index=index,
                possible=possible,
                unit=reaction.unit,
                action=reaction.action,
            )
            if possible:
                carry_out(em, reaction)
            return
    em.emit(
        "action_resolved",
        possible=possible,
        unit=pending.action.unit,
        action=pending.action.action,
    )
    if possible:
        carry_out(em, pending.action)
    _after_exchange(em, em.state.models[pending.action.unit])


def _skip_npc(em: _Emitter, args: Args) -> None:
    state = em.state
    model = state.model(args.integer("unit"))
    if state.phase is not Phase.NPC_ACTIONS or not model.active_npc or model.activated:
        raise RuleViolation("not_now", "Only an active NPC that has not acted can pass.")
    _require_actions(state)
    _check_fleeing(state, model)
    em.emit("npc_skipped", unit=model.id)
    _continue_npc_phase(em)


def _move_npc(em: _Emitter, args: Args) -> None:
    """Declare a passive NPC's move: models may react before it is resolved (NPC-Phase:
    "Reaktionen können in der Phase noch verwendet werden")."""
    state = em.state
    model = state.model(args.integer("unit"))
    key = args.text("action", "walk", choices=NPC_MOVES)
    if state.phase is not Phase.NPC_MOVES or state.turn is None:
        raise RuleViolation("not_now", "Passive NPCs are moved in the NPC phase.")
    _require_actions(state)
    player = args.optional_int("player", lo=0, hi=1)
    if player is not None and player != state.turn:
        raise RuleViolation("not_your_turn", "It is the other player's NPC move.")
    if not model.passive_npc or not model.in_play:
        raise RuleViolation("not_passive_npc", "Players move passive NPCs only.")
    if model.activated:
        raise RuleViolation("npc_already_moved", f"{model.name} has been moved in this phase.")
    em.emit(
        "action_declared",
        unit=model.id,
        action=key,
        target=None,
        weapon=None,
        modifier=0,
        note="",
        reacting=list(reaction_sides(state, model)),
        mover=state.turn,
    )


def _end_npc_moves(em: _Emitter, args: Args) -> None:
    state = em.state
    if state.phase is not Phase.NPC_MOVES or state.turn is None:
        raise RuleViolation("not_now", "Passive NPCs are moved in the NPC phase.")
    _require_actions(state)
    player = args.integer("player", state.turn, lo=0, hi=1)
    if player != state.turn:
        raise RuleViolation("not_your_turn", "It is the other player's NPC move.")
    after = em.state.with_player(player, npc_done=True)
    em.emit("npc_moves_done", player=player, next=_npc_move_turn(after, player))
    _continue_npc_phase(em)


def _score_round(em: _Emitter, args: Args) -> None:
    state = em.state
    assert state.scenario is not None
    if state.phase is not Phase.SCORING:
        raise RuleViolation("not_now", "Objectives are scored at the end of the round.")
    raw = args.raw("holders") if args.has("holders") else []
    if not isinstance(raw, list) or len(raw) != state.scenario.objectives:
        raise RuleViolation("invalid_args", "Name who holds each objective (or null).")
    holders: list[int | None] = []
    for holder in raw:
        if holder is not None and (
            not isinstance(holder, int) or isinstance(holder, bool) or holder not in (0, 1)
        ):
            raise RuleViolation("invalid_args", "A holder is a player index or null.")
        holders.append(holder)
    vp = [
        {
            "player": holder,
            "points": state.scenario.vp_objective,
            "reason": "objective",
            "detail": name,
        }
        for holder, name in zip(holders, state.scenario.objective_names, strict=True)
        if holder is not None
    ]
    em.emit("round_scored", holders=holders, vp=vp)
    _round_over(em)


def _fall(em: _Emitter, args: Args) -> None:
    state = em.state
    model = state.model(args.integer("unit"))
    distance = args.integer("distance", lo=1, hi=MAX_FALL)
    if not model.in_play:
        raise RuleViolation("unit_out", f"{model.name} is out of the game.")
    if model.passive_npc:
        raise RuleViolation("npc_passive", "Passive NPCs cannot be killed.")
    # A fall rolls one attack die per inch against the model's own size (the tables' diagonal:
    # 4+ to hit and to damage), with its full armour.
    same = hit_value(model.size, model.size)
    attack(
        em,
        attacker=None,
        target=model,
        dice=distance,
        action="fall",
        size_values=(same, damage_value(model.size, model.size)),
    )
    if state.pending is None:
        _remove_casualties(em)
        if not _game_over_by_wipe(em):
            _catch_up_turn(em)


def _catch_up_turn(em: _Emitter) -> None:
    """After a model left the game outside an exchange, the turn may have nobody to activate."""
    state = em.state
    if state.phase is Phase.ACTIONS and state.turn is not None and state.rallied is None:
        if not can_activate(state, state.turn):
            turn = next_turn(state, state.turn)
            em.emit("activation_ended", next=turn)
            if turn is None:
                _action_phase_over(em)
    elif state.phase is Phase.NPC_ACTIONS:
        _continue_npc_phase(em)


def _free_roll(em: _Emitter, args: Args) -> None:
    dice = args.integer("dice", lo=1, hi=MAX_FREE_DICE)
    need = args.optional_int("need", lo=2, hi=6)
    roll = em.roll(dice)
    data: dict[str, Any] = {
        "roll": roll_data(roll),
        "total": roll.successes(need) if need else roll.total,
        "label": args.text("label", "")[:60],
    }
    if args.has("player"):
        data["player"] = args.integer("player", lo=0, hi=1)
    if need:
        data["need"] = need
        chance = odds.at_least(odds.hits(dice, need), data["total"])
        data["odds"] = [["at_least", fraction(chance)]]
    em.emit("free_rolled", **data)


def _adjust(em: _Emitter, args: Args) -> None:
    state = em.state
    model = state.model(args.integer("unit"))
    if not model.in_play:
        raise RuleViolation("unit_out", f"{model.name} is out of the game.")
    changes: dict[str, Any] = {}
    if args.has("lp"):
        changes["lp"] = args.integer("lp", lo=0, hi=model.max_lp)
    if args.has("fleeing"):
        changes["fleeing"] = args.boolean("fleeing")
    if not changes:
        raise RuleViolation("invalid_args", "Give lp or fleeing.")
    em.emit("adjusted", unit=model.id, note=args.text("note", "")[:60], **changes)
    if state.pending is None:
        _remove_casualties(em)
        if not _game_over_by_wipe(em):
            _catch_up_turn(em)


def _adjust_vp(em: _Emitter, args: Args) -> None:
    player = args.integer("player", lo=0, hi=len(em.state.players) - 1)
    points = args.integer("points", lo=-50, hi=50)
    if points == 0:
        raise RuleViolation("invalid_args", "Give the VP to add or take (not 0).")
    em.emit("vp_adjusted", player=player, points=points, note=args.text("note", "")[:60])


def _concede(em: _Emitter, args: Args) -> None:
    player = args.integer("player", lo=0, hi=len(em.state.players) - 1)
    em.emit("conceded", player=player)
    em.emit("game_ended", winners=[em.state.other(player)], draw=False, reason="conceded")


COMMANDS: Mapping[str, Callable[[_Emitter, Args], None]] = {
    "roll_round_start": _roll_round_start,
    "choose_starter": _choose_starter,
    "test_morale": _test_morale,
    "declare": _declare,
    "react": _react,
    "reorder_reaction": _reorder_reaction,
    "resolve": _resolve,
    "skip_npc": _skip_npc,
    "move_npc": _move_npc,
    "end_npc_moves": _end_npc_moves,
    "score_round": _score_round,
    "fall": _fall,
    "roll": _free_roll,
    "adjust": _adjust,
    "adjust_vp": _adjust_vp,
    "concede": _concede,
}


def decide(state: MatchState, command: Command, rng: random.Random) -> list[Event]:
    handler = COMMANDS.get(command.type)
    if handler is None:
        raise RuleViolation("unknown_command", f"There is no command {command.type!r}.")
    if state.phase is Phase.OVER:
        raise RuleViolation("game_over", "The game is over.")
    if not state.players:
        raise RuleViolation("not_started", "The match has not started.")
    emitter = _Emitter(state, rng)
    handler(emitter, Args(command.args))
    return emitter.events
