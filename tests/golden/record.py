"""Record a golden log: a complete sample match of one engine, played by the random-play policy
from a seed, written to ``tests/golden/<slug>/<name>.json`` with its final state.

Only for adding a new golden log (a new system, a new kind of match worth keeping). Never
re-record an existing one to make a failing golden test pass: write an upgrade function.

    .venv/bin/python -m tests.golden.record deathmatch 3 flag-rush
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

from apps.systems.core.match import Event, replay
from apps.systems.core.registry import registry
from tests.systems.samples import SAMPLE_MATCHES
from tests.systems.test_random_play import STEP_CAP, _offered, _pick

GOLDEN = Path(__file__).resolve().parent
FORMAT = "skirmish-golden/1"


def play(slug: str, seed: int) -> tuple[list[Event], Any]:
    """A whole match from ``seed``; raises if it does not end within the step cap."""
    engine = registry().get(slug).matches
    assert engine is not None
    rng = random.Random(seed)
    events = engine.start(SAMPLE_MATCHES[slug](seed), random.Random(seed))
    state = replay(engine, events)
    for _step in range(STEP_CAP):
        if engine.finished(state):
            return events, state
        legal = [o for o in _offered(engine, state) if o.refusal is None]
        new = engine.decide(state, _pick(legal, rng), rng)
        for event in new:
            state = engine.apply(state, event)
        events += new
    raise RuntimeError(f"seed {seed} does not end within {STEP_CAP} steps")


def document(slug: str, seed: int, events: list[Event], state: Any) -> dict[str, Any]:
    engine = registry().get(slug).matches
    assert engine is not None
    return {
        "format": FORMAT,
        "system": slug,
        "seed": seed,
        "events": [
            {"type": e.type, "data": dict(e.data), "version": engine.schema_version} for e in events
        ],
        "state": engine.dump_state(state),
        "state_version": engine.schema_version,
        "result": engine.result(state),
    }


def dumps(document: dict[str, Any]) -> str:
    """Compact JSON with one event per line, so that a diff shows which events changed."""

    def compact(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)

    head = {key: value for key, value in document.items() if key not in ("events", "state")}
    lines = [f'  "{key}": {compact(value)},' for key, value in head.items()]
    events = ",\n".join(f"    {compact(event)}" for event in document["events"])
    return (
        "{\n"
        + "\n".join(lines)
        + f'\n  "events": [\n{events}\n  ],\n'
        + (f'  "state": {compact(document["state"])}\n}}\n')
    )


def main(slug: str, seed: str, name: str) -> None:
    path = GOLDEN / slug / f"{name}.json"
    if path.exists():
        raise SystemExit(f"{path} exists: golden logs are never re-recorded")
    events, state = play(slug, int(seed))
    path.parent.mkdir(exist_ok=True)
    path.write_text(dumps(document(slug, int(seed), events, state)), encoding="utf-8")
    print(f"{path}: {len(events)} events")


if __name__ == "__main__":
    main(*sys.argv[1:])
