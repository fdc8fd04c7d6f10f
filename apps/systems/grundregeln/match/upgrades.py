"""Stored Grundregeln events and snapshots brought forward from older schema versions.

Version 2: ``reaction_resolved`` and ``action_resolved`` may carry what the table measured when
an attack was resolved, after the reactions (Nahkampf and Fernkampf, step 4-5): ``modifier``
(the attack dice modifier) and, for a melee attack, ``target`` ("Angriff umlenken"). A
version-1 resolution measured nothing: the declared modifier and target stood, which is what a
version-2 resolution without the two keys means. Version 2 also rolls a move's range before the
reactions are carried out (Bewegung, l. 84-85): a ``range_rolled`` event, kept in the exchange
as ``Pending.distance``, and a ``moved`` event without dice. A version-1 log has no such event:
its moves carry their own dice, which version 2 still reads, and a version-1 snapshot has no
``distance`` (None: nothing rolled yet). So a version-1 event is a version-2 event as it is,
and a version-1 snapshot loads as it is.
"""

from __future__ import annotations

import json
from typing import Any

from apps.systems.core.match import Event
from apps.systems.grundregeln.match.serial import dump, load
from apps.systems.grundregeln.match.state import MatchState


def event_v1_to_v2(event: Event) -> Event:
    return event


def state_v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    return data


def state_v2_to_v3(data: dict[str, Any]) -> dict[str, Any]:
    """Version 3 gives the catalogue's rule texts an English version beside the German
    (``text_en``, ``summary_en``, ...; issue 13), empty in older snapshots: loading fills the
    defaults and dumping writes them, nothing else changes."""
    # Through JSON, as the database stores it (tuples become lists).
    upgraded: dict[str, Any] = json.loads(json.dumps(dump(load(data, MatchState))))
    return upgraded
