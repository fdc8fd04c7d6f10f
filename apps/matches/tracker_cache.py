"""The tracker partial, kept in the cache: a refresh of a board that has not changed since its
last render is a cache read, not a render (the render is most of a refresh's cost).

A kept render is found by everything it depends on (``RenderKey``): the match and its seq, what
moves without the seq (the clock, archiving, who holds which seat), the view (a participant's,
with the seat whose secrets ``?seat=`` shows, if they hold it; or a spectator's), the page's
query, the language, the host, and the version of the code and templates. A running clock is
drawn from the time of the render, so a match whose clock runs is always rendered fresh.

One render serves every participant who sees that view: two players with a phone each are one
render per tap, not four. What differs between them is not kept but filled in for each
response: the CSRF token, the command forms' idempotency keys, the signed poll URL (it names
its user), and the parts for some viewers only (``apps.matches.viewer_slots``: the concede
buttons of the seats one holds, the creator's delete link, a seat's "show my secret" link).
"""

from __future__ import annotations

import hashlib
import itertools
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache as memoize
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

from apps.common.http import form_number
from apps.matches import seqcache, tracker_head, viewer_slots
from apps.matches.models import Match, MatchPlayer
from apps.matches.poll import SPECTATOR, remember_auth_hash, signed_poll_url
from apps.matches.templatetags.match_poll import PLACEHOLDER as POLL_PLACEHOLDER

TTL_SECONDS = 10 * 60
# Only the refresh of the whole tracker (hx-target="#tracker"): odds previews and other
# fragments are cut out of it or rendered differently.
TARGET = "tracker"
CSRF_PLACEHOLDER = viewer_slots.placeholder("csrf")
# apps.matches.templatetags.matches: command_form numbers its keys after it.
KEY_STEM = viewer_slots.placeholder("command-key")


@dataclass(frozen=True)
class Viewer:
    """Who a response is for: what its viewer-only parts ask, and their poll URL."""

    facts: viewer_slots.ViewerFacts
    poll_url: str


@dataclass(frozen=True)
class RenderKey:
    match_id: int
    seq: int
    digest: str
    viewer: Viewer = field(compare=False)

    @property
    def cache_key(self) -> str:
        return f"tracker-render:{self.match_id}:{self.seq}:{self.digest}"


