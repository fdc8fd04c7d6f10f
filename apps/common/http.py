"""Request typing for views behind django-htmx's middleware."""

from __future__ import annotations

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


# More digits than any id or index the app stores; ``int`` refuses over 4300 anyway.
MAX_NUMBER_DIGITS = 18


def form_number(value: object) -> int | None:
    """A non-negative whole number typed into a form field or query string, or ``None``.

    ``str.isdigit`` is not enough before ``int``: it accepts "²" (which ``int`` refuses) and
    any number of digits (``int`` refuses more than 4300)."""
    if not isinstance(value, str) or not value.isascii() or not value.isdigit():
        return None
    if len(value) > MAX_NUMBER_DIGITS:
        return None
    return int(value)
