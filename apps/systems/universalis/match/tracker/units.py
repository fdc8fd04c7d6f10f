"""The groups on the tracker: each model with its hit points, AP, markers and conditions, each
player with the mission it may see, the roll panel and the result line."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Final

from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import TimelineLine as Text
from apps.systems.universalis.builder import card_view
from apps.systems.universalis.match.missions import mission
from apps.systems.universalis.match.state import MatchState, Roll, Unit
from apps.systems.universalis.match.timeline import REASONS, ZONES
from apps.systems.universalis.match.tracker.models import (
    PLAYER_COLOURS,
    PlayerView,
    RollView,
    UnitView,
)

# What a wound roll's reroll is named after (odds.next_reroll's codes): the rulebook's effect.
REROLLS: Final[Mapping[str, str]] = {
    "erschuetterung": _("Erschütterung: the attacker forces an armour reroll"),
    "adaptiv": _("Adaptiv: the armour is rolled again"),
    "robust": _("Robust: the defender forces a wound reroll"),
}
OUTCOMES: Final = {
    "success": _("success"),
    "failure": _("failure"),
    "win": _("won"),
    "tie": _("tie"),
    "loss": _("lost"),
    # What a d12 decided (Ctx.banded): a colossus's hit zone, the burning test, a destroyed
    # movement zone.
    **ZONES,
    "burns": _("it burns"),
    "fire_out_shock": _("the fire goes out, 1 shock"),
    "fire_out": _("the fire goes out"),
    "can_turn": _("can still turn"),
    "cannot_turn": _("cannot turn"),
    "falls": _("falls over"),
}


# A card's view never changes during a match, and every screen shows every model's card.
_card_view = lru_cache(maxsize=256)(card_view)


def _percent(part: int, whole: int) -> int:
    return max(0, min(100, round(100 * part / whole))) if whole else 0


def _status(unit: Unit) -> tuple[Text, ...]:
    badges: list[Text] = []
    if unit.eliminated:
        badges.append(Text(_("eliminated")))
    if unit.fled:
        badges.append(Text(_("left the table")))
    flags = (
        (unit.critical, _("critical")),
        (unit.prone, _("prone")),
        (unit.fast, _("fast")),
        (unit.defence, _("defence")),
        (unit.readiness is not None, _("fire readiness")),
        (unit.burning is not None, _("burning")),
        (unit.panic, _("panic")),
        (unit.camouflaged, _("camouflaged")),
    )
    badges += [Text(label) for on, label in flags if on and unit.in_play]
    if unit.shock_tokens:
        badges.append(Text(_("%(n)s shock tokens"), {"n": unit.shock_tokens}))
    if unit.poison:
        badges.append(Text(_("%(n)s poison"), {"n": unit.poison}))
    for index in unit.reload:
        badges.append(Text(_("reload %(weapon)s"), {"weapon": unit.card.weapons[index].name}))
    if unit.immobile:
        badges.append(Text(_("immobilised")))
    return tuple(badges)


def _fights(state: MatchState, unit: Unit) -> tuple[Text, ...]:
    """Its melee opponents (15) and the direct threat it must attack (4.5.1)."""
    badges = []
    if unit.engaged and unit.in_play:
        names = ", ".join(state.units[o].name for o in unit.engaged)
        badges.append(Text(_("in melee with %(names)s"), {"names": names}))
    if unit.must_attack and unit.in_play:
        names = ", ".join(state.units[o].name for o in unit.must_attack)
        badges.append(Text(_("must attack %(names)s"), {"names": names}))
    return tuple(badges)


def _zones(unit: Unit) -> tuple[Text, ...]:
    return tuple(
        Text(
            _("%(zone)s %(hp)s/%(max)s HP%(state)s"),
            {
                "zone": ZONES[z.name.value],
                "hp": z.hp,
                "max": z.hp_max,
                "state": " ✕" if z.destroyed else " !" if z.critical else "",
            },
            translate=("zone",),
        )
        for z in unit.zones
    )


def unit_view(state: MatchState, unit: Unit, selected: int | None) -> UnitView:
    operator = state.units[unit.operator].name if unit.operator is not None else ""
    acting = state.active is not None and (
        unit.id == state.active or (unit.telematon and unit.operator == state.active)
    )
    return UnitView(
        id=unit.id,
        name=unit.name,
        player=unit.player,
        card=_card_view(unit.card),
        hp=max(unit.hp, 0),
        hp_max=unit.card.hp_total,
        hp_critical=unit.card.hp_critical,
        hp_percent=_percent(max(unit.hp, 0), unit.card.hp_total),
        ap=unit.ap,
        status=_status(unit) + _fights(state, unit),
        zones=_zones(unit),
        in_play=unit.in_play,
        active=acting,
        activated=unit.activated,
        selected=unit.id == selected,
        telematon_of=operator,
        powers=tuple(
            f"{p.name}{' ●' if i in unit.powers_in_play else ''}" for i, p in enumerate(unit.powers)
        ),
    )


def player_views(
    state: MatchState, viewer: int | None, selected: int | None
) -> tuple[PlayerView, ...]:
    """Each group; a secret mission or pick only for its owner (``viewer``) until revealed."""
    views = []
    for p in state.players:
        shown = p.mission if p.mission and (state.missions_revealed or viewer == p.index) else None
        goal = mission(shown) if shown else None
        views.append(
            PlayerView(
                index=p.index,
                name=p.name,
                colour=PLAYER_COLOURS[p.index % len(PLAYER_COLOURS)],
                mission=goal.name if goal else "",
                mission_summary=goal.summary if goal else "",
                mission_chosen=p.mission is not None,
                pick=state.units[p.pick].name if p.pick is not None and viewer == p.index else "",
                units=tuple(unit_view(state, u, selected) for u in state.team(p.index)),
                accomplished=p.accomplished,
                held_rounds=p.held_rounds,
            )
        )
    return tuple(views)


def roll_view(roll: Roll) -> RollView:
    params = dict(roll.params)
    translate: tuple[str, ...] = ()
    effect = params.get("effect")
    if isinstance(effect, str) and effect in REROLLS:
        # A wound reroll names its effect by its code: shown by its rulebook name.
        params["effect"], translate = REROLLS[effect], ("effect",)
    return RollView(
        label=Text(roll.label, params, translate),
        dice=roll.dice,
        outcome=OUTCOMES.get(roll.outcome, roll.outcome),
        odds=roll.odds,
        target=roll.target,
        totals=roll.totals,
        tie_odds=roll.tie_odds,
    )


def result(state: MatchState) -> Text | None:
    outcome = state.result
    if outcome is None:
        return None
    reason = REASONS.get(outcome.reason, "")
    if outcome.draw or not outcome.winners:
        return Text(_("A draw (%(reason)s)."), {"reason": reason}, ("reason",))
    return Text(
        _("%(player)s wins (%(reason)s)."),
        {"player": state.players[outcome.winners[0]].name, "reason": reason},
        ("reason",),
    )
