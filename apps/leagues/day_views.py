"""Tournament-day pages: the round timer's controls, check-in, the day settings and printing
the pairings and standings (the projector is in ``projector_views``).

Each change calls a service (``round_timer``, ``checkins``, ``day_settings``, ``printing``).
An HTMX post gets its panel back (with the refusal inline, 422); a plain post a flash message
and the page it came from.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from apps.cards.limits import ExportsUnavailable
from apps.common.http import HtmxHttpRequest
from apps.leagues import checkins, printing
from apps.leagues import round_timer as timers
from apps.leagues.day_settings import DaySettingsForm, day_form_for, season_day_update
from apps.leagues.models import Registration, Round, Season
from apps.leagues.reveal import lists_hidden
from apps.leagues.selectors import LeagueAccess, registration_of, round_get, season_get
from apps.leagues.services import LeagueError
from apps.leagues.view_helpers import access_to, request_user

TIMER_PANEL = "leagues/_timer_panel.html"
CHECK_IN = "leagues/_check_in.html"
CHECK_IN_CLOSED = "leagues/_check_in_closed.html"


class TimerForm(forms.Form):
    action = forms.ChoiceField(choices=[(a, a) for a in timers.TIMER_ACTIONS])
    minutes = forms.IntegerField(required=False, min_value=-600, max_value=600)


class CheckInForm(forms.Form):
    registration = forms.IntegerField()
    answer = forms.ChoiceField(choices=[(a, a) for a in ("present", "absent", "unknown")])


def timer_panel_context(
    access: LeagueAccess, season: Season, round_: Round, back: str = "season"
) -> dict[str, Any]:
    """What ``_timer_panel.html`` needs for ``round_``."""
    return {
        "access": access,
        "league": access.league,
        "season": season,
        "round": round_,
        "timer": timers.round_timer(round_),
        "timer_back": back,
    }


def check_in_context(
    access: LeagueAccess, season: Season, mine: Registration | None, *, rows: bool = False
) -> dict[str, Any] | None:
    """What ``_check_in.html`` needs, or None when check-in is closed (or not for this
    viewer: only the season's players and its organisers answer). Organisers get the counts;
    the list of every player (``rows``) only when they open it: at 256 players it is most of
    the season page's cost, and the page is viewed far more often than the list is used."""
    number = checkins.check_in_round(season)
    if number is None or (mine is None and not access.is_organiser):
        return None
    context: dict[str, Any] = {"number": number, "mine": None, "rows": [], "counts": None}
    if mine is not None and mine.dropped_at is None:
        context["mine"] = checkins.CheckInRow(mine, checkins.check_in_of(mine, number))
    if access.is_organiser:
        context["counts"] = checkins.check_in_counts(season, number)
        if rows:
            context["rows"] = checkins.check_in_rows(season, number)
    return context


@login_required
@require_POST
def round_timer(request: HtmxHttpRequest, key: str, season_id: int, number: int) -> HttpResponse:
    """Start, pause, resume, change or stop a published round's timer (organisers)."""
    access = access_to(request, key)
    access.require_organiser()
    season = season_get(access, season_id)
    round_get(season, number)
    back = "round" if request.POST.get("back") == "round" else "season"
    form = TimerForm(request.POST)
    error = ""
    if not form.is_valid():
        error = _("Give a number of minutes from -600 to 600.")
    else:
        try:
            timers.round_timer_act(
                **form.cleaned_data,
                user=request_user(request),
                key=key,
                season_id=season_id,
                number=number,
            )
        except LeagueError as refusal:
            error = refusal.message
    if request.htmx:
        context = timer_panel_context(access, season, round_get(season, number), back)
        context["timer_error"] = error
        return render(request, TIMER_PANEL, context, status=422 if error else 200)
    if error:
        messages.error(request, error)
    if back == "round":
        return redirect("leagues:round", key, season_id, number)
    return redirect("leagues:season", key, season_id)


@login_required
@require_http_methods(["GET", "POST"])
def check_in(request: HtmxHttpRequest, key: str, season_id: int) -> HttpResponse:
    """GET: the panel with every player's answer (organisers; the season page shows only the
    counts until asked). POST: a player's own answer for the next round, or an organiser's
    for anyone."""
    access = access_to(request, key)
    season = season_get(access, season_id)
    if request.method == "GET":
        access.require_organiser()
        if not request.htmx:
            return redirect(reverse("leagues:season", args=[key, season_id]) + "?check_in=all")
        context = check_in_context(access, season, registration_of(request.user, season), rows=True)
        if context is None:
            return render(request, CHECK_IN_CLOSED, {"error": checkins.closed_message()})
        page = {"access": access, "league": access.league, "season": season, "check_in": context}
        return render(request, CHECK_IN, page)
    form = CheckInForm(request.POST)
    error = ""
    if not form.is_valid():
        error = _("Choose present, absent or no answer.")
    else:
        try:
            checkins.check_in_set(
                user=request_user(request),
                key=key,
                season_id=season_id,
                registration_id=form.cleaned_data["registration"],
                answer=form.cleaned_data["answer"],
            )
        except LeagueError as refusal:
            if refusal.status == 403:
                raise PermissionDenied(refusal.message) from None
            error = refusal.message
    if request.htmx:
        # An organiser answering for someone is working in the list: it stays open.
        context = check_in_context(
            access, season, registration_of(request.user, season), rows=access.is_organiser
        )
        if context is None:
            # Check-in closed meanwhile (the round was paired): the panel gives way to why.
            return render(request, CHECK_IN_CLOSED, {"error": error}, status=422 if error else 200)
        context["error"] = error
        page = {"access": access, "league": access.league, "season": season, "check_in": context}
        return render(request, CHECK_IN, page, status=422 if error else 200)
    if error:
        messages.error(request, error)
    else:
        messages.success(request, _("Check-in saved."))
    return redirect("leagues:season", key, season_id)


@login_required
@require_POST
def day_settings(request: HtmxHttpRequest, key: str, season_id: int) -> HttpResponse:
    """The organisers change when lists are revealed and whether check-in is required."""
    access = access_to(request, key)
    access.require_organiser()
    season_get(access, season_id)
    form = DaySettingsForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            messages.error(request, " ".join(str(error) for error in errors))
    else:
        try:
            season_day_update(
                user=request_user(request), key=key, season_id=season_id, **form.cleaned_data
            )
        except LeagueError as refusal:
            messages.error(request, refusal.message)
        else:
            messages.success(request, _("Tournament day settings saved."))
    return redirect("leagues:season", key, season_id)


@require_POST
def season_print(request: HtmxHttpRequest, key: str, season_id: int, kind: str) -> HttpResponse:
    """Ask for the PDF of the current pairings or the standings; the export's page follows
    it (apps.cards) until it can be downloaded."""
    if kind not in printing.KINDS:
        raise Http404
    back = reverse("leagues:season", args=[key, season_id])
    try:
        export = printing.season_print_request(
            user=request.user, key=key, season_id=season_id, kind=kind, language=get_language()
        )
    except LeagueError as refusal:
        messages.error(request, refusal.message)
        return redirect(back)
    except ExportsUnavailable as unavailable:
        messages.error(request, str(unavailable))
        return redirect(back)
    return redirect("cards:export", export.pk)


def season_day_context(
    access: LeagueAccess,
    season: Season,
    mine: Registration | None,
    rounds: list[dict[str, Any]],
    *,
    check_in_rows: bool = False,
) -> dict[str, Any]:
    """The season page's tournament-day parts: the current round's timer panel, check-in, the
    organisers' settings form and whether lists are still hidden. Never cached: the timer
    and check-in change without changing the season's version."""
    current = rounds[0]["round"] if rounds else None
    context: dict[str, Any] = {
        "timer_panel": timer_panel_context(access, season, current) if current else None,
        "check_in": check_in_context(access, season, mine, rows=check_in_rows),
        "lists_hidden": lists_hidden(season),
        "print_kinds": printing.KINDS if current else printing.KINDS[1:],
    }
    if access.is_organiser:
        context["day_form"] = day_form_for(season)
    return context
