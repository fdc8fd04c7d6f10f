"""Template helpers for print pages."""

from __future__ import annotations

from django import template

from apps.systems.core.registry import GameSystemInfo, registry

register = template.Library()


@register.simple_tag
def card_systems() -> list[GameSystemInfo]:
    """The rule systems that have printed cards."""
    return [info for info in registry().all() if info.cards is not None]
