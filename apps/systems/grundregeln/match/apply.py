"""``apply``: the state after one event. Dumb on purpose: no rule is checked and no die is rolled
here, so replaying a stored log always rebuilds the same state."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from apps.systems.core.engine import EventAppliers
from apps.systems.core.match import Event
from apps.systems.grundregeln.match.serial import load
from apps.systems.grundregeln.match.state import (
    Declared,
    MatchState,
    Model,
    Pending,
    Phase,
    PlayerState,
    Result,
    RollRecord,
    VpEntry,
)
from apps.systems.grundregeln.scenario import Scenario

Data = Mapping[str, Any]


class _NumberedAppliers(EventAppliers[MatchState]):
    """The appliers by event type; every event also moves the command counter on to the
    command number ``n`` it carries (the next command's events are stamped ``n + 1``)."""

    def apply(self, state: MatchState, event: Event) -> MatchState:
        state = super().apply(state, event)
        number = event.data.get("n")
        if isinstance(number, int) and number > state.command_no:
            state = replace(state, command_no=number)
        return state


APPLIERS: EventAppliers[MatchState] = _NumberedAppliers()
handles = APPLIERS.event


def _record(kind: str, roll: Data, **fields: Any) -> RollRecord:
    return RollRecord(
        kind=kind,
        dice=tuple(roll["dice"]),
        extra=tuple(roll.get("extra", ())),
        rerolled=tuple(roll.get("rerolled", ())),
        **fields,
    )


def _odds(data: Data) -> tuple[tuple[str, str], ...]:
    return tuple((str(code), str(value)) for code, value in data.get("odds", ()))


def _with_rolls(state: MatchState, data: Data, *records: RollRecord) -> MatchState:
    """Add dice to the panel; the first dice of a new command replace the last command's."""
    batch = int(data.get("n", state.roll_batch))
    kept = state.rolls if batch == state.roll_batch else ()
    return replace(state, rolls=(*kept, *records), roll_batch=batch)


def _unengage(state: MatchState, unit: int, others: tuple[int, ...] | None = None) -> MatchState:
    """End the melee between ``unit`` and ``others`` (everyone it fights when None)."""
    partners = state.models[unit].engaged if others is None else others
    state = state.with_model(
        unit, engaged=tuple(m for m in state.models[unit].engaged if m not in partners)
    )
    for partner in partners:
        model = state.models[partner]
        state = state.with_model(partner, engaged=tuple(m for m in model.engaged if m != unit))
    return state


def _engage(state: MatchState, a: int, b: int) -> MatchState:
    for one, two in ((a, b), (b, a)):
        model = state.models[one]
        if two not in model.engaged:
            state = state.with_model(one, engaged=(*model.engaged, two))
    return state


@handles("match_started")
def _match_started(state: MatchState, data: Data) -> MatchState:
    return MatchState(
        mode=data["mode"],
        scenario=load(data["scenario"], Scenario),
        players=load(data["players"], tuple[PlayerState, ...]),
        models=load(data["models"], tuple[Model, ...]),
        phase=Phase.ROUND_START,
        round=1,
        command_no=int(data.get("n", 0)),
    )


@handles("round_start_rolled")
def _round_start_rolled(state: MatchState, data: Data) -> MatchState:
    records = []
    odds = [str(p) for p in data["odds"]]
    for rolls in data["rolls"]:
        for player, roll in enumerate(rolls):
            records.append(
                _record(
                    "round_start",
                    roll,
                    player=player,
                    result=sum(roll["dice"]) + sum(roll["extra"]) + data["morale"][player],
                    odds=(("win", odds[player]),),
                )
            )
    state = _with_rolls(state, data, *records)
    return replace(state, roll_winner=data["winner"], phase=Phase.STARTER)


@handles("starter_chosen")
def _starter_chosen(state: MatchState, data: Data) -> MatchState:
    return replace(state, starter=data["player"], turn=data["player"], phase=Phase.ACTIONS)


@handles("morale_tested")
def _morale_tested(state: MatchState, data: Data) -> MatchState:
    record = _record(
        "morale",
        data["roll"],
        unit=data["unit"],
        need=4,
        result=data["successes"],
        odds=_odds(data),
        label=str(data["lost"]),
    )
    state = _with_rolls(state, data, record)
    if data["reason"] == "activation" and data["passed"]:
        state = replace(state, rallied=data["unit"])
    return state


@handles("fled")
def _fled(state: MatchState, data: Data) -> MatchState:
    unit = data["unit"]
    record = _record("flight", data["roll"], unit=unit, result=data["distance"], odds=_odds(data))
    state = _with_rolls(state, data, record)
    state = _unengage(state, unit).with_model(unit, fleeing=True)
    if data.get("activation"):
        state = state.with_model(unit, activated=True)
    return state


def _declared(data: Data) -> Declared:
    return Declared(
        unit=data["unit"],
        action=data["action"],
        target=data.get("target"),
        weapon=data.get("weapon"),
        modifier=data.get("modifier", 0),
        note=data.get("note", ""),
        dice=data.get("dice"),
    )


@handles("action_declared")
def _action_declared(state: MatchState, data: Data) -> MatchState:
    pending = Pending(
        action=_declared(data), reacting=tuple(data["reacting"]), mover=data.get("mover")
    )
    state = replace(state, pending=pending, rallied=None)
    return state.with_model(data["unit"], activated=True)


@handles("reaction_declared")
def _reaction_declared(state: MatchState, data: Data) -> MatchState:
    assert state.pending is not None
    pending = replace(state.pending, reactions=(*state.pending.reactions, _declared(data)))
    # A reaction marks the model (l. 72): before its activation that was its one action of the
    # round; a model that has acted already keeps its marker and has used its reaction.
    return replace(state, pending=pending).with_model(data["unit"], activated=True, reacted=True)


@handles("reaction_moved")
def _reaction_moved(state: MatchState, data: Data) -> MatchState:
    assert state.pending is not None
    reactions = list(state.pending.reactions)
    index = data["index"]
    reactions[index - 1], reactions[index] = reactions[index], reactions[index - 1]
    return replace(state, pending=replace(state.pending, reactions=tuple(reactions)))


def _resolved(declared: Declared, data: Data) -> Declared:
    """Resolved, with what the table measured then (version 2: an attack's modifier, a melee
    attack's new target); a version-1 event measured nothing."""
    measured = {key: data[key] for key in ("target", "modifier") if key in data}
    return replace(declared, resolved=True, possible=data["possible"], **measured)


@handles("reaction_resolved")
def _reaction_resolved(state: MatchState, data: Data) -> MatchState:
    assert state.pending is not None
    reactions = list(state.pending.reactions)
    index = data["index"]
    reactions[index] = _resolved(reactions[index], data)
    pending = replace(state.pending, reactions=tuple(reactions), closed=True)
    return replace(state, pending=pending)


@handles("action_resolved")
def _action_resolved(state: MatchState, data: Data) -> MatchState:
    assert state.pending is not None
    action = _resolved(state.pending.action, data)
    return replace(state, pending=replace(state.pending, action=action, closed=True))


@handles("range_rolled")
def _range_rolled(state: MatchState, data: Data) -> MatchState:
    assert state.pending is not None
    unit = data["unit"]
    kind = "flight" if data["action"] == "flee" else "move"
    record = _record(kind, data["roll"], unit=unit, result=data["distance"], odds=_odds(data))
    state = replace(state, pending=replace(state.pending, distance=data["distance"]))
    return _with_rolls(state, data, record)


@handles("moved")
def _moved(state: MatchState, data: Data) -> MatchState:
    unit = data["unit"]
    if "roll" in data:
        kind = "flight" if data["action"] == "flee" else "move"
        record = _record(kind, data["roll"], unit=unit, result=data["distance"], odds=_odds(data))
        state = _with_rolls(state, data, record)
    if data["action"] in ("disengage", "flee"):
        state = _unengage(state, unit)
    if data["action"] == "flee":
        state = state.with_model(unit, fleeing=True)
    return state


@handles("attacked")
def _attacked(state: MatchState, data: Data) -> MatchState:
    target, attacker = data["target"], data.get("attacker")
    records = [
        _record(
            "fall" if attacker is None else "hit",
            data["hit"],
            unit=attacker,
            other=target,
            need=data["hit_value"],
            result=data["hits"],
            odds=_odds(data),
        )
    ]
    if data["damage"]["dice"]:
        records.append(
            _record(
                "damage",
                data["damage"],
                unit=attacker,
                other=target,
                need=data["damage_value"],
                result=data["successes"],
                cancelled=tuple(data["cancelled"]),
            )
        )
    if data["defence"]["dice"]:
        records.append(
            _record("defence", data["defence"], unit=target, result=len(data["cancelled"]))
        )
    state = _with_rolls(state, data, *records)
    model = state.models[target]
    lp = max(0, model.lp - data["lost"])
    changes: dict[str, object] = {"lp": lp}
    if lp == 0 and model.lp > 0:
        changes["killed_by"] = data.get("side")
    state = state.with_model(target, **changes)
    if attacker is not None:
        if data.get("melee"):
            state = _engage(state, attacker, target)
        if data.get("unloads") and data.get("weapon") is not None:
            shooter = state.models[attacker]
            state = state.with_model(attacker, unloaded=(*shooter.unloaded, data["weapon"]))
    return state


@handles("pushed")
def _pushed(state: MatchState, data: Data) -> MatchState:
    record = _record(
        "push",
        data["roll"],
        unit=data["unit"],
        other=data["target"],
        result=data["distance"],
        odds=_odds(data),
    )
    state = _with_rolls(state, data, record)
    return _unengage(state, data["unit"], (data["target"],))


@handles("casualties_removed")
def _casualties_removed(state: MatchState, data: Data) -> MatchState:
    for unit in data["units"]:
        state = _unengage(state, unit).with_model(unit, out=True)
    for entry in data.get("vp", ()):
        player = state.players[entry["player"]]
        vp = VpEntry(state.round, entry["points"], entry["reason"], entry.get("detail", ""))
        state = state.with_player(entry["player"], vp=(*player.vp, vp))
    return state


@handles("activation_ended")
def _activation_ended(state: MatchState, data: Data) -> MatchState:
    return replace(state, pending=None, rallied=None, turn=data.get("next"))


@handles("round_ended")
def _round_ended(state: MatchState, data: Data) -> MatchState:
    models = tuple(replace(m, activated=False, reacted=False, blocking=False) for m in state.models)
    players = tuple(replace(p, npc_moves=0, npc_done=False) for p in state.players)
    return replace(state, models=models, players=players, pending=None, rallied=None, turn=None)


@handles("npc_phase_started")
def _npc_phase_started(state: MatchState, data: Data) -> MatchState:
    if data["step"] == "actions":
        return replace(state, phase=Phase.NPC_ACTIONS, turn=None)
    return replace(state, phase=Phase.NPC_MOVES, turn=data["turn"])


@handles("npc_skipped")
def _npc_skipped(state: MatchState, data: Data) -> MatchState:
    return replace(state, rallied=None).with_model(data["unit"], activated=True)


@handles("npc_moved")
def _npc_moved(state: MatchState, data: Data) -> MatchState:
    # Only events stored before commit 1eeb848 carry the move's roll: "move_npc" moved the NPC
    # at once then; now the move is declared and its dice come with the resolution. Kept so
    # that matches stored then still replay.
    if "roll" in data:
        record = _record(
            "move", data["roll"], unit=data["unit"], result=data["distance"], odds=_odds(data)
        )
        state = _with_rolls(state, data, record)
    player = state.players[data["player"]]
    state = state.with_player(data["player"], npc_moves=player.npc_moves + 1)
    return replace(state, turn=data.get("next"), pending=None).with_model(
        data["unit"], activated=True
    )


@handles("npc_moves_done")
def _npc_moves_done(state: MatchState, data: Data) -> MatchState:
    return replace(state.with_player(data["player"], npc_done=True), turn=data.get("next"))


@handles("scoring_started")
def _scoring_started(state: MatchState, data: Data) -> MatchState:
    return replace(state, phase=Phase.SCORING, turn=None)


@handles("round_scored")
def _round_scored(state: MatchState, data: Data) -> MatchState:
    state = replace(state, holders=tuple(data["holders"]))
    for entry in data["vp"]:
        player = state.players[entry["player"]]
        vp = VpEntry(state.round, entry["points"], entry["reason"], entry.get("detail", ""))
        state = state.with_player(entry["player"], vp=(*player.vp, vp))
    return state


@handles("round_started")
def _round_started(state: MatchState, data: Data) -> MatchState:
    # The NPC phase's markers and blocks (it comes after the round end) go now.
    models = tuple(replace(m, activated=False, reacted=False, blocking=False) for m in state.models)
    return replace(
        state,
        models=models,
        round=data["round"],
        phase=Phase.ROUND_START,
        roll_winner=None,
        starter=None,
        turn=None,
        pending=None,
    )


@handles("game_ended")
def _game_ended(state: MatchState, data: Data) -> MatchState:
    result = Result(winners=tuple(data["winners"]), draw=data["draw"], reason=data["reason"])
    return replace(state, phase=Phase.OVER, result=result, pending=None, turn=None)


@handles("free_rolled")
def _free_rolled(state: MatchState, data: Data) -> MatchState:
    record = _record(
        "free",
        data["roll"],
        player=data.get("player"),
        result=data["total"],
        label=data.get("label", ""),
        need=data.get("need"),
        odds=_odds(data),
    )
    return _with_rolls(state, data, record)


@handles("adjusted")
def _adjusted(state: MatchState, data: Data) -> MatchState:
    changes: dict[str, object] = {}
    if "lp" in data:
        changes["lp"] = data["lp"]
        if data["lp"] == 0:
            changes["killed_by"] = None
    if "fleeing" in data:
        changes["fleeing"] = data["fleeing"]
    return state.with_model(data["unit"], **changes)


@handles("vp_adjusted")
def _vp_adjusted(state: MatchState, data: Data) -> MatchState:
    player = state.players[data["player"]]
    entry = VpEntry(state.round, data["points"], "adjusted", data.get("note", ""))
    return state.with_player(data["player"], vp=(*player.vp, entry))


@handles("weapon_switched")
def _weapon_switched(state: MatchState, data: Data) -> MatchState:
    return state.with_model(data["unit"], ready_weapon=data["weapon"])


@handles("reloaded")
def _reloaded(state: MatchState, data: Data) -> MatchState:
    model = state.models[data["unit"]]
    return state.with_model(
        data["unit"], unloaded=tuple(w for w in model.unloaded if w != data["weapon"])
    )


@handles("morale_restored")
def _morale_restored(state: MatchState, data: Data) -> MatchState:
    return state.with_model(data["unit"], fleeing=False)


@handles("blocked")
def _blocked(state: MatchState, data: Data) -> MatchState:
    return state.with_model(data["unit"], blocking=True)


@handles("item_used")
@handles("conceded")
def _noted(state: MatchState, data: Data) -> MatchState:
    """Events that only the log reads (an item used, a scenario action, a concession)."""
    return state


def apply(state: MatchState, event: Event) -> MatchState:
    return APPLIERS.apply(state, event)
