"""Translation markers and the language of catalogue texts, without Django."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final


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


# Catalogue prose (rule texts of abilities, items, powers, scenario summaries) is written in
# German, the rulebooks' language; each such key ``text`` has an English version ``text_en``
# beside it. Names stay German: they are the rulebook's and the printed card's terms.
ENGLISH_SUFFIX: Final = "_en"
# Separates the German text from the English one in the admin's one-line text formats
# ("Name: Deutscher Text | English text").
ENGLISH_SEPARATOR: Final = " | "


def is_english(language: str | None) -> bool:
    """Whether ``language`` (a Django language code such as "en", "en-gb", "de") reads the
    English versions; every other language reads the German original."""
    return bool(language) and str(language).lower().split("-")[0] == "en"


def localized_text(entry: Mapping[str, object], key: str, language: str | None) -> str:
    """The text under ``key`` of a catalogue entry in the reader's language: the English
    version ``<key>_en`` for English readers when there is one, else the German original."""
    if is_english(language):
        english = entry.get(key + ENGLISH_SUFFIX)
        if isinstance(english, str) and english.strip():
            return english
    original = entry.get(key)
    return original if isinstance(original, str) else ""


def localized_stats(value: object, language: str | None) -> object:
    """A copy of catalogue data (``stats`` or a scenario's ``data``) with every text that has
    an English version replaced by the one the reader reads, at any depth.

    The rule systems render one text per entry (card faces are even split by its length), so
    the Django layer hands them a catalogue already in the reader's language instead of every
    layout choosing between two texts. The ``_en`` keys stay, so the data still fits the schema.
    """
    if isinstance(value, Mapping):
        return {
            key: (
                localized_text(value, key, language)
                if isinstance(item, str) and key + ENGLISH_SUFFIX in value
                else localized_stats(item, language)
            )
            for key, item in value.items()
        }
    if isinstance(value, list | tuple):
        return [localized_stats(item, language) for item in value]
    return value


def with_english(text: str, text_en: str) -> str:
    """A German text and its English version as one line of an admin text format."""
    return f"{text}{ENGLISH_SEPARATOR}{text_en}" if text_en else text


def split_english(line: str) -> tuple[str, str]:
    """The inverse of ``with_english``: (German, English) of one line's text; the last
    separator splits, so the English version is never cut."""
    text, separator, text_en = line.rpartition(ENGLISH_SEPARATOR.strip())
    if not separator:
        return line.strip(), ""
    return text.strip(), text_en.strip()
