"""The rounds on a season's page, one round's page, and where the pairing of a big round stands.

The season page shows the current round (the last published) and the draft in full, and every
older round as a one-line summary whose pairings load on demand (``round_detail``): a season of
256 players and 10 rounds would otherwise render 1,280 games on every view. The queries are the
same whatever the season's size: one for the summaries, one for the rounds shown in full, one
for their pairings.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from apps.common.http import HtmxHttpRequest
from apps.leagues import pairing_jobs, services
from apps.leagues.day_views import timer_panel_context
from apps.leagues.forms import SwapForm
from apps.leagues.models import Registration, Result, Round, Season
from apps.leagues.page_cache import cached_fragment, season_version
from apps.leagues.pairing_jobs import PairingJob, round_pair_request
from apps.leagues.selectors import (
    LeagueAccess,
    league_access,
    registration_of,
    result_counts,
    round_get,
    season_get,
    season_round_summaries,
    season_rounds,
)
from apps.leagues.services import LeagueError
from apps.leagues.view_helpers import access_to, act, request_user

ROUND = "leagues/round.html"
ROUND_FRAGMENT = "leagues/_round.html"
STATUS = "leagues/_pairing_status.html"


def round_players(round_: Round) -> list[Registration]:
    players = []
    for pairing in round_.pairings.all():
        players.append(pairing.player_a)
        if pairing.player_b:
            players.append(pairing.player_b)
    return sorted(players, key=lambda r: r.player.shown_name.casefold())


def round_view(round_: Round, season: Season, mine: Registration | None) -> dict[str, Any]:
    now = timezone.now()
    games = []
    for pairing in round_.pairings.all():
        result: Result | None = getattr(pairing, "result", None)
        games.append(
            {
                "pairing": pairing,
                "result": result,
                "counts": result is not None and result_counts(result, season.confirm_hours, now),
                "mine": mine is not None and mine.pk in (pairing.player_a_id, pairing.player_b_id),
            }
        )
    return {"round": round_, "games": games}


def season_rounds_context(
    request: HtmxHttpRequest,
    access: LeagueAccess,
    season: Season,
    mine: Registration | None,
    version: str,
) -> dict[str, Any]:
    """``rounds``: every published round, newest first, as {round, html}; ``html`` (its games,
    rendered once per season version and viewer) only for the current round. For organisers
    also ``draft`` and ``draft_view``, never cached: a swap changes a draft's pairings only."""
    summaries = season_round_summaries(season, include_drafts=access.is_organiser)
    published = [r for r in summaries if r.status == Round.Status.PUBLISHED]
    draft = next((r for r in summaries if r.status == Round.Status.DRAFT), None)
    items: list[dict[str, Any]] = [{"round": r, "html": ""} for r in reversed(published)]
    if items:
        items[0]["html"] = _round_html(request, access, season, mine, version, items[0]["round"])
    context: dict[str, Any] = {"rounds": items, "draft": None, "draft_view": None}
    if draft is not None:
        (full,) = season_rounds(season, include_drafts=True, numbers=[draft.number])
        context.update(draft=full, draft_view=round_view(full, season, mine))
    return context


def _round_html(
    request: HtmxHttpRequest,
    access: LeagueAccess,
    season: Season,
    mine: Registration | None,
    version: str,
    round_: Round,
) -> str:
    def render_round() -> str:
        (full,) = season_rounds(
            season, include_drafts=False, numbers=[round_.number], table_only=True
        )
        context = {
            "league": access.league,
            "season": season,
            "view": round_view(full, season, mine),
        }
        return render_to_string(ROUND_FRAGMENT, context, request)

    parts = ("round", round_.number, mine.pk if mine else 0)
    return cached_fragment(version, parts, render_round)


def pairing_job_context(request: HtmxHttpRequest, season: Season) -> dict[str, Any]:
    """The organiser's view of a pairing task: ``pairing_job`` while it runs; once it ended,
    its outcome as a message, shown once."""
    job = pairing_jobs.pairing_job(season.pk)
    if job is None or job.active:
        return {"pairing_job": job}
    pairing_jobs.pairing_job_clear(season.pk)
    if job.state == pairing_jobs.FAILED:
        messages.error(request, job.message)
    else:
        messages.success(request, _paired_message())
    return {"pairing_job": None}


