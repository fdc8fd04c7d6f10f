"""Every registered engine survives seeded random play through its own tracker screens (as
OpenSpiel's games_sim_test does for its games): many games, each picking random commands the
screens offer as legal, until it ends or reaches a step cap.

After every step: every command a screen offers as legal is accepted, every disabled button is
refused with the code its reason names, the snapshot survives JSON, and the log replays to the
snapshot. A new rule system must pass this before it lands (add it to ``SAMPLE_MATCHES``)."""

from __future__ import annotations

import json
import os
import random
from collections.abc import Sequence
from typing import Any

import pytest

from apps.systems.core.errors import RuleViolation
from apps.systems.core.legality import Option
from apps.systems.core.match import Command, Event, MatchEngine, replay
from apps.systems.core.registry import registry
from tests.systems.samples import SAMPLE_MATCHES

ENGINES = {info.slug: info.matches for info in registry().all() if info.matches is not None}
# More games with SKIRMISH_RANDOM_GAMES=<n> (e.g. before a release); a few in every run.
GAMES = int(os.environ.get("SKIRMISH_RANDOM_GAMES", "3"))
STEP_CAP = 400
# Commands for what the tracker does not model (free flips and rolls, corrections) and giving
# up: offered, legal and played, but rarely, so that games still reach their end.
SIDE_COMMANDS = frozenset(
    {"flip", "roll", "fall", "adjust", "adjust_vp", "adjust_cp", "auto_hit", "concede", "surrender"}
)
SIDE_WEIGHT = 0.03
# A full replay from the first event every so many steps (and at the end): replaying after
# every step would make the test quadratic in the game's length.
REPLAY_EVERY = 25


def test_every_engine_has_a_sample_match() -> None:
    assert set(ENGINES) <= set(SAMPLE_MATCHES), "add the new system to tests/systems/samples.py"


def _pick(options: Sequence[Option], rng: random.Random) -> Command:
    weights = [SIDE_WEIGHT if o.command.type in SIDE_COMMANDS else 1.0 for o in options]
    return rng.choices([o.command for o in options], weights=weights)[0]


def _check_disabled(engine: MatchEngine, state: Any, options: Sequence[Option]) -> None:
    """A disabled button is refused by the real decision (not a probe) with its code."""
    for option in options:
        if option.refusal is None:
            continue
        with pytest.raises(RuleViolation) as refused:
            engine.decide(state, option.command, random.Random(7))
        assert refused.value.code == option.refusal.code, option.command


def _offered(engine: MatchEngine, state: Any) -> list[Option]:
    """Every command the screens offer, after checking that each screen's buttons carry the
    engine's verdict on the command they send."""
    legality = engine.legality(state)  # type: ignore[attr-defined]
    # An engine whose seats see buttons a spectator does not (``seat_screens``) is walked
    # seat by seat; a spectator sees no more than either seat.
    viewers = (0, 1) if getattr(engine, "seat_screens", False) else (None,)
    screens = [
        screen
        for viewer in viewers
        for screen in engine.reachable_screens(state, viewer=viewer, legality=legality)  # type: ignore[attr-defined]
    ]
    assert screens, "the tracker shows no screen"
    for params, view in screens:
        sent = [button for button in view.command_buttons() if button.sends is not None]
        for button in sent:
            refusal = legality.refusal(button.sends)
            assert (refusal.code if refusal else "") == button.code, button
        if "wizard" in params:
            # An enabled wizard button promised a legal choice: the wizard must offer it.
            assert any(button.enabled for button in sent), f"nothing to choose in {params}"
    return list(legality.options())


def played_game(engine: MatchEngine, setup: Any, seed: int) -> tuple[list[Event], Any, list[Any]]:
    """A whole game from ``setup`` of commands the screens offer, picked with ``seed``: its
    events, the final state and every state on the way (for tests of what the screens show)."""
    rng = random.Random(seed)
    events = engine.start(setup, random.Random(seed))
    state = replay(engine, events)
    states = [state]
    while not engine.finished(state):
        legal = [option for option in _offered(engine, state) if option.refusal is None]
        new = engine.decide(state, _pick(legal, rng), rng)
        for event in new:
            state = engine.apply(state, event)
        events += new
        states.append(state)
    return events, state, states


def _same(engine: MatchEngine, a: Any, b: Any) -> bool:
    return engine.dump_state(a) == engine.dump_state(b)


@pytest.mark.parametrize(
    ("slug", "seed"), [(slug, seed) for slug in sorted(ENGINES) for seed in range(GAMES)]
)
def test_seeded_random_play_through_the_screens(slug: str, seed: int) -> None:
    engine = ENGINES[slug]
    assert engine is not None
    rng = random.Random(seed)
    events: list[Event] = engine.start(SAMPLE_MATCHES[slug](seed), random.Random(seed))
    state = replay(engine, events)
    for step in range(STEP_CAP):
        if engine.finished(state):
            break
        options = _offered(engine, state)
        legal = [o for o in options if o.refusal is None]
        assert legal, f"step {step}: the screens offer nothing legal"
        if step % 10 == 0:
            _check_disabled(engine, state, options)
        command = _pick(legal, rng)
        try:
            new = engine.decide(state, command, rng)
        except RuleViolation as error:  # pragma: no cover - the message says it all
            pytest.fail(f"step {step}: {command} was offered as legal, refused: {error!r}")
        for event in new:
            state = engine.apply(state, json_round_trip(event))
        events += new
        snapshot = engine.load_state(json.loads(json.dumps(engine.dump_state(state))))
        assert _same(engine, snapshot, state)
        if step % REPLAY_EVERY == 0:
            assert _same(engine, replay(engine, events), state), f"step {step}: replay differs"
    assert _same(engine, replay(engine, events), state)


def json_round_trip(event: Event) -> Event:
    """The event as it comes back from the database."""
    return Event(event.type, json.loads(json.dumps(dict(event.data))))
