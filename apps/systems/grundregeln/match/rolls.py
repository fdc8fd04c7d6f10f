"""The dice of a decision and what they do: morale tests, flight, attacks, moves and the
resolution of a declared action. Every die is rolled here and written into an event with the
exact odds it had; the tracker shows the odds before a roll from the same functions."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any, Final

from apps.systems.core.dice import ExplodingRoll
from apps.systems.grundregeln import odds
from apps.systems.grundregeln.catalog import Reload, RollKind
from apps.systems.grundregeln.match.context import Ctx, fraction, roll_data
from apps.systems.grundregeln.match.rules import attack_dice, side_morale, weapon_ready
from apps.systems.grundregeln.match.state import Declared, MatchState, Model
from apps.systems.grundregeln.tables import ACTION_BY_KEY, Action, Effect, damage_value, hit_value

# --- The odds, for the events and the tracker alike -------------------------------------------


def morale_chance(model: Model) -> Fraction:
    """P(passing a morale test): as many dice of 4+ as LP lost."""
    return odds.morale_pass(model.morale_dice, model.lost, model.rerolls(RollKind.MORALE))


def round_start_chances(state: MatchState) -> tuple[Fraction, Fraction]:
    """Each player's chance to win the round start roll (ties roll again)."""
    return odds.round_start_win(side_morale(state, 0), side_morale(state, 1))


def attack_values(attacker: Model | None, target: Model) -> tuple[int, int]:
    """The hit and damage values by the sizes; a fall (no attacker) rolls against the model's
    own size (the tables' diagonal)."""
    size = attacker.size if attacker is not None else target.size
    return hit_value(size, target.size), damage_value(size, target.size)


def attack_distribution(attacker: Model | None, target: Model, dice: int) -> Mapping[int, Fraction]:
    """The LP ``target`` loses to an attack (or a fall) with ``dice`` attack dice."""
    hit, damage = attack_values(attacker, target)
    return odds.attack_damage(
        dice,
        hit,
        damage,
        target.defence,
        attacker is not None and attacker.rerolls(RollKind.ATTACK),
        target.rerolls(RollKind.DEFENCE),
    )


# --- Morale -----------------------------------------------------------------------------------


def morale_test(ctx: Ctx, model: Model, reason: str) -> bool:
    roll = ctx.roll(model.morale_dice, model.rerolls(RollKind.MORALE))
    successes = roll.successes(4)
    passed = successes >= model.lost
    ctx.emit(
        "morale_tested",
        unit=model.id,
        reason=reason,
        roll=roll_data(roll),
        successes=successes,
        lost=model.lost,
        passed=passed,
        odds=ctx.described(lambda: [["pass", fraction(morale_chance(model))]]),
    )
    return passed


def flee(ctx: Ctx, model: Model, *, activation: bool = False) -> None:
    reroll = model.rerolls(RollKind.MOVEMENT)
    roll = ctx.roll(1, reroll)
    distance = roll.total + model.move
    ctx.emit(
        "fled",
        unit=model.id,
        roll=roll_data(roll),
        distance=distance,
        activation=activation,
        odds=ctx.described(
            lambda: [["at_least", fraction(_reach_chance(1, model, reroll, distance))]]
        ),
    )


def _reach_chance(dice: int, model: Model, reroll: bool, distance: int) -> Fraction:
    """P(moving at least ``distance``) with ``dice`` d6 + B."""
    return odds.at_least(odds.movement(dice, model.move, reroll), distance)


def after_damage(ctx: Ctx, target_id: int, lost: int) -> None:
    """Morale: test at once when more than half the LP are lost, and after every further loss;
    an attack or a fall that cost no LP tests nothing."""
    target = ctx.state.models[target_id]
    if (
        lost > 0
        and target.standing
        and target.lost * 2 > target.max_lp
        and not morale_test(ctx, target, "damage")
    ):
        flee(ctx, ctx.state.models[target_id])


# --- Attacks ----------------------------------------------------------------------------------


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


def _attack_odds(attacker: Model | None, target: Model, dice: int) -> list[list[str]]:
    dist = attack_distribution(attacker, target, dice)
    return [
        ["damage", fraction(odds.at_least(dist, 1))],
        ["kill", fraction(odds.at_least(dist, max(target.lp, 1)))],
        ["expected", fraction(odds.mean(dist))],
    ]


def _attacker_data(attacker: Model | None, weapon: int | None, melee: bool) -> dict[str, Any]:
    """Who attacked with what: a melee engages the two; a shot may unload the weapon."""
    used = attacker.weapons[weapon] if attacker is not None and weapon is not None else None
    return {
        "attacker": None if attacker is None else attacker.id,
        "side": None if attacker is None else attacker.side,
        "weapon": weapon,
        "melee": used.melee if used is not None else melee,
        "unloads": used is not None and used.reload is not Reload.NONE,
    }


