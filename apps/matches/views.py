"""Match pages: my matches, a new match, the tracker (HTMX), the log, the spectator view.

The tracker renders the system's view of the state (``view.tracker_view``); every tap posts a
command form that goes through ``services.match_apply_command`` like the API. Each rendered
form carries the seq it was drawn on and a fresh idempotency key, so a double tap counts once
and a tap on a board another device has changed is refused with the fresh board.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any
from urllib.parse import urlencode, urlsplit

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from apps.accounts.models import User
from apps.catalog.models import GameSystem, Mission
from apps.catalog.selectors import game_system_get
from apps.common.http import HtmxHttpRequest, form_number
from apps.matches import seqcache, services, tracker_cache
from apps.matches.forms import MatchSetupForm, command_args, share_token_from
from apps.matches.models import Match, MatchPlayer
from apps.matches.presenters import LogLine, event_payload, timeline
from apps.matches.recent import recent_log
from apps.matches.selectors import (
    engine_for,
    event_rows,
    is_participant,
    match_by_spectator_token,
    match_for_participant,
    match_for_seat_taker,
    match_for_viewer,
    match_list_for_user,
    match_players,
    match_state,
    open_seats,
    open_seats_for_user,
    recent_event_rows,
    recent_undo,
    seats_held,
    undone_groups,
    viewer_seat,
)
from apps.matches.stream import streams_enabled
from apps.rosters.models import Roster
from apps.rosters.selectors import roster_by_share_token, roster_list_for_user
from apps.systems.core.errors import RuleViolation
from apps.systems.core.registry import registry

TRACKER = "matches/tracker.html"
RECENT_LINES = 12
# The rows read for them: usually enough (a command is a few rows); where they are not (events
# without a line of their own, a long last command), up to RECENT_EVENTS.
RECENT_ROWS_FIRST = 32
RECENT_EVENTS = 80
PREVIEW_PREFIX = "preview-"  # the ids of the Universalis odds previews (universalis/_preview)


def _user(request: HtmxHttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)
    return user


def _selected(params: Mapping[str, str]) -> int | None:
    return form_number(params.get("unit", ""))


def _open_seats(players: list[MatchPlayer]) -> list[MatchPlayer]:
    """The seats of teams opened from someone's share link that their owners have not taken."""
    return [p for p in players if p.user_id is None and p.team_owner_id is not None]


# Stands for the argument in a URL pattern reversed once per process (``_match_url``).
_ARG_MARK = "2147483647"
_PLAIN_ARG = re.compile(r"[A-Za-z0-9_-]+")


@lru_cache(maxsize=64)
def _url_pattern(urlconf: str, script_prefix: str, language: str | None, name: str) -> str:
    return reverse(name, urlconf=urlconf, args=[int(_ARG_MARK)])


def _match_url(name: str, arg: int | str) -> str:
    """``reverse(name, args=[arg])`` for a page of one match: the tracker's answer links a
    dozen of them on every tap, and a reversal costs as much as a small query (issue 16).
    Each pattern is reversed once per URL configuration; an argument that reversing would
    quote is reversed as it always was."""
    text = str(arg)
    if not _PLAIN_ARG.fullmatch(text):
        return reverse(name, args=[arg])
    urlconf = get_urlconf() or settings.ROOT_URLCONF
    pattern = _url_pattern(urlconf, get_script_prefix(), translation.get_language(), name)
    return pattern.replace(_ARG_MARK, text)


def _tracker_urls(match: Match, *, readonly: bool) -> dict[str, str]:
    """The links and form targets of the tracker partial, each reversed once per render."""
    pk = match.pk
    return {
        "tracker": _match_url("matches:tracker", pk),
        "summary": _match_url("matches:summary_spectate", match.spectator_token)
        if readonly
        else _match_url("matches:summary", pk),
        "clock": _match_url("matches:clock", pk),
        "archive": _match_url("matches:archive", pk),
        "unarchive": _match_url("matches:unarchive", pk),
        "delete": _match_url("matches:delete", pk),
    }


