"""JSON in and out of the match's dataclasses, and the dumb ``apply``.

Every Universalis event carries a ``patch``: the new values of the fields it changed, keyed by
``units`` (unit id → fields), ``players`` (index → fields) and ``state`` (fields).
``apply_patch`` writes them in, structured to each field's declared type; it checks no rule and
rolls no die, so replaying the log rebuilds exactly the stored state. It is the fallback of the
engine's ``APPLIERS``: an event with a shape of its own would register an applier there.

A patch names fields of ``Unit``, ``PlayerState`` and ``MatchState``: renaming or removing one
changes the shape of stored events, which needs a new ``schema_version`` and an upgrade (see
``docs/engine-contract.md``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, TypeVar, get_type_hints

from cattrs.preconf.json import make_converter

from apps.systems.core.engine import EventAppliers
from apps.systems.universalis.match.state import MatchState, PlayerState, Unit

_converter = make_converter(forbid_extra_keys=True)
_T = TypeVar("_T")


def dump(value: object) -> Any:
    return _converter.unstructure(value)


def load(data: object, cls: type[_T]) -> _T:
    return _converter.structure(data, cls)


_TYPES: dict[type, dict[str, Any]] = {}


def _types(cls: type) -> dict[str, Any]:
    if cls not in _TYPES:
        _TYPES[cls] = get_type_hints(cls)
    return _TYPES[cls]


def _patched(obj: _T, fields: Mapping[str, Any]) -> _T:
    types = _types(type(obj))
    changes = {name: _converter.structure(value, types[name]) for name, value in fields.items()}
    return dataclasses.replace(obj, **changes)  # type: ignore[type-var]


def apply_patch(state: MatchState, data: Mapping[str, Any]) -> MatchState:
    """The state with an event's ``patch`` written in."""
    patch = data.get("patch", {})
    if "state" in patch:
        state = _patched(state, patch["state"])
    if "players" in patch:
        players = list(state.players)
        for index, fields in patch["players"].items():
            players[int(index)] = _patched(players[int(index)], fields)
        state = dataclasses.replace(state, players=tuple(players))
    if "units" in patch:
        units = list(state.units)
        for unit_id, fields in patch["units"].items():
            units[int(unit_id)] = _patched(units[int(unit_id)], fields)
        state = dataclasses.replace(state, units=tuple(units))
    return state


APPLIERS: EventAppliers[MatchState] = EventAppliers(fallback=apply_patch)


def field_names(cls: type[Unit] | type[PlayerState] | type[MatchState]) -> frozenset[str]:
    return frozenset(_types(cls))
