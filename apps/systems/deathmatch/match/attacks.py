"""Attacks (SPEC §1.5): ranged, melee and charges with their modifiers, hit and wound flips with
criticals and grazes, models in the way, area and spray attacks, automatic hits, disengage
strikes, and the rerolls and accepting that continue a waiting flip.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from apps.systems.core.deck import MAX_MODIFIER, Flip, draw, flip, reroll
from apps.systems.core.distributions import fraction_text
from apps.systems.core.match import Args
from apps.systems.deathmatch.catalog import Weapon, WeaponKind
from apps.systems.deathmatch.match import combat, outcomes, rounds, values
from apps.systems.deathmatch.match.context import (
    Ctx,
    active_unit,
    can_reroll,
    command,
    lose_bonuses,
    no_flip_waiting,
    refuse,
    seat_order,
    spend_ap,
    spend_cp,
    unit_arg,
)
from apps.systems.deathmatch.match.modes import ObjectiveKind
from apps.systems.deathmatch.match.odds import attack_odds, wound_odds
from apps.systems.deathmatch.match.rules_text import WeaponRules, weapon_rules
from apps.systems.deathmatch.match.serial import dump
from apps.systems.deathmatch.match.state import (
    MAX_MARKERS,
    MAX_REROLLS_PER_FLIP,
    Attack,
    AttackKind,
    Disengage,
    FlipPurpose,
    Marker,
    MatchState,
    Outcome,
    PendingFlip,
    Phase,
    Target,
    Then,
    Unit,
    UnitKind,
)
from apps.systems.deathmatch.match.units import unit_weapons


@command("ranged_attack")
def _ranged_attack(ctx: Ctx, args: Args) -> None:
    unit = active_unit(ctx, args)
    declare_attack(ctx, unit, args, AttackKind.RANGED, args.objects("targets"), reaction=False)


@command("melee_attack")
def _melee_attack(ctx: Ctx, args: Args) -> None:
    unit = active_unit(ctx, args)
    declare_attack(
        ctx, unit, args, AttackKind.MELEE, args.objects("targets", most=1), reaction=False
    )


@command("charge")
def _charge(ctx: Ctx, args: Args) -> None:
    """Sturmangriff (2 AP): move +1" towards the target, then a free melee attack whose wound
    flip is boosted on a hit."""
    unit = active_unit(ctx, args)
    if unit.stationary:
        raise refuse("stationary", f"{unit.name} is stationary and cannot charge.")
    # The charge moves the model before it strikes: a fall or dangerous terrain on the way
    # hurts it first (reference: Where the app decides).
    fall, dangerous = move_hazards(args)
    declare_attack(
        ctx,
        unit,
        args,
        AttackKind.CHARGE,
        args.objects("targets", most=1),
        reaction=False,
        hazards=hazard_hits(fall, dangerous),
    )


def _situation(args: Args) -> combat.Situation:
    return combat.Situation(
        cover=args.text("cover", "none", choices=("none", "cover", "hard")),
        target_elevated=args.boolean("target_elevated"),
        attacker_elevated=args.boolean("attacker_elevated"),
        rear=args.boolean("rear"),
        target_in_melee=args.boolean("target_in_melee"),
        attacker_in_melee=args.boolean("attacker_in_melee"),
        obstacle=args.boolean("obstacle"),
        several_enemies=args.boolean("several_enemies"),
        warning=args.boolean("warning"),
        friends_engaged=args.boolean("friends_engaged"),
        not_in_contact=args.boolean("not_in_contact"),
    )


@dataclass(frozen=True)
class _Armed:
    """The weapon an attack is made with, as the attacker holds it."""

    index: int
    weapon: Weapon
    rules: WeaponRules
    ranged: bool
    aimed: bool


def _armed(attacker: Unit, args: Args, kind: AttackKind, *, reaction: bool) -> _Armed:
    """The weapon the command names, refused if it cannot make this attack now."""
    weapons = unit_weapons(attacker)
    index = args.integer("weapon", 0, lo=0, hi=len(weapons) - 1)
    weapon = weapons[index]
    rules = weapon_rules(weapon)
    ranged = kind is AttackKind.RANGED
    if ranged != (weapon.kind is WeaponKind.RANGED):
        wanted = "ranged" if ranged else "melee"
        raise refuse("wrong_weapon", f"{weapon.name} is not a {wanted} weapon.")
    if ranged and index < len(attacker.ammo) and attacker.ammo[index] == 0:
        raise refuse("out_of_ammo", f"{weapon.name} has no ammunition left (Limitiert).")
    if reaction and rules.unwieldy:
        raise refuse("unwieldy_reaction", f"{weapon.name} is schwerfällig: not in readiness.")
    return _Armed(index, weapon, rules, ranged, aimed=ranged and attacker.aim)


def _pay_warning(ctx: Ctx, victim: Unit, armed: _Armed, warned: set[int]) -> None:
    """Warnung: the defender's player pays 1 ◆ for +1 Reflex, once per attack and player."""
    if not armed.ranged and victim.stationary:
        raise refuse(
            "warning_no_hit_flip",
            f"{victim.name} is hit automatically in melee: there is no hit flip to warn.",
        )
    if not victim.team_member:
        raise refuse(
            "warning_team_only",
            f"{victim.name} is not a team fighter: no command point buys it a warning.",
        )
    if victim.player in warned:
        raise refuse("warning_once", "A warning is paid once per attack.")
    warned.add(victim.player)
    spend_cp(ctx, victim.player, 1, "warning")


