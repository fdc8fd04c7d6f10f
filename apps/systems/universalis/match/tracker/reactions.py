"""The selected model when it is not acting: the reactions the last action offers it (reaction
fire at an enemy that moved, a counter-attack, an opportunity attack), its camouflage, and the
table tools (an automatic hit, a fall, a hand correction). Which reactions are shown follows
the last action; whether the model may make one, and why not, is the engine's verdict."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from apps.systems.core.buttons import Button, NumberInput, Offers
from apps.systems.core.i18n import gettext_noop as _
from apps.systems.universalis.match import rules
from apps.systems.universalis.match.order import phase_group
from apps.systems.universalis.match.preview import melee_lines, melee_odds, shot_lines, shot_odds
from apps.systems.universalis.match.state import MAX_AP, MatchState, Phase, Unit
from apps.systems.universalis.match.tracker.attacks import DISTANCE, melee_weapons, weapon_label
from apps.systems.universalis.match.tracker.due import blocked
from apps.systems.universalis.match.tracker.forms import (
    choice,
    first_accepted,
    read_choice,
    read_flag,
    read_int,
    refused,
    unit_form,
)
from apps.systems.universalis.match.tracker.models import FireForm, Reactions, StrikeForm
from apps.systems.universalis.match.tracker.rerolls import (
    read_rerolls,
    reroll_fields,
    weapon_effects,
)
from apps.systems.universalis.match.tracker.units import unit_view


def _fire_form(
    state: MatchState, unit: Unit, mover: Unit, params: Mapping[str, str], offers: Offers
) -> FireForm:
    """Reaktionsfeuer at the mover with the weapon of its fire readiness: all 1 + DF shots go
    to the mover (14.12), as the engine fires them."""
    assert unit.readiness is not None
    button = offers.command(
        "reaction_fire",
        _("Reaction fire (−1)"),
        args={"unit": unit.id},
        form={"target": {"distance": DISTANCE, "cover": "none"}},
    )
    form = unit_form(params, "reaction_fire", unit)
    weapon = unit.card.weapons[unit.readiness]
    odds = shot_odds(
        state,
        unit,
        unit.readiness,
        mover,
        mode="reaction",
        distance=read_int(form, "args.target.distance:int", DISTANCE, 0, 500),
        cover=read_choice(form, "args.target.cover", rules.COVERS, "none"),
        touching=read_flag(form, "args.target.touching:bool"),
        count=1 if weapon.area else 1 + weapon.df,
        rerolls=read_rerolls(form),
    )
    return FireForm(
        button,
        DISTANCE,
        refused(odds) if isinstance(odds, str) else shot_lines(odds),
        reroll_fields(weapon.effects, (mover,)),
    )


def _strike_form(
    state: MatchState,
    unit: Unit,
    command: str,
    enemy: Unit,
    params: Mapping[str, str],
    offers: Offers,
) -> StrikeForm | None:
    """A counter-attack on the attacker, or an opportunity attack on the model disengaging;
    its enemy fights with NK 0 after a lost reckless attack, and when disengaging."""
    weapons = melee_weapons(unit)
    if not weapons:
        return None

    def strike(weapon: int) -> dict[str, Any]:
        return {"unit": unit.id, "friends": 0, "weapon": weapon}

    weapon = first_accepted(offers, command, [strike(w) for w in weapons])["weapon"]
    label = _("Counter-attack") if command == "counter_attack" else _("Opportunity attack")
    button = offers.command(
        command,
        label,
        args={"unit": unit.id},
        form={"weapon": weapon},
        inputs=(NumberInput("args.friends:int", _("Other friends touching it"), 0, 0, 8),),
    )
    last = state.last_action
    assert last is not None
    form = unit_form(params, command, unit)
    odds = melee_odds(
        state,
        unit,
        enemy,
        read_int(form, "args.weapon:int", weapon, -1, 20),
        friends=read_int(form, "args.friends:int", 0, 0, 8),
        defender_zero=command == "opportunity_attack" or last.reckless_lost,
        rerolls=read_rerolls(form),
    )
    return StrikeForm(
        button=button,
        weapons=tuple(
            choice(offers, command, w, weapon_label(unit, w), [strike(w)], asked=button.enabled)
            for w in weapons
        ),
        weapon=weapon,
        preview=refused(odds) if isinstance(odds, str) else melee_lines(odds),
        rerolls=reroll_fields(weapon_effects(unit, weapons), (enemy,)),
    )


def _answers(
    state: MatchState, unit: Unit, params: Mapping[str, str], offers: Offers
) -> tuple[FireForm | None, StrikeForm | None]:
    """The reactions the last action offers ``unit``: an enemy's move or disengage (reaction
    fire from readiness, an opportunity attack), a melee attack on it (a counter-attack)."""
    last = state.last_action
    if last is None:
        return None, None
    actor = state.units[last.unit]
    fire = strike = None
    enemy_moved = last.kind in ("move", "disengage") and actor.player != unit.player
    if enemy_moved and unit.readiness is not None:
        fire = _fire_form(state, unit, actor, params, offers)
    if last.kind == "melee" and last.target == unit.id:
        strike = _strike_form(state, unit, "counter_attack", actor, params, offers)
    elif last.kind == "disengage" and actor.player != unit.player:
        strike = _strike_form(state, unit, "opportunity_attack", actor, params, offers)
    return fire, strike


def _camouflage(unit: Unit, offers: Offers) -> Button | None:
    """The table says a camouflaged model lost its camouflage, or has it again (16.1)."""
    if unit.card.camouflage is None:
        return None
    label = _("Camouflage lost") if unit.camouflaged else _("Camouflaged again")
    return offers.command(
        "camouflage", label, args={"unit": unit.id, "hidden": not unit.camouflaged}
    )


def _contact(state: MatchState, unit: Unit, offers: Offers) -> tuple[Button, ...]:
    """Base contact with each enemy in play as the table sees it (15): a melee begins (a push
    into other enemies) or ends (the defender pushed its attacker back)."""
    buttons = []
    for enemy in state.units:
        if enemy.player == unit.player or not enemy.in_play:
            continue
        touching = enemy.id not in unit.engaged
        label = (
            _("In base contact with %(name)s")
            if touching
            else _("No longer in base contact with %(name)s")
        )
        buttons.append(
            offers.command(
                "contact",
                label,
                params={"name": enemy.name},
                args={"unit": unit.id, "other": enemy.id, "touching": touching},
            )
        )
    return tuple(buttons)


def reactions(
    state: MatchState,
    selected: Unit | None,
    params: Mapping[str, str],
    offers: Offers,
) -> Reactions | None:
    """The selected model's panel while an initiative phase runs and it does not act in it."""
    unit = selected
    if unit is None or state.phase is not Phase.ACTING or not unit.in_play or blocked(state):
        return None
    if state.active is not None and unit in phase_group(state, state.active):
        return None
    args = {"unit": unit.id}
    fire, strike = _answers(state, unit, params, offers)
    hp = max(unit.hp, 1)
    return Reactions(
        unit=unit_view(state, unit, unit.id),
        reaction_fire=fire,
        strike=strike,
        camouflage=_camouflage(unit, offers),
        contact=_contact(state, unit, offers),
        armour_rerolls=reroll_fields((), (unit,)),
        auto_hit=offers.command(
            "auto_hit",
            _("Automatic hit (wound against armour)"),
            args=args,
            form={"name": "Automatic hit"},
            inputs=(
                NumberInput("args.strength:int", _("Strength"), 4, 0, 30),
                NumberInput("args.damage:int", _("Damage"), 2, 0, 20),
            ),
        ),
        fall=offers.command("fall", _("It falls"), args=args, form={"height": "size"}),
        correct=offers.command(
            "correct",
            _("Save the correction"),
            args=args,
            inputs=(
                NumberInput("args.hp:int", _("HP"), hp, 1, unit.card.hp_total),
                NumberInput("args.ap:int", _("AP"), unit.ap, 0, MAX_AP),
            ),
        ),
    )
