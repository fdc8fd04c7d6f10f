"""Long match logs built fast: commands decided by the engine in memory, their events written
in one bulk insert with the snapshot and the stored snapshots they imply (issue 16's growth
table; the flat-log tests use it too). The log is the one the service would have written for
the same commands and dice, without a transaction and a row lock per command."""

from __future__ import annotations

import random
import uuid

from apps.accounts.models import User
from apps.matches import services
from apps.matches.models import Match, MatchEvent
from apps.matches.selectors import engine_for, match_state
from apps.matches.snapshots import snapshots_rebuild
from apps.systems.core.match import Command

BATCH = 2000


def grow(match: Match, *, events: int, seed: int = 0) -> Match:
    """Append free flips (each player in turn, boosted or hindered at random) until the log
    holds at least ``events`` events; store the final state and rebuild the snapshots."""
    engine = engine_for(match)
    rng = random.Random(seed)
    state = match_state(match)
    seq = match.seq
    rows: list[MatchEvent] = []
    while seq < events:
        command = Command("flip", {"player": seq % 2, "boost": rng.randint(-2, 2)})
        group = seq + 1
        for event in engine.decide(state, command, rng):
            state = engine.apply(state, event)
            seq += 1
            rows.append(
                MatchEvent(
                    match=match,
                    seq=seq,
                    group=group,
                    round=engine.round_of(state),
                    type=event.type,
                    data=dict(event.data),
                    version=engine.schema_version,
                    actor=match.created_by,
                )
            )
    MatchEvent.objects.bulk_create(rows, batch_size=BATCH)
    Match.objects.filter(pk=match.pk).update(
        seq=seq, state=engine.dump_state(state), state_version=engine.schema_version
    )
    match.refresh_from_db()
    snapshots_rebuild(match, engine)
    return match


def free_flip(user: User, match: Match, rng: random.Random) -> None:
    """One cheap command that never ends a Deathmatch game: a free flip."""
    services.match_apply_command(
        user=user,
        match_id=match.pk,
        command_type="flip",
        args={"player": rng.randrange(2), "boost": 2},
        expected_seq=None,
        idempotency_key=uuid.uuid4().hex,
        rng=rng,
    )
