"""The projector view of a season: the current round's pairings with their results, the round
timer and the top of the standings, in large type for a screen in the room. The page asks for
its board again every 20 s (HTMX, no full reload; without JavaScript a meta refresh), so
results and the timer follow without anyone touching the laptop. Visible to whoever may see the
season page."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from apps.common.http import HtmxHttpRequest
from apps.leagues.printing import current_round_number
from apps.leagues.round_timer import round_timer
from apps.leagues.round_views import round_view
from apps.leagues.selectors import LeagueAccess, season_get, season_rounds, season_standings
from apps.leagues.view_helpers import access_to

PROJECTOR = "leagues/projector.html"
DEFAULT_TOP = 10
MAX_TOP = 64


def _top(request: HtmxHttpRequest) -> int:
    try:
        top = int(request.GET.get("top", DEFAULT_TOP))
    except ValueError:
        return DEFAULT_TOP
    return min(MAX_TOP, max(1, top))


def projector_context(access: LeagueAccess, season_id: int, top: int) -> dict[str, Any]:
    season = season_get(access, season_id)
    context: dict[str, Any] = {
        "league": access.league,
        "season": season,
        "top": top,
        "view": None,
        "timer": None,
        "rows": season_standings(season)[:top],
    }
    number = current_round_number(season)
    if number is not None:
        (current,) = season_rounds(season, include_drafts=False, numbers=[number])
        context.update(view=round_view(current, season, None), timer=round_timer(current))
    return context


@require_GET
def projector(request: HtmxHttpRequest, key: str, season_id: int) -> HttpResponse:
    context = projector_context(access_to(request, key), season_id, _top(request))
    return render(request, PROJECTOR, context)


@require_GET
def projector_board(request: HtmxHttpRequest, key: str, season_id: int) -> HttpResponse:
    """The board alone, for the page's poll."""
    context = projector_context(access_to(request, key), season_id, _top(request))
    return render(request, f"{PROJECTOR}#board", context)