def _paired_message() -> str:
    return _("Round paired as a draft: check it, swap players if needed, then publish.")


@require_GET
def round_detail(request: HtmxHttpRequest, key: str, season_id: int, number: int) -> HttpResponse:
    """One round's pairings: the fragment a season page loads on demand, or a page of its own
    (the same link without JavaScript). Drafts only for organisers."""
    access = league_access(request.user, key)
    season = season_get(access, season_id)
    found = season_round_summaries(season, include_drafts=access.is_organiser)
    round_ = next((r for r in found if r.number == number), None)
    if round_ is None:
        raise Http404
    mine = registration_of(request.user, season)
    if request.htmx and round_.status == Round.Status.PUBLISHED:
        html = _round_html(request, access, season, mine, season_version(season), round_)
        return HttpResponse(html)
    (full,) = season_rounds(season, include_drafts=True, numbers=[number])
    context = {
        "access": access,
        "league": access.league,
        "season": season,
        "view": round_view(full, season, mine),
        "timer_panel": (
            timer_panel_context(access, season, full, "round")
            if full.status == Round.Status.PUBLISHED
            else None
        ),
    }
    return render(request, ROUND_FRAGMENT if request.htmx else ROUND, context)


@login_required
@require_GET
def pairing_status(request: HtmxHttpRequest, key: str, season_id: int) -> HttpResponse:
    """Where the pairing task stands, for the organisers only; the page polls this every second
    and is sent back to the season page (with the new draft) once the task has ended."""
    access = league_access(request.user, key)
    access.require_organiser()
    season = season_get(access, season_id)
    job = pairing_jobs.pairing_job(season.pk)
    back = reverse("leagues:season", args=[key, season_id])
    if job is None or not job.active:
        return HttpResponseClientRedirect(back) if request.htmx else redirect(back)
    context = {"league": access.league, "season": season, "pairing_job": job}
    return render(request, STATUS, context)


# --- Pairing, swapping, publishing and discarding a round (organisers) -----------------------


@login_required
@require_POST
def round_pair(request: HtmxHttpRequest, key: str, season_id: int) -> HttpResponse:
    """Pair the next round; a big one is paired by a task, which the season page then shows."""
    allow = request.POST.get("allow_rematches") == "1"
    back = reverse("leagues:season", args=[key, season_id])
    try:
        paired = round_pair_request(
            user=request_user(request),
            key=key,
            season_id=season_id,
            allow_rematches=allow,
            language=get_language(),
        )
    except LeagueError as error:
        messages.error(request, error.message)
    else:
        if not isinstance(paired, PairingJob):
            messages.success(
                request,
                _("Round paired as a draft: check it, swap players if needed, then publish."),
            )
    return redirect(back)


@login_required
@require_POST
def round_swap(request: HtmxHttpRequest, key: str, season_id: int, number: int) -> HttpResponse:
    access = access_to(request, key)
    access.require_organiser()
    round_ = round_get(season_get(access, season_id), number)
    form = SwapForm(request.POST, players=round_players(round_))
    back = reverse("leagues:season", args=[key, season_id])
    if not form.is_valid():
        messages.error(request, _("Choose two players of this round."))
        return redirect(back)
    return act(
        request,
        lambda: services.round_swap(
            user=request_user(request),
            key=key,
            season_id=season_id,
            number=number,
            **form.cleaned_data,
        ),
        success=_("Players swapped."),
        back=back,
    )


@login_required
@require_POST
def round_publish(request: HtmxHttpRequest, key: str, season_id: int, number: int) -> HttpResponse:
    return act(
        request,
        lambda: services.round_publish(
            user=request_user(request), key=key, season_id=season_id, number=number
        ),
        success=_("Round published: the players can see their games and report results."),
        back=reverse("leagues:season", args=[key, season_id]),
    )


@login_required
@require_POST
def round_discard(request: HtmxHttpRequest, key: str, season_id: int, number: int) -> HttpResponse:
    return act(
        request,
        lambda: services.round_discard(
            user=request_user(request), key=key, season_id=season_id, number=number
        ),
        success=_("Draft round discarded."),
        back=reverse("leagues:season", args=[key, season_id]),
    )