def _check_target(attacker: Unit, victim: Unit, armed: _Armed, situation: combat.Situation) -> None:
    several = armed.ranged and armed.rules.several_targets
    if not victim.in_play or victim.id == attacker.id:
        raise refuse("bad_target", f"{victim.name} cannot be attacked.")
    if not several and victim.player == attacker.player:
        raise refuse("friendly_target", "Only area and spray attacks can touch your own models.")
    if armed.ranged and situation.attacker_in_melee and not armed.rules.sidearm:
        raise refuse(
            "shooting_in_melee",
            f"{attacker.name} stands in an enemy control zone: only a Handwaffe fires there.",
        )


def _declared_target(
    ctx: Ctx, attacker: Unit, armed: _Armed, target_arg: Args, warned: set[int]
) -> Target:
    """One target of the attack with its Reflex and the attack value against it."""
    victim = unit_arg(ctx, target_arg)
    situation = _situation(target_arg)
    _check_target(attacker, victim, armed, situation)
    if situation.warning:
        _pay_warning(ctx, victim, armed, warned)
    interferers: tuple[int, ...] = ()
    if armed.ranged:
        interferers = target_arg.ints("interferers", lo=-1, hi=len(ctx.state.units) - 1, most=6)
    _check_interferers(attacker, victim, situation, interferers)
    reflex = combat.target_reflex(
        attacker, victim, situation, ranged=armed.ranged, aimed=armed.aimed
    )
    own = armed.index < len(attacker.weapons)
    value = (
        combat.attack_value(attacker, armed.index)
        if own
        else combat.Modified(armed.weapon.combat_value, ())
    )
    hard_cover = armed.ranged and situation.cover == "hard"
    if armed.ranged and victim.shimmer:
        ctx.emit("shimmer_used", unit=victim.id)
    return Target(
        unit=victim.id,
        reflex=reflex.value,
        attack_value=value.value,
        resistance_bonus=combat.HARD_COVER_RESISTANCE if hard_cover else 0,
        reflex_notes=reflex.notes,
        interferers=interferers,
        auto_hit=not armed.ranged and victim.stationary,
    )


def _use_up(ctx: Ctx, attacker: Unit, armed: _Armed) -> None:
    """What the attack spends: a shot of a limited weapon, the Erlöser's shot, Durchschlag."""
    if armed.rules.ammo is not None and armed.ranged:
        ctx.emit("ammo_used", unit=attacker.id, weapon=armed.index)
    if armed.index >= len(attacker.weapons):
        ctx.emit("erloeser_fired", unit=attacker.id)
    if attacker.penetration:
        ctx.emit("penetration_used", unit=attacker.id, melee=not armed.ranged)


def declare_attack(
    ctx: Ctx,
    attacker: Unit,
    args: Args,
    kind: AttackKind,
    target_args: tuple[Args, ...],
    *,
    reaction: bool,
    hazards: list[tuple[str, int]] | None = None,
) -> None:
    """Declares the attack and flips for it. ``hazards`` (a charge's move): automatic hits on
    the attacker that come first; the attack waits in ``state.charge`` until they are done."""
    armed = _armed(attacker, args, kind, reaction=reaction)
    if not target_args:
        raise refuse("no_target", "Choose a target.")
    if len(target_args) > 1 and not (armed.ranged and armed.rules.several_targets):
        raise refuse("one_target", f"{armed.weapon.name} attacks one model at a time.")
    unwieldy = kind is AttackKind.CHARGE or armed.rules.unwieldy
    spend_ap(ctx, attacker, 0 if reaction else 2 if unwieldy else 1)
    power_strike = not armed.ranged and attacker.power_strike
    # The attack uses up the bonus it was prepared for and loses the other one.
    lose_bonuses(ctx, attacker)
    warned: set[int] = set()
    targets = tuple(_declared_target(ctx, attacker, armed, t, warned) for t in target_args)
    penetration = attacker.penetration
    _use_up(ctx, attacker, armed)
    hit_modifier = armed.weapon.bonus_cards + int(armed.aimed)
    attack = Attack(
        kind=kind,
        player=attacker.player,
        attacker=attacker.id,
        weapon=armed.weapon,
        weapon_index=armed.index,
        targets=targets,
        reaction=reaction,
        charge=kind is AttackKind.CHARGE,
        power_strike=power_strike,
        penetration=penetration,
        # Drones and defence systems get no command points: their flips cannot be rerolled.
        confirm=args.boolean("confirm_flips", True) and attacker.team_member,
        hit_modifier=max(-MAX_MODIFIER, min(MAX_MODIFIER, hit_modifier)),
    )
    if hazards:
        ctx.emit("charge_moved", attack=dump(attack))
        auto_hits(ctx, ctx.state.unit(attacker.id), hazards, then="charge")
        return
    _flip_for(ctx, attack)


