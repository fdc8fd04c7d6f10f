"""The ratings page of a system, and a player's league history page: every season and game
the viewer may see, the win rate per faction, the rating over time per system (``history``;
the chart's geometry in ``rating_chart``)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from apps.accounts.models import User
from apps.catalog.selectors import game_system_get, system_get
from apps.common.http import HtmxHttpRequest
from apps.leagues.history import GAMES_SHOWN, player_history, ratings_table


@login_required
@require_GET
def player_history_page(request: HtmxHttpRequest, user_id: int) -> HttpResponse:
    """Addressed by user id, not user name: players choose a display name so that others do
    not see the name they log in with. A player with nothing the viewer may see (no league
    shown to the viewer, no rating) is a 404, as if they did not exist."""
    player = User.objects.filter(pk=user_id, is_active=True).first()
    if player is None:
        raise Http404
    history = player_history(player, request.user)
    if not history.seasons and not history.ratings and player.pk != request.user.pk:
        raise Http404
    return render(
        request,
        "leagues/history.html",
        {"player": player, "history": history, "games_shown": GAMES_SHOWN},
    )


@login_required
@require_GET
def ratings(request: HtmxHttpRequest, system_slug: str) -> HttpResponse:
    info = system_get(system_slug)
    system = game_system_get(info.slug)
    table = ratings_table(system)
    return render(request, "leagues/ratings.html", {"system": info, "table": table})
