"""After every test, replay each game it played from the log and compare with its state."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from apps.systems.core.match import replay
from tests.systems.grundregeln.match.helpers import ENGINE, PLAYED, roundtrip


@pytest.fixture(autouse=True)
def replay_equals_snapshot() -> Iterator[None]:
    PLAYED.clear()
    yield
    for game in PLAYED:
        rebuilt = replay(ENGINE, [roundtrip(event) for event in game.log])
        snapshot = ENGINE.load_state(ENGINE.dump_state(game.state))
        assert ENGINE.dump_state(rebuilt) == ENGINE.dump_state(snapshot)
    PLAYED.clear()
