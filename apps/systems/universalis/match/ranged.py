"""Ranged combat: normal, aimed and snap shots, sustained fire, area weapons, indirect fire,
dodging, reaction fire, fire readiness and reloading (SPEC §3 Ranged).
"""

from __future__ import annotations

from typing import Any

from apps.systems.core.errors import RuleViolation
from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import Args
from apps.systems.universalis.catalog import Weapon
from apps.systems.universalis.match import rules
from apps.systems.universalis.match.acting import (
    actor,
    answer_threat,
    flight_first,
    operator_ap_arg,
    reactor,
    spend,
)
from apps.systems.universalis.match.combat import (
    check_target,
    check_weapon,
    defence_test,
    readiness_test,
    reveal_attacker,
    target_arg,
    use_weapon,
)
from apps.systems.universalis.match.context import SIDES, Ctx, command, refuse
from apps.systems.universalis.match.damage import reroll_args, wound_roll
from apps.systems.universalis.match.odds import Rerolls
from apps.systems.universalis.match.serial import dump
from apps.systems.universalis.match.state import AreaShot, Roll, Unit
from apps.systems.universalis.match.values import (
    NO_REROLLS,
    SHOT_EXTRA,
    dodge_values,
    shot_base,
    shot_value,
)


def _shots(args: Args, weapon_: Weapon, mode: str) -> list[tuple[Args, int]]:
    targets = args.objects("targets", most=5)
    if not targets:
        raise refuse("no_target", "Name a target.")
    named = [t.integer("unit", lo=0) for t in targets if t.has("unit")]
    if len(set(named)) != len(named):
        # Several shots on one target are one roll with a bonus, never separate rolls (14.12).
        raise refuse("target_twice", "Name each target once and give it all its shots.")
    shots = [(t, t.integer("shots", 1, lo=1, hi=5)) for t in targets]
    total = sum(n for _t, n in shots)
    if weapon_.area:
        if len(shots) != 1 or total != 1:
            raise refuse("area_one_target", "An area weapon fires once at one point.")
    elif mode == "aimed":
        if total != 1:
            raise refuse("aimed_no_df", "An aimed shot is one shot (no sustained fire).")
    elif total != 1 + weapon_.df:
        raise RuleViolation(
            "df_shots",
            f"{weapon_.name} fires {1 + weapon_.df} shots: assign all of them.",
            {"weapon": weapon_.name, "shots": 1 + weapon_.df, "given": total},
        )
    return shots


def check_indirect(weapon_: Weapon, mode: str, indirect: bool) -> None:
    """Indirect fire needs a weapon that fires indirectly, and is never reaction fire."""
    if indirect and (not weapon_.indirect or mode == "reaction"):
        raise refuse("not_indirect", f"{weapon_.name} cannot fire indirectly now.")


def range_penalty(unit: Unit, weapon_: Weapon, mode: str, distance: int) -> int:
    """The range bands' penalty of a shot at ``distance`` cm, refused out of range (14.7)."""
    penalty = rules.band_penalty(weapon_, unit.card.ko, distance, aimed=mode == "aimed")
    if penalty is None:
        raise refuse("out_of_range", f"{weapon_.name} does not reach {distance} cm.")
    return penalty


def check_shot(
    unit: Unit,
    index: int,
    target: Unit | None,
    *,
    mode: str,
    indirect: bool,
    distance: int,
) -> tuple[Weapon, int]:
    """The checks ``_shoot`` makes of one shot, in its order (less those of the command's
    arguments): the weapon, indirect fire, the range, the target. The weapon and the range
    penalty."""
    weapon_ = check_weapon(unit, index, melee=False)
    check_indirect(weapon_, mode, indirect)
    penalty = range_penalty(unit, weapon_, mode, distance)
    if target is not None:
        check_target(target, unit)
    return weapon_, penalty


def armour_cover(cover: str, *, touching: bool, indirect: bool) -> str:
    """The cover whose armour bonus a hit target gets: the cover between shooter and target
    (its FK malus) counts for the armour roll only when the target touches it (9.3, l. 774-776);
    an indirect hit always as massive cover (14.11)."""
    if indirect:
        return "massive"
    return cover if touching else "none"


def _aim(
    ctx: Ctx, unit: Unit, weapon_: Weapon, mode: str, args: Args
) -> list[tuple[Unit | None, Args, int, int]]:
    """The shot's targets, in the command's order: each model (none: an area weapon's point),
    its arguments, its shots and its range penalty."""
    targets: list[tuple[Unit | None, Args, int, int]] = []
    for target_args, count in _shots(args, weapon_, mode):
        distance = target_args.integer("distance", lo=0, hi=500)
        penalty = range_penalty(unit, weapon_, mode, distance)
        target = (
            target_arg(ctx, target_args, unit)
            if not weapon_.area or target_args.has("unit")
            else None
        )
        targets.append((target, target_args, count, penalty))
    return targets


