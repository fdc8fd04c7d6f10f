"""Template helpers for league pages."""

from __future__ import annotations

from collections.abc import Mapping

from django import template

register = template.Library()


@register.filter
def get_item(mapping: Mapping[object, object], key: object) -> object:
    """``names|get_item:id``: a value of a dictionary by a key from the template."""
    return mapping.get(key, "")
