"""Template helpers for the match pages."""

from __future__ import annotations

from fractions import Fraction

from django import template

from apps.matches.presenters import line_text
from apps.systems.core.match import TimelineLine

register = template.Library()


@register.filter
def text(line: TimelineLine | None) -> str:
    """A line from a rule system (template + params), translated."""
    return line_text(line) if line is not None else ""


@register.filter
def percent(fraction: str) -> str:
    """ "37/100" as "37 %" (an exact probability shown rounded)."""
    try:
        value = Fraction(fraction)
    except (ValueError, ZeroDivisionError):
        return ""
    shown = round(float(value) * 100)
    if shown == 0 and value > 0:
        return "<1 %"
    if shown == 100 and value < 1:
        return ">99 %"
    return f"{shown} %"


@register.filter
def percent_value(fraction: str) -> int:
    try:
        return round(float(Fraction(fraction)) * 100)
    except (ValueError, ZeroDivisionError):
        return 0
