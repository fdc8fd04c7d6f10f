"""Reads of the rule systems for pages and the API."""

from __future__ import annotations

from functools import lru_cache

import markdown
from django.db.models import QuerySet
from django.http import Http404

from apps.catalog.models import Faction, GameSystem, Profile
from apps.systems.core.errors import RuleViolation
from apps.systems.core.registry import GameSystemInfo, registry


def system_get(slug: str) -> GameSystemInfo:
    """The registered system with this slug, or 404."""
    try:
        return registry().get(slug)
    except RuleViolation:
        raise Http404(f"No rule system {slug!r}.") from None


def game_system_get(slug: str) -> GameSystem:
    """The system's database row, or 404 for a slug no system is registered under."""
    info = system_get(slug)
    # The row mirrors the registry; creating it on first use keeps a fresh database usable
    # before `load_catalog` ran.
    system, _ = GameSystem.objects.get_or_create(slug=info.slug, defaults={"name": info.name})
    return system


@lru_cache(maxsize=32)
def system_reference_html(slug: str, language: str) -> str:
    """The system's rules reference (shipped Markdown, trusted) rendered to HTML."""
    text = registry().get(slug).reference(language)
    return markdown.markdown(text, extensions=["tables", "sane_lists"], output_format="html")


def team_factions(system: GameSystem) -> QuerySet[Faction]:
    """The factions a player's team may be built for: not those whose every profile is an NPC
    (Grundregeln's "npc" faction is fielded by scenarios, never by teams)."""
    fielded = Profile.objects.filter(system=system).exclude(stats__npc=True)
    npc_only = (
        Faction.objects.filter(system=system, profiles__stats__npc=True)
        .exclude(profiles__in=fielded)
        .values("pk")
    )
    return Faction.objects.filter(system=system).exclude(pk__in=npc_only)
