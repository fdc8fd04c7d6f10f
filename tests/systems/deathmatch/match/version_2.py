"""Deathmatch payloads written back into the shape of schema version 2, for the tests that show
a log and a snapshot of the previous release still open (see ``match/upgrades.py``): no
standing ``modifiers`` on units, no ``used_round`` on gadgets, no ``round`` in
``gadget_used``."""

from __future__ import annotations

from typing import Any

from apps.systems.core.match import Event


def v2_event_data(event: Event) -> dict[str, Any]:
    data = dict(event.data)
    if event.type == "gadget_used":
        del data["round"]
    if "units" in data:  # match_started, gadgets_placed
        data["units"] = [_v2_unit(unit) for unit in data["units"]]
    if "gadgets" in data and event.type == "gadgets_placed":
        data["gadgets"] = [_v2_gadget(gadget) for gadget in data["gadgets"]]
    return data


def _v2_unit(unit: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in unit.items() if key != "modifiers"}


def _v2_gadget(gadget: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in gadget.items() if key != "used_round"}


def v2_snapshot(snapshot: dict[str, Any]) -> dict[str, Any]:
    return {
        **snapshot,
        "units": [_v2_unit(unit) for unit in snapshot["units"]],
        "gadgets": [_v2_gadget(gadget) for gadget in snapshot["gadgets"]],
    }
