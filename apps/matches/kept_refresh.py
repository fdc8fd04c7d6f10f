"""A participant's tracker refresh answered from the kept render, without the database.

After every tap the other devices of the table refresh their tracker. The render they need is
usually kept already (``apps.matches.tracker_cache``: the tap's own answer serves every
participant), but finding it took the whole way through the middleware, a session and a user
query, and two reads of the match to build its key: most of a refresh's cost (issue 16).

A refresh that carries its page's signed poll token (``X-Skirmish-Poll-Token``, the ``t`` of
the poll URL, ``apps.matches.poll``) is answered here, before the session, locale, CSRF and
authentication middleware, when all of this holds, and otherwise goes on as always:

- the token is valid for this match and names the user whose session the request carries,
  with the password hash kept when that user was last authenticated the usual way
  (``poll.session_is_user``: a password change ends every other session here too);
- the cache knows the match's seq (``seqcache``) and its *head*: what the render key reads of
  the match row and its seats besides the seq (spectator token, creator, archiving, clock,
  who holds which seat), written by the database path of a refresh;
- the user is a participant by that head, the clock is not running, and a render is kept
  under the key;
- the request has a well-formed CSRF cookie (its token goes into the forms of the answer).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import CsrfViewMiddleware
from django.utils import translation
from django.utils.cache import patch_vary_headers

from apps.common.compression import answered_as
from apps.matches import seqcache, tracker_cache, tracker_head
from apps.matches.poll import (
    SPECTATOR,
    TOKEN_HEADER,
    auth_hash_key,
    session_and,
    session_is_user,
    token_claims,
)

_TRACKER_PATH = re.compile(r"^/matches/(\d+)/$")


def _csrf_ready(request: HttpRequest) -> bool:
    """Load the CSRF cookie as CsrfViewMiddleware does; without one the answer's forms would
    get a token no cookie matches, so only the usual path may answer."""
    CsrfViewMiddleware(lambda _request: HttpResponse()).process_request(request)
    # A malformed cookie is replaced by a new secret that only process_response would send.
    return "CSRF_COOKIE" in request.META and not request.META.get("CSRF_COOKIE_NEEDS_UPDATE")


def kept_answer(request: HttpRequest, match_id: int) -> HttpResponse | None:
    """The kept render for this refresh, or ``None`` where the usual path must answer."""
    claims = token_claims(request, match_id, request.headers.get(TOKEN_HEADER, ""))
    if claims is None or claims[0] == SPECTATOR:
        return None
    viewer, nonce = claims
    # The session, the seq, the head and the user's session hash: one round trip to the cache.
    session, found = session_and(
        request, [*tracker_head.keys(match_id, nonce), auth_hash_key(viewer)]
    )
    if not session_is_user(session, viewer, found.get(auth_hash_key(viewer))):
        return None
    current = tracker_head.read(found, match_id, nonce)
    if current is None:
        return None
    seq, row, players = current
    user_id = int(viewer)
    if row[1] != user_id and all(player[1] != user_id for player in players):
        return None
    language = translation.get_language_from_request(request)
    with translation.override(language):
        key = tracker_cache.key_for(
            request,
            tracker_cache.MatchRow(match_id, seq, *row),
            players=players,
            user_id=user_id,
            readonly=False,
            params=request.GET,
        )
        if key is None or not _csrf_ready(request):
            return None
        response = tracker_cache.serve(request, key)
    if response is None:
        return None
    # Compressed as the tracker view's answers are (apps.common.compression).
    answered_as(request, "matches:tracker")
    # What the locale and session middleware would have said of this answer.
    response.headers.setdefault("Content-Language", language)
    patch_vary_headers(response, ("Accept-Language", "Cookie"))
    response["X-Frame-Options"] = getattr(settings, "X_FRAME_OPTIONS", "DENY")
    return response


class KeptRefreshMiddleware:
    """Answers a tracker refresh from the kept render before the rest of the middleware runs;
    everything else, and every refresh this cannot answer, goes on as usual."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if (
            request.method == "GET"
            and TOKEN_HEADER in request.headers
            and tracker_cache.is_refresh(request)
            and seqcache.enabled()
        ):
            found = _TRACKER_PATH.match(request.path_info)
            if found is not None:
                answer = kept_answer(request, int(found.group(1)))
                if answer is not None:
                    return answer
        return self.get_response(request)
