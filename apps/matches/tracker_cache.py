"""The tracker partial, kept in the cache: a refresh of a board that has not changed since its
viewer's last render is a cache read, not a render (the render is most of a refresh's cost).

A kept render is found by everything it depends on (``RenderKey``): the match and its seq, what
moves without the seq (the clock, archiving, who holds which seat), the viewer (their user id, so
the secrets a seat holder sees with ``?seat=`` and their signed poll URL never reach anyone
else; read-only for spectators), the page's query, the language, the host, and the version of
the code and templates. A running clock is drawn from the time of the render, so a match whose
clock runs is always rendered fresh.

What must differ in every response is not kept: the CSRF token and the command forms'
idempotency keys are placeholders in the kept copy, filled in for each response.
"""

from __future__ import annotations

import hashlib
import itertools
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache as memoize
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils import translation

from apps.matches.models import Match, MatchPlayer

TTL_SECONDS = 10 * 60
# Only the refresh of the whole tracker (hx-target="#tracker"): odds previews and other
# fragments are cut out of it or rendered differently.
TARGET = "tracker"
CSRF_PLACEHOLDER = "csrf0placeholder0"
KEY_STEM = "cmdkeystem"  # apps.matches.templatetags.matches: command_form numbers its keys


@dataclass(frozen=True)
class RenderKey:
    match_id: int
    seq: int
    digest: str

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


def _request_is_refresh(request: HttpRequest) -> bool:
    return bool(getattr(request, "htmx", False)) and request.headers.get("HX-Target") == TARGET


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


def _players(match_id: int) -> list[tuple[Any, ...]]:
    return list(
        MatchPlayer.objects.filter(match_id=match_id).values_list(
            "index", "user_id", "name", "team_owner_id"
        )
    )


def _viewer(user_id: int | None, *, readonly: bool) -> str:
    if readonly:
        return f"spectator:{bool(user_id)}"
    return f"user:{user_id}"


def key_for(
    request: HttpRequest,
    *,
    match_id: int,
    seq: int,
    spectator_token: str,
    created_by_id: int,
    archived_at: Any,
    clock: Mapping[str, Any] | None,
    players: list[tuple[Any, ...]],
    user_id: int | None,
    readonly: bool,
    params: Mapping[str, str],
) -> RenderKey | None:
    """The key of this render, or ``None`` where none is kept."""
    if not _request_is_refresh(request) or _clock_running(clock):
        return None
    # The spectator token is random per match: a match id used again (a restored database)
    # never finds the renders of the match that had it before.
    fields = (spectator_token, created_by_id, archived_at, sorted((clock or {}).items()))
    digest = _digest(
        request,
        fields=fields,
        players=players,
        viewer=_viewer(user_id, readonly=readonly),
        params=params,
    )
    return RenderKey(match_id=match_id, seq=seq, digest=digest)


def _user_id(request: HttpRequest) -> int | None:
    user = getattr(request, "user", None)
    return user.pk if user is not None and user.is_authenticated else None


def key_for_match(
    request: HttpRequest, match: Match, *, readonly: bool, params: Mapping[str, str]
) -> RenderKey | None:
    """The key of a render of ``match`` as loaded for it (one query for the seats)."""
    if not _request_is_refresh(request) or _clock_running(match.clock):
        return None
    return key_for(
        request,
        match_id=match.pk,
        seq=match.seq,
        spectator_token=match.spectator_token,
        created_by_id=match.created_by_id,
        archived_at=match.archived_at,
        clock=match.clock,
        players=_players(match.pk),
        user_id=_user_id(request),
        readonly=readonly,
        params=params,
    )


def participant_key(request: HttpRequest, match_id: int) -> RenderKey | None:
    """The key of a participant's refresh, from two small reads (not the match's state); ``None``
    also when the user is no participant (the view then answers as it always does)."""
    if not _request_is_refresh(request):
        return None
    row = (
        Match.objects.filter(pk=match_id)
        .values_list("seq", "spectator_token", "created_by_id", "archived_at", "clock")
        .first()
    )
    user_id = _user_id(request)
    if row is None or user_id is None:
        return None
    seq, spectator_token, created_by_id, archived_at, clock = row
    players = _players(match_id)
    if created_by_id != user_id and all(player[1] != user_id for player in players):
        return None
    return key_for(
        request,
        match_id=match_id,
        seq=seq,
        spectator_token=spectator_token,
        created_by_id=created_by_id,
        archived_at=archived_at,
        clock=clock,
        players=players,
        user_id=user_id,
        readonly=False,
        params=request.GET,
    )


def spectator_key(request: HttpRequest, token: str) -> RenderKey | None:
    """The key of a spectator's refresh; ``None`` for a participant (who is sent to their own
    tracker) and for an unknown token."""
    if not _request_is_refresh(request) or not token:
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
        match_id=match_id,
        seq=seq,
        spectator_token=token,
        created_by_id=created_by_id,
        archived_at=archived_at,
        clock=clock,
        players=players,
        user_id=user_id,
        readonly=True,
        params=request.GET,
    )


def _personal(request: HttpRequest, html: str, status: int = 200) -> HttpResponse:
    """A kept render with this response's own CSRF token and fresh idempotency keys."""
    html = html.replace(CSRF_PLACEHOLDER, get_token(request)).replace(
        KEY_STEM, secrets.token_hex(6)
    )
    return HttpResponse(html, status=status)


def serve(request: HttpRequest, key: RenderKey | None) -> HttpResponse | None:
    """The kept render for ``key``, personalised; ``None`` if there is none."""
    if key is None:
        return None
    html = cache.get(key.cache_key)
    return _personal(request, html) if isinstance(html, str) else None


def render_and_keep(
    request: HttpRequest, key: RenderKey, template: str, context: dict[str, Any]
) -> HttpResponse:
    """Render with placeholders, keep the render, answer with a personalised copy."""
    context = {
        **context,
        "csrf_token": CSRF_PLACEHOLDER,
        "command_key_stem": KEY_STEM,
        "command_key_numbers": itertools.count(),
    }
    html = render_to_string(template, context, request)
    cache.set(key.cache_key, html, TTL_SECONDS)
    return _personal(request, html)
