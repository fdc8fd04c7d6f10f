"""The activated Deathmatch model's actions on the tracker: the attack wizards, the simple
actions, its cards' special actions, switches and repairs, and the active panel's forms. Which
buttons exist follows the table's situation; whether each is enabled, and why not, is the
engine's verdict on the command it sends."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from apps.systems.core.buttons import Button, Offers
from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import Command
from apps.systems.deathmatch.catalog import WeaponKind
from apps.systems.deathmatch.match import values
from apps.systems.deathmatch.match.modes import CORE_REPAIR, Mode, ObjectiveKind
from apps.systems.deathmatch.match.rules_text import weapon_rules
from apps.systems.deathmatch.match.state import (
    MatchState,
    Unit,
    UnitKind,
)
from apps.systems.deathmatch.match.units import unit_weapons

# The wizards that open an attack, with the command each sends and the weapons it takes.
ATTACK_COMMANDS = {"ranged": "ranged_attack", "melee": "melee_attack", "charge": "charge"}


def quiet(state: MatchState) -> bool:
    """Nothing waits for a decision: no flip, no disengage, no setup or scoring step."""
    return not (state.attack or state.pending or state.disengage or state.awaiting)


def weapons_of(unit: Unit, kind: WeaponKind) -> list[int]:
    return [i for i, w in enumerate(unit_weapons(unit)) if w.kind is kind]


def attack_choices(
    state: MatchState, attacker: Unit, command: str, weapons: Iterable[int]
) -> Iterable[Command]:
    """Every attack of ``command`` the wizard can send: each weapon at each model in play."""
    for weapon in weapons:
        for target in state.units:
            if target.in_play and target.id != attacker.id:
                yield Command(command, {"weapon": weapon, "targets": [{"unit": target.id}]})


def _attack_wizards(state: MatchState, unit: Unit, offers: Offers) -> list[Button]:
    ranged = weapons_of(unit, WeaponKind.RANGED)
    melee = weapons_of(unit, WeaponKind.MELEE)
    weapons = unit_weapons(unit)
    cheapest = min((2 if weapon_rules(weapons[i]).unwieldy else 1 for i in ranged), default=1)
    return [
        offers.wizard(
            "ranged",
            _("Ranged attack"),
            choices=attack_choices(state, unit, "ranged_attack", ranged),
            style="primary",
            cost=f"{cheapest} AP",
        ),
        offers.wizard(
            "melee",
            _("Melee attack"),
            choices=attack_choices(state, unit, "melee_attack", melee),
            style="primary",
            cost="1 AP",
        ),
        offers.wizard(
            "charge",
            _("Sturmangriff (charge)"),
            choices=attack_choices(state, unit, "charge", melee),
            cost="2 AP",
        ),
    ]


def _simple_actions(unit: Unit, offers: Offers) -> list[Button]:
    return [
        offers.command(
            "move",
            _('Bewegung (move %(inches)s")'),
            params={"inches": values.move_inches(unit)},
            cost="1 AP",
        ),
        offers.wizard(
            "disengage",
            _("Lösen (disengage)"),
            choices=(Command("disengage", {"strikes": []}),),
            cost="1 AP",
        ),
        offers.command("dodge", _("Ausweichen (dodge)"), cost="1 AP"),
        offers.command("aim", _("Zielen (aim)"), cost="1 AP"),
        offers.command("power_strike", _("Wuchtschlag (power strike)"), cost="1 AP"),
        offers.command("readiness", _("Bereitschaft (readiness)"), cost="1 AP"),
    ]


def _special_actions(unit: Unit, offers: Offers) -> list[Button]:
    return [
        offers.command(
            "special_action",
            _("%(action)s (%(card)s)"),
            params={"action": item.special_action.name, "card": item.name},
            args={"item": item.slug},
            cost=f"{item.special_action.ap} AP",
        )
        for item in unit.items
        if item.special_action is not None
    ]


def _switch_command(mode: Mode, unit: Unit, side: int | None, owner: int | None) -> str | None:
    """What the model may do at a switch: activate one not yet its side's (an enemy one in
    Breakthrough), or neutralise it first where an enemy holds it."""
    if mode.breakthrough:
        return "activate_switch" if side != unit.player else None
    if owner is None:
        return "activate_switch"
    return "neutralise_switch" if owner != unit.player else None


SWITCH_LABELS: Final = {
    "activate_switch": _("Activate switch %(switch)s"),
    "neutralise_switch": _("Neutralise switch %(switch)s"),
}


def _switch_actions(state: MatchState, mode: Mode, unit: Unit, offers: Offers) -> list[Button]:
    buttons = []
    for objective in state.objectives:
        if objective.kind != ObjectiveKind.SWITCH.value or objective.locked:
            continue
        command = _switch_command(mode, unit, objective.side, objective.owner)
        if command is not None:
            buttons.append(
                offers.command(
                    command,
                    SWITCH_LABELS[command],
                    params={"switch": objective.id},
                    args={"objective": objective.id},
                    cost="1 AP",
                )
            )
    return buttons


def _repairs(state: MatchState, offers: Offers) -> list[Button]:
    return [
        offers.command(
            "repair_core",
            _("Reparieren: %(core)s +%(lp)s LP"),
            params={
                "core": f"{core.name} ({state.player(core.player).name})",
                "lp": CORE_REPAIR[state.game_size],
            },
            args={"core": core.id},
            cost="1 AP",
        )
        for core in state.units
        if core.kind is UnitKind.CORE and core.in_play and core.lp < core.max_lp
    ]


def actions(state: MatchState, mode: Mode, offers: Offers) -> tuple[Button, ...]:
    """The activated model's actions while nothing waits for a decision."""
    if state.active is None or not quiet(state):
        return ()
    unit = state.unit(state.active)
    return (
        *_attack_wizards(state, unit, offers),
        *_simple_actions(unit, offers),
        *_special_actions(unit, offers),
        *_switch_actions(state, mode, unit, offers),
        *_repairs(state, offers),
    )


def activation_forms(state: MatchState, offers: Offers) -> tuple[Button, ...]:
    """The active panel's forms with their defaults: a move with a fall or dangerous terrain,
    and ending the activation (optionally into readiness for 1 ◆)."""
    if state.active is None or not quiet(state):
        return ()
    return (
        offers.command("move", _("Move (1 AP)"), args={"fall_height": 0}),
        offers.command("end_activation", _("End activation")),
        offers.command("end_activation", _("Bereitschaft for 1 ◆"), args={"readiness": True}),
    )
