"""Golden logs: recorded complete matches of every engine (``tests/golden/<slug>/*.json``) must
replay to their recorded final states in every later release, through the engine's upgrade
functions. A change that breaks one needs an upgrade function, never a new golden file.

Some logs are stored in an older schema version on purpose (their ``version`` fields say so):
they show that a log and a snapshot written by the previous release still open."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from apps.systems.core.match import Event, replay
from apps.systems.core.registry import registry

GOLDEN = Path(__file__).resolve().parent
LOGS = sorted(GOLDEN.glob("*/*.json"))
ENGINES = [info.slug for info in registry().all() if info.matches is not None]
MIN_LOGS_PER_ENGINE = 3


def _json(value: Any) -> Any:
    """As stored: tuples are lists in JSON."""
    return json.loads(json.dumps(value))


def _load(path: Path) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    assert document["format"] == "skirmish-golden/1"
    return document


@pytest.mark.parametrize("slug", ENGINES)
def test_every_engine_has_golden_logs_of_complete_matches(slug: str) -> None:
    engine = registry().get(slug).matches
    assert engine is not None
    logs = [path for path in LOGS if path.parent.name == slug]
    assert len(logs) >= MIN_LOGS_PER_ENGINE, "record golden logs: python -m tests.golden.record"
    for path in logs:
        assert _load(path)["result"] is not None, f"{path.name} is not a complete match"


@pytest.mark.parametrize("path", LOGS, ids=[f"{p.parent.name}/{p.stem}" for p in LOGS])
def test_a_golden_log_replays_to_its_recorded_final_state(path: Path) -> None:
    document = _load(path)
    engine = registry().get(document["system"]).matches
    assert engine is not None
    events = [
        engine.upgrade_event(Event(e["type"], e["data"]), e["version"]) for e in document["events"]
    ]
    state = replay(engine, events)
    recorded = engine.upgrade_state(document["state"], document["state_version"])
    assert _json(engine.dump_state(state)) == recorded
    assert _json(engine.dump_state(engine.load_state(recorded))) == recorded
    assert engine.finished(state)
    assert dict(engine.result(state) or {}) == document["result"]
