"""What every attack shares: naming the target, the weapon's use and markers, revealing a
camouflaged attacker, the EH tests of a target in defence or fire readiness.
"""

from __future__ import annotations

from typing import Any

from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import Args
from apps.systems.universalis.catalog import Weapon
from apps.systems.universalis.match import rules
from apps.systems.universalis.match.context import Ctx, eh_test, refuse
from apps.systems.universalis.match.serial import dump
from apps.systems.universalis.match.state import Unit


def reveal_attacker(ctx: Ctx, unit: Unit, *, ambush: bool = False) -> None:
    """Attacking or firing reveals a camouflaged model (16.3). A melee attack (``ambush``) out
    of camouflage keeps its NK bonus for the rest of the round, the fight's first (15.7.3)."""
    if unit.camouflaged:
        fields: dict[str, Any] = {"camouflaged": False, "revealed_moves": 0}
        if ambush:
            fields["ambush_round"] = ctx.state.round
        ctx.emit("revealed", unit=unit.id, by=None, units={unit.id: fields})


def target_arg(ctx: Ctx, args: Args, shooter: Unit, name: str = "unit") -> Unit:
    return check_target(ctx.unit(args.integer(name, lo=0)), shooter)


def check_target(target: Unit, attacker: Unit) -> Unit:
    """Whether ``attacker`` may attack ``target``: in play, not itself, not camouflaged."""
    if not target.in_play:
        raise refuse("target_out", f"{target.name} is no longer in play.")
    if target.id == attacker.id:
        raise refuse("target_self", "A model does not attack itself.")
    if target.camouflaged:
        raise refuse("target_camouflaged", f"{target.name} is camouflaged: reveal it first (16.2).")
    return target


def use_weapon(ctx: Ctx, unit: Unit, index: int) -> None:
    """A single-use marker is struck; a weapon that reloads gets its reload marker (12.7-8)."""
    if index == -1:
        return
    weapon_ = unit.card.weapons[index]
    fields: dict[str, Any] = {}
    if weapon_.uses is not None:
        uses = list(unit.weapon_uses)
        uses[index] = (uses[index] or 0) - 1
        fields["weapon_uses"] = tuple(uses)
    if weapon_.reload:
        fields["reload"] = (*unit.reload, index)
    if fields:
        ctx.emit("weapon_used", unit=unit.id, weapon=index, units={unit.id: fields})


def check_weapon(unit: Unit, index: int, *, melee: bool) -> Weapon:
    """Weapon ``index`` of the unit (-1 unarmed), if it is of the kind and usable now."""
    weapon_ = rules.weapon(unit, index)
    if weapon_.melee != melee:
        kind = "melee" if melee else "ranged"
        raise refuse("wrong_weapon", f"{weapon_.name} is not a {kind} weapon.")
    reason = rules.usable(unit, index)
    if reason:
        raise refuse(f"weapon_{reason}", f"{weapon_.name} cannot be used now ({reason}).")
    return weapon_


def defence_test(ctx: Ctx, unit: Unit) -> None:
    """A model in defence that is shot at or targeted by a power tests EH or loses it (15.3)."""
    if unit.defence:
        passed, roll = eh_test(ctx, unit, _("%(unit)s keeps its defence (EH)"))
        ctx.emit(
            "defence_tested",
            unit=unit.id,
            passed=passed,
            roll=dump(roll),
            units={} if passed else {unit.id: {"defence": False}},
        )


def readiness_test(ctx: Ctx, unit: Unit, by: Unit) -> None:
    """A model in fire readiness that is the target of a successful action or reaction of an
    enemy ``by`` tests EH or loses it (14.2): a hit, a won melee, an area weapon that hit, a
    power, a reveal."""
    unit = ctx.unit(unit.id)
    if unit.readiness is not None and unit.in_play and unit.player != by.player:
        passed, roll = eh_test(ctx, unit, _("%(unit)s keeps its fire readiness (EH)"))
        ctx.emit(
            "readiness_tested",
            unit=unit.id,
            passed=passed,
            roll=dump(roll),
            units={} if passed else {unit.id: {"readiness": None}},
        )
