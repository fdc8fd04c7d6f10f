"""Panic's ends the players see on the table, and the fallen banner ("Moral").

- "Ist auch dies nicht möglich, ohne sich feindlichen Modellen zu nähern, ergeben sie sich sofort
  und werden als Verluste entfernt" and "Erreicht eine in Panik geratene Einheit eine
  Tischkante, so wird sie aus dem Spiel entfernt": ``remove_unit`` with the reason
  ``cannot_flee`` or ``table_edge``, for a panicking unit, by its own player.
- The banner falls with its bearer: ``banner_falls`` once the bearer is out; the banner is gone
  after the test.
- "Fällt Fahne, dann WIK-Probe. Mißlungen = Panik, mißlungen mit 0 = ergibt sich, gelungen =
  sofortiger Zusatzangriff, gelungen mit 9 = sofortiger Zusatzzug": ``banner_falls``.

Decisions: both removals are losses: the enemy scores the unit's army points in full (the half
VP belong to a surrender the enemy accepts in the rally phase); a unit with a living Fanatiker
never surrenders ("dürfen sich niemals ergeben"), so it is not removed as ``cannot_flee``. A
fallen banner whose test fails with a 0 offers the unit's surrender at once (the enemy
accepts or massacres it, as in the rally phase; a Fanatiker unit panics instead). The extra
attack and the extra turn are recorded in the log; the players play them out on the table
(the tracker does not give the unit a second turn).
"""

from __future__ import annotations

from typing import Any

from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import Args, ArgSpec, CommandSpec
from apps.systems.stahlgewitter.match.context import (
    Ctx,
    command,
    event,
    refusals,
    refuse,
    require_battle,
    require_shown,
    specs,
)
from apps.systems.stahlgewitter.match.panic import khirf, remove_unit, test_model
from apps.systems.stahlgewitter.match.rounds import end_turn, hidden_marker
from apps.systems.stahlgewitter.match.state import MatchState, Unit
from apps.systems.stahlgewitter.morale import banner_falls
from apps.systems.stahlgewitter.odds import banner_weights

Data = Any
REMOVALS = ("table_edge", "cannot_flee")

specs(
    CommandSpec(
        "remove_unit",
        _(
            "A panicking unit leaves the game as losses: it reached the table edge (table_edge), "
            "or it cannot flee without nearing enemies and surrenders at once (cannot_flee)."
        ),
        (
            ArgSpec("player", "int", help=_("The unit's player (0 or 1).")),
            ArgSpec("unit", "int", help=_("The unit (its id).")),
            ArgSpec("reason", "str", help=_("table_edge or cannot_flee")),
        ),
        own_seat_arg="player",
    ),
    CommandSpec(
        "banner_falls",
        _(
            "The unit's banner falls: a WIK test. Failed: panic; failed with 0: it surrenders; "
            "passed: an immediate extra attack; passed with 9: an immediate extra turn."
        ),
        (ArgSpec("unit", "int", help=_("The unit (its id).")),),
    ),
)
refusals(
    {
        "no_banner": _("That unit has no banner (Fahne)."),
        "banner_standing": _("The banner falls with its bearer, who still stands."),
        "fanatics": _("Fanatiker never surrender."),
    }
)


def _living_unit(state: MatchState, unit_id: int) -> Unit:
    unit = state.unit(unit_id)
    if unit.out:
        refuse("unit_out", "That unit is out of the game.")
    return unit


def fanatic(state: MatchState, unit: Unit) -> bool:
    return any("fanatiker" in m.skills for m in state.living(unit.id))


@command("remove_unit")
def _remove_unit(ctx: Ctx, args: Args) -> None:
    state = ctx.state
    require_battle(state)
    player = args.integer("player", lo=0, hi=1)
    unit = _living_unit(state, args.integer("unit", lo=0, hi=999))
    reason = args.text("reason", choices=REMOVALS)
    if unit.player != player:
        refuse("not_your_unit", "That unit belongs to the other player.")
    if not unit.panic:
        refuse("not_panicking", "Only a panicking unit flees.")
    if reason == "cannot_flee" and fanatic(state, unit):
        refuse("fanatics", "Fanatiker never surrender.")
    remove_unit(ctx, unit.id, reason)
    if ctx.state.active == unit.id:
        end_turn(ctx)


@command("banner_falls")
def _banner_falls(ctx: Ctx, args: Args) -> None:
    state = ctx.state
    require_battle(state)
    unit = _living_unit(state, args.integer("unit", lo=0, hi=999))
    require_shown(state, unit.id)  # its banner bearer fell in sight of the enemy
    bearers = [m for m in unit.models if "banner" in state.models[m].effects]
    if not bearers:
        refuse("no_banner", "That unit has no banner.")
    fallen = [m for m in bearers if state.models[m].dead]
    if not fallen:
        refuse("banner_standing", "The banner falls with its bearer, who still stands.")
    if khirf(state, unit):
        refuse("khirf", "Units under Khirf take no morale tests.")
    model = test_model(state, unit)
    if model is None:  # pragma: no cover - a unit in the game has a living model
        refuse("unit_out", "That unit is out of the game.")
    weights = banner_weights(model.wik)
    roll = banner_falls(ctx.rng, model.wik)
    result = roll.result
    if result == "surrender" and fanatic(state, unit):
        result = "panic"
    ctx.emit(
        "banner_tested",
        unit=unit.id,
        player=unit.player,
        marker=hidden_marker(state, unit),
        model=model.id,
        wik=model.wik,
        dice=list(roll.dice),
        result=result,
        weights=weights,
        denominator=sum(weights.values()),
        bearers=fallen,
    )
    if result == "surrender":
        ctx.emit(
            "surrender_offered",
            unit=unit.id,
            player=unit.player,
            marker=hidden_marker(ctx.state, unit),
        )


@event("banner_tested")
def _banner_tested(state: MatchState, data: Data) -> MatchState:
    for bearer in data["bearers"]:  # the banner is gone: it falls once
        effects = tuple(e for e in state.models[bearer].effects if e != "banner")
        state = state.with_model(bearer, effects=effects)
    if data["result"] in ("panic", "surrender"):
        return state.with_unit(data["unit"], panic=True, ready=False)
    return state
