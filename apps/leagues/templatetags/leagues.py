"""Template helpers for league pages."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django import template
from django.utils.safestring import SafeString

from apps.leagues.models import League, Result, Round
from apps.leagues.pairing_rows import pairing_rows, result_badges
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


@register.simple_tag
def result_status(result: Result, counts: bool) -> SafeString:
    """``{% result_status result counts %}``: the badges of a reported result
    (``pairing_rows.result_badges``), on a game's own page."""
    return result_badges(result, counts)


@register.simple_tag
def pairing_table_rows(
    games: Iterable[Mapping[str, Any]], round_: Round, league: League
) -> SafeString:
    """``{% pairing_table_rows games round league %}``: the rows of a round's pairings table
    (``pairing_rows``)."""
    return pairing_rows(games, round_, league, tracker=has_tracker(league.system.slug))
