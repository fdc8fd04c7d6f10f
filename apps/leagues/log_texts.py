"""The organisers' log in the reader's language: each ``LogEntry`` as a sentence."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from apps.leagues.models import LogEntry


def log_lines(entries: Any) -> list[tuple[LogEntry, str]]:
    """Each log entry with its sentence in the reader's language."""
    return [(entry, log_text(entry)) for entry in entries]


def log_text(entry: LogEntry) -> str:
    d = entry.details
    actor = entry.actor.shown_name if entry.actor else _("Tracked match")
    texts: dict[str, str] = {
        LogEntry.Action.ROUND_PAIRED: _("%(actor)s paired round %(round)s."),
        LogEntry.Action.ROUND_PUBLISHED: _("%(actor)s published round %(round)s."),
        LogEntry.Action.ROUND_DISCARDED: _("%(actor)s discarded the draft of round %(round)s."),
        LogEntry.Action.PAIRING_SWAPPED: _("%(actor)s swapped %(names)s in round %(round)s."),
        LogEntry.Action.RESULT_DISPUTED: _(
            "%(actor)s disputed %(game)s (round %(round)s): “%(reason)s”"
        ),
        LogEntry.Action.RESULT_OVERRIDDEN: _(
            "%(actor)s set round %(round)s: %(after)s (was: %(before)s). Reason: “%(reason)s”"
        ),
        LogEntry.Action.ROSTER_REQUESTED: _("%(name)s asked to play the roster “%(roster)s”."),
        LogEntry.Action.ROSTER_APPROVED: _(
            "%(actor)s approved the roster “%(roster)s” for %(name)s. %(note)s"
        ),
        LogEntry.Action.ROSTER_REJECTED: _(
            "%(actor)s rejected the roster “%(roster)s” for %(name)s. %(note)s"
        ),
        LogEntry.Action.PLAYER_DROPPED: _("%(name)s dropped out (by %(actor)s)."),
        LogEntry.Action.ORGANISER_ADDED: _("%(actor)s made %(name)s an organiser."),
        LogEntry.Action.SEASON_FINISHED: _("%(actor)s finished the season."),
        LogEntry.Action.TIMER_STARTED: _(
            "%(actor)s started the timer of round %(round)s (%(minutes)s min)."
        ),
        LogEntry.Action.TIMER_PAUSED: _("%(actor)s paused the timer of round %(round)s."),
        LogEntry.Action.TIMER_RESUMED: _("%(actor)s resumed the timer of round %(round)s."),
        LogEntry.Action.TIMER_ADJUSTED: _(
            "%(actor)s changed the timer of round %(round)s by %(minutes)s min."
        ),
        LogEntry.Action.TIMER_STOPPED: _("%(actor)s stopped the timer of round %(round)s."),
        LogEntry.Action.CHECK_IN_SET: _(
            "%(actor)s set %(name)s as %(answer)s for round %(round)s."
        ),
        LogEntry.Action.DAY_SETTINGS: _("%(actor)s changed the tournament day settings."),
        LogEntry.Action.COSTS_PINNED: _(
            "%(actor)s set the season's costs to the current catalogue."
        ),
    }
    params: dict[str, Any] = {
        "actor": actor,
        "round": d.get("round", ""),
        "names": " ↔ ".join(d.get("names", [])),
        "game": d.get("game", ""),
        "reason": d.get("reason", ""),
        "after": d.get("after", ""),
        "before": d.get("before") or _("no result"),
        "name": d.get("name", ""),
        "roster": d.get("roster", ""),
        "note": d.get("note", ""),
        "minutes": d.get("minutes", ""),
        "answer": {"present": _("present"), "absent": _("absent")}.get(
            d.get("answer", ""), _("no answer")
        ),
    }
    return (texts.get(entry.action) or entry.action) % params
