"""``{% poll_url %}``: the URL a tracker page polls, with its signed token (apps.matches.poll)."""

from __future__ import annotations

from django import template

from apps.matches.poll import poll_url as signed_poll_url
from apps.matches.viewer_slots import placeholder

register = template.Library()

# In a render kept for every viewer (apps.matches.tracker_cache) each response puts its own
# viewer's URL here: the token names the user it was signed for.
PLACEHOLDER = placeholder("poll-url")


@register.simple_tag(takes_context=True)
def poll_url(context: template.Context) -> str:
    """Needs ``match``, ``request`` and ``spectate`` (the spectator token, "" for a player)."""
    if context.get("viewer_slots"):
        return PLACEHOLDER
    request = context.get("request")
    user = getattr(request, "user", None)
    return signed_poll_url(context["match"], user, spectate=context.get("spectate") or "")
