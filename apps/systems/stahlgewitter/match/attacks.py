"""Ranged and melee attacks ("Fernkampf", "Deckung", "Liegende Ziele", "Schnellfeuerwaffen",
"Nahkampf", "Kampf-Ergebnistabelle"): the attack value GES + FKW (ranged) or NKW (melee, the
variants added) against the defender's PW, the column moved left by cover, the open-ended d10
row, the letter and its meaning. Bursts fire N attacks at one target unit within half range
(an A jams the weapon and ends the burst); a single shot from a rapid-fire weapon only after
moving at most 3 cm; shots at leaders per volley are limited by the table. Every roll's exact
letter distribution is written into its event before the dice fall.

Decisions: the armour breaker (Panzerknacker) halves the armour part of the defender's PW
(rounded down) unless its note limits it to opening bulkheads (the Vibro-Varianten, footnote 1)
"nur zum Öffnen von Schotts, Luken, etc.": never against models); "ignoriert Rüstung" leaves the
armour part out; "+ PW auf FKW und PW immer 1" adds the defender's PW to the attack value and
counts the PW as 1. Melee ignores cover and prone targets for the column (a defender behind
hard cover or in a fortified position still ignores retreat results). A weapon that may not move and
fight does not fire after its bearer moved. A burst's further shots go at the next living
non-leader model of the target unit once the first target falls. Every shot at a leader counts
against the volley's "Mögliche Schüsse auf Anführer pro Salve"; the shots of a burst past that
limit go at the next living non-leader of the same unit. A burst stops when the weapon has a
fault (A or B: "da sich die Waffe verklemmt hat"). A declared prone or standing target is
recorded (``prone_changed``) before the first shot, so every shot of a burst counts it. A
retreat result is ignored behind the cover the target counts as (a prone model in soft cover
counts as hard cover)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from apps.systems.core.errors import RuleViolation
from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import Args, ArgSpec, CommandSpec
from apps.systems.stahlgewitter.combat import Cover, attack_column, effective_cover, resolve
from apps.systems.stahlgewitter.match import care, markers, panic
from apps.systems.stahlgewitter.match.context import (
    Ctx,
    command,
    event,
    own_model,
    refusals,
    refuse,
    require_phase,
    specs,
)
from apps.systems.stahlgewitter.match.damage import HITS, apply_outcome
from apps.systems.stahlgewitter.match.state import MatchState, Model, Phase, Weapon
from apps.systems.stahlgewitter.odds import ROW_DENOMINATOR, letter_weights
from apps.systems.stahlgewitter.tables import leader_shots

Data = Any
COVERS = tuple(c.value for c in Cover)
DISTANCES = ("near", "half", "full")  # within 5 cm, within half range, within full range
MODES = ("single", "burst")

specs(
    CommandSpec(
        "attack",
        _(
            "An attack of a model of the active unit: ranged in the ranged phase, melee in the "
            "melee phase. The tracker rolls the d10 row on the combat results table and applies "
            "the result."
        ),
        (
            ArgSpec("attacker", "int", help=_("The attacking model (its id).")),
            ArgSpec("weapon", "int", help=_("The weapon (its index in the model's weapons).")),
            ArgSpec("target", "int", help=_("The defending model (its id).")),
            ArgSpec("cover", "str", required=False, help=_("open, soft, hard or fortified")),
            ArgSpec("prone", "bool", required=False, help=_("The target lies prone.")),
            ArgSpec(
                "distance",
                "str",
                required=False,
                help=_("near (within 5 cm), half (within half range) or full (within range)"),
            ),
            ArgSpec("mode", "str", required=False, help=_("single or burst")),
            ArgSpec(
                "cannot_retreat",
                "bool",
                required=False,
                help=_("The target cannot retreat away from the enemy (a retreat costs 1 TP)."),
            ),
            ArgSpec(
                "attacker_cannot_retreat",
                "bool",
                required=False,
                help=_("Melee: the attacker cannot retreat (a retreat costs 1 TP)."),
            ),
        ),
    ),
)
refusals(
    {
        "not_active_unit": _("That model's unit is not taking its turn."),
        "model_dead": _("That model is out of the game."),
        "model_stunned": _("A stunned model cannot act."),
        "already_attacked": _("That model has attacked in this turn already."),
        "no_such_weapon": _("The model has no such weapon."),
        "not_ranged": _("That weapon has no FKW: it does not shoot."),
        "not_melee": _("That weapon has no NKW: it does not fight in melee."),
        "weapon_fault": _("That weapon has a fault and cannot be used."),
        "moved_heavy": _("This weapon does not fire after its bearer moved (Bew./kämpfen: nein)."),
        "no_burst": _("That weapon has no rate of fire: single shots only."),
        "burst_range": _("A burst reaches half the weapon's range at most."),
        "moved_too_far": _(
            "A single shot from a rapid-fire weapon only after moving at most 3 cm: fire a burst."
        ),
        "not_an_enemy": _("Choose an enemy model."),
        "target_hidden": _("That unit is still a hidden marker: reveal it first."),
        "leader_shots": _("This volley has used up its shots at leaders (Schüsse auf Anführer)."),
    },
    {
        "leader_shots": _(
            "This volley may fire %(shots)s shot(s) at leaders of that unit, and has fired them."
        ),
    },
)


def defender_pw(attacker: Model, weapon: Weapon, target: Model, melee: bool) -> tuple[int, int]:
    """(attack value, the defender's PW) with the weapon's specials."""
    value = attacker.ges + ((weapon.nkw or 0) if melee else (weapon.fkw or 0))
    pw = target.pw
    if weapon.pw_always_1:
        return value + target.pw, 1
    if weapon.ignores_armour:
        pw = target.pw - target.armour_pw
    elif weapon.armour_breaker and not weapon.bulkheads_only:
        pw = target.pw - target.armour_pw + target.armour_pw // 2
    return value, max(pw, 0)


def column_for(
    attacker: Model,
    weapon: Weapon,
    target: Model,
    *,
    melee: bool,
    cover: Cover,
    prone: bool,
    near: bool,
) -> tuple[int, int, int, Cover]:
    """(column, attack value, PW, the cover the target counts as)."""
    value, pw = defender_pw(attacker, weapon, target, melee)
    counted = Cover.OPEN if melee else effective_cover(cover, prone=prone, within_5cm=near)
    return attack_column(value, pw, counted), value, pw, counted


def odds_fields(column: int, bonus: int) -> dict[str, Any]:
    weights = letter_weights(column, bonus)
    hit = sum(w for letter, w in weights.items() if letter in HITS)
    return {
        "weights": {letter.value: w for letter, w in weights.items()},
        "denominator": ROW_DENOMINATOR,
        "p_hit": f"{hit}/{ROW_DENOMINATOR}",
    }


def leaders_fired(state: MatchState, unit: int, target_unit: int) -> int:
    return sum(1 for pair in state.leader_shots if tuple(pair) == (unit, target_unit))


def volley_limit(state: MatchState, unit: int, target_unit: int) -> int:
    """ "Mögliche Schüsse auf Anführer pro Salve": by the firing unit's able models and the
    target unit's models."""
    shooters = sum(1 for m in state.living(unit) if not m.stunned)
    return leader_shots(shooters, len(state.living(target_unit)))


def _target(ctx: Ctx, attacker: Model, target_id: int) -> Model:
    state = ctx.state
    target = state.model(target_id)
    if target.player == attacker.player:
        refuse("not_an_enemy", "Choose an enemy model.")
    if target.dead or state.units[target.unit].out:
        refuse("model_dead", "That model is out of the game.")
    if not state.units[target.unit].revealed:
        refuse("target_hidden", "That unit is still a hidden marker: reveal it first.")
    return target


def _weapon(attacker: Model, index: int, melee: bool) -> Weapon:
    if not 0 <= index < len(attacker.weapons):
        refuse("no_such_weapon", "The model has no such weapon.")
    weapon = attacker.weapons[index]
    if melee and not weapon.melee:
        refuse("not_melee", "That weapon has no NKW.")
    if not melee and not weapon.ranged:
        refuse("not_ranged", "That weapon has no FKW.")
    if weapon.fault:
        refuse("weapon_fault", "That weapon has a fault.")
    return weapon


def _ranged_mode(attacker: Model, weapon: Weapon, mode: str, distance: str) -> int:
    """The number of attacks: a burst's rate of fire, else 1."""
    if not weapon.move_and_fight and attacker.moved:
        refuse("moved_heavy", "This weapon does not fire after its bearer moved.")
    if mode == "burst":
        if weapon.burst <= 0:
            refuse("no_burst", "That weapon has no rate of fire.")
        if distance == "full" and not weapon.no_burst_range_penalty:
            refuse("burst_range", "A burst reaches half the weapon's range at most.")
        return weapon.burst
    if weapon.burst > 0 and attacker.moved in ("far", "charge"):
        refuse("moved_too_far", "A single shot only after moving at most 3 cm.")
    return 1


def _able(state: MatchState, model_id: int) -> Model:
    """A model of the active unit that may attack now."""
    attacker = own_model(state, model_id)
    if state.units[attacker.unit].panic:
        refuse("panicking", "A panicking unit can do nothing.")
    if attacker.stunned:
        refuse("model_stunned", "A stunned model cannot act.")
    if attacker.acted:
        refuse("already_attacked", "That model has attacked in this turn already.")
    return attacker


def _leader_limit(state: MatchState, attacker: Model, target: Model) -> int:
    """The volley's shots at the target unit's leaders; refuses a shot at a leader past it."""
    limit = volley_limit(state, attacker.unit, target.unit)
    if target.leader and leaders_fired(state, attacker.unit, target.unit) >= limit:
        raise RuleViolation(
            "leader_shots",
            f"This volley may fire {limit} shot(s) at leaders of that unit.",
            {"shots": limit},
        )
    return limit


@command("attack")
def _attack(ctx: Ctx, args: Args) -> None:
    state = ctx.state
    require_phase(state, Phase.RANGED, Phase.MELEE)
    melee = state.phase is Phase.MELEE
    attacker = _able(state, args.integer("attacker", lo=0, hi=9999))
    index = args.integer("weapon", lo=0, hi=20)
    weapon = _weapon(attacker, index, melee)
    target = _target(ctx, attacker, args.integer("target", lo=0, hi=9999))
    cover = Cover(args.text("cover", "open", choices=COVERS))
    prone = args.boolean("prone", target.prone)
    distance = args.text("distance", "half", choices=DISTANCES)
    mode = args.text("mode", "burst" if weapon.burst and not melee else "single", choices=MODES)
    blocked = args.boolean("cannot_retreat", False)
    attacker_blocked = args.boolean("attacker_cannot_retreat", False)
    shots = 1 if melee else _ranged_mode(attacker, weapon, mode, distance)
    limit = None if melee else _leader_limit(state, attacker, target)
    markers.reveal(ctx, attacker.unit, "fought" if melee else "fired")
    if not melee and prone != target.prone:
        ctx.emit(
            "prone_changed", model=target.id, player=target.player, prone=prone, cause="declared"
        )
    source = "melee" if melee else ("burst" if mode == "burst" else "shot")
    fire_at(
        ctx,
        attacker.id,
        index,
        target.id,
        shots=shots,
        melee=melee,
        cover=cover,
        prone=prone,
        near=distance == "near",
        blocked=blocked,
        attacker_blocked=attacker_blocked,
        source=source,
        acts=True,
        leader_limit=limit,
    )


@event("leader_shot")
def _leader_shot(state: MatchState, data: Data) -> MatchState:
    return replace(state, leader_shots=(*state.leader_shots, (data["unit"], data["target"])))


def burst_target(state: MatchState, first: int, *, leaders: bool = True) -> int | None:
    """The first target while it stands (a leader only while ``leaders`` may still be shot at),
    then the next living non-leader of its unit."""
    aimed = state.models[first]
    if aimed.alive and (leaders or not aimed.leader):
        return first
    others = [m.id for m in state.living(aimed.unit) if not m.leader]
    return others[0] if others else None


def _aim(ctx: Ctx, attacker: Model, target_id: int, limit: int | None) -> int | None:
    """The model this shot goes at; a shot at a leader counts against the volley's limit
    (``limit`` None: no limit, as in melee, defensive fire and a mutiny)."""
    state = ctx.state
    unit = state.models[target_id].unit
    leaders = limit is None or leaders_fired(state, attacker.unit, unit) < limit
    aimed = burst_target(state, target_id, leaders=leaders)
    if aimed is not None and limit is not None and state.models[aimed].leader:
        ctx.emit("leader_shot", unit=attacker.unit, target=unit)
    return aimed


def fire_at(
    ctx: Ctx,
    attacker_id: int,
    weapon_index: int,
    target_id: int,
    *,
    shots: int,
    melee: bool,
    cover: Cover,
    prone: bool,
    near: bool,
    blocked: bool,
    attacker_blocked: bool,
    source: str,
    acts: bool,
    leader_limit: int | None = None,
) -> None:
    """``shots`` attacks in a row at ``target_id`` (and its unit), each rolled and applied."""
    for shot in range(1, shots + 1):
        attacker = ctx.state.models[attacker_id]
        if attacker.dead or (shot > 1 and attacker.stunned):
            return
        aimed = _aim(ctx, attacker, target_id, leader_limit)
        if aimed is None:
            return
        target = ctx.state.models[aimed]
        weapon = attacker.weapons[weapon_index]
        lying = target.prone or (prone and shot == 1)
        column, value, pw, counted = column_for(
            attacker, weapon, target, melee=melee, cover=cover, prone=lying, near=near
        )
        attack = resolve(ctx.rng, column, melee=melee, cavalry=False, bonus=weapon.row_bonus)
        odds = {} if ctx.probe else odds_fields(column, weapon.row_bonus)
        ctx.emit(
            "attacked",
            attacker=attacker_id,
            player=attacker.player,
            weapon=weapon_index,
            weapon_name=weapon.name,
            target=target.id,
            target_unit=target.unit,
            melee=melee,
            source=source,
            shot=shot,
            shots=shots,
            cover=cover.value,
            counted=counted.value,
            value=value,
            pw=pw,
            column=column,
            dice=list(attack.roll.dice),
            bonus=attack.roll.bonus,
            row=attack.roll.row,
            letter=attack.letter.value,
            acts=acts,
            **odds,
        )
        apply_outcome(
            ctx,
            attacker,
            weapon_index,
            ctx.state.models[target.id],
            attack.outcome,
            melee=melee,
            # Retreats: in melee the cover the target stands in; a shot: the cover it counts as
            # ("Liegende Ziele gelten ... in weicher Deckung als in harter Deckung").
            cover=cover if melee else effective_cover(cover, prone=lying, within_5cm=False),
            blocked=blocked,
            attacker_blocked=attacker_blocked,
        )
        if attack.letter in HITS:
            _hit_effects(ctx, weapon, target)
        if not melee and _jammed(ctx.state, attacker_id, weapon_index):
            return  # "A-Ergebnisse ... weitere Schüsse ... nicht erlaubt ... verklemmt"


def _hit_effects(ctx: Ctx, weapon: Weapon, target: Model) -> None:
    """A hit of a flamethrower sets the target burning; of a sonic rifle, a morale test."""
    if weapon.burns:
        care.ignite(ctx, target.id)
    if weapon.morale_test:
        panic.forced_test(ctx, target.unit, "sonic")


def _jammed(state: MatchState, attacker_id: int, weapon_index: int) -> bool:
    """The burst ends: the shooter is out, or its weapon has a fault (A or B)."""
    shooter = state.models[attacker_id]
    return shooter.dead or shooter.weapons[weapon_index].fault


@event("attacked")
def _attacked(state: MatchState, data: Data) -> MatchState:
    if data["acts"]:
        kind = "melee" if data["melee"] else "ranged"
        state = state.with_model(data["attacker"], acted=kind)
    struck = state.struck
    if data["target_unit"] not in struck:
        struck = (*struck, data["target_unit"])
    return replace(state, struck=struck)


def defensive_fire(ctx: Ctx, chargers: int, defenders: int) -> None:
    """ "so können alle Angehörigen der angegriffenen Einheit sofort und außer der Reihe ...
    einen Schuß auf die Angreifer abgeben, sofern sie über eine Waffe mit einem FKW verfügen
    und diese nicht in die Kategorie „Werfer“ fällt. Ausgenommen sind ... Modelle, deren Waffe
    ... eine Fehlfunktion hatte." Each able defender shoots once with its first such weapon, at
    the charging models in turn; a panicking unit does not shoot."""
    state = ctx.state
    if state.units[defenders].panic:
        return
    shooters = [m for m in state.living(defenders) if not m.stunned]
    turn = 0
    for shooter in shooters:
        index = next(
            (
                i
                for i, w in enumerate(shooter.weapons)
                if w.ranged and w.type != "launcher" and not w.fault
            ),
            None,
        )
        targets = ctx.state.living(chargers)
        if index is None or not targets or ctx.state.models[shooter.id].dead:
            continue
        markers.reveal(ctx, defenders, "fired")
        target = targets[turn % len(targets)]
        turn += 1
        fire_at(
            ctx,
            shooter.id,
            index,
            target.id,
            shots=1,
            melee=False,
            cover=Cover.OPEN,
            prone=False,
            near=False,
            blocked=False,
            attacker_blocked=False,
            source="defensive",
            acts=False,
        )
