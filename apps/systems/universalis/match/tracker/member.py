"""The models of the running initiative phase (the model and its telematons): what each can do,
with the engine's verdict on every button and form. Which actions are shown follows the model's
situation (a prone model stands up, a panicking one only flees); whether each is possible now,
and why not, is the engine's answer."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from apps.systems.core.buttons import Button, NumberInput, Offers
from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import TimelineLine as Text
from apps.systems.universalis.catalog import Equipment, Trait
from apps.systems.universalis.match import rules
from apps.systems.universalis.match.order import phase_group
from apps.systems.universalis.match.preview import chance_line
from apps.systems.universalis.match.state import MatchState, Phase, Unit
from apps.systems.universalis.match.tracker.abilities import (
    object_form,
    power_form,
    readiness_form,
    reveal_form,
)
from apps.systems.universalis.match.tracker.actions import MemberActions, MoveForm, ThreatForm
from apps.systems.universalis.match.tracker.attacks import melee_form, shot_form
from apps.systems.universalis.match.tracker.charge import charge_form
from apps.systems.universalis.match.tracker.due import blocked
from apps.systems.universalis.match.tracker.forms import choice, first_accepted
from apps.systems.universalis.match.tracker.units import unit_view
from apps.systems.universalis.match.values import attribute_value, power_value


def _threat_form(state: MatchState, unit: Unit, offers: Offers) -> ThreatForm | None:
    """The direct-threat EH test (4.5.1), naming the threat: any enemy in play the engine
    takes; none for a telematon, which has no danger zone (19.6)."""
    threats = [u.id for u in state.units if u.player != unit.player and u.in_play]
    if unit.telematon or not threats:
        return None
    variants = [{"unit": unit.id, "threat": t} for t in threats]
    threat = first_accepted(offers, "threat_test", variants)["threat"]
    button = offers.command(
        "threat_test",
        _("Direct threat: EH test"),
        args={"unit": unit.id},
        form={"threat": threat},
        odds_lines=(chance_line(attribute_value(state, unit, "eh")),),
    )
    choices = tuple(
        choice(
            offers,
            "threat_test",
            t,
            state.units[t].name,
            [{"unit": unit.id, "threat": t}],
            asked=button.enabled,
        )
        for t in threats
    )
    return ThreatForm(button, choices, threat)


def _basic(state: MatchState, unit: Unit, offers: Offers) -> list[Button]:
    """The actions without a form: turning, going prone or standing up, disengaging and
    defence."""
    args = {"unit": unit.id}
    eh_odds = (chance_line(attribute_value(state, unit, "eh")),)
    buttons = [offers.command("turn", _("Turn"), args=args, cost="0 AP")]
    if unit.prone:
        buttons.append(offers.command("stand_up", _("Stand up"), args=args, cost="1 AP"))
    else:
        buttons.append(offers.command("prone", _("Go prone"), args=args, cost="1 AP"))
    buttons.append(
        offers.command(
            "disengage",
            _("Disengage (EH test)"),
            args=args,
            cost="3 AP" if unit.prone else "2 AP",
            # Once the phase's direct-threat test is passed, disengaging needs no roll.
            odds_lines=() if unit.threat_tested else eh_odds,
        )
    )
    buttons.append(offers.command("defence", _("Defence"), args=args, cost="2 AP"))
    return buttons


def _markers(unit: Unit, offers: Offers) -> list[Button]:
    """Reloading, the traits and equipment with an action (used on the direct threat when the
    model must attack it, 4.5.1), and ending a power in play."""
    on_threat = unit.must_attack[0] if unit.must_attack else None
    buttons = [
        offers.command(
            "reload",
            _("Reload %(weapon)s"),
            params={"weapon": unit.card.weapons[index].name},
            args={"unit": unit.id, "weapon": index},
            cost=f"{rules.weapon_cost(unit, unit.card.weapons[index])} AP",
        )
        for index in unit.reload
    ]
    kinds: tuple[tuple[str, Sequence[Trait | Equipment]], ...] = (
        ("trait", unit.card.traits),
        ("equipment", unit.card.equipment),
    )
    for kind, items in kinds:
        for index, item in enumerate(items):
            if item.ap is None:  # it always applies: nothing to use
                continue
            buttons.append(
                offers.command(
                    f"use_{kind}",
                    _("Use %(name)s"),
                    params={"name": item.name},
                    args={"unit": unit.id, kind: index, "target": on_threat},
                    cost=f"{item.ap} AP",
                )
            )
    buttons += [
        offers.command(
            "end_power",
            _("End %(power)s"),
            params={"power": unit.powers[index].name},
            args={"unit": unit.id, "power": index},
            cost="1 AP",
        )
        for index in unit.powers_in_play
    ]
    return buttons


def _block_buttons(state: MatchState, unit: Unit, offers: Offers) -> tuple[Button, ...]:
    """Kraft blockieren (2 AP): each lasting enemy power in play, with the chance of the roll
    against its attribute and difficulty (20.3, 20.5); none for a model the engine does not
    let block powers (it needs a discipline)."""
    buttons = []
    for owner in state.units:
        if owner.player == unit.player:
            continue
        for index in owner.powers_in_play:
            power = owner.powers[index]
            odds = [chance_line(power_value(state, unit, power))]
            if power.hp_loss:
                lost = (
                    _("It loses %(hp)s HP always")
                    if power.hp_loss_always
                    else _("It loses %(hp)s HP on a failure")
                )
                odds.append(Text(lost, {"hp": power.hp_loss}))
            button = offers.command(
                "block_power",
                _("Block %(power)s (%(owner)s)"),
                params={"power": power.name, "owner": owner.name},
                args={"unit": unit.id, "owner": owner.id, "power": index},
                cost="2 AP",
                odds_lines=tuple(odds),
            )
            if button.code != "cannot_block":
                buttons.append(button)
    return tuple(buttons)


def _move_form(state: MatchState, unit: Unit, offers: Offers) -> MoveForm:
    cm = NumberInput("args.cm:int", _("cm moved"), rules.speed(unit), 0, rules.max_move(unit))
    button = offers.command(
        "move",
        _("Move"),
        args={"unit": unit.id},
        cost="2 AP" if unit.prone else "1 AP",
        inputs=(cm,),
    )
    return MoveForm(button, chance_line(attribute_value(state, unit, "agi")))


def _operator_ap(state: MatchState, unit: Unit) -> int | None:
    """The AP a telematon's operator may lend it (19.4)."""
    if unit.telematon and unit.operator is not None and state.units[unit.operator].in_play:
        return state.units[unit.operator].ap
    return None


