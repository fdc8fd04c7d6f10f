"""The tracker's latest log lines and its "last result" card, written out only as far as they
are shown (issue 16): the lines are made newest first from the recent rows and the walk stops
once the shown lines and the last standing command are complete, instead of turning every
recent row into text to show a dozen of them."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext

from apps.matches.models import UNDO_EVENT
from apps.matches.presenters import LogLine, line_text
from apps.matches.selectors import LogRow, stored_event
from apps.systems.core.match import MatchEngine


@dataclass(frozen=True)
class RecentLog:
    lines: list[LogLine]  # the newest lines, newest first
    last_result: list[LogLine]  # the lines of the last command standing, oldest first
    # Both are whole: the walk reached an older command once the shown lines were made. Where
    # it did not, older rows than those given may change them (``views``: read more).
    complete: bool = True


def _lines_newest_first(
    engine: MatchEngine, state: Any, rows: Sequence[LogRow], undone: set[int]
) -> Iterator[LogLine]:
    for row in reversed(rows):
        if row.type == UNDO_EVENT:
            yield LogLine(row.seq, row.group, row.round, gettext("Undo."), undone=False, undo=True)
            continue
        line = engine.timeline(state, stored_event(engine, row))
        if line is not None:
            text = line_text(line)
            yield LogLine(row.seq, row.group, row.round, text, row.group in undone, undo=False)


def recent_log(
    engine: MatchEngine, state: Any, rows: Sequence[LogRow], undone: set[int], *, shown: int
) -> RecentLog:
    """The ``shown`` newest lines of ``rows`` and the last result, exactly as
    ``presenters.timeline`` over all of ``rows`` and ``views.last_result`` give them (the
    undo groups are those of the undo markers among ``rows``, as there)."""
    undo_groups = {row.group for row in rows if row.type == UNDO_EVENT}
    lines: list[LogLine] = []
    result: list[LogLine] = []
    result_group: int | None = None
    for line in _lines_newest_first(engine, state, rows, undone):
        standing = not line.undone and line.group not in undo_groups
        if result_group is None and standing:
            result_group = line.group
        if result_group is not None and line.group == result_group and standing:
            result.append(line)
        if len(lines) < shown:
            lines.append(line)
        # A group's rows are consecutive: an older group means the result is complete.
        if len(lines) >= shown and result_group is not None and line.group < result_group:
            break
    else:
        return RecentLog(lines=lines, last_result=list(reversed(result)), complete=False)
    return RecentLog(lines=lines, last_result=list(reversed(result)))
