"""Translation markers that work without Django."""

from __future__ import annotations


def gettext_noop(message: str) -> str:
    """Mark ``message`` for translation extraction and return it unchanged.

    Django's ``makemessages`` picks up every ``gettext_noop(...)`` call by name, so strings in the
    framework-free rule systems land in the message catalogues without importing Django here. The
    Django layer translates the stored English text at render time (``gettext(info.tagline)``).
    """
    return message


def ngettext_noop(singular: str, plural: str) -> tuple[str, str]:
    """Mark a singular/plural pair (with %(n)s) for translation extraction; the Django layer
    picks the form for a number with ``ngettext(singular, plural, n)``
    (``apps/common/management/commands/makemessages.py`` adds the keyword)."""
    return singular, plural
