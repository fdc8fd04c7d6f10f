"""Template helpers for league pages."""

from __future__ import annotations

from collections.abc import Mapping

from django import template

from apps.systems.core.registry import registry

register = template.Library()


@register.filter
def get_item(mapping: Mapping[object, object], key: object) -> object:
    """``names|get_item:id``: a value of a dictionary by a key from the template."""
    return mapping.get(key, "")


@register.filter
def has_tracker(system_slug: str) -> bool:
    """``league.system.slug|has_tracker``: whether the system's games can be played on the
    match tracker (a league game's players then start it from the pairing)."""
    return system_slug in registry().slugs() and registry().get(system_slug).matches is not None