def _flip_for(ctx: Ctx, attack: Attack) -> None:
    ctx.emit("attack_declared", attack=dump(attack))
    if all(t.auto_hit for t in attack.targets):
        _resolve_hit(ctx, None)
    else:
        _hit_flip(ctx)


def _go_on_with_charge(ctx: Ctx, charger: int) -> None:
    """After the charge's move: its attack, unless the move knocked the charger out (apply
    drops ``state.charge`` then, and lets a Wuchtschlag lapse if the move hurt it)."""
    charge = ctx.state.charge
    if charge is None:
        ctx.emit("charge_dropped", unit=charger)
        return
    _flip_for(ctx, charge)


def _check_interferers(
    attacker: Unit, victim: Unit, situation: combat.Situation, interferers: tuple[int, ...]
) -> None:
    """Models in the way give the target its cover (rulebook: Störende Modelle): without cover
    none of them can take the shot. Neither the target nor the shooter stands in its own way,
    and a model is named once (obstacles, -1, as often as there are)."""
    if not interferers:
        return
    if situation.cover == "none":
        raise refuse(
            "interferers_need_cover",
            "A model in the way gives the target cover: choose cover or hard cover.",
        )
    models = [i for i in interferers if i >= 0]
    if victim.id in models or attacker.id in models or len(set(models)) != len(models):
        raise refuse(
            "bad_interferer",
            "Name each model in the way once; the target and the shooter are not in the way.",
        )


def _hit_flip(ctx: Ctx) -> None:
    attack = ctx.state.attack
    assert attack is not None
    deck = ctx.state.player(attack.player).deck
    odds = [_attack_odds_row(deck, attack.hit_modifier, t) for t in attack.targets]
    flipped = flip(deck, attack.hit_modifier, ctx.rng)
    ctx.emit("hit_flipped", flip=dump(flipped), odds=odds)
    if attack.confirm and can_reroll(ctx.state, attack.player, flipped, 0):
        return
    _resolve_hit(ctx, None)


def _attack_odds_row(deck: Any, modifier: int, target: Target) -> dict[str, object]:
    odds = attack_odds(deck, modifier, target.attack_value, target.reflex)
    return {
        "unit": target.unit,
        "hit": fraction_text(odds.hit),
        "graze": fraction_text(odds.graze),
        "miss": fraction_text(odds.miss + odds.fail),
        "critical": fraction_text(odds.critical),
    }


def _resolve_hit(ctx: Ctx, auto_hits: int | None, each: tuple[int, ...] | None = None) -> None:
    """The hit flip against every target. The attacker spends each 9 on an automatic hit or a
    boosted wound flip, target by target (an area attack compares one flip with every model):
    ``each`` gives the automatic hits per target as chosen; ``auto_hits`` one number for every
    target; neither: the best choice (``combat.critical_split``, one rule for all three)."""
    attack = ctx.state.attack
    assert attack is not None
    results = []
    for index, target in enumerate(attack.targets):
        result: dict[str, object]
        if target.auto_hit or attack.hit_flip is None:
            result = {
                "unit": target.unit,
                "outcome": Outcome.HIT.value,
                "crits_auto_hit": 0,
                "crits_boost": 0,
                "automatic": True,
            }
        else:
            flipped = attack.hit_flip
            outcome = combat.hit_outcome(flipped, target.attack_value, target.reflex)
            wanted = each[index] if each is not None else auto_hits
            auto, boost = combat.critical_split(outcome, flipped.nines, wanted)
            final = combat.with_criticals(outcome, auto)
            result = {
                "unit": target.unit,
                "outcome": final.value,
                "crits_auto_hit": auto,
                "crits_boost": boost,
                "card": flipped.result,
                "attack_value": target.attack_value,
                "reflex": target.reflex,
                "chance": target.hit_odds,
            }
            if (
                final is Outcome.MISS
                and target.interferers
                and combat.near_miss_hits_interferer(flipped, target.attack_value, target.reflex)
            ):
                result["redirected_to"] = _interference(ctx, target)
        results.append(result)
    ctx.emit(
        "hit_resolved",
        attacker=attack.attacker,
        kind=attack.kind.value,
        cause=attack.cause,
        weapon=attack.weapon.name if attack.weapon else "",
        cards=list(attack.hit_flip.values) if attack.hit_flip else [],
        targets=results,
    )
    _next_wound(ctx)


