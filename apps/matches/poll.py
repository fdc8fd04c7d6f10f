"""The poll: the cheap question every open tracker asks every second or two -- has the match
moved? -- answered without the database when it can be.

Who may ask is settled when the tracker page is rendered: its poll URL carries a signed token
(``poll_token``) naming the match and the viewer -- a user id, or "spectator" for a page opened
from the spectator link -- with the time it was signed. A poll with a valid token for this match
is answered from the seq in the cache (``apps.matches.seqcache``); a user's token also needs the
session of that user (read from the cache with the production session engine, so still no
query). Everything else -- no token, an expired or forged one, another user's, a cache miss, a
cache that does not answer -- takes the old way through the database, which checks access
itself and refills the cache. So the token only ever saves work: it grants nothing the page's
viewer could not already read, and a stranger without one gets the same 404 as always.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import partial
from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends import cached_db
from django.core import signing
from django.core.cache import cache
from django.db import transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import reverse
from django.utils.crypto import constant_time_compare
from django.views.decorators.http import require_GET

from apps.matches import seqcache
from apps.matches.models import Match
from apps.matches.selectors import match_seq_for_viewer

SALT = "apps.matches.poll"
# A tablet left on the table for a long evening keeps polling cheaply; after this the page's
# polls take the database path until its next refresh signs a new token.
TOKEN_MAX_AGE = 12 * 60 * 60
SPECTATOR = "s"
AUTH_HASH_TTL = 60 * 60
# What a user's kept session hash is for a while after any save of the user.
REVOKED = "revoked"
REVOKED_SECONDS = 60


def poll_token(match_id: int, spectator_token: str, viewer: str) -> str:
    """The token for the poll URL of a page showing the match to ``viewer``: a user id, or
    ``SPECTATOR`` for a page opened from the spectator link."""
    nonce = seqcache.nonce_of(spectator_token)
    return signing.dumps([match_id, viewer, nonce], salt=SALT, compress=False)


def viewer_of(user: Any, *, spectator: bool) -> str:
    return SPECTATOR if spectator else str(getattr(user, "pk", None) or "")


def signed_poll_url(match_id: int, spectator_token: str, viewer: str, spectate: str = "") -> str:
    """The URL a tracker page polls: the spectator token (for the database path) and the
    signed poll token (for the cheap one)."""
    token = poll_token(match_id, spectator_token, viewer)
    query = f"spectate={spectate}&t={token}" if spectate else f"t={token}"
    return f"{reverse('matches:poll', args=[match_id])}?{query}"


def poll_url(match: Match, user: Any, *, spectate: str = "") -> str:
    """The poll URL of a page showing ``match`` to ``user`` (or, with ``spectate``, to a
    spectator)."""
    viewer = viewer_of(user, spectator=bool(spectate))
    return signed_poll_url(match.pk, match.spectator_token, viewer, spectate)


# A tracker refresh carries its page's poll token here (static/js/tracker.js), for
# apps.matches.kept_refresh.
TOKEN_HEADER = "X-Skirmish-Poll-Token"


def token_claims(request: HttpRequest, match_id: int, token: str) -> tuple[str, str] | None:
    """The viewer and the match's nonce that a valid ``token`` for this match names."""
    if not token:
        return None
    try:
        claimed, viewer, nonce = signing.loads(token, salt=SALT, max_age=TOKEN_MAX_AGE)
    except (signing.BadSignature, ValueError, TypeError):
        return None
    if claimed != match_id or not isinstance(viewer, str) or not isinstance(nonce, str):
        return None
    return (viewer, nonce) if viewer and nonce else None


def _token_claims(request: HttpRequest, match_id: int) -> tuple[str, str] | None:
    return token_claims(request, match_id, request.GET.get("t", ""))


def session_store(session_key: str | None) -> Any:
    """The session with ``session_key`` in the configured store, as SessionMiddleware opens it
    (not read until asked)."""
    return import_module(settings.SESSION_ENGINE).SessionStore(session_key)


def _session(request: HttpRequest) -> Any:
    session = getattr(request, "session", None)
    if session is None:
        # Before SessionMiddleware (PollMiddleware): the same store it would open.
        session = session_store(request.COOKIES.get(settings.SESSION_COOKIE_NAME))
    return session


