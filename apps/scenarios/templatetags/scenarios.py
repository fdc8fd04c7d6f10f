"""Template helpers: which systems have a scenario editor."""

from __future__ import annotations

from django import template

from apps.systems.core.registry import registry

register = template.Library()


@register.filter
def has_scenarios(system_slug: str) -> bool:
    return any(info.slug == system_slug and info.scenarios for info in registry().all())
