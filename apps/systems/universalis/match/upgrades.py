"""Stored Universalis snapshots brought forward from older schema versions.

Version 2 (the rulings of SPEC §6) added fields, each with a default that means "as before":
``Unit.engaged`` (the melee opponents), ``Unit.must_attack`` (a failed direct-threat test),
``Unit.ambush_round`` (an attack out of camouflage), ``LastAction.left`` (whom a disengaging
model left), ``MatchState.charge`` (a charge waiting for its attack) and
``MatchState.panic_moves_due`` (the round start's panic moves). Version-1 events need no
upgrade: their patches name only fields that still exist with the same meaning, and a patch
(or ``match_started``'s whole state) without the new fields leaves their defaults. A version-1
snapshot gets the defaults written in, so it loads and equals a replay of its log.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from apps.systems.universalis.match.serial import dump, load
from apps.systems.universalis.match.state import MatchState

UNIT_V2: Mapping[str, Any] = {"engaged": [], "must_attack": [], "ambush_round": 0}
STATE_V2: Mapping[str, Any] = {"charge": None, "panic_moves_due": []}


def state_v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    upgraded = {**STATE_V2, **data}
    upgraded["units"] = [{**UNIT_V2, **unit} for unit in data.get("units", [])]
    last = data.get("last_action")
    if isinstance(last, Mapping):
        upgraded["last_action"] = {"left": [], **last}
    return upgraded


def state_v2_to_v3(data: dict[str, Any]) -> dict[str, Any]:
    """Version 3 gives the catalogue's rule texts an English version beside the German
    (``text_en``, ``summary_en``, ...; issue 13), empty in older snapshots: loading fills the
    defaults and dumping writes them, nothing else changes."""
    # Through JSON, as the database stores it (tuples become lists).
    upgraded: dict[str, Any] = json.loads(json.dumps(dump(load(data, MatchState))))
    return upgraded
