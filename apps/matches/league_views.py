"""League games on the tracker: the page a game's players start its match from (the game's
settings, with both season rosters already in place), and the tracker's league line."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from apps.accounts.models import User
from apps.common.http import HtmxHttpRequest
from apps.leagues.models import Pairing
from apps.leagues.reveal import lists_hidden
from apps.leagues.round_timer import round_timer
from apps.matches.forms import GameSettingsForm
from apps.matches.league_games import (
    league_game_for_player,
    league_game_refusal,
    league_game_size,
    league_match_start,
)
from apps.matches.selectors import match_for_participant
from apps.matches.views import refusal_text
from apps.systems.core.errors import RuleViolation
from apps.systems.core.registry import registry


@login_required
@require_http_methods(["GET", "POST"])
def league_match_new(request: HtmxHttpRequest, pairing_id: int) -> HttpResponse:
    """GET: the game's start form (or its match, once started). POST: start it and open the
    tracker. Only the game's two players see this page; anyone else gets a 404."""
    user = request.user
    assert isinstance(user, User)
    game = league_game_for_player(user, pairing_id)
    if game.match_id is not None:
        return redirect("matches:tracker", game.match_id)
    system = game.pairing.round.season.league.system
    size = league_game_size(game)
    initial = {registry().get(system.slug).sizing.setting: size} if size is not None else {}
    form = GameSettingsForm(request.POST or None, system=system, initial=initial)
    refusal = league_game_refusal(game)
    if request.method == "POST" and refusal is None and form.is_valid():
        try:
            match = league_match_start(
                user=user,
                pairing_id=pairing_id,
                mode=form.cleaned_data["mode"],
                settings=form.settings(),
            )
        except RuleViolation as error:
            form.add_error(None, refusal_text(error, system))
        else:
            return redirect("matches:tracker", match.pk)
    failed = refusal is not None or bool(form.errors)
    return render(
        request,
        "matches/league_new.html",
        {
            "form": form,
            "system": system,
            "game": game,
            "league": game.pairing.round.season.league,
            "season": game.pairing.round.season,
            "refusal": refusal_text(refusal, system) if refusal is not None else "",
            "lists_hidden": lists_hidden(game.pairing.round.season),
        },
        status=(409 if refusal is not None else 422)
        if failed and request.method == "POST"
        else 200,
    )


@login_required
@require_GET
def league_game_bar(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    """The tracker's league line: which game this is (a link to its page) and the round's
    timer. Polled by the tracker page, apart from the board, so an organiser's start or pause
    reaches every table within the poll without touching the board's kept renders."""
    match = match_for_participant(request.user, match_id, state=False)
    pairing = (
        Pairing.objects.select_related("round__season__league")
        .filter(pk=match.league_pairing_id)
        .first()
    )
    if pairing is None:
        return HttpResponse("")
    return render(
        request,
        "matches/_league_game.html",
        {
            "pairing": pairing,
            "league": pairing.round.season.league,
            "timer": round_timer(pairing.round),
        },
    )
