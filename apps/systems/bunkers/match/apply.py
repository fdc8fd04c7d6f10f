"""``apply``: the state after one event. No rule is checked and no die is rolled here, so a
stored log always replays to the same state."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from apps.systems.bunkers.match.serial import load
from apps.systems.bunkers.match.state import (
    Door,
    Marker,
    MatchState,
    Piece,
    PlayerState,
    Result,
    Unit,
    VpEntry,
)
from apps.systems.bunkers.match.tables import (
    DOOR_WOUNDS,
    MARKERS,
    OPTION_BY_KEY,
    DoorState,
    Effect,
    Phase,
    Stage,
)
from apps.systems.core.engine import EventAppliers

Data = Mapping[str, Any]
APPLIERS: EventAppliers[MatchState] = EventAppliers()
handles = APPLIERS.event


@handles("match_started")
def _match_started(state: MatchState, data: Data) -> MatchState:
    return MatchState(
        mission=data["mission"],
        rounds=data["rounds"],
        levels=data.get("levels", 2),
        players=load(data["players"], tuple[PlayerState, ...]),
        units=load(data["units"], tuple[Unit, ...]),
        markers=tuple(Marker(number) for number in range(1, MARKERS[data["mission"]] + 1)),
        stage=Stage.ZONES,
    )


@handles("rolled_off")
def _rolled_off(state: MatchState, data: Data) -> MatchState:
    winner = data["winner"]
    if data["purpose"] == "zones":
        return replace(state, roll_winner=winner, stage=Stage.CHOOSE_ZONES)
    if data["purpose"] == "marker":
        return replace(
            state,
            roll_winner=winner,
            marker_placer=winner,
            deployer=data["deployer"],
            stage=Stage.DEPLOY,
        )
    return replace(state, roll_winner=winner, first=winner)


@handles("zones_chosen")
def _zones_chosen(state: MatchState, data: Data) -> MatchState:
    player, side = data["player"], data["side"]
    other_side = "defender" if side == "attacker" else "attacker"
    state = state.with_player(player, side=side).with_player(1 - player, side=other_side)
    return replace(state, chooser=player, stage=Stage.MARKER)


@handles("artifact_hidden")
def _artifact_hidden(state: MatchState, data: Data) -> MatchState:
    return replace(state, artifact=data["marker"])


@handles("deployed")
def _deployed(state: MatchState, data: Data) -> MatchState:
    state = state.with_unit(data["unit"], place=data["place"])
    following = data["next"]
    if following is None:
        return replace(state, deployer=None, stage=Stage.FIRST)
    return replace(state, deployer=following)


@handles("battle_started")
def _battle_started(state: MatchState, data: Data) -> MatchState:
    return replace(state, stage=Stage.BATTLE, first=data["first"])


@handles("turn_started")
def _turn_started(state: MatchState, data: Data) -> MatchState:
    return replace(
        state,
        round=data["round"],
        active=data["player"],
        phase=Phase.COMMAND,
        crossings=(),
        scoring_due=bool(data.get("scoring")),
    )


@handles("phase_started")
def _phase_started(state: MatchState, data: Data) -> MatchState:
    return replace(state, phase=Phase(data["phase"]))


@handles("turn_ended")
def _turn_ended(state: MatchState, data: Data) -> MatchState:
    return state


@handles("cp_changed")
def _cp_changed(state: MatchState, data: Data) -> MatchState:
    player = state.players[data["player"]]
    return state.with_player(player.index, cp=player.cp + data["points"])


@handles("vp_scored")
def _vp_scored(state: MatchState, data: Data) -> MatchState:
    player = state.players[data["player"]]
    entry = VpEntry(max(state.round, 1), data["points"], data["reason"], data.get("detail", ""))
    return state.with_player(player.index, vp=(*player.vp, entry))


@handles("objectives_held")
def _objectives_held(state: MatchState, data: Data) -> MatchState:
    for index, holder in enumerate(data["holders"]):
        state = state.with_marker(index, holder=holder)
    return replace(state, scoring_due=False)


@handles("door_added")
def _door_added(state: MatchState, data: Data) -> MatchState:
    kind = data["kind"]
    door = Door(
        id=len(state.doors),
        name=data["name"],
        kind=kind,
        narrow=data["narrow"],
        wounds=DOOR_WOUNDS if kind == "door" else 0,
    )
    return replace(state, doors=(*state.doors, door))


@handles("door_changed")
def _door_changed(state: MatchState, data: Data) -> MatchState:
    return state.with_door(data["door"], state=DoorState(data["state"]))


@handles("door_trapped")
def _door_trapped(state: MatchState, data: Data) -> MatchState:
    return state.with_door(data["door"], trapped=True)


@handles("door_damaged")
def _door_damaged(state: MatchState, data: Data) -> MatchState:
    return state.with_door(data["door"], wounds=data["left"], state=DoorState(data["state"]))


@handles("trap_triggered")
def _trap_triggered(state: MatchState, data: Data) -> MatchState:
    return state.with_door(data["door"], state=DoorState.DESTROYED, wounds=0, trapped=False)


@handles("doors_closed")
def _doors_closed(state: MatchState, data: Data) -> MatchState:
    for door in data["doors"]:
        state = state.with_door(door, state=DoorState.CLOSED)
    return state


@handles("option_bought")
def _option_bought(state: MatchState, data: Data) -> MatchState:
    player = state.players[data["player"]]
    option = OPTION_BY_KEY[data["option"]]
    nowhere = player.nowhere + (1 if option.effect is Effect.NOWHERE else 0)
    return state.with_player(
        player.index,
        cp=player.cp - data["cost"],
        options=(*player.options, option.key),
        nowhere=nowhere,
    )


@handles("piece_added")
def _piece_added(state: MatchState, data: Data) -> MatchState:
    piece = Piece(len(state.pieces), data["player"], data["kind"], data["wounds"])
    return replace(state, pieces=(*state.pieces, piece))


@handles("piece_damaged")
def _piece_damaged(state: MatchState, data: Data) -> MatchState:
    gone = data["left"] <= 0
    return state.with_piece(data["piece"], wounds=data["left"], removed=gone, destroyed=gone)


@handles("piece_removed")
def _piece_removed(state: MatchState, data: Data) -> MatchState:
    return state.with_piece(data["piece"], removed=True)


@handles("unit_changed")
def _unit_changed(state: MatchState, data: Data) -> MatchState:
    return state.with_unit(data["unit"], models=data["models"], wounds=data["wounds"])


@handles("hazard_rolled")
def _hazard_rolled(state: MatchState, data: Data) -> MatchState:
    return state


@handles("unit_arrived")
def _unit_arrived(state: MatchState, data: Data) -> MatchState:
    unit = state.units[data["unit"]]
    player = state.players[unit.player]
    state = state.with_unit(unit.id, place=data["place"], arrived=True)
    return state.with_player(
        player.index,
        deep_strikes=player.deep_strikes + (1 if data["deep_strike"] else 0),
        nowhere=player.nowhere - (1 if data["paid"] else 0),
    )


@handles("level_changed")
def _level_changed(state: MatchState, data: Data) -> MatchState:
    state = state.with_unit(data["unit"], place=data["place"])
    used = state.crossing(data["via"], data["number"])
    crossing = replace(used, units=used.units + 1, models=used.models + data["models"])
    others = tuple(c for c in state.crossings if (c.via, c.number) != (used.via, used.number))
    return replace(state, crossings=(*others, crossing))


@handles("marker_revealed")
def _marker_revealed(state: MatchState, data: Data) -> MatchState:
    state = state.with_marker(data["marker"] - 1, revealed=True)
    return replace(state, artifact_found=state.artifact_found or bool(data["artifact"]))


@handles("artifact_picked_up")
def _artifact_picked_up(state: MatchState, data: Data) -> MatchState:
    return replace(state, carrier=data["unit"], last_carrier_player=data["player"])


@handles("artifact_handed_over")
def _artifact_handed_over(state: MatchState, data: Data) -> MatchState:
    return replace(state, carrier=data["to"])


@handles("artifact_dropped")
def _artifact_dropped(state: MatchState, data: Data) -> MatchState:
    return replace(state, carrier=None)


@handles("final_stage")
def _final_stage(state: MatchState, data: Data) -> MatchState:
    return replace(state, stage=Stage.FINAL, ending=data.get("reason", "last_round"))


@handles("conceded")
def _conceded(state: MatchState, data: Data) -> MatchState:
    return state


@handles("game_ended")
def _game_ended(state: MatchState, data: Data) -> MatchState:
    result = Result(tuple(data["winners"]), data["draw"], data["reason"])
    return replace(state, stage=Stage.OVER, result=result)
