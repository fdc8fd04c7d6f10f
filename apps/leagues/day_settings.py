"""A season's tournament-day settings, changed by its organisers after the season was created:
when the lists are revealed, and whether Swiss rounds pair only checked-in players."""

from __future__ import annotations

from datetime import datetime
from typing import Final

from django import forms
from django.db import transaction

from apps.leagues.common import log_action as _log
from apps.leagues.forms import SeasonForm
from apps.leagues.models import LogEntry, Season
from apps.leagues.selectors import AnyUser, league_access, season_get


class DaySettingsForm(forms.Form):
    """The same two fields as the season form's, to change them later."""

    lists_reveal_at = SeasonForm.base_fields["lists_reveal_at"]
    check_in_required = SeasonForm.base_fields["check_in_required"]


def day_form_for(season: Season) -> DaySettingsForm:
    return DaySettingsForm(
        initial={
            "lists_reveal_at": season.lists_reveal_at,
            "check_in_required": season.check_in_required,
        }
    )


class _Unchanged:
    """A setting the request leaves as it is (an API PATCH names only what it changes)."""


UNCHANGED: Final = _Unchanged()


@transaction.atomic
def season_day_update(
    *,
    user: AnyUser,
    key: str,
    season_id: int,
    lists_reveal_at: datetime | None | _Unchanged = UNCHANGED,
    check_in_required: bool | _Unchanged = UNCHANGED,
) -> Season:
    """Change the settings given, the others kept as they are under the season's lock: two
    organisers changing different settings at once keep both changes."""
    access = league_access(user, key)
    access.require_organiser()
    season = season_get(access, season_id, lock=True)
    if not isinstance(lists_reveal_at, _Unchanged):
        season.lists_reveal_at = lists_reveal_at
    if not isinstance(check_in_required, _Unchanged):
        season.check_in_required = check_in_required
    season.full_clean()
    season.save(update_fields=["lists_reveal_at", "check_in_required"])
    _log(
        access.league,
        LogEntry.Action.DAY_SETTINGS,
        actor=user,
        season=season,
        lists_reveal_at=season.lists_reveal_at.isoformat() if season.lists_reveal_at else None,
        check_in_required=season.check_in_required,
    )
    return season