def session_and(request: HttpRequest, keys: list[str]) -> tuple[Mapping[str, Any], dict[str, Any]]:
    """The request's session data and the cache's values of ``keys``. Where the sessions are
    kept in this cache (production: the cached_db engine on Redis), both come in one round trip
    (a poll made two); otherwise, or when the session is not cached, the session store reads
    the session as SessionMiddleware would."""
    if getattr(request, "session", None) is None and (
        cached_db.__name__ == settings.SESSION_ENGINE and settings.SESSION_CACHE_ALIAS == "default"
    ):
        # The store validates the cookie's key (None for a malformed one).
        session_key = cached_db.SessionStore(
            request.COOKIES.get(settings.SESSION_COOKIE_NAME)
        ).session_key
        if session_key:
            session_cache_key = cached_db.KEY_PREFIX + session_key
            found = cache.get_many([session_cache_key, *keys])
            data = found.pop(session_cache_key, None)
            return (data if isinstance(data, dict) else _session(request)), found
    return _session(request), (cache.get_many(keys) if keys else {})


def _user_of(session: Mapping[str, Any]) -> str:
    # The session's user id, not request.user: loading the user would be a query per poll. A
    # logged-out device (or another user's browser) falls through to the database path.
    return str(session.get(SESSION_KEY, ""))


def auth_hash_key(user_id: str) -> str:
    return f"session-auth-hash:{user_id}"


def remember_auth_hash(user: Any) -> None:
    """Keep the session hash of a user just authenticated the usual way (password and active
    flag checked), for ``session_is_user``. Never over what is kept already: a save of the user
    leaves a tombstone (``forget_auth_hash``) that a request which loaded the user before the
    save must not replace with the old hash."""
    if getattr(user, "is_authenticated", False) and user.is_active:
        cache.add(auth_hash_key(str(user.pk)), user.get_session_auth_hash(), AUTH_HASH_TTL)


def _revoke(user_id: object) -> None:
    cache.set(auth_hash_key(str(user_id)), REVOKED, REVOKED_SECONDS)


def forget_auth_hash(user_id: object) -> None:
    """After any save of a user (a new password, deactivation): no session of theirs is
    answered without the database until the usual path has checked one again -- at once, and
    again once the save commits (a request may have loaded the user before it)."""
    _revoke(user_id)
    transaction.on_commit(partial(_revoke, user_id))


def session_is_user(session: Mapping[str, Any], viewer: str, kept_hash: object) -> bool:
    """Is ``session`` the session of the user ``viewer``, still as valid as the usual path
    would find it? A poll only learns a seq; a request that is shown content must also pass
    what Django's authentication checks: the session's password hash is the user's current one
    (a password change logs every other session out) -- compared with ``kept_hash``, the hash
    kept when the user was last authenticated the usual way (``remember_auth_hash``)."""
    if viewer == SPECTATOR or _user_of(session) != viewer:
        return False
    given = session.get(HASH_SESSION_KEY)
    return (
        isinstance(kept_hash, str)
        and isinstance(given, str)
        and constant_time_compare(kept_hash, given)
    )


def _seq_without_database(request: HttpRequest, match_id: int) -> int | None:
    claims = _token_claims(request, match_id)
    if claims is None or not seqcache.enabled():
        return None
    viewer, nonce = claims
    key = seqcache.seq_key(match_id, nonce)
    if viewer == SPECTATOR:
        found = cache.get_many([key])
    else:
        session, found = session_and(request, [key])
        if _user_of(session) != viewer:
            return None
    seq = found.get(key)
    return seq if isinstance(seq, int) else None


def current_seq(request: HttpRequest, match_id: int) -> int:
    """The match's seq for this viewer; raises 404 where the database path would."""
    seq = _seq_without_database(request, match_id)
    if seq is not None:
        return seq
    seq = match_seq_for_viewer(request.user, match_id, request.GET.get("spectate", ""))
    claims = _token_claims(request, match_id)
    if claims is not None:
        # Access was checked just now; the signed nonce names this match's entry.
        seqcache.remember(match_id, claims[1], seq)
    return seq


def _answer(request: HttpRequest, seq: int) -> HttpResponse:
    etag = f'"{seq}"'
    if request.headers.get("If-None-Match") == etag:
        response = HttpResponse(status=304)
    else:
        response = JsonResponse({"seq": seq})
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def match_poll(request: HttpRequest, match_id: int) -> HttpResponse:
    """Has the match moved? 304 if the page's seq (``If-None-Match``) is current, else the seq."""
    return _answer(request, current_seq(request, match_id))


_POLL_PATH = re.compile(r"^/matches/(\d+)/poll/$")


class PollMiddleware:
    """Answers a poll with a valid token from the cache before the rest of the middleware runs
    (CSP, locale, CSRF, authentication, messages, htmx, axes: none of them has anything to do
    for a 304), which is most of a cheap poll's cost. Anything else goes on as usual, and so
    does a poll this cannot answer (the view then does)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method == "GET" and "t=" in request.META.get("QUERY_STRING", ""):
            found = _POLL_PATH.match(request.path_info)
            if found is not None:
                seq = _seq_without_database(request, int(found.group(1)))
                if seq is not None:
                    return _answer(request, seq)
        return self.get_response(request)
