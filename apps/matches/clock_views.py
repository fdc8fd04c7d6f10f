"""The match clock on the tracker: its fragment (read by players and spectators, re-fetched by
``static/js/clock.js`` since clock changes do not move the match's seq) and its buttons.

The clock lives beside the event log (``apps.matches.clock``): an action changes no seq, so
the tracker's poller does not notice it, and the fragment has an ETag of its own.
"""

from __future__ import annotations

import hashlib
import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from apps.accounts.models import User
from apps.common.http import HtmxHttpRequest, form_number
from apps.matches.clock import ClockError, match_clock_act
from apps.matches.models import Match
from apps.matches.selectors import is_participant, match_for_participant, match_for_viewer

CLOCK = "matches/_clock.html"


def _etag(match: Match, readonly: bool) -> str:
    """Changes whenever the fragment would: the stored clock (not the time: the page ticks by
    itself), the language, read-only or not, and a match that ends (its clock stops)."""
    basis = json.dumps(
        [match.clock, get_language(), readonly, match.status, str(match.finished_at)],
        sort_keys=True,
        default=str,
    )
    return '"clock-' + hashlib.sha256(basis.encode()).hexdigest()[:20] + '"'


def _fragment(
    request: HtmxHttpRequest, match: Match, *, readonly: bool, spectate: str = "", error: str = ""
) -> HttpResponse:
    response = render(
        request,
        CLOCK,
        {"match": match, "readonly": readonly, "spectate": spectate, "clock_error": error},
        status=422 if error else 200,
    )
    response["ETag"] = _etag(match, readonly)
    response["Cache-Control"] = "no-cache"
    return response


@require_http_methods(["GET", "POST"])
def match_clock(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    """GET: the clock fragment (304 while unchanged); POST: a clock button."""
    if request.method == "POST":
        return _clock_action(request, match_id)
    spectate = request.GET.get("spectate", "")
    match = match_for_viewer(request.user, match_id, spectate)
    readonly = not is_participant(request.user, match)
    etag = _etag(match, readonly)
    if request.headers.get("If-None-Match") == etag:
        response = HttpResponse(status=304)
        response["ETag"] = etag
        return response
    return _fragment(request, match, readonly=readonly, spectate=spectate if readonly else "")


@login_required
def _clock_action(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    user = request.user
    assert isinstance(user, User)
    data = request.POST
    try:
        match = match_clock_act(
            user=user,
            match_id=match_id,
            action=data.get("action", ""),
            mode=data.get("mode", ""),
            minutes=form_number(data.get("minutes", "")),
            player=form_number(data.get("player", "")),
            round_=form_number(data.get("round", "")),
        )
    except ClockError as error:
        match = match_for_participant(user, match_id)
        if not request.htmx:
            messages.error(request, _(error.message))
            return redirect("matches:tracker", match_id)
        return _fragment(request, match, readonly=False, error=_(error.message))
    if not request.htmx:
        return redirect("matches:tracker", match_id)
    return _fragment(request, match, readonly=False)
