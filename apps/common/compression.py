"""Compressed HTML for the match pages, and for nothing that carries a secret (BREACH).

BREACH recovers a secret from a compressed response when the attacker can make the victim's
browser fetch it with text of the attacker's choosing reflected next to the secret, and can see
the response sizes. So only the views listed here are compressed: the tracker and the
fragments and polls it fetches on every tap. Their only secret is the CSRF token, which Django
masks afresh for every response (a different string each time, nothing to converge on), and
Django's GZipMiddleware pads every compressed body with up to 100 random bytes (Heal the
Breach). Pages that show a long-lived secret are left uncompressed: the roster builder and
print dialog (the share link), a league's page (its join code), the profile (the API token).
A view is added here only after checking it shows none. Static files are compressed by nginx
and WhiteNoise (deploy/nginx/locations.conf, deploy/README.md).
"""

from __future__ import annotations

from typing import Final

from django.http import HttpRequest, HttpResponseBase
from django.middleware.gzip import GZipMiddleware

COMPRESSED_VIEWS: Final = frozenset(
    {
        "matches:list",
        "matches:tracker",
        "matches:command",
        "matches:poll",
        "matches:clock",
        "matches:log",
        "matches:log_json",
        "matches:summary",
        # A spectator's pages: the watch token is in the address they already hold, and
        # without it the page is a 404, so there is nothing to probe.
        "matches:spectate",
        "matches:summary_spectate",
    }
)


# A middleware that answers before the URL is resolved names the view it answers for here
# (apps.matches.kept_refresh: a tracker refresh).
ANSWERED_AS = "skirmish_answered_as"


def answered_as(request: HttpRequest, view_name: str) -> None:
    setattr(request, ANSWERED_AS, view_name)


class BreachSafeGZipMiddleware(GZipMiddleware):
    """Django's GZipMiddleware for the views in ``COMPRESSED_VIEWS`` only."""

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        match = getattr(request, "resolver_match", None)
        view_name = match.view_name if match is not None else getattr(request, ANSWERED_AS, "")
        if view_name not in COMPRESSED_VIEWS:
            return response
        return super().process_response(request, response)  # type: ignore[no-any-return]
