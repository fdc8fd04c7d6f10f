"""What the league services share: their error, the log, and the checks every write makes."""

from __future__ import annotations

from django.utils.translation import gettext as _

from apps.accounts.models import User
from apps.leagues.models import League, LogEntry, Season
from apps.leagues.selectors import AnyUser
from apps.systems.core.errors import RuleViolation


class LeagueError(RuleViolation):
    """A request the league cannot take; ``status`` is the HTTP status the API answers with
    (400 bad input, 403 not yours, 409 the state has moved on)."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(code, message)
        self.status = status


def log_action(
    league: League,
    action: str,
    *,
    actor: AnyUser | None,
    season: Season | None = None,
    **details: object,
) -> None:
    LogEntry.objects.create(
        league=league,
        season=season,
        actor=actor if actor is not None and actor.is_authenticated else None,
        action=action,
        details=details,
    )


def require_user(user: AnyUser) -> User:
    if not isinstance(user, User):
        raise LeagueError("login_required", _("Log in first."), status=403)
    return user


def check_season_open(season: Season) -> None:
    if season.status == Season.Status.FINISHED:
        raise LeagueError("season_finished", _("This season is finished."), status=409)
