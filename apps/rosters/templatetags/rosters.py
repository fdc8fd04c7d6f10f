"""Template helpers for roster pages."""

from __future__ import annotations

from collections.abc import Mapping

from django import template
from django.utils.translation import get_language, gettext

from apps.rosters.army_forms import base_as_text
from apps.rosters.forms import roster_size_text
from apps.rosters.models import Roster
from apps.systems.core.i18n import ENGLISH_SUFFIX, localized_text
from apps.systems.core.rosters import RosterIssue

register = template.Library()


@register.filter
def issue_message(issue: RosterIssue) -> str:
    """The issue's message in the active language (its template is a catalogue msgid)."""
    # Params such as rank names are catalogue msgids too; names without a translation pass
    # through gettext unchanged.
    params = {
        key: gettext(value) if isinstance(value, str) else value
        for key, value in issue.params.items()
    }
    return gettext(issue.template) % params


@register.filter
def translated(message: str) -> str:
    """Translate a gettext_noop-marked string that comes from a rule system."""
    return gettext(message) if message else ""


@register.filter
def localized(entry: object, key: str = "text") -> str:
    """The catalogue text ``key`` of ``entry`` (stored data such as a scenario's ``data``, or a
    view model with ``key`` and ``key_en`` attributes) in the active language: the English
    version in English, the German original otherwise (``core.i18n.localized_text``)."""
    if not isinstance(entry, Mapping):
        english = key + ENGLISH_SUFFIX
        entry = {key: getattr(entry, key, ""), english: getattr(entry, english, "")}
    return localized_text(entry, key, get_language())


@register.filter
def roster_size(roster: Roster) -> str:
    """A roster's game size or points limit, in its system's words."""
    return roster_size_text(roster.system.slug, roster.settings)


@register.filter
def base_text(base: str) -> str:
    """A stored base ("round:32", "oval:120x92") as the player types it ("32", "120x92")."""
    return base_as_text(base)
