"""Deathmatch payloads written back into the shape of schema version 1, for the tests that show
a log and a snapshot of the previous release still open (see ``match/upgrades.py``)."""

from __future__ import annotations

from typing import Any

from apps.systems.core.match import Event


def v1_attack(attack: dict[str, Any] | None) -> dict[str, Any] | None:
    """An attack as version 1 stored it: its queued automatic hit encoded in ``then``."""
    if attack is None:
        return None
    rest = {key: value for key, value in attack.items() if key != "queued_hits"}
    queued = attack.get("queued_hits") or []
    if not queued:
        return rest
    assert len(queued) == 1, "version 1 queued one automatic hit at most"
    ((cause, strength),) = queued
    then = f"auto:{cause}:{strength}" + (f":{attack['then']}" if attack.get("then") else "")
    return {**rest, "then": then}


def v1_event_data(event: Event) -> dict[str, Any]:
    data = dict(event.data)
    if event.type in ("attack_declared", "charge_moved"):
        data["attack"] = v1_attack(data["attack"])
    return data


def v1_snapshot(snapshot: dict[str, Any]) -> dict[str, Any]:
    return {
        **snapshot,
        "attack": v1_attack(snapshot["attack"]),
        "charge": v1_attack(snapshot["charge"]),
    }