def _interference(ctx: Ctx, target: Target) -> int | None:
    """A near-miss hits the model in the way. With several models/obstacles in the way the
    attacker draws a card for each, +2 for the one closest to the target; the highest is hit
    (a tie goes to the closer one; an obstacle takes the hit harmlessly)."""
    attack = ctx.state.attack
    assert attack is not None
    blockers = target.interferers
    if len(blockers) == 1:
        return blockers[0] if blockers[0] >= 0 else None
    deck = ctx.state.player(attack.player).deck
    cards = []
    for _ in blockers:
        drawn = draw(deck, ctx.rng)
        cards.append(drawn.card)
        deck = drawn.deck
    totals = [card + (2 if i == 0 else 0) for i, card in enumerate(cards)]
    chosen = blockers[totals.index(max(totals))]
    ctx.emit(
        "interference_flipped",
        player=attack.player,
        blockers=list(blockers),
        cards=cards,
        totals=totals,
        chosen=chosen,
        deck=dump(deck),
    )
    return chosen if chosen >= 0 else None


def _wound_victim(target: Target) -> int | None:
    if target.redirected_to is not None:
        return target.redirected_to
    if target.outcome in (Outcome.HIT, Outcome.GRAZE):
        return target.unit
    return None


def _next_wound(ctx: Ctx) -> None:
    """Wound flips target by target; stops where a player may reroll."""
    while True:
        attack = ctx.state.attack
        if attack is None:  # a knock-out ended the game
            return
        index = attack.current + 1
        if index >= len(attack.targets) or attack.kind is AttackKind.STRIKE:
            _finish_attack(ctx)
            return
        target = attack.targets[index]
        victim_id = _wound_victim(target)
        if victim_id is None or not ctx.state.unit(victim_id).in_play:
            ctx.emit("wound_skipped", target=index)
            continue
        flipped = _flip_wound(ctx, attack, index, ctx.state.unit(victim_id))
        if attack.confirm and can_reroll(ctx.state, attack.player, flipped, 0):
            return
        _apply_wound(ctx)


def _flip_wound(ctx: Ctx, attack: Attack, index: int, victim: Unit) -> Flip:
    """The wound flip against ``victim``, the model the target's hit lands on."""
    target = attack.targets[index]
    redirected = target.redirected_to is not None
    outcome = Outcome.HIT if redirected else target.outcome
    assert outcome is not None
    melee = attack.kind in (AttackKind.MELEE, AttackKind.CHARGE)
    strength = (
        combat.strength(
            attack.weapon, power_strike=attack.power_strike, penetration=attack.penetration
        )
        if attack.weapon is not None
        else target.strength
    )
    resistance = combat.resistance(
        victim,
        hard_cover=bool(target.resistance_bonus) and not redirected,
        core_bonus=_core_bonus(ctx.state, victim),
        against=_ATTACK_KINDS.get(attack.kind, ""),
    )
    modifier = combat.wound_modifier(
        outcome=outcome,
        crit_boosts=0 if redirected else target.crits_boost,
        charge=attack.charge,
        power_strike=attack.power_strike and melee,
        stationary_in_melee=melee and victim.stationary,
        target=victim,
    )
    deck = ctx.state.player(attack.player).deck
    odds = wound_odds(deck, modifier, strength, resistance, victim.lp)
    flipped = flip(deck, modifier, ctx.rng)
    ctx.emit(
        "wound_flipped",
        target=index,
        victim=victim.id,
        flip=dump(flipped),
        strength=strength,
        resistance=resistance,
        odds={
            "knock_out": fraction_text(odds.knock_out),
            "expected": fraction_text(odds.expected),
            "damage": {str(d): fraction_text(p) for d, p in odds.damage.items()},
        },
    )
    return flipped


