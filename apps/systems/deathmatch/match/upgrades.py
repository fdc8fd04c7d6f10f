"""Stored Deathmatch events and snapshots brought forward from older schema versions.

Version 1 (before ``Attack.queued_hits``): an attack waiting to resolve automatic hits kept
the one it had queued in ``then`` as "auto:<cause>:<strength>[:<then>]". Version 2 lists them
in ``queued_hits``. Attacks sit in the events ``attack_declared`` and ``charge_moved`` and in
the snapshot's ``attack`` and ``charge``.

Version 3 (the rulings of SPEC §6): a unit carries standing ``modifiers`` (a correction's), a
gadget the ``used_round`` it was used in, and ``gadget_used`` says that round. A station used
before version 3 has no known round (0): it stays usable as it was, so an old log replays to
its recorded outcome. The other rulings came with new events (``decks_kept``,
``ammo_restored``, ``gadgets_lapsed``) that old logs do not hold, or only change what a
command decides (its events record the outcome), so old logs keep their outcomes unchanged.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final

from apps.systems.core.match import Event
from apps.systems.deathmatch.match.serial import dump, load
from apps.systems.deathmatch.match.state import MODIFIER_NAMES, MatchState

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


def event_v2_to_v3(event: Event) -> Event:
    if event.type != "gadget_used":
        return event
    return Event(event.type, {**event.data, "round": 0})


# The defaults version 3 added, as ``serial.dump`` writes them.
NO_MODIFIERS: Final = dict.fromkeys(MODIFIER_NAMES, 0)


def state_v2_to_v3(data: dict[str, Any]) -> dict[str, Any]:
    units = [{**unit, "modifiers": dict(NO_MODIFIERS)} for unit in data.get("units", [])]
    gadgets = [{**gadget, "used_round": 0} for gadget in data.get("gadgets", [])]
    return {**data, "units": units, "gadgets": gadgets}


def state_v3_to_v4(data: dict[str, Any]) -> dict[str, Any]:
    """Version 4 gives the catalogue's rule texts an English version beside the German
    (``text_en``, ``summary_en``, ...; issue 13), empty in older snapshots: loading fills the
    defaults and dumping writes them, nothing else changes."""
    # Through JSON, as the database stores it (tuples become lists).
    upgraded: dict[str, Any] = json.loads(json.dumps(dump(load(data, MatchState))))
    return upgraded
