"""Undo without replaying the whole log: stored snapshots of the state (issue 16).

Every ``SNAPSHOT_EVERY`` events the state after the command that crossed the mark is kept as a
``MatchSnapshot``. An undo then starts from the latest snapshot before the command it undoes and
replays only the events after it, instead of the log from its first event; the result is the
same state, because the log is folded the same way from the same point.

Why a snapshot at seq S is a valid start for an undo: S is the end of a command, and the state
stored then is the fold of the effective events up to S. It stays that fold as long as no later
undo marker undoes a command at or before S; the undo that would do so deletes it
(``forget_from``). Undo markers after S that undo commands after S are read with the rows
after S, so ``effective_events`` leaves those commands out as a full replay does.

Storage: one state (13-30 KB of JSON, compressed by PostgreSQL's TOAST) per hundred events,
about as much again as the log itself; a snapshot before each command would be ten times more.
"""

from __future__ import annotations

import logging
from typing import Any

from apps.matches.models import UNDO_EVENT, Match, MatchEvent, MatchSnapshot
from apps.matches.selectors import effective_events, event_rows, stored_event, undo_markers
from apps.systems.core.match import MatchEngine

logger = logging.getLogger(__name__)

# Events between two snapshots: an undo replays at most about this many events more than the
# command it undoes and the undos after it.
SNAPSHOT_EVERY = 100


def snapshot_if_due(match: Match, *, before: int) -> None:
    """Keep the match's stored state when the command just stored (``before`` was the seq
    before it) crossed a multiple of ``SNAPSHOT_EVERY``. Call after the state is stored, in
    the same transaction, holding the match row lock."""
    if before // SNAPSHOT_EVERY == match.seq // SNAPSHOT_EVERY:
        return
    MatchSnapshot.objects.bulk_create(
        [MatchSnapshot(match=match, seq=match.seq, version=match.state_version, state=match.state)],
        # A snapshot already kept at this seq holds the same state (the log is append-only).
        ignore_conflicts=True,
    )


def forget_from(match: Match, seq: int) -> None:
    """Drop the snapshots at or after ``seq``: they hold the command an undo just undid."""
    MatchSnapshot.objects.filter(match=match, seq__gte=seq).delete()


def undo_target(match: Match) -> int | None:
    """The group an undo undoes now: the last command not undone yet, never the opening of the
    match (group 1), an undo, or what an undo kept (logged in the undo's group). Reads the undo
    markers through their index and one row of the log, however long it is."""
    markers = list(undo_markers(match).values_list("group", "data"))
    excluded = {group for group, _data in markers} | {data["group"] for _group, data in markers}
    return (
        MatchEvent.objects.filter(match=match, group__gt=1)
        .exclude(group__in=excluded)
        .order_by("-group")
        .values_list("group", flat=True)
        .first()
    )


def state_without(match: Match, engine: MatchEngine, target: int) -> Any:
    """The state the log folds to without the command ``target`` (and without the commands
    undone, as ``selectors.effective_events`` leaves them out): the latest usable snapshot
    before ``target``, then the effective events after it. Equal to replaying the whole log
    without ``target`` (``tests/matches/test_undo_snapshots.py`` checks it)."""
    start, state = _start_before(match, engine, target)
    rows = [row for row in event_rows(match, after=start) if row.group != target]
    for event in effective_events(engine, rows):
        state = engine.apply(state, event)
    return state


def _readable_versions(engine: MatchEngine) -> list[int]:
    """The schema versions whose snapshots the engine's state upgrades bring to its current
    shape (older ones would need the log: they are passed over, not upgraded)."""
    upgrades = getattr(engine, "state_upgrades", {})
    current = engine.schema_version
    readable = [current]
    for version in range(current - 1, 0, -1):
        if version not in upgrades:
            break
        readable.append(version)
    return readable


def _start_before(match: Match, engine: MatchEngine, target: int) -> tuple[int, Any]:
    """The seq to replay from and the state at it: the latest readable snapshot before
    ``target``, else the start of the log."""
    snapshot = (
        MatchSnapshot.objects.filter(
            match=match, seq__lt=target, version__in=_readable_versions(engine)
        )
        .order_by("-seq")
        .first()
    )
    if snapshot is None:
        return 0, engine.initial_state()
    try:
        data = snapshot.state
        if snapshot.version != engine.schema_version:
            data = engine.upgrade_state(data, snapshot.version)
        return snapshot.seq, engine.load_state(data)
    except Exception:  # a snapshot the upgrades do not make readable: the log still is
        logger.warning("match %s: snapshot at %s unreadable, replaying", match.pk, snapshot.seq)
        return 0, engine.initial_state()


def snapshots_rebuild(match: Match, engine: MatchEngine) -> int:
    """Replay the whole log once and keep the snapshots its commands would have kept (for a
    match stored before snapshots existed, or a log built in bulk); returns how many. The end
    of a command that a later undo reaches back before is skipped, as ``forget_from`` would
    have dropped it. Call holding the match row lock."""
    rows = list(event_rows(match))
    # An undo marker at seq m undoing group g makes every snapshot in [g, m) wrong.
    spans = [(row.data["group"], row.seq) for row in rows if row.type == UNDO_EVENT]
    undone = {group for group, _seq in spans}
    ends = {row.group: row.seq for row in rows}  # the last seq of each group
    state = engine.initial_state()
    kept: list[MatchSnapshot] = []
    for row in rows:
        if row.type != UNDO_EVENT and row.group not in undone:
            state = engine.apply(state, stored_event(engine, row))
        # As snapshot_if_due decides at the end of each command: did it cross a mark?
        due = row.seq == ends[row.group] and (row.group - 1) // SNAPSHOT_EVERY != (
            row.seq // SNAPSHOT_EVERY
        )
        if due and not any(group <= row.seq < seq for group, seq in spans):
            kept.append(
                MatchSnapshot(
                    match=match,
                    seq=row.seq,
                    version=engine.schema_version,
                    state=engine.dump_state(state),
                )
            )
    MatchSnapshot.objects.filter(match=match).delete()
    MatchSnapshot.objects.bulk_create(kept)
    return len(kept)
