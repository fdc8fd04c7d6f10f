"""The Deathmatch attack wizard: a ranged or melee attack, a charge, a reaction from readiness
or a disengage, with the modifiers as toggles and the exact odds per target from the player's
deck. Each weapon and each target carries the engine's verdict on the attack it would send."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from apps.systems.core.buttons import Button, Field, Offers
from apps.systems.core.deck import MAX_MODIFIER
from apps.systems.core.distributions import fraction_text
from apps.systems.core.match import Command
from apps.systems.deathmatch.catalog import WeaponKind
from apps.systems.deathmatch.match import combat
from apps.systems.deathmatch.match.odds import attack_odds
from apps.systems.deathmatch.match.rules_text import weapon_rules
from apps.systems.deathmatch.match.state import MatchState, Unit
from apps.systems.deathmatch.match.tracker.activation import quiet
from apps.systems.deathmatch.match.tracker.models import (
    TargetPreview,
    WeaponChoice,
    Wizard,
    WizardInput,
)
from apps.systems.deathmatch.match.tracker.units import unit_view, weapon_line
from apps.systems.deathmatch.match.tracker.wizard_query import situation_args
from apps.systems.deathmatch.match.units import unit_weapons

COMMANDS: Final = {
    "ranged": "ranged_attack",
    "melee": "melee_attack",
    "charge": "charge",
    "react_ranged": "react",
    "react_melee": "react",
}


def _attacker(state: MatchState, request: WizardInput) -> Unit | None:
    """The attacking model: the activated one, or the reacting one (an enemy of it)."""
    if state.active is None:
        return None
    if not request.kind.startswith("react_"):
        return state.unit(state.active)
    if request.reactor is None or not 0 <= request.reactor < len(state.units):
        return None
    reactor = state.unit(request.reactor)
    if not reactor.readiness or reactor.player == state.unit(state.active).player:
        return None
    return reactor


def _fixed(request: WizardInput, attacker: Unit, weapon: int) -> dict[str, Any]:
    """The arguments the wizard's form sends whatever the target."""
    fixed: dict[str, Any] = {"weapon": weapon}
    if request.kind.startswith("react_"):
        ranged = request.kind == "react_ranged"
        fixed |= {"unit": attacker.id, "action": "ranged_attack" if ranged else "melee_attack"}
    return fixed


def _target_command(
    request: WizardInput, attacker: Unit, weapon: int, target: int, *, ranged: bool
) -> Command:
    args = {"unit": target, **situation_args(request.situation)}
    if ranged and request.in_the_way:
        args["interferers"] = sorted(request.in_the_way)
    fixed = _fixed(request, attacker, weapon)
    return Command(COMMANDS[request.kind], {**fixed, "targets": [args], "confirm_flips": True})


def _weapon_choices(
    state: MatchState, request: WizardInput, attacker: Unit, offers: Offers, ranged: bool
) -> tuple[WeaponChoice, ...]:
    kind = WeaponKind.RANGED if ranged else WeaponKind.MELEE
    choices = []
    for index, weapon in enumerate(unit_weapons(attacker)):
        if weapon.kind is not kind:
            continue
        attacks = (
            _target_command(request, attacker, index, target.id, ranged=ranged)
            for target in state.units
            if target.in_play and target.id != attacker.id
        )
        extra = {"reactor": attacker.id} if request.kind.startswith("react_") else {}
        button = offers.wizard(
            request.kind, weapon.name, choices=attacks, args={"weapon": index, **extra}
        )
        choices.append(WeaponChoice(weapon_line(attacker, index, weapon), button))
    return tuple(choices)


def _chosen_weapon(request: WizardInput, choices: tuple[WeaponChoice, ...]) -> int:
    """The weapon asked for if it can attack now, else the first that can (a shooter that just
    stepped into a control zone switches to its Handwaffe)."""
    ready = [c.line.index for c in choices if c.usable]
    indices = [c.line.index for c in choices]
    if request.weapon in ready:
        return request.weapon
    if ready:
        return ready[0]
    return request.weapon if request.weapon in indices else indices[0]


def _odds(
    state: MatchState,
    attacker: Unit,
    target: Unit,
    modifier: int,
    value: int,
    reflex: int,
    *,
    ranged: bool,
) -> tuple[str, str, str, str]:
    if not ranged and target.stationary:
        return "1/1", "0/1", "0/1", "0/1"
    odds = attack_odds(state.player(attacker.player).deck, modifier, value, reflex)
    return (
        fraction_text(odds.hit),
        fraction_text(odds.graze),
        fraction_text(odds.miss + odds.fail),
        fraction_text(odds.critical),
    )


def _preview(
    state: MatchState,
    request: WizardInput,
    attacker: Unit,
    target: Unit,
    weapon: int,
    button: Button,
    selected: int | None,
    offers: Offers,
) -> TargetPreview:
    ranged = request.kind in ("ranged", "react_ranged")
    reflex = combat.target_reflex(
        attacker, target, request.situation, ranged=ranged, aimed=ranged and attacker.aim
    )
    value = (
        combat.attack_value(attacker, weapon).value
        if weapon < len(attacker.weapons)
        else unit_weapons(attacker)[weapon].combat_value
    )
    modifier = _modifier(attacker, weapon, ranged=ranged)
    hit, graze, miss, critical = _odds(
        state, attacker, target, modifier, value, reflex.value, ranged=ranged
    )
    return TargetPreview(
        unit=unit_view(state, target, selected, offers),
        reflex=reflex.value,
        attack_value=value,
        hit=hit,
        graze=graze,
        miss=miss,
        critical=critical,
        notes=reflex.notes,
        button=button,
    )


