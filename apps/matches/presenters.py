"""How matches look to clients: API payloads and the readable log, translated."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.utils.formats import get_format
from django.utils.translation import gettext

from apps.matches.models import UNDO_EVENT, Match, MatchEvent
from apps.matches.selectors import engine_for, match_state, stored_event, undone_groups
from apps.systems.core.match import MatchEngine, TimelineLine

# A decimal number inside a parameter ("0.91", "12.5 %"); the rule systems are framework-free,
# so they write decimals with a point and the reader's locale is applied here.
DECIMAL_NUMBER = re.compile(r"(?<![\w.])(\d+)\.(\d+)(?![\w.])")


def localized_decimals(value: str) -> str:
    """``value`` with its decimal numbers written the active language's way (0,91 in German)."""
    separator = get_format("DECIMAL_SEPARATOR")
    return DECIMAL_NUMBER.sub(rf"\1{separator}\2", value) if separator != "." else value


def line_text(line: TimelineLine) -> str:
    params = {key: _param_text(line, key, value) for key, value in line.params.items()}
    return gettext(line.template) % params


def _param_text(line: TimelineLine, key: str, value: str | int) -> str | int:
    if not isinstance(value, str):
        return value
    return gettext(value) if key in line.translate else localized_decimals(value)


def match_payload(
    match: Match, *, state: Any | None = None, viewer: int | None = None
) -> dict[str, Any]:
    """The match as the seat ``viewer`` may see it (``None``: nothing hidden is shown)."""
    engine = engine_for(match)
    state = match_state(match) if state is None else state
    return {
        "id": match.pk,
        "system": match.system.slug,
        "title": match.title,
        "mode": match.mode,
        "status": match.status,
        "seq": match.seq,
        "players": [
            {"index": p.index, "name": p.name, "user": p.user_id, "roster": p.roster_id}
            for p in match.players.all()
        ],
        "result": match.result,
        "archived_at": match.archived_at.isoformat() if match.archived_at else None,
        "state": engine.public_state(state, viewer=viewer),
        "viewer": viewer,
    }


def event_payload(
    engine: MatchEngine, state: Any, row: MatchEvent, undone: set[int], viewer: int | None = None
) -> dict[str, Any]:
    line = None if row.type == UNDO_EVENT else engine.timeline(state, stored_event(engine, row))
    if row.type == UNDO_EVENT:
        data: dict[str, Any] = dict(row.data)
        text = gettext("Undone: the command at #%(group)s.") % {"group": row.data["group"]}
    else:
        data = engine.public_event(stored_event(engine, row), viewer=viewer)
        text = line_text(line) if line is not None else ""
    return {
        "seq": row.seq,
        "group": row.group,
        "round": row.round,
        "type": row.type,
        "data": data,
        "text": text,
        "undone": row.group in undone,
        "actor": row.actor_id,
        "created_at": row.created_at.isoformat(),
    }


@dataclass(frozen=True)
class LogLine:
    seq: int
    group: int
    round: int
    text: str
    undone: bool
    undo: bool


def timeline(
    match: Match, rows: list[MatchEvent], *, undone: set[int] | None = None, state: Any = None
) -> list[LogLine]:
    """The readable log of ``rows``: one line per event that has one, undone commands marked
    (``undone`` defaults to the undo markers among the rows)."""
    engine = engine_for(match)
    state = match_state(match) if state is None else state
    undone = undone_groups(rows) if undone is None else undone
    lines = []
    for row in rows:
        if row.type == UNDO_EVENT:
            lines.append(
                LogLine(row.seq, row.group, row.round, gettext("Undo."), undone=False, undo=True)
            )
            continue
        line = engine.timeline(state, stored_event(engine, row))
        if line is not None:
            lines.append(
                LogLine(row.seq, row.group, row.round, line_text(line), row.group in undone, False)
            )
    return lines