# What an attack is for the profile changes that count only against one kind of attack; an
# automatic hit (a fall, fire) is neither.
_ATTACK_KINDS = {
    AttackKind.RANGED: values.RANGED,
    AttackKind.MELEE: values.MELEE,
    AttackKind.CHARGE: values.MELEE,
}


def _core_bonus(state: MatchState, victim: Unit) -> int:
    """Onslaught: +1 Resistance to a core for each switch its owner controls."""
    if victim.kind is not UnitKind.CORE:
        return 0
    return sum(
        1
        for o in state.objectives
        if o.kind == ObjectiveKind.SWITCH.value and o.owner == victim.player
    )


def _apply_wound(ctx: Ctx) -> None:
    attack = ctx.state.attack
    assert attack is not None
    index = attack.current
    target = attack.targets[index]
    flipped = target.wound_flip
    assert flipped is not None
    victim_id = _wound_victim(target)
    assert victim_id is not None
    victim = ctx.state.unit(victim_id)
    dealt = combat.damage(flipped.result, target.strength, target.resistance)
    ctx.emit(
        "wounded",
        unit=victim.id,
        target=index,
        damage=dealt,
        card=flipped.result,
        strength=target.strength,
        resistance=target.resistance,
        lp=max(0, victim.lp - dealt),
        lp_before=victim.lp,
        shield_used=victim.shields > 0,
    )
    if attack.weapon is not None:
        _mark(ctx, attack, victim.id, dealt)
    if dealt > 0:
        lose_bonuses(ctx, ctx.state.unit(victim.id))
    if ctx.state.unit(victim.id).lp <= 0:
        outcomes.knock_out(
            ctx,
            victim.id,
            credit=_knock_out_credit(ctx.state, attack, victim),
            cause=attack.cause or "attack",
            by_unit=attack.attacker,
        )


def _mark(ctx: Ctx, attack: Attack, victim: int, dealt: int) -> None:
    """The weapon's markers on the wounded model (poison only when it did damage), up to the
    most a model carries; each credited to who caused it."""
    assert attack.weapon is not None
    rules = weapon_rules(attack.weapon)
    by = (
        attack.player
        if attack.attacker is not None
        else (attack.credit[0] if len(attack.credit) == 1 else None)
    )
    for marker, present in (
        ("fire", rules.fire),
        ("shock", rules.shock),
        ("acid", rules.acid),
        ("poison", rules.poison and dealt > 0),
    ):
        if present and ctx.state.unit(victim).markers.count(Marker(marker)) < MAX_MARKERS:
            ctx.emit("marker_added", unit=victim, marker=marker, by=by)


def _knock_out_credit(state: MatchState, attack: Attack, victim: Unit) -> tuple[int, ...]:
    """Who scores the knock-out: whoever caused an automatic hit, the opponents for a model
    hit by its own side, else the attacker's player."""
    if attack.attacker is None:
        return attack.credit
    if victim.player == attack.player:
        return state.opponents(victim.player)
    return (attack.player,)


def _finish_attack(ctx: Ctx) -> None:
    attack = ctx.state.attack
    assert attack is not None
    ctx.emit("attack_finished")
    if ctx.state.phase is Phase.OVER:
        return
    if attack.queued_hits:
        # The next automatic hits on the same model, then what follows.
        unit = ctx.state.unit(attack.targets[0].unit)
        if attack.then == "charge" and ctx.state.charge is None:
            _go_on_with_charge(ctx, unit.id)  # knocked out on the way: no more hazards
        elif unit.in_play:
            auto_hits(ctx, unit, list(attack.queued_hits), then=attack.then)
        elif attack.then == "charge":
            _go_on_with_charge(ctx, unit.id)
    elif attack.then == "end_activation" and attack.targets:
        rounds.finish_activation(ctx, attack.targets[0].unit)
    elif attack.then == "charge":
        _go_on_with_charge(ctx, attack.targets[0].unit)


def auto_hits(
    ctx: Ctx,
    unit: Unit,
    hits: list[tuple[str, int]],
    *,
    then: Then,
    credit: tuple[int, ...] | None = None,
) -> None:
    """Automatic hits (fire, a fall, dangerous terrain): no hit flip, a wound flip of the given
    strength. A self-inflicted knock-out is credited to the opponents; fire to the team that
    set it. The flipping player is the credited one, else the next opponent."""
    if not hits:
        if then == "end_activation":
            rounds.finish_activation(ctx, unit.id)
        return
    (cause, strength), rest = hits[0], hits[1:]
    if credit is None:
        credit = ctx.state.opponents(unit.player)
    flipper = credit[0] if credit else seat_order(ctx.state, unit.player)[1]
    attack = Attack(
        kind=AttackKind.AUTO,
        player=flipper,
        attacker=None,
        weapon=None,
        weapon_index=None,
        targets=(
            Target(
                unit=unit.id,
                reflex=0,
                attack_value=0,
                auto_hit=True,
                strength=strength,
            ),
        ),
        cause=cause,
        credit=tuple(credit),
        queued_hits=tuple(rest),
        then=then,
    )
    ctx.emit("attack_declared", attack=dump(attack))
    _resolve_hit(ctx, None)