def attack(
    ctx: Ctx,
    *,
    attacker: Model | None,
    target: Model,
    dice: int,
    action: str,
    weapon: int | None = None,
    melee: bool = False,
) -> None:
    """Roll an attack: hits, one damage die per hit, defence dice cancelling damage dice."""
    hit, damage_need = attack_values(attacker, target)
    reroll = attacker is not None and attacker.rerolls(RollKind.ATTACK)
    hit_roll = ctx.roll(dice, reroll)
    hits = hit_roll.successes(hit)
    damage_roll = ctx.roll(hits, reroll)
    damage = damage_roll.all_dice
    successes = [i for i, value in enumerate(damage) if value >= damage_need]
    defence_roll = (
        ctx.roll(target.defence, target.rerolls(RollKind.DEFENCE))
        if successes
        else ExplodingRoll((), ())
    )
    cancelled = cancelled_dice([damage[i] for i in successes], defence_roll.all_dice)
    lost = len(successes) - len(cancelled)
    ctx.emit(
        "attacked",
        **_attacker_data(attacker, weapon, melee),
        target=target.id,
        action=action,
        attack_dice=dice,
        hit_value=hit,
        damage_value=damage_need,
        hit=roll_data(hit_roll),
        hits=hits,
        damage=roll_data(damage_roll),
        successes=len(successes),
        defence=roll_data(defence_roll),
        cancelled=[successes[i] for i in cancelled],
        lost=lost,
        odds=ctx.described(lambda: _attack_odds(attacker, target, dice)),
    )
    after_damage(ctx, target.id, lost)


# --- Resolving an action ----------------------------------------------------------------------


def _range_data(ctx: Ctx, model: Model, action: Action) -> dict[str, Any]:
    """A move's range: its dice rolled (2W6+B, W6+B), or its fixed distance."""
    if not action.dice:
        return {"distance": _number(model.move * (action.distance or 0))}
    reroll = model.rerolls(RollKind.MOVEMENT)
    roll = ctx.roll(action.dice, reroll)
    total = roll.total + model.move
    return {
        "roll": roll_data(roll),
        "odds": ctx.described(
            lambda: [["at_least", fraction(_reach_chance(action.dice, model, reroll, total))]]
        ),
        "distance": total,
    }


def _number(distance: float) -> int | float:
    return int(distance) if float(distance).is_integer() else distance


def roll_range(ctx: Ctx, model: Model, action: Action) -> None:
    """Bewegung, step 3 before 4 (l. 84-85): "Reichweiten prüfen/bestimmen", then "Die
    Reaktionen wird durchgeführt": a move whose range is rolled has it rolled before the
    reactions are carried out; the move itself comes after them."""
    ctx.emit("range_rolled", unit=model.id, action=action.key, **_range_data(ctx, model, action))


def move(ctx: Ctx, model: Model, action: Action, target: int | None = None) -> None:
    data: dict[str, Any] = {"unit": model.id, "action": action.key}
    if target is not None:
        data["target"] = target
    pending = ctx.state.pending
    rolled = pending.distance if pending and pending.action.unit == model.id else None
    if rolled is not None:
        data["distance"] = rolled  # its dice were rolled before the reactions (``roll_range``)
    else:
        data.update(_range_data(ctx, model, action))
    ctx.emit("moved", **data)


Effect_ = Callable[[Ctx, Model, Action, Declared], None]


def _attack_effect(ctx: Ctx, model: Model, action: Action, declared: Declared) -> None:
    assert declared.target is not None
    if action.movement:
        move(ctx, model, action, declared.target)
    ready = weapon_ready(model, action)
    attack(
        ctx,
        attacker=ctx.state.models[model.id],
        target=ctx.state.models[declared.target],
        dice=attack_dice(model, action, declared.dice, declared.modifier),
        action=action.key,
        weapon=model.ready_weapon if ready else None,
        melee=action.weapon == "melee",
    )


def _move_effect(ctx: Ctx, model: Model, action: Action, declared: Declared) -> None:
    move(ctx, model, action, declared.target)


def _push_effect(ctx: Ctx, model: Model, action: Action, declared: Declared) -> None:
    roll = ctx.roll(1)
    ctx.emit(
        "pushed",
        unit=model.id,
        target=declared.target,
        roll=roll_data(roll),
        distance=roll.total,
        odds=ctx.described(
            lambda: [["at_least", fraction(odds.at_least(odds.push(), roll.total))]]
        ),
    )


def _marking(event: str, **extra: str) -> Effect_:
    """An effect that only marks the model (its weapon changed, its block raised...)."""

    def effect(ctx: Ctx, model: Model, action: Action, declared: Declared) -> None:
        data = {key: getattr(declared, field) for key, field in extra.items()}
        ctx.emit(event, unit=model.id, **data)

    return effect


def _use_item(ctx: Ctx, model: Model, action: Action, declared: Declared) -> None:
    ctx.emit(
        "item_used", unit=model.id, action=action.key, target=declared.target, note=declared.note
    )


EFFECTS: Final[Mapping[Effect, Effect_]] = {
    Effect.ATTACK: _attack_effect,
    Effect.MOVE: _move_effect,
    Effect.DISENGAGE: _move_effect,
    Effect.PUSH: _push_effect,
    Effect.SWITCH_WEAPON: _marking("weapon_switched", weapon="weapon"),
    Effect.RELOAD: _marking("reloaded", weapon="weapon"),
    Effect.RESTORE_MORALE: _marking("morale_restored"),
    Effect.BLOCK: _marking("blocked"),
}


def carry_out(ctx: Ctx, declared: Declared) -> None:
    """Resolve one action or reaction: rolls and effects. The model acts even on 0 LP (the
    exchange is resolved in full; losses are removed afterwards)."""
    action = ACTION_BY_KEY.get(declared.action)
    model = ctx.state.models[declared.unit]
    if action is None:  # the scenario's NPC action: the log says what the table did
        ctx.emit("item_used", unit=model.id, action=declared.action, note=declared.note)
        return
    EFFECTS.get(action.effect, _use_item)(ctx, model, action, declared)