def _shoot(
    ctx: Ctx, unit: Unit, index: int, mode: str, args: Args, rerolls: Rerolls = NO_REROLLS
) -> None:
    # The order of the checks decides a bad command's refusal; ``check_shot`` (the preview's)
    # keeps it.
    weapon_ = check_weapon(unit, index, melee=False)
    indirect = args.boolean("indirect")
    check_indirect(weapon_, mode, indirect)
    targets = _aim(ctx, unit, weapon_, mode, args)
    cost = rules.weapon_cost(unit, weapon_, SHOT_EXTRA[mode])
    if mode != "reaction":
        # A shot with the direct threat among its targets attacks it (4.5.1).
        answer_threat(ctx, unit, (t.id for t, _a, _c, _p in targets if t is not None))
        flight_first(ctx, unit)
    unit = spend(ctx, unit, cost, action=f"shot_{mode}", operator_ap=operator_ap_arg(args))
    reveal_attacker(ctx, unit)
    use_weapon(ctx, unit, index)
    base = shot_base(
        ctx.state, unit, mode, indirect=indirect, friend_sees=args.boolean("friend_sees")
    )
    for number, (target, target_args, count, penalty) in enumerate(targets):
        modifier = shot_value(
            base,
            weapon_,
            target,
            cover=target_args.text("cover", "none", choices=rules.COVERS),
            indirect=indirect,
            penalty=penalty,
            number=number,
            count=count,
        )
        if target is not None:
            if target_args.boolean("dodge"):
                modifier -= _dodge(ctx, target, unit)
            defence_test(ctx, target)
        hit, roll = ctx.attribute_roll(
            _("%(unit)s shoots %(target)s with %(weapon)s (FK)"),
            modifier,
            unit=unit.name,
            target=target.name if target is not None else "—",
            weapon=weapon_.name,
        )
        ctx.emit(
            "shot",
            unit=unit.id,
            target=None if target is None else target.id,
            weapon=index,
            mode=mode,
            shots=count,
            hit=hit,
            roll=dump(roll),
        )
        if weapon_.area:
            _area_shot(ctx, unit, index, hit, roll, target_args, count - 1, indirect)
            return
        if hit and target is not None:
            victim = _melee_victim(ctx, target, target_args)
            readiness_test(ctx, victim, unit)
            cover = armour_cover(
                target_args.text("cover", "none", choices=rules.COVERS),
                touching=target_args.boolean("touching"),
                indirect=indirect,
            )
            wound_roll(ctx, unit, victim.id, weapon_, extra=count - 1, cover=cover, rerolls=rerolls)


def _dodge(ctx: Ctx, target: Unit, shooter: Unit) -> int:
    """Beschuss Ausweichen (1 AP, not prone): the target wins a comparative AGI roll and the
    shooter gets −1 (8.4)."""
    if rules.reaction_refusal(target) or target.prone:
        raise refuse("cannot_dodge", f"{target.name} cannot dodge now.")
    if target.engaged:
        raise refuse("melee_reaction", f"{target.name} is in melee: it cannot dodge (15).")
    target = spend(ctx, target, 1, action="dodge")
    outcome, roll = ctx.comparative(
        _("%(unit)s dodges %(shooter)s (AGI)"),
        *dodge_values(ctx.state, target, shooter),
        unit=target.name,
        shooter=shooter.name,
    )
    ctx.emit("dodged", unit=target.id, won=outcome == "win", roll=dump(roll))
    return 1 if outcome == "win" else 0


def _melee_victim(ctx: Ctx, target: Unit, target_args: Args) -> Unit:
    """Shooting into melee: every combatant is equally likely to be hit (14.8): the target and
    its melee opponents (``melee_with``; by default those the app knows, ``Unit.engaged``)."""
    opponents = (
        target_args.ints("melee_with", hi=999, most=6)
        if target_args.has("melee_with")
        else list(target.engaged)
    )
    others = [ctx.unit(uid) for uid in opponents]
    combatants = [target, *[u for u in others if u.in_play and u.id != target.id]]
    if len(combatants) == 1:
        return target
    face, roll = ctx.plain(
        _("Who is hit in the melee (1 to %(count)s)"), len(combatants), count=len(combatants)
    )
    victim = combatants[face - 1]
    ctx.emit("melee_victim", unit=victim.id, roll=dump(roll))
    return victim


