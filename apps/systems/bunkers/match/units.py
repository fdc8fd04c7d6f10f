"""Units: models and wounds as the players report them (``adjust``; a destroyed carrier drops
the artifact however it was destroyed), reserve arrivals (one free deep strike, each further
one needs "Aus dem Nichts"), level changes by a numbered ladder or elevator (each carries at
most two units per player turn, a ladder at most 15 models and only bases up to 40 mm,
characters up to 50 mm; none on a board of one level)."""

from __future__ import annotations

from apps.systems.bunkers.army import parse_base
from apps.systems.bunkers.match.context import (
    Ctx,
    command,
    refuse,
    require_active,
    require_levels,
    require_phase,
    require_place,
    require_scored,
)
from apps.systems.bunkers.match.state import MatchState, Unit
from apps.systems.bunkers.match.tables import (
    CONNECTIONS,
    LADDER_BASE_MM,
    LADDER_CHARACTER_BASE_MM,
    LADDER_MODELS,
    LEVEL_CHANGES_PER_TURN,
    MAX_CONNECTION_NUMBER,
    TABLE_PLACES,
    Phase,
    table_places,
)
from apps.systems.core.errors import RuleViolation
from apps.systems.core.match import Args

FREE_DEEP_STRIKES = 1
CHANGES = ("wound_lost", "model_lost", "destroyed", "wound_restored", "model_restored")


def own_unit_on_table(state: MatchState, unit_id: int, player: int) -> Unit:
    unit = state.unit(unit_id)
    if unit.player != player:
        refuse("not_your_unit", "That unit belongs to the other player.")
    if not unit.on_table:
        refuse("not_on_table", "That unit is not on the table.")
    return unit


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def changed(unit: Unit, change: str) -> tuple[int, int]:
    """The unit's models and wounds after ``change``: a lost wound goes on the wounded model
    first; a lost model is the wounded one; restoring never exceeds the starting strength."""
    per = unit.wounds_per_model
    if change == "wound_lost":
        wounds = unit.wounds - 1
        return _ceil_div(wounds, per), wounds
    if change == "model_lost":
        models = unit.models - 1
        return models, models * per
    if change == "destroyed":
        return 0, 0
    if change == "wound_restored":
        wounds = min(unit.wounds + 1, unit.wounds_start)
        return _ceil_div(wounds, per), wounds
    models = min(unit.models + 1, unit.models_start)
    return models, min(unit.wounds + per, models * per)


def _adjust_refusal(unit: Unit, change: str) -> str:
    if change in ("wound_lost", "model_lost", "destroyed") and unit.destroyed:
        return "unit_destroyed"
    if change == "wound_restored" and unit.wounds >= unit.wounds_start:
        return "at_full_strength"
    if change == "model_restored" and unit.models >= unit.models_start:
        return "at_full_strength"
    return ""


@command("adjust")
def _adjust(ctx: Ctx, args: Args) -> None:
    """The players report a unit's losses (a wound, a model, the whole unit) or correct them
    (a wound or a model restored); a destroyed carrier drops the artifact."""
    state = ctx.state
    unit = state.unit(args.integer("unit", lo=0, hi=999))
    change = args.text("change", choices=CHANGES)
    code = _adjust_refusal(unit, change)
    if code:
        refuse(code, "The unit cannot change so.")
    record_change(ctx, unit.id, change)


def record_change(ctx: Ctx, unit_id: int, change: str) -> None:
    """One change of a unit's strength; every way a carrier is destroyed (a report, a
    hazardous-terrain roll) drops the artifact: "Wird der Träger getötet, wird das Base an der
    Stelle platziert, wo der Träger entfernt wurde"."""
    models, wounds = changed(ctx.state.units[unit_id], change)
    ctx.emit("unit_changed", unit=unit_id, change=change, models=models, wounds=wounds)
    if models == 0 and ctx.state.carrier == unit_id:
        ctx.emit("artifact_dropped", unit=unit_id)


