"""What the match services refuse with (the API maps them to 400 and 403)."""

from __future__ import annotations

from apps.systems.core.errors import RuleViolation


class MatchError(RuleViolation):
    """A request the match cannot take (a team that does not fit, nothing to undo, ...)."""


class NotYourSeat(MatchError):
    """A request about a seat that is not the sender's: a command speaking for a seat they do
    not hold (a secret choice, conceding), or taking a seat that plays someone else's team.
    The API answers 403."""


class NotYourMatch(MatchError):
    """A request only the match's creator may make (deleting it). The API answers 403."""
