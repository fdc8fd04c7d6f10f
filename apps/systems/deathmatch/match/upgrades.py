"""Stored Deathmatch events and snapshots brought forward from older schema versions.

Version 1 (before ``Attack.queued_hits``): an attack waiting to resolve automatic hits kept
the one it had queued in ``then`` as "auto:<cause>:<strength>[:<then>]". Version 2 lists them
in ``queued_hits``. Attacks sit in the events ``attack_declared`` and ``charge_moved`` and in
the snapshot's ``attack`` and ``charge``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from apps.systems.core.match import Event

ATTACK_EVENTS = frozenset({"attack_declared", "charge_moved"})
ATTACK_FIELDS = ("attack", "charge")


def attack_v1_to_v2(attack: Any) -> Any:
    """An attack with its queued automatic hit moved from ``then`` into ``queued_hits``."""
    if not isinstance(attack, Mapping):
        return attack
    then = attack.get("then", "")
    if not (isinstance(then, str) and then.startswith("auto:")):
        return attack
    _, cause, strength, *rest = then.split(":", 3)
    return {**attack, "queued_hits": [[cause, int(strength)]], "then": rest[0] if rest else ""}


def event_v1_to_v2(event: Event) -> Event:
    if event.type not in ATTACK_EVENTS:
        return event
    return Event(event.type, {**event.data, "attack": attack_v1_to_v2(event.data["attack"])})


def state_v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    return {**data, **{key: attack_v1_to_v2(data.get(key)) for key in ATTACK_FIELDS if key in data}}