@memoize
def code_version() -> str:
    """Changes whenever a template, a Python module of the apps or a compiled catalogue does:
    a kept render must never outlive the code that drew it (the cache outlives deployments)."""
    base = Path(settings.BASE_DIR)
    files = sorted(
        [
            *(base / "templates").rglob("*.html"),
            *(base / "apps").rglob("*.py"),
            *(base / "locale").rglob("*.mo"),
        ]
    )
    digest = hashlib.sha256()
    for path in files:
        stat = path.stat()
        digest.update(f"{path}:{stat.st_size}:{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:16]


def is_refresh(request: HttpRequest) -> bool:
    """An htmx request for the whole tracker (read from the headers: before HtmxMiddleware
    too, for ``apps.matches.kept_refresh``)."""
    return (
        request.headers.get("HX-Request") == "true" and request.headers.get("HX-Target") == TARGET
    )


def _clock_running(clock: Mapping[str, Any] | None) -> bool:
    return bool(clock and clock.get("running"))


def _digest(
    request: HttpRequest,
    *,
    fields: tuple[Any, ...],
    players: Iterable[tuple[Any, ...]],
    viewer: str,
    params: Mapping[str, str],
) -> str:
    parts = (
        code_version(),
        translation.get_language(),
        request.scheme,
        request.get_host(),
        viewer,
        repr(fields),
        repr(sorted(players)),
        repr(sorted((key, params.get(key, "")) for key in params)),
    )
    return hashlib.sha256("\x1f".join(map(str, parts)).encode()).hexdigest()[:32]


Players = list[tuple[Any, ...]]  # (index, user id, name, team owner id) per seat


def _players(match_id: int) -> Players:
    return list(
        MatchPlayer.objects.filter(match_id=match_id).values_list(
            "index", "user_id", "name", "team_owner_id"
        )
    )


def seat_rows(players: Iterable[MatchPlayer]) -> Players:
    """The seats as the key reads them, from seats the caller has loaded already."""
    return [(p.index, p.user_id, p.name, p.team_owner_id) for p in players]


def _view(readonly: bool, user_id: int | None, shown_seat: int | None) -> str:
    """Whose screen this is, as far as the shared render goes: a spectator's (logged in or
    not), or a participant's with the seat whose secrets it shows."""
    if readonly:
        return f"spectator:{bool(user_id)}"
    return f"participant:{shown_seat}"


@dataclass(frozen=True)
class MatchRow:
    """What the key reads of the match row."""

    match_id: int
    seq: int
    spectator_token: str
    created_by_id: int
    archived_at: Any
    clock: Mapping[str, Any] | None


def key_for(
    request: HttpRequest,
    row: MatchRow,
    *,
    players: Players,
    user_id: int | None,
    readonly: bool,
    params: Mapping[str, str],
    page: bool = False,
) -> RenderKey | None:
    """The key of this render, or ``None`` where none is kept. ``page``: for the tracker inside
    its whole page (the same partial), not only for a refresh of it."""
    if not (page or is_refresh(request)) or _clock_running(row.clock):
        return None
    held = () if readonly or user_id is None else tuple(p[0] for p in players if p[1] == user_id)
    seat = form_number(params.get("seat", ""))
    shown = seat if seat in held else None
    # The spectator token is random per match: a match id used again (a restored database)
    # never finds the renders of the match that had it before.
    fields = (
        row.spectator_token,
        row.created_by_id,
        row.archived_at,
        sorted((row.clock or {}).items()),
    )
    digest = _digest(
        request,
        fields=fields,
        players=players,
        viewer=_view(readonly, user_id, shown),
        params=params,
    )
    facts = viewer_slots.ViewerFacts(
        held=held, creator=not readonly and user_id is not None and row.created_by_id == user_id
    )
    poll = signed_poll_url(
        row.match_id,
        row.spectator_token,
        SPECTATOR if readonly else str(user_id or ""),
        row.spectator_token if readonly else "",
    )
    return RenderKey(row.match_id, row.seq, digest, Viewer(facts, poll))


def _user_id(request: HttpRequest) -> int | None:
    user = getattr(request, "user", None)
    return user.pk if user is not None and user.is_authenticated else None


def key_for_match(
    request: HttpRequest,
    match: Match,
    *,
    readonly: bool,
    params: Mapping[str, str],
    players: Iterable[MatchPlayer],
    page: bool = False,
) -> RenderKey | None:
    """The key of a render of ``match`` and its ``players`` as loaded for it (``page``: as
    ``key_for``)."""
    if not (page or is_refresh(request)) or _clock_running(match.clock):
        return None
    row = MatchRow(
        match.pk,
        match.seq,
        match.spectator_token,
        match.created_by_id,
        match.archived_at,
        match.clock,
    )
    return key_for(
        request,
        row,
        players=seat_rows(players),
        user_id=_user_id(request),
        readonly=readonly,
        params=params,
        page=page,
    )


def participant_key(request: HttpRequest, match_id: int) -> RenderKey | None:
    """The key of a participant's refresh, from two small reads (not the match's state); ``None``
    also when the user is no participant (the view then answers as it always does)."""
    if not is_refresh(request):
        return None
    # Read before the row: a head written with it is never used after a change since.
    generation = tracker_head.generation(match_id)
    row = (
        Match.objects.filter(pk=match_id)
        .values_list("seq", "spectator_token", "created_by_id", "archived_at", "clock")
        .first()
    )
    user_id = _user_id(request)
    if row is None or user_id is None:
        return None
    players = _players(match_id)
    created_by_id = row[2]
    if created_by_id != user_id and all(player[1] != user_id for player in players):
        return None
    # For the next refresh of this match, answered without the database (kept_refresh).
    tracker_head.remember(match_id, generation, row[1:], players)
    seqcache.remember(match_id, seqcache.nonce_of(row[1]), row[0])
    remember_auth_hash(request.user)
    return key_for(
        request,
        MatchRow(match_id, *row),
        players=players,
        user_id=user_id,
        readonly=False,
        params=request.GET,
    )


def spectator_key(request: HttpRequest, token: str) -> RenderKey | None:
    """The key of a spectator's refresh; ``None`` for a participant (who is sent to their own
    tracker) and for an unknown token."""
    if not is_refresh(request) or not token:
        return None
    row = (
        Match.objects.filter(spectator_token=token)
        .values_list("pk", "seq", "created_by_id", "archived_at", "clock")
        .first()
    )
    if row is None:
        return None
    match_id, seq, created_by_id, archived_at, clock = row
    players = _players(match_id)
    user_id = _user_id(request)
    if user_id is not None and (
        created_by_id == user_id or any(player[1] == user_id for player in players)
    ):
        return None
    return key_for(
        request,
        MatchRow(match_id, seq, token, created_by_id, archived_at, clock),
        players=players,
        user_id=user_id,
        readonly=True,
        params=request.GET,
    )


def personal_html(request: HttpRequest, html: str, viewer: Viewer) -> SafeString:
    """A kept render as ``viewer`` sees it, with this response's own CSRF token and fresh
    idempotency keys."""
    html = viewer_slots.fill(html, viewer.facts)
    html = (
        html.replace(CSRF_PLACEHOLDER, get_token(request))
        .replace(KEY_STEM, secrets.token_hex(6))
        .replace(POLL_PLACEHOLDER, str(conditional_escape(viewer.poll_url)))
    )
    # Our template's output, with a token, hex digits and an escaped URL put in.
    return mark_safe(html)  # noqa: S308


def kept_html(key: RenderKey | None) -> str | None:
    """The render kept under ``key`` (placeholders and all), if any."""
    html = cache.get(key.cache_key) if key is not None else None
    return html if isinstance(html, str) else None


def kept_partial(request: HttpRequest, key: RenderKey | None) -> SafeString | None:
    """The kept render for ``key``, personalised; ``None`` if there is none."""
    html = kept_html(key)
    return personal_html(request, html, key.viewer) if html is not None and key else None


def serve(request: HttpRequest, key: RenderKey | None) -> HttpResponse | None:
    """``kept_partial`` as the answer to a refresh."""
    partial = kept_partial(request, key)
    return HttpResponse(partial) if partial is not None else None


def render_and_keep_html(
    request: HttpRequest, key: RenderKey, template: str, context: dict[str, Any]
) -> SafeString:
    """Render for every viewer of the key's view (placeholders, both branches of every
    viewer-only part), keep the render, return the copy for this request's viewer."""
    context = {
        **context,
        "csrf_token": CSRF_PLACEHOLDER,
        "command_key_stem": KEY_STEM,
        "command_key_numbers": itertools.count(),
        "viewer_slots": True,
        "viewer_slot_numbers": itertools.count(),
    }
    html = render_to_string(template, context, request)
    cache.set(key.cache_key, html, TTL_SECONDS)
    return personal_html(request, html, key.viewer)