def _area_shot(
    ctx: Ctx,
    unit: Unit,
    index: int,
    hit: bool,
    roll: Roll,
    target_args: Args,
    extra: int,
    indirect: bool,
) -> None:
    """A miss scatters the impact point by (difference × 3 cm) in a random direction, at most
    half the distance shot (14.13); then the table says whom the area covers."""
    scatter = direction = 0
    if not hit:
        rolled = roll.dice[0] if roll.dice else SIDES
        target = roll.target or 0
        distance = target_args.integer("distance", lo=0, hi=500)
        scatter = min((rolled - max(target, 0)) * 3, distance // 2)
        direction, _roll = ctx.plain(_("Scatter direction (clock face)"), SIDES)
    ctx.emit(
        "area_pending",
        unit=unit.id,
        weapon=index,
        scatter_cm=scatter,
        direction=direction,
        state={
            "area": AreaShot(
                unit=unit.id,
                weapon=index,
                hit=hit,
                scatter_cm=scatter,
                direction=direction,
                extra_strength=extra,
                indirect=indirect,
            )
        },
    )


@command("area_hits")
def _area_hits(ctx: Ctx, args: Args) -> None:
    """The models the area covers: fully (a normal hit) or partly (half damage, rounded up).
    Camouflaged models cannot be hit by area weapons (16.2)."""
    area = ctx.state.area
    if area is None:
        raise refuse("not_now", "No area weapon waits for its hits.")
    shooter = ctx.unit(area.unit)
    weapon_ = rules.weapon(shooter, area.weapon)
    hits = args.objects("hits", most=12)
    victims = []
    for hit in hits:
        victim = ctx.unit(hit.integer("unit", lo=0))
        if not victim.in_play:
            raise refuse("target_out", f"{victim.name} is no longer in play.")
        if victim.camouflaged:
            raise refuse("target_camouflaged", f"{victim.name} is camouflaged (16.2).")
        victims.append((victim, hit))
    rerolls = reroll_args(args)
    ctx.emit("area_resolved", units_hit=[v.id for v, _h in victims], state={"area": None})
    for victim, hit in victims:
        if area.hit:
            readiness_test(ctx, victim, shooter)
        cover = "massive" if area.indirect else hit.text("cover", "none", choices=rules.COVERS)
        wound_roll(
            ctx,
            shooter,
            victim.id,
            weapon_,
            extra=area.extra_strength,
            cover=cover,
            partial=hit.boolean("partial"),
            rerolls=rerolls,
        )


@command("shoot")
def _shoot_command(ctx: Ctx, args: Args) -> None:
    """Normaler Schuss (WK+1), Gezielter Schuss (WK+2: +2, bands doubled, no sustained fire),
    Schnellschuss (WK: −2)."""
    unit = actor(ctx, args, attack=True)
    mode = args.text("mode", "normal", choices=("normal", "aimed", "snap"))
    _shoot(ctx, unit, args.integer("weapon", 0, lo=0, hi=20), mode, args, reroll_args(args))


@command("reaction_fire")
def _reaction_fire(ctx: Ctx, args: Args) -> None:
    """Reaktionsfeuer (WK, −1) with the weapon of its fire readiness, at an enemy that just
    made a movement action (a move, a charge, a disengage) inside its perception range; the
    readiness is used up (14.3). Only the mover may be shot at, so a sustained fire puts all
    its 1 + DF shots on it (14.12)."""
    unit = reactor(ctx, args)
    last = ctx.state.last_action
    if unit.readiness is None:
        raise refuse("no_readiness", f"{unit.name} is not in fire readiness.")
    if last is None or last.kind not in ("move", "disengage"):
        raise refuse("no_move", "Reaction fire answers an enemy's move.")
    mover = ctx.unit(last.unit)
    if mover.player == unit.player:
        raise refuse("no_move", "Reaction fire answers an enemy's move.")
    situation = args.mapping("target")
    target = {
        key: situation[key]
        for key in ("distance", "cover", "touching", "dodge", "shots")
        if key in situation
    }
    weapon_ = rules.weapon(unit, unit.readiness)
    target.setdefault("shots", 1 if weapon_.area else 1 + weapon_.df)
    shot: dict[str, Any] = {
        "targets": [{"unit": mover.id, **target}],
        "indirect": args.boolean("indirect"),
    }
    _shoot(ctx, unit, unit.readiness, "reaction", Args(shot), reroll_args(args))


@command("fire_readiness")
def _fire_readiness(ctx: Ctx, args: Args) -> None:
    """Feuerbereitschaft (2 AP) with a WK I-III firearm until its next phase (14.2)."""
    unit = actor(ctx, args)
    index = args.integer("weapon", 0, lo=0, hi=20)
    weapon_ = check_weapon(unit, index, melee=False)
    if weapon_.wk > 3:
        raise refuse("readiness_wk", "Fire readiness needs a weapon of WK I to III.")
    flight_first(ctx, unit)
    unit = spend(ctx, unit, 2, action="fire_readiness", operator_ap=operator_ap_arg(args))
    ctx.emit("readiness_taken", unit=unit.id, weapon=index, units={unit.id: {"readiness": index}})


@command("reload")
def _reload(ctx: Ctx, args: Args) -> None:
    """Nachladen (WK): the reload marker of the weapon is removed (14.2)."""
    unit = actor(ctx, args)
    index = args.integer("weapon", 0, lo=0, hi=20)
    weapon_ = rules.weapon(unit, index)
    if index not in unit.reload:
        raise refuse("no_reload", f"{weapon_.name} has no reload marker.")
    flight_first(ctx, unit)
    unit = spend(
        ctx,
        unit,
        rules.weapon_cost(unit, weapon_),
        action="reload",
        operator_ap=operator_ap_arg(args),
    )
    ctx.emit(
        "reloaded",
        unit=unit.id,
        weapon=index,
        units={unit.id: {"reload": tuple(i for i in unit.reload if i != index)}},
    )