def move_hazards(args: Args) -> tuple[int, bool]:
    """(height of a harmful fall or 0, dangerous terrain touched) as the players report a move:
    a fall hurts from more than 2", a deliberate jump down from more than 3"."""
    fall = args.integer("fall_height", 0, lo=0, hi=50)
    jumped = args.boolean("jumped_down")
    return (fall if fall > (3 if jumped else 2) else 0), args.boolean("dangerous_terrain")


def hazard_hits(fall: int, dangerous: bool) -> list[tuple[str, int]]:
    """The automatic hits at the end of a move: S = the fall's height, S 2 for dangerous
    terrain."""
    hits = []
    if fall:
        hits.append(("fall", fall))
    if dangerous:
        hits.append(("dangerous_terrain", 2))
    return hits


@command("auto_hit")
def _auto_hit(ctx: Ctx, args: Args) -> None:
    """An automatic hit the tracker does not model itself (a fall after Rückstoß, a card
    effect): S as given; credit to the player named, else to the opponents."""
    no_flip_waiting(ctx)
    if ctx.state.phase in (Phase.SETUP, Phase.OVER):
        raise refuse("not_now", "Automatic hits happen during a round.")
    unit = unit_arg(ctx, args)
    if not unit.in_play:
        raise refuse("bad_target", f"{unit.name} is not in play.")
    strength = args.integer("strength", lo=0, hi=20)
    cause = args.text("cause", "effect", choices=("fall", "dangerous_terrain", "effect"))
    credited = args.optional_int("credit", lo=0, hi=len(ctx.state.players) - 1)
    credit = (credited,) if credited is not None else None
    auto_hits(ctx, unit, [(cause, strength)], then="", credit=credit)


@command("reroll")
def _reroll(ctx: Ctx, args: Args) -> None:
    """All rerolls of one player on a flip are declared at once (SPEC §1.3): the procedure goes
    on with the new cards; an attack's hit flip takes ``critical_auto_hits`` as ``accept`` does."""
    positions = args.ints("positions", lo=0, hi=2, most=3)
    if not positions:
        raise refuse("reroll_nothing", "Name the cards to reroll.")
    state = ctx.state
    if state.attack is not None:
        _reroll_attack(ctx, args, state.attack, positions)
    elif state.disengage is not None:
        _reroll_strike(ctx, args, state.disengage, positions)
    elif state.pending is not None:
        _reroll_pending(ctx, args, state.pending, positions)
    elif state.open_free_flip is not None and state.free_flip is not None:
        _reroll_free_flip(ctx, args, state.open_free_flip, state.free_flip, positions)
    else:
        raise refuse("nothing_to_reroll", "There is no flip to reroll.")


def _reroll_attack(ctx: Ctx, args: Args, attack: Attack, positions: tuple[int, ...]) -> None:
    _flip_owner(args, attack.player)
    if _hit_pending(attack):
        flipped, used, purpose = attack.hit_flip, attack.hit_rerolls, FlipPurpose.HIT
    else:
        target = attack.targets[attack.current]
        flipped, used, purpose = target.wound_flip, target.wound_rerolls, FlipPurpose.WOUND
    assert flipped is not None
    _reroll_cards(ctx, attack.player, flipped, used, positions, purpose, cost=1)
    _accept_attack(ctx, args)


def _reroll_strike(ctx: Ctx, args: Args, d: Disengage, positions: tuple[int, ...]) -> None:
    striker = ctx.state.unit(d.strikes[d.current].unit)
    _flip_owner(args, striker.player)
    flipped = d.flips[d.current]
    assert flipped is not None
    _reroll_cards(
        ctx, striker.player, flipped, d.rerolls[d.current], positions, FlipPurpose.STRIKE, cost=1
    )
    _next_strike(ctx, d.current + 1)


