"""Conditions and table events: panic tests and fleeing, burning, automatic hits, falls and
hand corrections.
"""

from __future__ import annotations

from typing import Any

from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import Args
from apps.systems.universalis.catalog import Effect, Weapon
from apps.systems.universalis.match import rules
from apps.systems.universalis.match.acting import actor
from apps.systems.universalis.match.context import SIDES, Ctx, command, eh_test, refuse
from apps.systems.universalis.match.damage import (
    operator_gone,
    reroll_args,
    take_shock,
    wound_roll,
)
from apps.systems.universalis.match.engagement import release
from apps.systems.universalis.match.serial import dump
from apps.systems.universalis.match.state import MAX_AP, LastAction, Phase, Unit
from apps.systems.universalis.match.values import attribute_value, panic_modifier


@command("panic_test")
def _panic_test(ctx: Ctx, args: Args) -> None:
    """The EH test of a friend that perceives the eliminated model (11.4): −3 for it, −2 per
    other eliminated friend, −1 per enemy, +1 per friend, +3 per friend in base contact in its
    perception range (panicking models ignored)."""
    unit = ctx.unit(args.integer("unit", lo=0))
    due = next((d for d in ctx.state.panic_due if d.unit == unit.id), None)
    if due is None:
        raise refuse("no_panic_test", f"{unit.name} owes no panic test.")
    ctx.emit(
        "panic_test_taken",
        unit=unit.id,
        state={"panic_due": tuple(d for d in ctx.state.panic_due if d is not due)},
    )
    panic_roll(ctx, unit, args, just_eliminated=True)


def panic_roll(ctx: Ctx, unit: Unit, args: Args, *, just_eliminated: bool) -> None:
    modifier = panic_modifier(
        just_eliminated=just_eliminated,
        other_eliminated=args.integer("other_eliminated", 0, lo=0, hi=20),
        enemies=args.integer("enemies", 0, lo=0, hi=20),
        friends=args.integer("friends", 0, lo=0, hi=20),
        friends_in_contact=args.integer("friends_in_contact", 0, lo=0, hi=8),
    )
    passed, roll = eh_test(ctx, unit, _("%(unit)s: panic test (EH)"), modifier)
    ctx.emit(
        "panic_tested",
        unit=unit.id,
        passed=passed,
        roll=dump(roll),
        units={unit.id: {"panic": not passed}} if passed == unit.panic else {},
    )


@command("skip_panic_test")
def _skip_panic_test(ctx: Ctx, args: Args) -> None:
    """The friend does not perceive the eliminated model: no test."""
    unit = ctx.unit(args.integer("unit", lo=0))
    due = next((d for d in ctx.state.panic_due if d.unit == unit.id), None)
    if due is None:
        raise refuse("no_panic_test", f"{unit.name} owes no panic test.")
    ctx.emit(
        "panic_test_skipped",
        unit=unit.id,
        state={"panic_due": tuple(d for d in ctx.state.panic_due if d is not due)},
    )


@command("flee")
def _flee(ctx: Ctx, args: Args) -> None:
    """A panicking model spends all its AP running to the nearest table edge; once it has left
    the table it is out of the game (11.4.1) and its telematons panic (19.3)."""
    unit = actor(ctx, args, panicking=True)
    if not unit.panic:
        raise refuse("not_panicking", f"{unit.name} is not panicking.")
    left = args.boolean("left_table")
    ctx.emit(
        "fled",
        unit=unit.id,
        ap=unit.ap,
        left_table=left,
        units={unit.id: {"ap": 0, "fled": left, "acted": True}},
    )
    # It ignores threats and runs (11.4.1): out of any melee.
    release(ctx, unit.id)
    if left:
        operator_gone(ctx, unit.id)
    else:
        # Its run to the edge is one continuous move enemies may answer (8, 14.3).
        ctx.emit("last_action", state={"last_action": LastAction(kind="move", unit=unit.id)})


@command("panic_move")
def _panic_move(ctx: Ctx, args: Args) -> None:
    """At the round's start every panicking model is moved as its panic says (5.5.1, l. 504:
    "Alle Modelle in Panik werden entsprechend bewegt"): towards the nearest table edge, out of
    any melee; the table says whether it left the table. It costs no AP: in its phase it then
    spends them all running (11.4.1)."""
    unit = ctx.unit(args.integer("unit", lo=0))
    if ctx.state.phase is not Phase.ORDER or unit.id not in ctx.state.panic_moves_due:
        raise refuse("no_panic_move", f"{unit.name} has no panic move to make now.")
    left = args.boolean("left_table")
    ctx.emit(
        "panic_moved",
        unit=unit.id,
        left_table=left,
        units={unit.id: {"fled": left}} if left else {},
        state={"panic_moves_due": tuple(u for u in ctx.state.panic_moves_due if u != unit.id)},
    )
    release(ctx, unit.id)
    if left:
        operator_gone(ctx, unit.id)