def _modifier(attacker: Unit, weapon: int, *, ranged: bool) -> int:
    bonus = unit_weapons(attacker)[weapon].bonus_cards + int(ranged and attacker.aim)
    return max(-MAX_MODIFIER, min(MAX_MODIFIER, bonus))


def _candidates(state: MatchState, request: WizardInput, attacker: Unit) -> list[Unit]:
    """The models the wizard may name: the activated enemy for a reaction, else every other
    model in play (the engine refuses the ones this attack cannot touch)."""
    if request.kind.startswith("react_"):
        assert state.active is not None
        return [state.unit(state.active)]
    return [u for u in state.units if u.in_play and u.id != attacker.id]


def _bystanders(candidates: Iterable[Unit], state: MatchState, attacker: Unit) -> list[Unit]:
    """Models that may stand in the line of fire: every other model in play but the shooter and
    a reaction's only target."""
    only = [u.id for u in candidates]
    return [
        u
        for u in state.units
        if u.in_play and u.id != attacker.id and not (len(only) == 1 and u.id == only[0])
    ]


def _cost(request: WizardInput, attacker: Unit, weapon: int) -> str:
    if request.kind.startswith("react"):
        return "0 AP"
    unwieldy = weapon_rules(unit_weapons(attacker)[weapon]).unwieldy
    return "2 AP" if request.kind == "charge" or unwieldy else "1 AP"


def _targets(
    state: MatchState,
    request: WizardInput,
    attacker: Unit,
    weapon: int,
    several: bool,
    selected: int | None,
    offers: Offers,
) -> tuple[tuple[TargetPreview, ...], tuple[Unit, ...], tuple[int, ...]]:
    ranged = request.kind in ("ranged", "react_ranged")
    candidates = _candidates(state, request, attacker)
    bystanders = _bystanders(candidates, state, attacker) if ranged and not several else []
    in_the_way = tuple(u.id for u in bystanders if u.id in request.in_the_way)
    previews = []
    for target in candidates:
        if target.id in in_the_way:
            continue
        command = _target_command(request, attacker, weapon, target.id, ranged=ranged)
        button = offers.command(
            command.type,
            "%(name)s",
            params={"name": target.name},
            form=command.args,
        )
        if button.code == "friendly_target":
            continue  # a friend is offered only to attacks that can touch one
        previews.append(
            _preview(state, request, attacker, target, weapon, button, selected, offers)
        )
    return tuple(previews), tuple(bystanders), in_the_way


def wizard(
    state: MatchState, request: WizardInput, selected: int | None, offers: Offers
) -> Wizard | None:
    if not quiet(state):
        return None
    attacker = _attacker(state, request)
    if attacker is None:
        return None
    if request.kind == "disengage":
        return _disengage_wizard(state, attacker, request, selected, offers)
    ranged = request.kind in ("ranged", "react_ranged")
    weapons = _weapon_choices(state, request, attacker, offers, ranged)
    if not weapons:
        return None
    weapon = _chosen_weapon(request, weapons)
    several = ranged and weapon_rules(unit_weapons(attacker)[weapon]).several_targets
    targets, bystanders, in_the_way = _targets(
        state, request, attacker, weapon, several, selected, offers
    )
    fixed = tuple(
        Field(f"args.{key}:int" if isinstance(value, int) else f"args.{key}", str(value))
        for key, value in _fixed(request, attacker, weapon).items()
    )
    return Wizard(
        kind=request.kind,
        attacker=unit_view(state, attacker, selected, offers),
        weapons=weapons,
        weapon=weapon,
        several=several,
        targets=targets,
        situation=request.situation,
        ranged=ranged,
        cost=_cost(request, attacker, weapon),
        modifier=_modifier(attacker, weapon, ranged=ranged),
        command=COMMANDS[request.kind],
        fixed=fixed,
        bystanders=tuple(unit_view(state, u, selected, offers) for u in bystanders),
        in_the_way=in_the_way,
    )


def _disengage_wizard(
    state: MatchState, mover: Unit, request: WizardInput, selected: int | None, offers: Offers
) -> Wizard:
    """Every enemy that could strike the disengaging model, with the odds its strike stops it;
    each row is the disengage with that strike as the engine judges it."""
    reflex = combat.disengage_reflex(mover, request.situation)
    previews = []
    for striker in state.units:
        melee = [i for i, w in enumerate(striker.weapons) if w.kind is WeaponKind.MELEE]
        if striker.player == mover.player or not striker.in_play or striker.stationary or not melee:
            continue
        value = max(combat.attack_value(striker, i).value for i in melee)
        odds = attack_odds(state.player(striker.player).deck, 0, value, reflex.value)
        strike = {"striker": striker.id, **situation_args(request.situation)}
        button = offers.command(
            "disengage", "%(name)s", params={"name": striker.name}, form={"strikes": [strike]}
        )
        previews.append(
            TargetPreview(
                unit=unit_view(state, striker, selected, offers),
                reflex=reflex.value,
                attack_value=value,
                hit=fraction_text(odds.hit + odds.graze),
                graze="0/1",
                miss=fraction_text(odds.miss + odds.fail),
                critical=fraction_text(odds.critical),
                notes=reflex.notes,
                button=button,
            )
        )
    return Wizard(
        kind="disengage",
        attacker=unit_view(state, mover, selected, offers),
        weapons=(),
        weapon=0,
        several=True,
        targets=tuple(previews),
        situation=request.situation,
        ranged=False,
        cost="1 AP",
        modifier=0,
        command="disengage",
    )
