"""Gefechtsoptionen (battle options) bought with CP: the window each may be bought in, the
once-per-game limit, the cost, and what the tracked ones change (doors, sentry guns,
barricades, reserve arrivals, levels)."""

from __future__ import annotations

from apps.systems.bunkers.match.context import Ctx, command, refuse, require_scored
from apps.systems.bunkers.match.doors import open_or_close
from apps.systems.bunkers.match.state import Door, MatchState
from apps.systems.bunkers.match.tables import (
    MAX_PIECES,
    OPTION_BY_KEY,
    OWN_WINDOWS,
    SENTRY_WOUNDS,
    WINDOW_PHASES,
    BattleOption,
    DoorState,
    Effect,
    Stage,
    Window,
)
from apps.systems.bunkers.match.units import (
    change_level,
    check_crossing,
    connection_args,
    own_unit_on_table,
)
from apps.systems.core.match import Args


def window_refusal(state: MatchState, option: BattleOption, player: int) -> str:
    """Why ``player`` may not buy ``option`` now ("" = the window is open); "Eile ist
    geboten" changes a unit's level, so a board of one level never offers it."""
    if option.effect is Effect.HURRY and state.levels < 2:
        return "one_level"
    if option.window is Window.ANY and state.stage is not Stage.OVER:
        return ""
    if state.stage is not Stage.BATTLE:
        return "not_in_battle"
    if option.window in OWN_WINDOWS and state.active != player:
        return "not_your_turn"
    phase = WINDOW_PHASES[option.window]
    if phase is not None and state.phase is not phase:
        return "wrong_phase"
    return ""


def door_refusal(door: Door, effect: Effect) -> str:
    """Why the option cannot target ``door`` ("" = it can)."""
    if door.kind != "door":
        return "not_a_door"
    if effect is Effect.CUT:
        if not door.sealed:
            return "door_not_sealed"
        return ""
    if door.sealed:
        return "door_sealed"
    if door.state is DoorState.DESTROYED:
        return "door_destroyed"
    if effect in (Effect.WELD, Effect.TRAP) and door.state is not DoorState.CLOSED:
        return "door_not_closed"
    if effect is Effect.TRAP and door.trapped:
        return "door_trapped"
    return ""


@command("buy_option")
def _buy_option(ctx: Ctx, args: Args) -> None:
    state = ctx.state
    player = state.player(args.integer("player", lo=0, hi=1)).index
    option = OPTION_BY_KEY.get(args.text("option"))
    if option is None:
        refuse("unknown_option", "There is no such battle option.")
    code = window_refusal(state, option, player)
    if code:
        refuse(code, "The option cannot be bought now.")
    require_scored(state)
    if option.once_per_game and option.key in state.players[player].options:
        refuse("once_per_game_spent", "This option is used once per team and game.")
    if state.players[player].cp < option.cost:
        refuse("cp_short", "Not enough command points.")
    door = _door_target(ctx, args, option)
    unit = _unit_target(ctx, args, option, player)
    on_board = sum(1 for piece in state.pieces if not piece.removed)
    if option.effect in (Effect.SENTRY, Effect.BARRICADE) and on_board >= MAX_PIECES:
        refuse("too_many_pieces", "The board has as many pieces as it can track.")
    extra: dict[str, object] = {"door": door} if door is not None else {}
    if unit is not None:
        extra["unit"] = unit
    ctx.emit("option_bought", player=player, option=option.key, cost=option.cost, **extra)
    _effect(ctx, option, player, door, args)


def _door_target(ctx: Ctx, args: Args, option: BattleOption) -> int | None:
    if option.effect not in (Effect.WELD, Effect.CUT, Effect.HACK, Effect.TRAP):
        return None
    if not args.has("door"):
        refuse("no_door", "Choose a door.")
    door = ctx.state.door(args.integer("door", lo=0, hi=99))
    code = door_refusal(door, option.effect)
    if code:
        refuse(code, "The option cannot target this door.")
    return door.id


def _unit_target(ctx: Ctx, args: Args, option: BattleOption, player: int) -> int | None:
    if option.effect is not Effect.HURRY:
        return None
    if not args.has("unit"):
        refuse("no_unit", "Choose a unit.")
    unit = own_unit_on_table(ctx.state, args.integer("unit", lo=0, hi=999), player)
    via, number = connection_args(args)
    check_crossing(ctx.state, unit, via, number)
    return unit.id


def _effect(ctx: Ctx, option: BattleOption, player: int, door: int | None, args: Args) -> None:
    effect = option.effect
    if door is not None and effect is Effect.WELD:
        ctx.emit("door_changed", door=door, state=DoorState.SEALED.value, by="weld")
    elif door is not None and effect is Effect.CUT:
        ctx.emit("door_changed", door=door, state=DoorState.DESTROYED.value, by="cut")
    elif door is not None and effect is Effect.HACK:
        open_or_close(ctx, door, by="hack")
    elif door is not None and effect is Effect.TRAP:
        ctx.emit("door_trapped", door=door, player=player)
    elif effect is Effect.SENTRY:
        ctx.emit("piece_added", player=player, kind="sentry", wounds=SENTRY_WOUNDS)
    elif effect is Effect.BARRICADE:
        ctx.emit("piece_added", player=player, kind="barricade", wounds=0)
    elif effect is Effect.HURRY:
        via, number = connection_args(args)
        change_level(ctx, args.integer("unit"), by="hurry", via=via, number=number)
