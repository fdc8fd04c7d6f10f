"""Template helpers for the match pages."""

from __future__ import annotations

from fractions import Fraction

from django import template

from apps.matches.presenters import line_text
from apps.systems.core.distributions import percent_text
from apps.systems.core.match import TimelineLine

register = template.Library()


@register.filter
def text(line: TimelineLine | None) -> str:
    """A line from a rule system (template + params), translated."""
    return line_text(line) if line is not None else ""


@register.filter
def percent(fraction: str) -> str:
    """ "37/100" as "37 %" (an exact probability shown rounded)."""
    return percent_text(fraction)


@register.filter
def percent_value(fraction: str) -> int:
    try:
        return round(float(Fraction(fraction)) * 100)
    except (ValueError, ZeroDivisionError):
        return 0
