"""What every league page view does first: who asks, what they may see of the league, and how
a plain form post answers (a flash message and back to the page)."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect
from django.urls import reverse

from apps.accounts.models import User
from apps.common.http import HtmxHttpRequest
from apps.leagues.models import League, Season
from apps.leagues.selectors import LeagueAccess, league_access
from apps.leagues.services import LeagueError


def request_user(request: HtmxHttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)
    return user


def access_to(request: HtmxHttpRequest, key: str) -> LeagueAccess:
    return league_access(request.user, key)


def act(
    request: HtmxHttpRequest, action: Callable[[], object], *, success: str, back: str
) -> HttpResponse:
    """Run a change from a plain form post: a flash message and back to the page."""
    try:
        action()
    except LeagueError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, success)
    return redirect(back)


def season_url(league: League, season: Season) -> str:
    return reverse("leagues:season", args=[league.key, season.pk])
