"""What a selected Deathmatch model may do on the tracker besides its activation: touch a flag
or a station, be activated or ordered, be corrected by hand, or react from readiness. Whether
each button is enabled, and why not, is the engine's verdict."""

from __future__ import annotations

from typing import Final

from apps.systems.core.buttons import Button, Offers
from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import Command
from apps.systems.deathmatch.catalog import WeaponKind
from apps.systems.deathmatch.match.modes import Mode, ObjectiveKind
from apps.systems.deathmatch.match.state import (
    MatchState,
    ObjectiveState,
    Phase,
    Unit,
    UnitKind,
)
from apps.systems.deathmatch.match.timeline import GADGET_NAMES
from apps.systems.deathmatch.match.tracker.activation import quiet, weapons_of

# Stations a model uses by touching them (the other gadgets act on their own).
TOUCHED_GADGETS = frozenset({1, 4, 5, 6, 7, 8})
# A flag the model may not pick up for this reason is still shown: touching it is the way to
# pick it up once the model has handed over its own. Other refusals mean "not this flag".
SHOWN_REFUSED_PICKUPS: Final = frozenset({"one_flag"})


def _pick_ups(state: MatchState, unit: Unit, offers: Offers) -> list[Button]:
    """The flags on the ground the engine lets the model pick up (or return) by touch."""
    buttons = []
    for objective in state.objectives:
        if objective.kind != ObjectiveKind.FLAG.value or objective.state is ObjectiveState.CARRIED:
            continue
        button = offers.command(
            "pick_up_flag",
            _("Pick up %(flag)s"),
            params={"flag": objective.id},
            args={"unit": unit.id, "objective": objective.id},
        )
        if button.enabled or button.code in SHOWN_REFUSED_PICKUPS:
            buttons.append(button)
    return buttons


def _flag_actions(state: MatchState, mode: Mode, unit: Unit, offers: Offers) -> list[Button]:
    buttons = _pick_ups(state, unit, offers)
    if not unit.flags:
        return buttons
    if mode.flag_score_vp:
        buttons.append(
            offers.command(
                "score_flag",
                _("Score %(flag)s"),
                params={"flag": unit.flags[0]},
                args={"unit": unit.id},
                style="primary",
            )
        )
    buttons += [
        offers.command(
            "hand_over_flag",
            _("Hand %(flag)s to %(unit)s"),
            params={"flag": unit.flags[0], "unit": friend.name},
            args={"unit": unit.id, "to": friend.id, "objective": unit.flags[0]},
        )
        for friend in state.team(unit.player)
        if friend.id != unit.id and friend.in_play and not friend.flags
    ]
    return buttons


def _station_actions(state: MatchState, unit: Unit, offers: Offers) -> list[Button]:
    return [
        offers.command(
            "touch_gadget",
            _("Touches %(gadget)s (%(owner)s)"),
            params={
                "gadget": GADGET_NAMES[gadget.option],
                "owner": state.player(gadget.owner).name,
            },
            args={"unit": unit.id, "gadget": gadget.id},
            translate=("gadget",),
        )
        for gadget in state.gadgets
        if gadget.option in TOUCHED_GADGETS
    ]


def touch_actions(
    state: MatchState, mode: Mode, selected: Unit | None, offers: Offers
) -> tuple[Button, ...]:
    """Things any model may do at the moment it touches something: flags and stations."""
    if (
        selected is None
        or not selected.in_play
        or state.phase not in (Phase.ACTIVATION, Phase.DRONES)
        or not quiet(state)
    ):
        return ()
    flags = _flag_actions(state, mode, selected, offers) if selected.team_member else []
    return (*flags, *_station_actions(state, selected, offers))


def selected_buttons(
    state: MatchState, selected: Unit | None, offers: Offers
) -> tuple[Button, ...]:
    """Activating the selected model (shown when the engine would), and Befehl after a
    respawn."""
    if selected is None:
        return ()
    buttons = []
    activate = offers.command(
        "activate",
        _("Activate %(unit)s"),
        params={"unit": selected.name},
        args={"unit": selected.id},
        style="primary",
        cost=f"{1 if selected.ordered else 2} AP",
    )
    if activate.enabled:
        buttons.append(activate)
    if selected.order_allowed and state.phase in (Phase.ACTIVATION, Phase.DRONES):
        buttons.append(
            offers.command(
                "order",
                _("Befehl: activate after respawn with 1 AP"),
                args={"unit": selected.id},
                cost="1 ◆",
            )
        )
    return tuple(buttons)


def correction_forms(
    state: MatchState, selected: Unit | None, offers: Offers
) -> tuple[Button, ...]:
    """The hand corrections of the selected model as the engine judges them: ``adjust`` (its
    form opens with the values as they stand) and an automatic hit."""
    if selected is None or not selected.in_play:
        return ()
    return (
        offers.command(
            "adjust", _("Save the correction"), args={"unit": selected.id, "lp": selected.lp}
        ),
        offers.command(
            "auto_hit",
            _("Flip the wound"),
            args={"unit": selected.id, "strength": 3, "cause": "fall"},
        ),
    )


def may_correct(corrections: tuple[Button, ...]) -> bool:
    """The correction form is open while the engine takes a correction: the values as they
    stand are only refused for changing nothing."""
    return bool(corrections) and corrections[0].code in ("", "nothing_changed")


def reactors(state: MatchState, offers: Offers) -> tuple[Button, ...]:
    """Models in readiness that may react to the activated enemy now."""
    if state.active is None or not quiet(state):
        return ()
    enemy = state.unit(state.active)
    buttons = []
    for unit in state.units:
        if unit.player == enemy.player or not unit.readiness or not unit.in_play:
            continue
        buttons += _reactions(unit, enemy, offers)
    return tuple(buttons)


def _reactions(unit: Unit, enemy: Unit, offers: Offers) -> list[Button]:
    def strikes(action: str, kind: WeaponKind) -> list[Command]:
        return [
            Command(
                "react",
                {"unit": unit.id, "action": action, "weapon": i, "targets": [{"unit": enemy.id}]},
            )
            for i in weapons_of(unit, kind)
        ]

    shots, blows = (
        strikes("ranged_attack", WeaponKind.RANGED),
        strikes("melee_attack", WeaponKind.MELEE),
    )
    buttons = []
    if shots:
        buttons.append(
            offers.wizard(
                "react_ranged",
                _("%(unit)s shoots (readiness)"),
                choices=shots,
                params={"unit": unit.name},
                args={"reactor": unit.id},
            )
        )
    if blows and unit.kind is not UnitKind.DEFENCE:
        buttons.append(
            offers.wizard(
                "react_melee",
                _("%(unit)s strikes (readiness)"),
                choices=blows,
                params={"unit": unit.name},
                args={"reactor": unit.id},
            )
        )
    if unit.kind is not UnitKind.DEFENCE and not unit.stationary:
        buttons.append(
            offers.command(
                "react",
                _("%(unit)s dodges (readiness)"),
                params={"unit": unit.name},
                args={"unit": unit.id, "action": "dodge"},
            )
        )
    return buttons
