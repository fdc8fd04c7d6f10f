"""A charge that reached base contact waits for its attack while the enemies may answer its move
(reaction fire, 14.3): the charger's form for that attack, with its odds, the friends touching
either side, what it does if it wins and the optional rerolls."""

from __future__ import annotations

from collections.abc import Mapping

from apps.systems.core.buttons import Offers
from apps.systems.core.i18n import gettext_noop as _
from apps.systems.universalis.match import rules
from apps.systems.universalis.match.preview import melee_lines, melee_odds
from apps.systems.universalis.match.state import MatchState, Unit
from apps.systems.universalis.match.tracker.actions import ChargeForm
from apps.systems.universalis.match.tracker.attacks import MELEE_NUMBERS, touch_powers
from apps.systems.universalis.match.tracker.forms import read_int, refused, unit_form
from apps.systems.universalis.match.tracker.rerolls import read_rerolls, reroll_fields


def charge_form(
    state: MatchState, unit: Unit, params: Mapping[str, str], offers: Offers
) -> ChargeForm | None:
    """The attack of ``unit``'s waiting charge (none if it has none)."""
    pending = state.charge
    if pending is None or pending.unit != unit.id:
        return None
    target = state.units[pending.target]
    touch = touch_powers(unit)
    sent: dict[str, object] = {"on_win": "hit"}
    if touch:
        sent["power"] = touch[0].value
    button = offers.command(
        "charge_attack",
        _("Attack %(target)s (charge)"),
        params={"target": target.name},
        args={"unit": unit.id},
        form=sent,
        inputs=MELEE_NUMBERS,
    )
    form = unit_form(params, "charge_attack", unit)
    odds = melee_odds(
        state,
        unit,
        target,
        pending.weapon,
        friends=read_int(form, "args.friends:int", 0, 0, 8),
        enemy_friends=read_int(form, "args.enemy_friends:int", 0, 0, 8),
        charge=True,
        reckless=pending.reckless,
        rerolls=read_rerolls(form),
    )
    return ChargeForm(
        button=button,
        target=target.name,
        touch_powers=touch,
        preview=refused(odds) if isinstance(odds, str) else melee_lines(odds),
        rerolls=reroll_fields(rules.weapon(unit, pending.weapon).effects, (target,)),
    )