def _tracker_context(
    request: HtmxHttpRequest,
    match: Match,
    *,
    readonly: bool,
    error: str = "",
    params: Mapping[str, str] | None = None,
    state: Any = None,
    players: list[MatchPlayer] | None = None,
) -> dict[str, Any]:
    """``params``: the page's query (selection, open wizard); by default the request's.
    ``state``: the match's state when the caller has it (a command's answer), else decoded
    from the snapshot. ``players``: the seats, when the caller has read them."""
    params = request.GET if params is None else params
    state = match_state(match) if state is None else state
    engine = engine_for(match)
    # One read of the seats serves the seats held, the open seats and the templates.
    players = match_players(match) if players is None else players
    held = [] if readonly else seats_held(request.user, match)
    # Secrets are shown only when their owner asks (``?seat=``): on a tablet the whole table
    # looks at, nothing hidden is on screen by default.
    seat = form_number(params.get("seat", ""))
    viewer = seat if seat in held else None
    # A spectator sees the board, never an open attack wizard.
    view = engine.tracker(
        state, selected=_selected(params), params={} if readonly else params, viewer=viewer
    )
    for count in (RECENT_ROWS_FIRST, RECENT_EVENTS):
        rows = recent_event_rows(match, count)
        # The undo markers that matter here are among the recent rows (``recent_undo``).
        undone = undone_groups(rows)
        # Only the shown lines are written out (the walk stops there), not every recent row.
        recent = recent_log(engine, state, rows, undone, shown=RECENT_LINES)
        if recent.complete or len(rows) < count:
            break
    undoable = not readonly and recent_undo(match, rows)[1]
    urls = _tracker_urls(match, readonly=readonly)
    return {
        "match": match,
        "view": view,
        "board": f"matches/{match.system.slug}/_board.html",
        "readonly": readonly,
        "error": error,
        "log": recent.lines,
        "last_result": recent.last_result,
        "can_undo": undoable,
        # The page follows the match by a stream where one is served (apps.matches.stream).
        "streams": streams_enabled(),
        # Reversed once here rather than in each of the page's command forms.
        "command_url": _match_url("matches:command", match.pk),
        "urls": urls,
        "clock_url": urls["clock"],
        "selected": _selected(params),
        "held_seats": held,
        "open_seats": [] if readonly else _open_seats(players),
        "match_url": request.build_absolute_uri(urls["tracker"]),
        "viewer": viewer,
        "spectate": match.spectator_token if readonly else "",
        "spectator_url": request.build_absolute_uri(
            _match_url("matches:spectate", match.spectator_token)
        ),
    }


def last_result(lines: list[LogLine]) -> list[LogLine]:
    """The lines of the last command that still stands (not undone, not an undo and not what
    an undo kept): what the tap before did, for the tracker's "last result" card."""
    undo_groups = {line.group for line in lines if line.undo}
    standing = [line for line in lines if not line.undone and line.group not in undo_groups]
    if not standing:
        return []
    group = standing[-1].group
    return [line for line in standing if line.group == group]


def _render_tracker(
    request: HtmxHttpRequest,
    match: Match,
    *,
    readonly: bool = False,
    error: str = "",
    status: int = 200,
    params: Mapping[str, str] | None = None,
    state: Any = None,
) -> HttpResponse:
    # A board unchanged since this view's last render is served as kept: to a refresh, and
    # inside the whole page (the same partial; a room opening its pages draws each board once).
    players = match_players(match)
    page = not request.htmx
    key = None
    if not error and status == 200:
        shown = request.GET if params is None else params
        key = tracker_cache.key_for_match(
            request, match, readonly=readonly, params=shown, players=players, page=page
        )
    partial = tracker_cache.kept_partial(request, key)
    if partial is None:
        context = _tracker_context(
            request,
            match,
            readonly=readonly,
            error=error,
            params=params,
            state=state,
            players=players,
        )
        template = f"{TRACKER}#tracker"
        if key is not None:
            partial = tracker_cache.render_and_keep_html(request, key, template, context)
        else:
            partial = render_to_string(template, context, request)
    if not page:
        return HttpResponse(partial, status=status)
    context = {"match": match, "readonly": readonly, "tracker_html": partial}
    return render(request, TRACKER, context, status=status)


def _tracker_systems() -> list[GameSystem]:
    """The rule systems whose matches the tracker can follow."""
    slugs = [info.slug for info in registry().all() if info.matches is not None]
    return [game_system_get(slug) for slug in slugs]


@login_required
@require_GET
def match_list(request: HtmxHttpRequest) -> HttpResponse:
    """The user's matches; ``?archived=1``: the archived ones instead."""
    archived = request.GET.get("archived") == "1"
    matches = list(match_list_for_user(_user(request), archived=archived)[:100])
    names = {(m.system_id, m.slug): m.name for m in Mission.objects.all()}
    # Modes an engine offers besides the catalogue's missions (Universalis: the secret choice).
    for system in _tracker_systems():
        engine = registry().get(system.slug).matches
        for value, label in engine.mode_choices() if engine is not None else ():
            names.setdefault((system.pk, value), _(label))
    rows = [(match, names.get((match.system_id, match.mode), match.mode)) for match in matches]
    return render(
        request,
        "matches/list.html",
        {
            "rows": rows,
            "systems": _tracker_systems(),
            "waiting": [] if archived else open_seats_for_user(_user(request)),
            "archived": archived,
        },
    )


