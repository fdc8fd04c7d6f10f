"""Undo from stored snapshots (issue 16): the state an undo stores and the events it logs are
exactly those of the full replay it replaces, in random play with undos after undos, across
snapshot boundaries, from a snapshot in an older schema version or an unreadable one; and an
undo makes as many queries at 1,000 events as at 100."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.matches import snapshots
from apps.matches.models import UNDO_EVENT, Match, MatchEvent, MatchSnapshot
from apps.matches.selectors import (
    can_undo,
    effective_events,
    engine_for,
    event_rows,
    match_state,
    undone_groups,
    undone_groups_of,
)
from apps.matches.services import match_apply_command, match_rebuilt_state
from apps.systems.core.match import Command, replay
from bench.long_logs import grow
from tests.matches.factories import small_match
from tests.systems.deathmatch.match.version_1 import v1_snapshot
from tests.systems.test_random_play import _offered, _pick

pytestmark = pytest.mark.django_db

EVERY = 7  # a snapshot every few events, so that random play crosses many of them


@pytest.fixture(autouse=True)
def small_interval(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(snapshots, "SNAPSHOT_EVERY", EVERY)


def undo_by_full_replay(match: Match) -> tuple[dict[str, Any], list[tuple[str, Any]]]:
    """What an undo stored and logged before snapshots: the state replayed from the whole log
    without the last command standing, with what the engine keeps of it (the reference)."""
    engine = engine_for(match)
    rows = list(event_rows(match))
    undone = undone_groups(rows)
    undos = {row.group for row in rows if row.type == UNDO_EVENT}
    target = max(row.group for row in rows if row.group not in undos | undone)
    assert target != rows[0].group
    current = match_state(match)
    state = replay(engine, effective_events(engine, [row for row in rows if row.group != target]))
    kept = engine.undo_events(current, state)
    for event in kept:
        state = engine.apply(state, event)
    logged = [(UNDO_EVENT, {"group": target}), *((e.type, dict(e.data)) for e in kept)]
    return engine.dump_state(state), as_stored(logged)


def as_stored(value: Any) -> Any:
    """Through JSON, as the database gives it back."""
    return json.loads(json.dumps(value))


def undo_and_compare(match: Match, user: Any) -> None:
    """Undo through the service; the stored state and the logged events are the reference's."""
    match.refresh_from_db()
    expected_state, expected_events = undo_by_full_replay(match)
    outcome = match_apply_command(
        user=user,
        match_id=match.pk,
        command_type="undo",
        args={},
        expected_seq=match.seq,
        idempotency_key=None,
    )
    logged = as_stored([(row.type, row.data) for row in outcome.events])
    assert logged == expected_events
    match.refresh_from_db()
    assert match.state == as_stored(expected_state)
    engine = engine_for(match)
    assert as_stored(engine.dump_state(match_rebuilt_state(match))) == match.state


def send(match: Match, user: Any, command: Command, rng: random.Random) -> None:
    match.refresh_from_db()
    match_apply_command(
        user=user,
        match_id=match.pk,
        command_type=command.type,
        args=dict(command.args),
        expected_seq=match.seq,
        idempotency_key=None,
        rng=rng,
    )


def flips(match: Match, user: Any, count: int, rng: random.Random) -> None:
    for step in range(count):
        send(match, user, Command("flip", {"player": step % 2, "boost": rng.randint(-2, 2)}), rng)


def standing_undo_possible(match: Match) -> bool:
    return can_undo(match, undone_groups_of(match))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_undo_from_snapshots_equals_the_full_replay_in_random_play(deathmatch, user, seed) -> None:
    """Random play through the tracker's own legal commands, with runs of undos (an undo after
    an undo, a command after an undo that dropped snapshots, undos reaching back past a
    snapshot)."""
    match = small_match(user, deathmatch, seed=seed)
    engine = engine_for(match)
    rng = random.Random(seed)
    crossed = dropped = 0
    for _step in range(45):
        match.refresh_from_db()
        state = match_state(match)
        if engine.finished(state):
            break
        if rng.random() < 0.3 and standing_undo_possible(match):
            for _ in range(rng.choice((1, 1, 2, 3))):
                if not standing_undo_possible(match):
                    break
                target = snapshots.undo_target(match)
                assert target is not None
                crossed += MatchSnapshot.objects.filter(match=match, seq__lt=target).exists()
                dropped += MatchSnapshot.objects.filter(match=match, seq__gte=target).exists()
                undo_and_compare(match, user)
            continue
        legal = [o for o in _offered(engine, state) if o.refusal is None]
        send(match, user, _pick(legal, rng), rng)
    assert crossed and dropped, (crossed, dropped)


