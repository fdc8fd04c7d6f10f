"""The parts of a tracker partial that depend on who looks at it, so that one drawn partial
serves every participant of a match (issue 16: two players with a phone each were four renders
of one board after every tap; now the tap's own render serves the other three devices).

A template marks such a part with ``{% viewer_only "seat" player.index %}`` (the viewer holds
that seat), ``{% viewer_only "seats" %}`` (they hold any) or ``{% viewer_only "creator" %}``
(they created the match), optionally with ``{% otherwise %}``. A render for one viewer decides
the part at once; a render kept for all (``apps.matches.tracker_cache``) keeps both branches
between numbered markers, and each response keeps the branch its viewer's ``ViewerFacts``
choose. The markers are HTML comments, which no escaped text can forge.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.utils.crypto import salted_hmac

SEAT = "seat"
ANY_SEAT = "seats"
CREATOR = "creator"
CONDITIONS = (SEAT, ANY_SEAT, CREATOR)

_SLOT = re.compile(
    r"<!--viewer (?P<n>\d+) (?P<condition>[a-z]+(?::\d+)?)-->(?P<then>.*?)"
    r"(?:<!--viewer-else (?P=n)-->(?P<otherwise>.*?))?<!--/viewer (?P=n)-->",
    re.S,
)


def placeholder(name: str) -> str:
    """A stand-in for a value filled in per response (a CSRF token, a poll URL): hex digits
    derived from the secret key, the same in every process that shares the cache, which no one
    typing a team or unit name can know, so nothing they type is ever replaced."""
    return salted_hmac("apps.matches.viewer_slots", name).hexdigest()[:24]


@dataclass(frozen=True)
class ViewerFacts:
    """What the marked parts ask of the viewer: the seats they hold, whether they created the
    match. A spectator holds none and created nothing."""

    held: tuple[int, ...] = ()
    creator: bool = False

    def allows(self, condition: str) -> bool:
        kind, _sep, seat = condition.partition(":")
        if kind == SEAT:
            return seat.isdigit() and int(seat) in self.held
        if kind == ANY_SEAT:
            return bool(self.held)
        return kind == CREATOR and self.creator


def condition_text(kind: str, seat: object = None) -> str:
    """The condition as written into a marker: "seat:1", "seats" or "creator"."""
    if kind not in CONDITIONS:
        raise ValueError(f"viewer_only: unknown condition {kind!r}")
    if kind != SEAT:
        return kind
    if not isinstance(seat, int) or isinstance(seat, bool) or seat < 0:
        raise ValueError(f"viewer_only: a seat index is needed, got {seat!r}")
    return f"{SEAT}:{seat}"


def marked(number: int, condition: str, then: str, otherwise: str) -> str:
    """Both branches of a part, kept for every viewer."""
    middle = f"<!--viewer-else {number}-->{otherwise}" if otherwise else ""
    return f"<!--viewer {number} {condition}-->{then}{middle}<!--/viewer {number}-->"


def fill(html: str, viewer: ViewerFacts) -> str:
    """The render as ``viewer`` sees it: each marked part replaced by its branch (outer parts
    first; a kept branch may hold further parts, hence the loop)."""

    def choose(found: re.Match[str]) -> str:
        if viewer.allows(found["condition"]):
            return found["then"]
        return found["otherwise"] or ""

    while True:
        html, count = _SLOT.subn(choose, html)
        if not count:
            return html