def _seat_roster(user: User, roster_id: str, share: str) -> Roster:
    if share:
        return roster_by_share_token(share_token_from(share))
    roster = Roster.objects.filter(owner=user, pk=int(roster_id)).first()
    if roster is None:
        raise Http404
    return roster


@login_required
@require_http_methods(["GET", "POST"])
def match_new(request: HtmxHttpRequest, system_slug: str) -> HttpResponse:
    system = next((s for s in _tracker_systems() if s.slug == system_slug), None)
    if system is None:
        raise Http404
    rosters = list(roster_list_for_user(_user(request)).filter(system=system))
    form = MatchSetupForm(request.POST or None, system=system, rosters=rosters)
    if request.method == "POST" and form.is_valid():
        try:
            seats = [
                services.Seat(name.strip(), _seat_roster(_user(request), roster_id, share))
                for _seat, name, roster_id, share in form.seats()
            ]
            match = services.match_create(
                creator=_user(request),
                system=system,
                mode=form.cleaned_data["mode"],
                seats=seats,
                settings=form.settings(),
            )
        except Http404:
            form.add_error(None, _("A shared team link is unknown or no longer shared."))
        except RuleViolation as error:
            form.add_error(None, refusal_text(error, system))
        else:
            return redirect("matches:tracker", match.pk)
    return render(
        request,
        "matches/new.html",
        {"form": form, "system": system, "has_rosters": bool(rosters)},
        status=422 if form.errors else 200,
    )


