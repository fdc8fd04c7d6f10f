"""Template helpers for roster pages."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext

from apps.rosters.forms import roster_size_text
from apps.rosters.models import Roster
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
def roster_size(roster: Roster) -> str:
    """A roster's game size or points limit, in its system's words."""
    return roster_size_text(roster.system.slug, roster.settings)
