"""The tracker writes out only the log lines it shows (issue 16): its latest lines and its "last
result" card are exactly those made from every recent row, whatever undos the rows hold."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from apps.matches.models import MatchEvent
from apps.matches.presenters import timeline
from apps.matches.recent import recent_log
from apps.matches.selectors import engine_for, match_state, undone_groups, undone_groups_of
from apps.matches.services import match_apply_command
from apps.matches.views import RECENT_LINES, last_result
from tests.matches.factories import small_match

pytestmark = pytest.mark.django_db


def flips_and_undos(match: Any, user: Any, rng: random.Random, steps: int = 40) -> Iterator[int]:
    """Free flips with an undo now and then; yields after each, the match read again."""
    for step in range(steps):
        undo = step > 3 and rng.random() < 0.35
        match_apply_command(
            user=user,
            match_id=match.pk,
            command_type="undo" if undo else "flip",
            args={} if undo else {"player": step % 2, "boost": rng.randint(-2, 2)},
            expected_seq=None,
            idempotency_key=None,
            rng=rng,
        )
        match.refresh_from_db()
        yield step


def test_the_shown_lines_and_last_result_are_those_of_every_recent_row(deathmatch, user) -> None:
    match = small_match(user, deathmatch)
    checked = 0
    for _step in flips_and_undos(match, user, random.Random(3)):
        state, engine = match_state(match), engine_for(match)
        undone = undone_groups_of(match)
        rows = list(MatchEvent.objects.filter(match=match).order_by("seq"))
        for window in (1, 5, 20, 80):
            recent = rows[-window:]
            lines = timeline(match, recent, undone=undone, state=state)
            shown = recent_log(engine, state, recent, undone, shown=RECENT_LINES)
            assert shown.lines == list(reversed(lines))[:RECENT_LINES]
            assert shown.last_result == last_result(lines)
            checked += bool(shown.last_result)
    assert checked


def test_a_complete_walk_over_the_latest_rows_is_that_over_the_whole_log(deathmatch, user) -> None:
    """The tracker reads a few rows first and more only where the walk over them did not
    complete (``RecentLog.complete``): a complete walk shows what the whole log would."""
    match = small_match(user, deathmatch)
    completed = incomplete = 0
    for _step in flips_and_undos(match, user, random.Random(5)):
        state, engine = match_state(match), engine_for(match)
        rows = list(MatchEvent.objects.filter(match=match).order_by("seq"))
        whole = recent_log(engine, state, rows, undone_groups_of(match), shown=RECENT_LINES)
        for window in (3, 8, 24):
            recent = rows[-window:]
            undone = undone_groups(recent)
            shown = recent_log(engine, state, recent, undone, shown=RECENT_LINES)
            if shown.complete:
                completed += 1
                assert (shown.lines, shown.last_result) == (whole.lines, whole.last_result)
            else:
                incomplete += 1
    assert completed and incomplete
