"""The type size each card was fitted in, stored by the card's content in the shared cache.

Fitting a card costs a layout pass of its own; the result depends only on what the card says,
the language, the card templates and WeasyPrint. Stored under a hash of exactly that, it is
found again by every worker, after a restart, and for every roster that prints the same card
(most cards come unchanged from the catalogue), so a card's text is fitted once. The cache
may forget an entry at any time (Redis evicts, a deploy flushes it): that only costs the
fitting again, never a wrong card, because a card that is not found is measured as before.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, is_dataclass
from functools import cache
from pathlib import Path
from typing import Final

import weasyprint
from django.contrib.staticfiles import finders
from django.core.cache import cache as shared_cache
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.utils import translation
from weasyprint.text.ffi import pango

from apps.systems.core.cards import Card

# Stored instead of a type size: the card did not fit in any size and was split by its system;
# each part is stored under its own content.
SPLIT: Final = -1
# Long enough to outlive many prints; catalogue cards are printed again and again.
FIT_TIMEOUT_SECONDS: Final = 90 * 24 * 60 * 60
_PREFIX: Final = "cards:fit:"
# The files rendering.FONT_FILES names (imported from there would be a cycle).
_FONTS: Final = (
    "fonts/dejavu/DejaVuSansCondensed.ttf",
    "fonts/dejavu/DejaVuSansCondensed-Bold.ttf",
)


def _source(name: str) -> bytes:
    try:
        origin = get_template(name).origin.name
    except TemplateDoesNotExist:
        return b""
    return Path(origin).read_bytes() if origin and Path(origin).is_file() else b""


@cache
def layout_digest(system_slug: str, template: str) -> str:
    """What a fit depends on besides the card: the templates, styles and fonts that draw it
    and the WeasyPrint and Pango that lay it out. Any change gives new keys, so a fit is only
    ever reused for a layout identical to the one it was measured in."""
    digest = hashlib.sha256(f"{weasyprint.__version__} {pango.pango_version()}".encode())
    for font in _FONTS:
        found = finders.find(font)
        digest.update(Path(found).read_bytes() if isinstance(found, str) else font.encode())
    for name in (
        "cards/document.html",
        f"cards/{system_slug}/cards.css",
        f"cards/{system_slug}/{template}.html",
    ):
        digest.update(name.encode() + b"\0" + _source(name))
    return digest.hexdigest()


def _content(card: Card) -> str:
    # Part numbers are left out: "(1/2)" or "(2/3)" is the same width, and a split card's
    # parts are renumbered once all are known.
    face = asdict(card.face) if is_dataclass(card.face) else repr(card.face)  # type: ignore[arg-type]
    # default=str: lazy translations as the words printed in the current language.
    return json.dumps([card.template, card.name, face], default=str, sort_keys=True)


def fit_key(system_slug: str, card: Card) -> str:
    """The card's key: a hash of its content, the language and the layout it is drawn with."""
    digest = hashlib.sha256(
        "\0".join(
            (
                layout_digest(system_slug, card.template),
                translation.get_language() or "",
                _content(card),
            )
        ).encode()
    )
    return _PREFIX + digest.hexdigest()


def recall(keys: Iterable[str]) -> dict[str, int]:
    """The stored fits among ``keys`` (a type size, or ``SPLIT``); one cache round trip."""
    found = shared_cache.get_many(list(dict.fromkeys(keys)))
    return {key: value for key, value in found.items() if isinstance(value, int)}


def store(fits: Mapping[str, int], *, known: Mapping[str, int]) -> None:
    """Store the fits that are new or changed (nothing when a print found every card)."""
    changed = {key: value for key, value in fits.items() if known.get(key) != value}
    if changed:
        shared_cache.set_many(changed, timeout=FIT_TIMEOUT_SECONDS)


def forget(keys: Sequence[str]) -> None:
    """Drop stored fits (the benchmark's "never printed before")."""
    shared_cache.delete_many(list(keys))