@command("arrive")
def _arrive(ctx: Ctx, args: Args) -> None:
    """A reserve unit is set up at the end of its player's movement phase: by deep strike (the
    first one free, each further one spends an "Aus dem Nichts") or from the own table edge."""
    state = ctx.state
    require_phase(state, Phase.MOVEMENT)
    require_scored(state)
    unit = state.unit(args.integer("unit", lo=0, hi=999))
    require_active(state, unit.player)
    place = args.text("place", arrival_place(state), choices=TABLE_PLACES)
    deep_strike = args.boolean("deep_strike", False)
    if unit.place != "reserve" or unit.destroyed:
        refuse("not_in_reserve", "That unit is not in reserve.")
    require_place(state, place)
    paid = False
    if deep_strike:
        player = state.players[unit.player]
        if not unit.deep_strike:
            refuse("no_deep_strike", "This unit has no deep-strike-like rule.")
        if player.deep_strikes >= FREE_DEEP_STRIKES:
            if player.nowhere <= 0:
                refuse("needs_aus_dem_nichts", "A further deep strike needs Aus dem Nichts.")
            paid = True
    ctx.emit("unit_arrived", unit=unit.id, place=place, deep_strike=deep_strike, paid=paid)


def arrival_place(state: MatchState) -> str:
    """Where a reserve unit arrives unless told: the lower level, or the one-level board."""
    return table_places(state.levels)[-1]


def connection_args(args: Args) -> tuple[str, int]:
    """The ladder or elevator named in ``args``: ``via`` and its ``number`` on the board."""
    via = args.text("via", "ladder", choices=CONNECTIONS)
    return via, args.integer("number", 1, lo=1, hi=MAX_CONNECTION_NUMBER)


def ladder_fits(unit: Unit) -> bool:
    """ "Leitern dürfen nur von Modellen benutzt werden, die maximal auf einem 40mm Base
    stehen (Charaktere dürfen auch auf einem 50mm Base stehen)"; an oval by its long side, an
    unknown base passes."""
    try:
        base = parse_base(unit.base)
    except RuleViolation:
        return True
    if base is None:
        return True
    character = any(k.casefold() == "character" for k in unit.keywords)
    limit = LADDER_CHARACTER_BASE_MM if character else LADDER_BASE_MM
    return max(base.width_mm, base.length_mm) <= limit


def crossing_refusal(state: MatchState, unit: Unit, via: str, number: int) -> str:
    """Why ``unit`` cannot take ladder or elevator ``number`` now ("" = it can): each carries
    two units per player turn, a ladder 15 models and only small bases."""
    used = state.crossing(via, number)
    if used.units >= LEVEL_CHANGES_PER_TURN:
        return "level_changes_spent"
    if via == "ladder" and not ladder_fits(unit):
        return "ladder_base"
    if via == "ladder" and used.models + unit.models > LADDER_MODELS:
        return "ladder_models_spent"
    return ""


def check_crossing(state: MatchState, unit: Unit, via: str, number: int) -> None:
    code = crossing_refusal(state, unit, via, number)
    if code:
        refuse(code, "This ladder or elevator cannot carry the unit now.")


def change_level(ctx: Ctx, unit_id: int, *, by: str, via: str, number: int) -> None:
    """``by``: "move" (start of the movement phase) or "hurry" (Eile ist geboten)."""
    unit = ctx.state.units[unit_id]
    place = "upper" if unit.place == "lower" else "lower"
    ctx.emit(
        "level_changed",
        unit=unit.id,
        place=place,
        by=by,
        via=via,
        number=number,
        models=unit.models,
    )


@command("change_level")
def _change_level(ctx: Ctx, args: Args) -> None:
    """By ladder or elevator ``number`` at the start of the movement phase."""
    state = ctx.state
    require_levels(state)
    require_phase(state, Phase.MOVEMENT)
    unit = state.unit(args.integer("unit", lo=0, hi=999))
    require_active(state, unit.player)
    own_unit_on_table(state, unit.id, unit.player)
    via, number = connection_args(args)
    check_crossing(state, unit, via, number)
    change_level(ctx, unit.id, by="move", via=via, number=number)
