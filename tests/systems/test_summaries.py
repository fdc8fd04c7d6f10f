"""The Grundregeln and Universalis summaries (``match/summary.py``) read from golden logs.

The numbers are those of the recorded matches; each is checked against the events it comes
from (LP lost in ``attacked``, HP lost in ``hp_lost``), and the luck expectations against the
exact odds each roll recorded, added up here by hand."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

from apps.systems.core.match import Event, replay
from apps.systems.core.registry import registry
from apps.systems.core.summary import Summary

GOLDEN = Path(__file__).resolve().parent.parent / "golden"


def _summary(slug: str, name: str) -> tuple[Summary, list[Event]]:
    document = json.loads((GOLDEN / slug / f"{name}.json").read_text())
    engine = registry().get(slug).matches
    assert engine is not None
    events = [
        engine.upgrade_event(Event(e["type"], e["data"]), e.get("version", 1))
        for e in document["events"]
    ]
    summary = engine.summary(events, replay(engine, events))
    assert summary is not None
    return summary, events


def _odds(data: dict[str, Any], name: str) -> Fraction:
    return Fraction(next(value for key, value in data["odds"] if key == name))


def test_grundregeln_summary_of_a_recorded_match() -> None:
    summary, events = _summary("grundregeln", "seed-1")
    anna, ben = summary.players
    assert summary.finished and summary.rounds == 4
    assert anna.points_by_round == (0, 1, 0, 0) and ben.points_by_round == (0, 0, 0, 0)
    attacks = [e.data for e in events if e.type == "attacked"]
    assert sum(m.taken for m in summary.models) == sum(a["lost"] for a in attacks) == 9
    assert [(m.unit, m.dealt, m.knock_outs) for m in summary.models if m.dealt] == [
        (2, 2, 1),
        (4, 1, 0),
    ]
    assert summary.mvp == 2  # the only model with a knock-out


def test_grundregeln_luck_adds_the_recorded_expectations() -> None:
    summary, events = _summary("grundregeln", "seed-1")
    attacks, morale = summary.players[0].luck
    anna_attacks = [e.data for e in events if e.type == "attacked" and e.data.get("side") == 0]
    assert attacks.count == len(anna_attacks) == 2
    assert attacks.observed == 2
    assert attacks.expected == sum(_odds(a, "expected") for a in anna_attacks) == Fraction(637, 432)
    assert (morale.count, morale.observed, morale.expected) == (5, 5, Fraction(865495, 186624))


def test_universalis_summary_of_a_recorded_match() -> None:
    summary, events = _summary("universalis", "seed-0")
    anna, ben = summary.players
    # The Späherdrohne (unit 3) fell to poison: its points go to Ben, no model knocked it out.
    assert anna.points_by_round == (0,) and ben.points_by_round == (20,)
    drone = summary.model(3)
    assert drone is not None and drone.knocked_out == 1
    assert sum(m.knock_outs for m in summary.models) == 0
    lost = sum(e.data["amount"] for e in events if e.type == "hp_lost")
    assert sum(m.taken for m in summary.models) == lost
    shots, wounds = anna.luck
    assert (shots.count, shots.observed, shots.expected) == (2, 1, Fraction(13, 12))
    assert (wounds.count, wounds.observed, wounds.expected) == (4, 2, Fraction(739, 576))