def _reroll_pending(ctx: Ctx, args: Args, pending: PendingFlip, positions: tuple[int, ...]) -> None:
    """An initiative (or deployment) flip: the deciding player rerolls, the first initiative
    reroll of a player who may have it for free costs nothing."""
    state = ctx.state
    if not pending.deciders:
        raise refuse("not_now", "Nobody may reroll now.")
    player = pending.deciders[0]
    if args.has("player") and args.integer("player", lo=0) != player:
        raise refuse("not_your_decision", f"{state.player(player).name} decides first.")
    slot = pending.players.index(player)
    flipped = pending.flips[slot]
    assert flipped is not None
    free = pending.purpose is FlipPurpose.INITIATIVE and rounds.free_initiative_reroll(
        state, player
    )
    _reroll_cards(
        ctx,
        player,
        flipped,
        pending.rerolls[slot],
        positions,
        pending.purpose,
        cost=0 if free else 1,
    )
    if free:
        ctx.emit("free_reroll_used", player=player)
    ctx.emit("reroll_decided", player=player)
    _after_pending_decision(ctx)


def _reroll_free_flip(
    ctx: Ctx, args: Args, player: int, flipped: Flip, positions: tuple[int, ...]
) -> None:
    if args.has("player") and args.integer("player", lo=0) != player:
        raise refuse("not_your_flip", "Only the player who flipped rerolls their cards.")
    used = ctx.state.free_flip_rerolls
    _reroll_cards(ctx, player, flipped, used, positions, FlipPurpose.FREE, cost=1)
    ctx.emit("free_flip_closed")


def _flip_owner(args: Args, player: int) -> None:
    """A player rerolls or accepts only their own flip (``player`` is checked if given)."""
    if args.has("player") and args.integer("player", lo=0) != player:
        raise refuse("not_your_flip", "Only the player who flipped rerolls their cards.")


def _hit_pending(attack: Attack) -> bool:
    return attack.hit_flip is not None and attack.stage is FlipPurpose.HIT


def _reroll_cards(
    ctx: Ctx,
    player: int,
    flipped: Flip,
    used: int,
    positions: tuple[int, ...],
    purpose: FlipPurpose,
    *,
    cost: int,
) -> None:
    if used + len(positions) > MAX_REROLLS_PER_FLIP:
        raise refuse(
            "reroll_limit", f"At most {MAX_REROLLS_PER_FLIP} cards of one flip can be rerolled."
        )
    # The new cards come from the deck as it lies now: after an undo it may have moved on from
    # the deck the flip left (seen cards stay seen, SPEC §6).
    on_top = replace(flipped, deck=ctx.state.player(player).deck)
    rerolled = reroll(on_top, positions, ctx.rng)  # refuses a 0, a card twice, a bad position
    if cost:
        spend_cp(ctx, player, cost * len(positions), "reroll")
    ctx.emit(
        "flip_rerolled",
        player=player,
        purpose=purpose.value,
        positions=list(positions),
        count=len(positions),
        flip=dump(rerolled),
    )


@command("accept")
def _accept(ctx: Ctx, args: Args) -> None:
    state = ctx.state
    if state.attack is not None:
        _flip_owner(args, state.attack.player)
        _accept_attack(ctx, args)
    elif state.disengage is not None:
        d = state.disengage
        _flip_owner(args, ctx.state.unit(d.strikes[d.current].unit).player)
        _next_strike(ctx, d.current + 1)
    elif state.pending is not None:
        pending = state.pending
        if not pending.deciders:
            raise refuse("not_now", "Nothing to accept.")
        player = pending.deciders[0]
        if args.has("player") and args.integer("player", lo=0) != player:
            raise refuse("not_your_decision", f"{state.player(player).name} decides first.")
        ctx.emit("reroll_decided", player=player)
        _after_pending_decision(ctx)
    elif state.open_free_flip is not None:
        ctx.emit("free_flip_closed")
    else:
        raise refuse("nothing_to_accept", "There is no flip waiting.")


def _accept_attack(ctx: Ctx, args: Args) -> None:
    attack = ctx.state.attack
    assert attack is not None
    if _hit_pending(attack):
        auto = args.optional_int("critical_auto_hits", lo=0, hi=3)
        each = args.ints("critical_auto_hits_per_target", lo=0, hi=3, most=len(attack.targets))
        if each and len(each) != len(attack.targets):
            raise refuse(
                "critical_choices", "Choose the use of the 9s for every target of the attack."
            )
        _resolve_hit(ctx, auto, each or None)
    else:
        _apply_wound(ctx)
        if ctx.state.phase is not Phase.OVER and ctx.state.attack is not None:
            _next_wound(ctx)


def _after_pending_decision(ctx: Ctx) -> None:
    pending = ctx.state.pending
    assert pending is not None
    # A decider whose card became a 0 or who has no CP left has nothing more to decide.
    while pending.deciders:
        player = pending.deciders[0]
        slot = pending.players.index(player)
        flipped = pending.flips[slot]
        assert flipped is not None
        free = pending.purpose is FlipPurpose.INITIATIVE and rounds.free_initiative_reroll(
            ctx.state, player
        )
        if (free or ctx.state.player(player).cp >= 1) and any(
            not c.rerolled and c.value != 0 for c in flipped.cards
        ):
            return
        ctx.emit("reroll_decided", player=player)
        pending = ctx.state.pending
        assert pending is not None
    rounds.resolve_initiative(ctx)