def member(
    state: MatchState,
    unit: Unit,
    selected: int | None,
    params: Mapping[str, str],
    offers: Offers,
) -> MemberActions:
    view = unit_view(state, unit, selected)
    operator_ap = _operator_ap(state, unit)
    if unit.panic:
        flee = offers.command("flee", _("Flee"), args={"unit": unit.id})
        return MemberActions(view, operator_ap, flee=flee)
    if state.charge is not None:
        # The charge's attack is all its phase does next (after the reactions to its move).
        return MemberActions(view, operator_ap, charge=charge_form(state, unit, params, offers))
    return MemberActions(
        view,
        operator_ap,
        threat=_threat_form(state, unit, offers),
        move=_move_form(state, unit, offers),
        shoot=shot_form(state, unit, params, offers),
        melee=melee_form(state, unit, params, offers),
        reveal=reveal_form(state, unit, params, offers),
        power=power_form(state, unit, params, offers),
        use_object=object_form(state, unit, params, offers),
        readiness=readiness_form(state, unit, offers),
        buttons=(*_basic(state, unit, offers), *_markers(unit, offers)),
        block_powers=_block_buttons(state, unit, offers),
    )


def members(
    state: MatchState, selected: int | None, params: Mapping[str, str], offers: Offers
) -> tuple[MemberActions, ...]:
    """The acting model and its telematons while nothing else waits; a burning one takes no
    actions (it tested its fire: the engine refuses them); while a charge waits for its attack,
    only the charger."""
    if state.phase is not Phase.ACTING or state.active is None or blocked(state):
        return ()
    return tuple(
        member(state, u, selected, params, offers)
        for u in phase_group(state, state.active)
        if u.burning is None and (state.charge is None or state.charge.unit == u.id)
    )
