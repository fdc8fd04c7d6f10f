"""Time left as every clock face of the app writes it (the match clock, the round timer), the
same as static/js/clock-digits.js does once a page counts down."""

from __future__ import annotations


def clock_digits(ms: int) -> str:
    """ "M:SS", "H:MM:SS" from an hour; never below zero (time that is up reads 0:00, and the
    face says so in words). Rounded up: a face reads 0:00 only when time is up."""
    seconds = max(0, -(-ms // 1000))
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{seconds:02}" if hours else f"{minutes}:{seconds:02}"
