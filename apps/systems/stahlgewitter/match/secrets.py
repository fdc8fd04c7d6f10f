"""What each seat may see: a player's marker→unit mapping stays secret from the opponent (and
from spectators) until the marker is revealed ("Das Ganze dient dazu, den Gegner vor Beginn der
Schlacht über die Zusammensetzung und Positionierung seiner Truppen im Unklaren zu lassen").

The state hides, for the other seats, which unit stands behind each unrevealed marker and
what a hidden unit did this round (activated, ready, blitzed, moved); events about a hidden
unit name its marker and leave the unit out."""

from __future__ import annotations

from typing import Any

from apps.systems.core.match import Event
from apps.systems.stahlgewitter.match.state import MatchState

_UNIT_SECRETS = {
    "activated_round": 0,
    "ready_round": 0,
    "blitzed_round": 0,
    "ready": False,
    "panic": False,
    "mutinied": False,
}
_MODEL_SECRETS = {"moved": "", "acted": "", "wakes": False, "prone": False}
# What an event about a hidden unit says that would name it (its models, the tested model's
# WIK and the chances that follow from it), left out for every other seat.
_EVENT_SECRETS = (
    "unit",
    "models",
    "woke",
    "model",
    "wik",
    "value",
    "p_pass",
    "weights",
    "denominator",
    "reroll",
    "modifier",
)
_POINTERS = ("active", "blitz", "interrupted", "last_unit")


def hidden_from(state: MatchState, unit_id: int | None, viewer: int | None) -> bool:
    """The unit is hidden behind its marker and ``viewer`` is not its owner."""
    if unit_id is None:
        return False
    unit = state.units[unit_id]
    return not unit.revealed and unit.player != viewer


def public_state(data: dict[str, Any], state: MatchState, viewer: int | None) -> dict[str, Any]:
    for marker in data["markers"]:
        if marker["player"] != viewer and not marker["revealed"]:
            marker["unit"] = None
    for unit in data["units"]:
        if hidden_from(state, unit["id"], viewer):
            unit.update(_UNIT_SECRETS)
            for model in unit["models"]:
                data["models"][model].update(_MODEL_SECRETS)
    for key in _POINTERS:
        if hidden_from(state, data.get(key), viewer):
            data[key] = None
    return data


def public_event(event: Event, viewer: int | None) -> dict[str, Any]:
    data = dict(event.data)
    if event.type == "unit_hidden":
        if data["player"] != viewer:
            data["unit"] = None
            data["marker"] = None
        return data
    if event.type == "match_started":
        return data
    owner = data.get("player")
    if data.get("marker") is not None and owner != viewer and event.type != "marker_revealed":
        for key in _EVENT_SECRETS:
            if key in data:
                data[key] = [] if isinstance(data[key], list) else None
    if data.get("interrupted_marker") is not None and owner is not None and viewer != 1 - owner:
        data["interrupted"] = None
    return data
