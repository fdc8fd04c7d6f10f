"""Reads of the rule systems for pages and the API."""

from __future__ import annotations

from functools import lru_cache

import markdown
from django.http import Http404

from apps.systems.core.errors import RuleViolation
from apps.systems.core.registry import GameSystemInfo, registry


def system_get(slug: str) -> GameSystemInfo:
    """The registered system with this slug, or 404."""
    try:
        return registry().get(slug)
    except RuleViolation:
        raise Http404(f"No rule system {slug!r}.") from None


@lru_cache(maxsize=32)
def system_reference_html(slug: str, language: str) -> str:
    """The system's rules reference (shipped Markdown, trusted) rendered to HTML."""
    text = registry().get(slug).reference(language)
    return markdown.markdown(text, extensions=["tables", "sane_lists"], output_format="html")