@command("burning_test")
def _burning_test(ctx: Ctx, args: Args) -> None:
    """Brennen at the start of its phase: 1d12 + 2 per friend in base contact (11.1). 1-8: an
    automatic hit with the igniting weapon's profile, then (if it survives) d6 moves of full
    speed in random directions, paying AP; 9-11: the marker goes, 1 shock; 12+: it goes."""
    unit = ctx.unit(args.integer("unit", lo=0))
    if unit.id not in ctx.state.burning_due or unit.burning is None:
        raise refuse("no_burning_test", f"{unit.name} has no fire to test now.")
    bonus = 2 * args.integer("helpers", 0, lo=0, hi=8)
    roll = ctx.banded(
        _("%(unit)s burns (1d12 + %(bonus)s)"),
        lambda face: (
            "fire_out" if face + bonus >= 12 else "fire_out_shock" if face + bonus >= 9 else "burns"
        ),
        unit=unit.name,
        bonus=bonus,
    )
    total = roll.dice[0] + bonus
    ctx.emit(
        "burning_tested",
        unit=unit.id,
        total=total,
        roll=dump(roll),
        state={"burning_due": tuple(u for u in ctx.state.burning_due if u != unit.id)},
    )
    burn = unit.burning
    if total >= 12:
        ctx.emit("fire_out", unit=unit.id, units={unit.id: {"burning": None}})
    elif total >= 9:
        ctx.emit("fire_out", unit=unit.id, units={unit.id: {"burning": None}})
        take_shock(ctx, unit.id, 1, cause="fire")
    else:
        weapon_ = Weapon(
            name=burn.name,
            wk=1,
            range="NK",
            strength=burn.strength,
            damage=burn.damage,
            effects=burn.effects,
        )
        wound_roll(ctx, None, unit.id, weapon_, rerolls=reroll_args(args))
        unit = ctx.unit(unit.id)
        if unit.in_play:
            times, _times_roll = ctx.plain(_("%(unit)s runs burning (d6 moves)"), 6, unit=unit.name)
            cost = 2 if unit.prone else 1
            moves = min(times, unit.ap // cost) if cost else times
            directions = [ctx.plain(_("Direction (clock face)"), SIDES)[0] for _n in range(moves)]
            ctx.emit(
                "ran_burning",
                unit=unit.id,
                moves=moves,
                directions=directions,
                units={unit.id: {"ap": unit.ap - moves * cost}},
            )


@command("auto_hit")
def _auto_hit(ctx: Ctx, args: Args) -> None:
    """An automatic hit the tracker does not model itself (a power's effect, a trap): the wound
    against armour roll of the given profile."""
    if ctx.state.phase not in (Phase.ACTING, Phase.ORDER, Phase.ROUND_END):
        raise refuse("not_now", "Automatic hits happen during the rounds.")
    victim = ctx.unit(args.integer("unit", lo=0))
    if not victim.in_play:
        raise refuse("target_out", f"{victim.name} is no longer in play.")
    effects = tuple(
        Effect(e) for e in args.strs("effects", choices=[e.value for e in Effect], most=9)
    )
    weapon_ = Weapon(
        name=args.text("name", "—")[:60] or "—",
        wk=1,
        range="NK",
        strength=args.integer("strength", lo=0, hi=30),
        damage=args.integer("damage", lo=0, hi=20),
        effects=effects,
    )
    ctx.emit("auto_hit", unit=victim.id, name=weapon_.name)
    wound_roll(
        ctx,
        None,
        victim.id,
        weapon_,
        cover=args.text("cover", "none", choices=rules.COVERS),
        rerolls=reroll_args(args),
    )


@command("fall")
def _fall(ctx: Ctx, args: Args) -> None:
    """Fall damage (8.8.1): up to its size nothing; up to double a movement test (AGI) avoids a
    hit of strength KO and damage KO/2 (rounded down); higher, a hit of strength and damage KO."""
    if ctx.state.phase not in (Phase.ACTING, Phase.ROUND_END):
        raise refuse("not_now", "Falls happen during the rounds.")
    unit = ctx.unit(args.integer("unit", lo=0))
    height = args.text("height", choices=("size", "double", "higher"))
    ctx.emit("fell", unit=unit.id, height=height)
    if height == "size" or not unit.in_play:
        return
    damage = unit.card.ko
    if height == "double":
        target = attribute_value(ctx.state, unit, "agi")
        passed, _roll = ctx.attribute_roll(_("%(unit)s lands safely (AGI)"), target, unit=unit.name)
        if passed:
            return
        damage //= 2
    fall = Weapon(name="Sturz", wk=1, range="NK", strength=unit.card.ko, damage=damage)
    wound_roll(ctx, None, unit.id, fall, rerolls=reroll_args(args))


@command("correct")
def _correct(ctx: Ctx, args: Args) -> None:
    """A hand correction of what the table agrees is wrong: hit points, AP, shock tokens."""
    if ctx.state.phase is Phase.SETUP:
        raise refuse("not_now", "Corrections are made during the rounds.")
    unit = ctx.unit(args.integer("unit", lo=0))
    fields: dict[str, Any] = {}
    if args.has("hp"):
        fields["hp"] = args.integer("hp", lo=1, hi=unit.card.hp_total)
    if args.has("ap"):
        fields["ap"] = args.integer("ap", lo=0, hi=MAX_AP)
    if args.has("shock_tokens"):
        fields["shock_tokens"] = args.integer("shock_tokens", lo=0, hi=20)
    if not fields or not unit.in_play:
        raise refuse("nothing_to_correct", "Give the hit points, AP or shock tokens to set.")
    ctx.emit("corrected", unit=unit.id, values=fields, units={unit.id: fields})
