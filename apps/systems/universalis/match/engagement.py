"""Who is in melee with whom (15): "Der Basekontakt mit einem gegnerischem Modell bedeutet
immer, dass sich beide Modelle im Nahkampf miteinander befinden."

A melee starts with a charge that reaches its target or with base contact (an attack says the
two touch; the table may say so with ``contact``); it ends when a model disengages, is pushed
back out of contact, flees, or when its opponent leaves play. While a model is in melee it may
only attack, attack recklessly, disengage or use a power, and react only with a counter-attack
or an opportunity attack (l. 1362): ``acting.actor`` and ``acting.reactor`` refuse the rest.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from apps.systems.core.match import Args
from apps.systems.universalis.match.context import Ctx, command, refuse
from apps.systems.universalis.match.state import Phase


def engage(ctx: Ctx, unit_id: int, other_id: int) -> None:
    """The two models are in base contact: in melee with each other."""
    unit, other = ctx.unit(unit_id), ctx.unit(other_id)
    if other_id in unit.engaged or not (unit.in_play and other.in_play):
        return
    ctx.emit(
        "engaged",
        unit=unit_id,
        target=other_id,
        units={
            unit_id: {"engaged": (*unit.engaged, other_id)},
            other_id: {"engaged": (*other.engaged, unit_id)},
        },
    )


def release(ctx: Ctx, unit_id: int, others: Iterable[int] | None = None) -> tuple[int, ...]:
    """The model is no longer in melee with ``others`` (default: with anyone); the opponents
    it left."""
    unit = ctx.unit(unit_id)
    left = tuple(o for o in unit.engaged if others is None or o in set(others))
    if not left:
        return ()
    units: dict[int, dict[str, Any]] = {
        unit_id: {"engaged": tuple(o for o in unit.engaged if o not in left)}
    }
    for other_id in left:
        other = ctx.unit(other_id)
        units[other_id] = {"engaged": tuple(o for o in other.engaged if o != unit_id)}
    ctx.emit("released", unit=unit_id, others=list(left), units=units)
    return left


@command("contact")
def _contact(ctx: Ctx, args: Args) -> None:
    """The table says two enemy models are (``touching``) or are no longer in base contact:
    a push into other enemies (15.2), a defender that pushed its attacker back, anything the
    app cannot see."""
    if ctx.state.phase in (Phase.SETUP, Phase.OVER):
        raise refuse("not_now", "Base contact is told during the rounds.")
    unit = ctx.unit(args.integer("unit", lo=0))
    other = ctx.unit(args.integer("other", lo=0))
    touching = args.boolean("touching")
    if unit.id == other.id:
        raise refuse("target_self", "A model is not in melee with itself.")
    if unit.player == other.player:
        raise refuse("contact_friend", "Only base contact with an enemy is a melee.")
    if not (unit.in_play and other.in_play):
        raise refuse("target_out", "Both models must be in play.")
    if touching == (other.id in unit.engaged):
        raise refuse("contact_unchanged", f"{unit.name} and {other.name} are already so.")
    ctx.emit("contact_set", unit=unit.id, other=other.id, touching=touching)
    if touching:
        engage(ctx, unit.id, other.id)
    else:
        release(ctx, unit.id, (other.id,))