@login_required
@require_GET
def match_tracker(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    """The tracker for the match's participants; the owner of a team whose seat nobody holds
    yet gets the page where they take it (the creator sends them this link)."""
    kept = tracker_cache.serve(request, tracker_cache.participant_key(request, match_id))
    if kept is not None:
        return kept
    match = match_for_seat_taker(_user(request), match_id)
    if not is_participant(request.user, match):
        return render(
            request,
            "matches/take_seat.html",
            {"match": match, "seats": open_seats(request.user, match)},
        )
    response = _render_tracker(request, match)
    preview = request.headers.get("HX-Target", "") if request.htmx else ""
    if preview.startswith(PREVIEW_PREFIX) and response.status_code == 200:
        # An odds preview asks again as a form changes: it gets its own element only, not
        # the whole tracker it would otherwise download on every change.
        response.content = _element(response.content.decode(), preview)
    return response


def _element(html: str, element_id: str) -> str:
    """The ``<output>`` element with ``element_id`` out of the rendered tracker ("" if none;
    outputs never nest)."""
    start = html.find(f'<output class="odds-preview odds-command" id="{element_id}"')
    end = html.find("</output>", start)
    return html[start : end + len("</output>")] if start >= 0 and end >= 0 else ""


@login_required
@require_POST
def match_take_seat(request: HtmxHttpRequest, match_id: int, index: int) -> HttpResponse:
    """Take the seat that plays one's own team (opened from one's share link)."""
    try:
        services.match_take_seat(user=_user(request), match_id=match_id, index=index)
    except services.NotYourSeat as error:
        raise PermissionDenied(error.message) from None
    except RuleViolation as error:
        messages.error(request, error.message)
        return redirect("matches:tracker", match_id)
    messages.success(request, _("You hold your seat in this match now."))
    return redirect("matches:tracker", match_id)


@require_GET
def match_spectate(request: HtmxHttpRequest, token: str) -> HttpResponse:
    kept = tracker_cache.serve(request, tracker_cache.spectator_key(request, token))
    if kept is not None:
        return kept
    match = match_by_spectator_token(token)
    if is_participant(request.user, match):
        return redirect("matches:tracker", match.pk)
    return _render_tracker(request, match, readonly=True)


def refusal_text(error: RuleViolation, system: GameSystem) -> str:
    """The refusal in the reader's language where the system has a message for its code."""
    engine = registry().get(system.slug).matches
    if engine is None:
        return error.message
    detail = engine.refusal_detail(error.code) if error.params else None
    if detail:
        return _(detail) % error.params
    message = engine.refusal(error.code)
    return _(message) if message else error.message


@login_required
@require_POST
def match_command(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    """Apply one command from a tracker form; answer with the fresh tracker, kept for the
    match's other devices before they learn the new seq."""
    with seqcache.announced_after():
        return _command_answer(request, match_id)


def _command_answer(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    user = _user(request)
    command = request.POST.get("command", "")
    expected = form_number(request.POST.get("expected_seq", ""))
    if expected is None:
        # Every page form carries the seq it was drawn on (the command_form tag writes it):
        # without it a tap decided on an old screen could not be told from a fresh one.
        match = match_for_participant(user, match_id)
        error = _("This page is out of date: reload it, then tap again.")
        return _answer(request, match, error=error, status=400)
    try:
        outcome = services.match_apply_command(
            user=user,
            match_id=match_id,
            command_type=command,
            args=command_args(dict(request.POST.lists())),
            expected_seq=expected,
            idempotency_key=request.POST.get("idempotency_key") or None,
        )
    except services.StaleCommand as stale:
        return _answer(
            request,
            stale.match,
            error=_("Another device moved first: this is the match now. Check, then tap again."),
            status=409,
        )
    except RuleViolation as error:
        match = match_for_participant(user, match_id)
        return _answer(request, match, error=refusal_text(error, match.system), status=422)
    # The state the service stored: decoding the snapshot again would cost a good part of
    # the answer.
    response = _answer(request, outcome.match, state=outcome.state)
    if outcome.events:
        # The seq right after this command's own events; a replayed key's answer shows the board
        # as it is now, which may be later. The offline queue (static/js/tracker.js) sends its
        # next tap only if the two are equal: no other device moved in between.
        response["X-Skirmish-Command-Seq"] = str(outcome.events[-1].seq)
    return response


def _answer(
    request: HtmxHttpRequest,
    match: Match,
    *,
    error: str = "",
    status: int = 200,
    state: Any = None,
) -> HttpResponse:
    """After a command: the tracker with the same selection and no open wizard; a secret step
    that more steps of the same seat follow (``Button.keeps_secret_view``) keeps that seat's
    secret view (``_render_tracker`` shows it only to a user holding the seat)."""
    kept = {
        name: value
        for name, value in (
            ("unit", request.POST.get("selected", "")),
            ("seat", request.POST.get("seat", "")),
        )
        if form_number(value) is not None
    }
    query = urlencode(kept)
    url = _match_url("matches:tracker", match.pk)
    if not request.htmx:
        if error:
            messages.error(request, error)
        return redirect(f"{url}?{query}" if query else url)
    params = dict(kept)
    if error:
        # A refused form is shown again as it was filled in (a shot keeps its target).
        params.update(_filled(request))
    response = _render_tracker(
        request, match, error=error, status=status, params=params, state=state
    )
    address = f"{url}?{query}" if query else url
    # Only when the address changes: on every replace htmx stores a copy of the whole page in
    # its history cache, a cost paid on the tap.
    if _current_address(request) != address:
        response["HX-Replace-Url"] = address
    return response


def _current_address(request: HtmxHttpRequest) -> str:
    """The path and query of the page the tap came from (htmx's HX-Current-URL header)."""
    current = urlsplit(request.headers.get("HX-Current-URL", ""))
    return f"{current.path}?{current.query}" if current.query else current.path


def _filled(request: HtmxHttpRequest) -> dict[str, str]:
    """The refused form's command and fields (the last value of each), as a tracker query."""
    return {
        key: request.POST.getlist(key)[-1]
        for key in request.POST
        if key == "command" or key.startswith("args.")
    }


@require_GET
def match_log(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    match = match_for_viewer(request.user, match_id, request.GET.get("spectate", ""))
    rows = list(event_rows(match))
    return render(
        request,
        "matches/log.html",
        {
            "match": match,
            "lines": timeline(match, rows),
            "spectate": request.GET.get("spectate", ""),
        },
    )


@require_GET
def match_log_json(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    """The whole log as JSON (decks hidden), for keeping or for a league dispute."""
    match = match_for_viewer(request.user, match_id, request.GET.get("spectate", ""))
    rows = list(event_rows(match))
    engine = engine_for(match)
    state = match_state(match)
    undone = undone_groups(rows)
    viewer = viewer_seat(request.user, match)  # once, not once per event (a query each)
    document = {
        "format": "skirmish-match-log/1",
        "match": match.pk,
        "system": match.system.slug,
        "title": match.title,
        "mode": match.mode,
        "players": [p.name for p in match.players.all()],
        "result": match.result,
        "events": [event_payload(engine, state, row, undone, viewer) for row in rows],
    }
    response = HttpResponse(
        json.dumps(document, ensure_ascii=False, indent=2), content_type="application/json"
    )
    response["Content-Disposition"] = f'attachment; filename="match-{match.pk}.json"'
    return response
