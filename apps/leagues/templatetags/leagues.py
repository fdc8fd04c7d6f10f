"""Template helpers for league pages."""

from __future__ import annotations

from collections.abc import Mapping

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from apps.leagues.models import Result
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
    """``{% result_status result counts %}``: the badges of a reported result: where it stands
    (confirmed, decided, disputed, counting unanswered or awaiting confirmation) and whether the
    tracker recorded it. A tag rather than an included template: a round's table shows one per
    game."""
    if result.status == Result.Status.CONFIRMED:
        badge = format_html('<span class="badge ok">{}</span>', _("confirmed"))
    elif result.status == Result.Status.DECIDED:
        badge = format_html('<span class="badge ok">{}</span>', _("decided"))
    elif result.status == Result.Status.DISPUTED:
        badge = format_html('<span class="badge warn">{}</span>', _("disputed"))
    elif counts:
        badge = format_html('<span class="badge ok">{}</span>', _("counts (not answered)"))
    else:
        badge = format_html('<span class="badge warn">{}</span>', _("awaiting confirmation"))
    if result.source == Result.Source.TRACKED:
        badge += format_html(' <span class="badge">{}</span>', _("recorded by the tracker"))
    return badge
