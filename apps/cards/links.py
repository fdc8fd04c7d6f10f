"""Links the print pages and the API hand out: the share link printed on a roster sheet, and
URLs that carry the share token of whoever may only see the roster through it."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlencode

from django.urls import reverse

from apps.rosters.models import Roster


def with_share(url: str, share: str) -> str:
    return f"{url}?{urlencode({'share': share})}" if share else url


def share_url(roster: Roster, absolute: Callable[[str], str]) -> str:
    """The link printed on the roster sheet (its shared view), if the roster is shared;
    ``absolute`` is the request's ``build_absolute_uri``."""
    if not roster.share_token:
        return ""
    return absolute(reverse("rosters:shared", args=[roster.share_token]))