@command("disengage")
def _disengage(ctx: Ctx, args: Args) -> None:
    """Lösen: a move out of enemy control zones. Each enemy in whose zone it stands may strike
    first with one melee weapon: exactly one card, never boosted, no damage; a hit stops the
    move where it would leave the zone."""
    unit = active_unit(ctx, args)
    if unit.stationary:
        raise refuse("stationary", f"{unit.name} is stationary and cannot move.")
    strike_args = args.objects("strikes", most=8)
    fall, dangerous = move_hazards(args)
    spend_ap(ctx, unit, 1)
    lose_bonuses(ctx, unit)
    strikes = []
    seen: set[int] = set()
    for strike in strike_args:
        striker = unit_arg(ctx, strike, "striker")
        if striker.player == unit.player or not striker.in_play or striker.id in seen:
            raise refuse("bad_striker", f"{striker.name} cannot strike at {unit.name}.")
        if striker.stationary:
            raise refuse("bad_striker", f"{striker.name} is stationary: it has no control zone.")
        seen.add(striker.id)
        melee = [i for i, w in enumerate(striker.weapons) if w.kind is WeaponKind.MELEE]
        if not melee:
            raise refuse("bad_striker", f"{striker.name} has no melee weapon.")
        best = max(melee, key=lambda i: combat.attack_value(striker, i).value)
        weapon_index = strike.integer("weapon", best, lo=0, hi=len(striker.weapons) - 1)
        if weapon_index not in melee:
            raise refuse("wrong_weapon", "A disengage strike uses a melee weapon.")
        situation = _situation(strike)
        if situation.warning:
            if not unit.team_member:
                raise refuse(
                    "warning_team_only",
                    f"{unit.name} is not a team fighter: no command point buys it a warning.",
                )
            spend_cp(ctx, unit.player, 1, "warning")
        reflex = combat.disengage_reflex(unit, situation)
        strikes.append(
            Target(
                unit=striker.id,
                reflex=reflex.value,
                attack_value=combat.attack_value(striker, weapon_index).value,
                reflex_notes=reflex.notes,
            )
        )
    disengage = Disengage(
        unit=unit.id,
        strikes=tuple(strikes),
        flips=tuple(None for _ in strikes),
        rerolls=tuple(0 for _ in strikes),
        confirm=args.boolean("confirm_flips", True),
        fall=fall,
        dangerous=dangerous,
    )
    ctx.emit("disengage_declared", disengage=dump(disengage))
    _next_strike(ctx, 0)


def _strike_hits(flipped: Flip, attack_value: int, reflex: int) -> bool:
    """A strike stops the move unless it misses: a 0 fails, a 9 hits, equal counts as a hit
    (a flesh wound is a hit; the strike deals no damage either way)."""
    if flipped.result == 0:
        return False
    return flipped.nines > 0 or flipped.result + attack_value >= reflex


def _next_strike(ctx: Ctx, index: int) -> None:
    d = ctx.state.disengage
    assert d is not None
    while index < len(d.strikes):
        strike = d.strikes[index]
        striker = ctx.state.unit(strike.unit)
        deck = ctx.state.player(striker.player).deck
        odds = attack_odds(deck, 0, strike.attack_value, strike.reflex)
        flipped = flip(deck, 0, ctx.rng)
        ctx.emit(
            "strike_flipped",
            index=index,
            player=striker.player,
            striker=striker.id,
            flip=dump(flipped),
            hits=_strike_hits(flipped, strike.attack_value, strike.reflex),
            odds={"hit": fraction_text(odds.hit + odds.graze)},
        )
        if d.confirm and can_reroll(ctx.state, striker.player, flipped, 0):
            return
        index += 1
        d = ctx.state.disengage
        assert d is not None
    stopped = [
        s.unit
        for s, f in zip(d.strikes, d.flips, strict=True)
        if f is not None and _strike_hits(f, s.attack_value, s.reflex)
    ]
    ctx.emit("disengage_resolved", unit=d.unit, stopped=bool(stopped), by=stopped)
    # A stopped model stays where it meant to leave the zone; one that moves on may fall or
    # touch dangerous terrain like any move.
    mover = ctx.state.unit(d.unit)
    if not stopped and mover.in_play:
        auto_hits(ctx, mover, hazard_hits(d.fall, d.dangerous), then="")