def test_undos_after_undos_across_snapshot_boundaries(deathmatch, user) -> None:
    match = small_match(user, deathmatch)
    rng = random.Random(5)
    flips(match, user, 12, rng)
    assert MatchSnapshot.objects.filter(match=match).count() >= 3
    for _ in range(5):
        undo_and_compare(match, user)
    flips(match, user, 6, rng)
    for _ in range(8):
        undo_and_compare(match, user)


def test_snapshots_rebuilt_from_the_log_are_the_ones_commands_kept(deathmatch, user) -> None:
    match = small_match(user, deathmatch)
    rng = random.Random(6)
    flips(match, user, 10, rng)
    for _ in range(3):
        undo_and_compare(match, user)
    flips(match, user, 5, rng)
    undo_and_compare(match, user)
    kept = list(
        MatchSnapshot.objects.filter(match=match).order_by("seq").values_list("seq", "state")
    )
    assert kept
    snapshots.snapshots_rebuild(match, engine_for(match))
    rebuilt = MatchSnapshot.objects.filter(match=match).order_by("seq").values_list("seq", "state")
    assert as_stored(list(rebuilt)) == as_stored(kept)


def test_a_snapshot_in_an_older_schema_version_is_upgraded(deathmatch, user) -> None:
    match = small_match(user, deathmatch)
    flips(match, user, 12, random.Random(7))
    for snapshot in MatchSnapshot.objects.filter(match=match):
        snapshot.state, snapshot.version = v1_snapshot(snapshot.state), 1
        snapshot.save()
    engine = engine_for(match)
    target = snapshots.undo_target(match)
    assert target is not None
    start, _state = snapshots._start_before(match, engine, target)
    assert start > 0  # the version 1 snapshot is used, through the upgrades
    undo_and_compare(match, user)
    undo_and_compare(match, user)


def test_an_unreadable_snapshot_is_passed_over_for_the_log(deathmatch, user) -> None:
    match = small_match(user, deathmatch)
    flips(match, user, 12, random.Random(8))
    MatchSnapshot.objects.filter(match=match).update(state={"not": "a state"}, version=1)
    undo_and_compare(match, user)


def undo_queries(match: Match, user: Any) -> int:
    match.refresh_from_db()
    with CaptureQueriesContext(connection) as captured:
        match_apply_command(
            user=user,
            match_id=match.pk,
            command_type="undo",
            args={},
            expected_seq=match.seq,
            idempotency_key=None,
        )
    return len(captured)


def test_an_undo_makes_as_many_queries_at_1000_events_as_at_100(
    deathmatch, user, monkeypatch
) -> None:
    monkeypatch.setattr(snapshots, "SNAPSHOT_EVERY", 100)
    short = grow(small_match(user, deathmatch), events=100)
    long = grow(small_match(user, deathmatch, seed=2), events=1000)
    assert long.events.count() >= 1000 and MatchSnapshot.objects.filter(match=long).count() >= 9
    # Two undos each: the second one also has an undo marker to read.
    assert [undo_queries(short, user) for _ in range(2)] == [
        undo_queries(long, user) for _ in range(2)
    ]
    undo_and_compare(long, user)


def test_an_undo_reads_only_the_rows_after_the_snapshot(deathmatch, user, monkeypatch) -> None:
    monkeypatch.setattr(snapshots, "SNAPSHOT_EVERY", 100)
    match = grow(small_match(user, deathmatch), events=1000)
    target = snapshots.undo_target(match)
    assert target is not None
    with CaptureQueriesContext(connection) as captured:
        snapshots.state_without(match, engine_for(match), target)
    reads = [q["sql"] for q in captured if 'FROM "matches_matchevent"' in q["sql"]]
    (read,) = reads
    snapshot = MatchSnapshot.objects.filter(match=match, seq__lt=target).order_by("-seq").first()
    assert snapshot is not None and target - snapshot.seq <= 100
    assert f'"seq" > {snapshot.seq}' in read
    assert MatchEvent.objects.filter(match=match, seq__gt=snapshot.seq).count() <= 110
