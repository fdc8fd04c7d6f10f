"""HTML to PDF: lays a system's cards out on paper and renders them with WeasyPrint.

Every card is drawn by its system's template (``cards/<system>/<card.template>.html``) inside a
fixed 63 × 88 mm frame. A card whose text does not fit is never cut: after laying the document
out, every frame is measured, and a card that overflows is drawn again in smaller type, and,
when even the smallest type does not fit, split by its system into two cards.

Rendering never touches the network: ``LocalOnlyFetcher`` serves the vendored fonts and
``data:`` URLs and refuses everything else.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any, Final
from urllib.parse import unquote, urlsplit

import segno
from django.contrib.staticfiles import finders
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from weasyprint import HTML
from weasyprint.document import Document, Page
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher, URLFetcherResponse

from apps.cards import fits
from apps.systems.core.cards import Card, CardLayouts

logger = logging.getLogger(__name__)

CARD_WIDTH_MM: Final = 63.0
CARD_HEIGHT_MM: Final = 88.0
BLEED_MM: Final = 3.0
GRID_COLUMNS: Final = 3
GRID_ROWS: Final = 3
CARDS_PER_SHEET: Final = GRID_COLUMNS * GRID_ROWS
PAPER_MM: Final[Mapping[str, tuple[float, float]]] = {
    "a4": (210.0, 297.0),
    "letter": (215.9, 279.4),
}
# Type sizes a card can be drawn in, largest first (CSS classes density-0, -1, -2).
DENSITIES: Final = 3
# Each pass shrinks or splits every card that overflowed; a card splits at most a few times.
MAX_PASSES: Final = 8
FONT_FILES: Final = {
    "regular": "fonts/dejavu/DejaVuSansCondensed.ttf",
    "bold": "fonts/dejavu/DejaVuSansCondensed-Bold.ttf",
}
# Half a CSS pixel: WeasyPrint's layout rounds, a frame filled exactly is not an overflow.
_TOLERANCE_PX: Final = 0.5
# How the content of a full card shrinks with each type size (measured on the Deathmatch
# cards, rounded up), and how full a guessed size may be expected to get.
_SHRINK: Final = (1.0, 0.86, 0.73)
_FIT_MARGIN: Final = 0.97
_JUST_OVER: Final = 1.01
# The most cards one export prints (as the roster lists them, before any is split). Measured
# (bench/cards.py): a worker process holds 120 MB before a render and about 1 MB more per card
# at its peak (200 cards: 316 MB, 22-25 s on 2 busy cores), so 150 keeps a render within
# 300 MB and well inside the task's time limit. A legal Deathmatch team prints under 40.
MAX_CARDS_PER_EXPORT: Final = 150
_BETWEEN_TAGS: Final = re.compile(r">\s*\n\s*<")


class CardRenderError(Exception):
    """Rendering cannot succeed; ``message`` says why in words a player can act on."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def too_many_cards_message(count: int) -> str:
    return _(
        "This print would have %(count)d cards, but at most %(limit)d cards fit in one PDF. "
        "Print the roster sheet alone, or split the roster into smaller ones."
    ) % {"count": count, "limit": MAX_CARDS_PER_EXPORT}


class RemoteResourceRefused(ValueError):
    """A template asked for something outside the vendored files: rendering stays offline."""


@cache
def font_paths() -> dict[str, Path]:
    """The vendored font files, found like any static file (the sources in development, the
    same files in the image)."""
    paths = {}
    for weight, name in FONT_FILES.items():
        found = finders.find(name)
        if not isinstance(found, str):
            raise CardRenderError(
                _("The font file %(name)s is missing; reinstall Skirmish.") % {"name": name}
            )
        paths[weight] = Path(found).resolve()
    return paths


class LocalOnlyFetcher(URLFetcher):  # type: ignore[misc]  # WeasyPrint ships no types
    """Serves ``data:`` URLs and the files below ``roots``; refuses every other URL, so that a
    card can never make the worker reach out to the network."""

    def __init__(self, roots: Sequence[Path]) -> None:
        super().__init__(allowed_protocols=("file", "data"), allow_redirects=False)
        self._roots = tuple(root.resolve() for root in roots)

    def fetch(self, url: str, headers: Mapping[str, str] | None = None) -> URLFetcherResponse:
        scheme = url.split(":", 1)[0].lower()
        if scheme == "data":
            return super().fetch(url, headers)
        if scheme == "file":
            path = Path(unquote(urlsplit(url).path)).resolve()
            if any(path.is_relative_to(root) for root in self._roots) and path.is_file():
                return URLFetcherResponse(url, body=path.read_bytes())
        logger.warning("card rendering refused to fetch %s", url)
        raise RemoteResourceRefused(f"Refused to fetch {url!r}: cards render offline.")


@dataclass
class _Slot:
    """A card in the document as it is being fitted: ``origin`` is the index of the card it
    came from (a split card keeps it), ``density`` its current type size."""

    card: Card
    origin: int
    density: int = 0


@dataclass(frozen=True)
class PrintJob:
    """Everything one PDF holds. ``sheet`` is the system's roster sheet (None: cards only);
    ``context`` is what the Django layer adds to the sheet (team name, date, share link)."""

    system_slug: str
    layouts: CardLayouts
    cards: tuple[Card, ...]
    sheet: object | None
    layout: str
    paper: str
    title: str
    context: Mapping[str, Any] = field(default_factory=dict)


def qr_data_uri(url: str) -> str:
    """A QR code of ``url`` as an SVG data: URL (black on white, sharp at any size)."""
    return str(segno.make(url, error="m").svg_data_uri(scale=4, border=2))


def _mm(value: float) -> str:
    """A length for the CSS, never localised ("10.50mm", not "10,50mm")."""
    return f"{value:.2f}mm"


def _grid_origin(paper: str) -> tuple[float, float]:
    width, height = PAPER_MM[paper]
    return (
        (width - GRID_COLUMNS * CARD_WIDTH_MM) / 2,
        (height - GRID_ROWS * CARD_HEIGHT_MM) / 2,
    )


def crop_marks(paper: str) -> list[dict[str, str]]:
    """Hairlines in the margins of a nine-up page, in line with every cut, clear of the cards
    by 2 mm and at most 6 mm long (US Letter leaves less room above and below)."""
    width, height = PAPER_MM[paper]
    left, top = _grid_origin(paper)
    right, bottom = left + GRID_COLUMNS * CARD_WIDTH_MM, top + GRID_ROWS * CARD_HEIGHT_MM
    gap, line = 2.0, 0.2
    vertical = min(6.0, top - gap - 1.0)
    horizontal = min(6.0, left - gap - 1.0)
    marks = []
    for n in range(GRID_COLUMNS + 1):
        x = left + n * CARD_WIDTH_MM - line / 2
        for y in (top - gap - vertical, bottom + gap):
            marks.append(
                {"left": _mm(x), "top": _mm(y), "width": _mm(line), "height": _mm(vertical)}
            )
    for n in range(GRID_ROWS + 1):
        y = top + n * CARD_HEIGHT_MM - line / 2
        for x in (left - gap - horizontal, right + gap):
            marks.append(
                {"left": _mm(x), "top": _mm(y), "width": _mm(horizontal), "height": _mm(line)}
            )
    return marks


def _card_html(job: PrintJob, slot: _Slot, index: int) -> str:
    html = render_to_string(
        f"cards/{job.system_slug}/{slot.card.template}.html",
        {"card": slot.card, "face": slot.card.face},
    )
    # The frame is ours, the face the system template's own autoescaped output.
    return mark_safe(
        f'<div class="card density-{slot.density}"><div class="card-face" data-card="{index}">'
        f'<div class="card-inner" lang="de">{html}</div></div></div>'
    )


def document_html(
    job: PrintJob, slots: Sequence[_Slot], *, numbers: Sequence[int] | None = None, sheet: bool
) -> str:
    """A document as HTML: ``slots`` as card pages in the chosen layout, then (with
    ``sheet``) the roster sheet. ``numbers`` are the cards' indexes that
    ``overflowing_cards`` reports (their positions in ``slots`` unless given)."""
    numbers = range(len(slots)) if numbers is None else numbers
    cards = [_card_html(job, slot, number) for slot, number in zip(slots, numbers, strict=True)]
    left, top = _grid_origin(job.paper)
    paper_width, paper_height = PAPER_MM[job.paper]
    pages: list[list[dict[str, str]]] = []
    if job.layout == "sheet":
        for start in range(0, len(cards), CARDS_PER_SHEET):
            pages.append(
                [
                    {
                        "html": html,
                        "left": _mm(left + (n % GRID_COLUMNS) * CARD_WIDTH_MM),
                        "top": _mm(top + (n // GRID_COLUMNS) * CARD_HEIGHT_MM),
                    }
                    for n, html in enumerate(cards[start : start + CARDS_PER_SHEET])
                ]
            )
        page_width, page_height = paper_width, paper_height
    else:
        pages = [[{"html": html, "left": _mm(0), "top": _mm(0)}] for html in cards]
        page_width, page_height = CARD_WIDTH_MM, CARD_HEIGHT_MM
    fonts = font_paths()
    context = {
        **job.context,
        "job": job,
        "pages": pages,
        "sheet": job.sheet if sheet else None,
        "crop_marks": crop_marks(job.paper) if job.layout == "sheet" else [],
        "font_regular": fonts["regular"].as_uri(),
        "font_bold": fonts["bold"].as_uri(),
        "paper_size": f"{_mm(paper_width)} {_mm(paper_height)}",
        "card_page_size": f"{_mm(page_width)} {_mm(page_height)}",
        "card_page_width": _mm(page_width),
        "card_page_height": _mm(page_height),
        "card_width": _mm(CARD_WIDTH_MM),
        "card_height": _mm(CARD_HEIGHT_MM),
        "bleed": _mm(BLEED_MM),
        "system_template": f"cards/{job.system_slug}/cards.css",
        "sheet_template": f"cards/{job.system_slug}/sheet.html",
    }
    # Line breaks between tags are only template layout; WeasyPrint's HTML parser reads every
    # character in Python, so leaving them out is measurably faster.
    return _BETWEEN_TAGS.sub("><", render_to_string("cards/document.html", context))


def _boxes(box: Any, parent: Any = None) -> Iterator[tuple[Any, Any]]:
    yield box, parent
    for child in getattr(box, "children", ()):
        yield from _boxes(child, box)


def _right_edge(box: Any) -> float:
    """How far right ``box`` or anything inside it reaches."""
    right = box.position_x + box.margin_width()
    for child in getattr(box, "children", ()):
        right = max(right, _right_edge(child))
    return float(right)


def overflowing_cards(pages: Iterable[Page]) -> dict[int, float]:
    """The cards whose content does not fit their frame: index -> how full the frame is.

    Too tall, or too wide (a table or a word that cannot wrap): both would be cut by the frame.
    WeasyPrint has no public API for measuring laid-out boxes; this walks each page's box tree
    (``Page._page_box``, stable across the versions pinned in constraints.txt). A fixed-size
    frame lays its content out in full, so the content's size is its natural size.
    """
    found: dict[int, float] = {}
    for page in pages:
        for box, parent in _boxes(page._page_box):
            element = getattr(box, "element", None)
            if element is None or parent is None or "card-inner" not in element.get("class", ""):
                continue
            frame = getattr(parent, "element", None)
            if frame is None or frame.get("data-card") is None:
                continue
            fill = box.margin_height() / parent.height
            too_wide = _right_edge(box) > box.position_x + box.margin_width() + _TOLERANCE_PX
            if box.margin_height() > parent.height + _TOLERANCE_PX or too_wide:
                # A card too wide counts as just too full: smaller type is what narrows it.
                found[int(frame.get("data-card"))] = max(fill, _JUST_OVER)
    return found


def _predicted(slot: _Slot, fill: float) -> _Slot | None:
    """The card in the largest smaller type it should fit in, judged by how full it is now
    (smaller type also sets more words a line, so the height shrinks faster than the type).
    When no size looks enough, the smallest is tried first all the same: that is usually
    enough, and the layout that follows checks every guess. None: already smallest."""
    if slot.density >= DENSITIES - 1:
        return None
    for density in range(slot.density + 1, DENSITIES):
        if fill * _SHRINK[density] / _SHRINK[slot.density] <= _FIT_MARGIN:
            return replace(slot, density=density)
    return replace(slot, density=DENSITIES - 1)


def _numbered(slots: Sequence[_Slot]) -> list[_Slot]:
    """Number the parts of every split card: "2/3" needs to know how many parts there are."""
    parts: dict[int, int] = {}
    for slot in slots:
        parts[slot.origin] = parts.get(slot.origin, 0) + 1
    seen: dict[int, int] = {}
    numbered = []
    for slot in slots:
        seen[slot.origin] = seen.get(slot.origin, 0) + 1
        card = replace(slot.card, part=seen[slot.origin], parts=parts[slot.origin])
        numbered.append(replace(slot, card=card))
    return numbered


class _Renderer:
    """Renders with one font configuration and the offline fetcher, so that the pages of
    several documents can be joined into one PDF."""

    def __init__(self, job: PrintJob) -> None:
        fonts = font_paths()
        self.job = job
        self.fetcher = LocalOnlyFetcher(roots=[path.parent for path in fonts.values()])
        self.font_config = FontConfiguration()
        # Fits found in the shared store, and fits measured by this render (fits.py).
        self.known: dict[str, int] = {}
        self.learned: dict[str, int] = {}

    def key(self, slot: _Slot) -> str:
        return fits.fit_key(self.job.system_slug, slot.card)

    def render(
        self,
        slots: Sequence[_Slot],
        *,
        numbers: Sequence[int] | None = None,
        sheet: bool = False,
        layout: str = "",
    ) -> Document:
        job = replace(self.job, layout=layout) if layout else self.job
        markup = document_html(job, slots, numbers=numbers, sheet=sheet)
        return HTML(string=markup, url_fetcher=self.fetcher).render(font_config=self.font_config)


def _split(job: PrintJob, slot: _Slot) -> list[_Slot]:
    halves = job.layouts.split(slot.card)
    if halves is None:
        raise CardRenderError(
            _(
                "“%(name)s” has more text than fits on a card, even in the smallest type and "
                "split over several cards. Shorten its text in the catalogue."
            )
            % {"name": _(slot.card.name)}
        )
    # Measured as numbered parts ("1/2"), as they will be printed.
    parts = max(card.part for card in halves)
    return [_Slot(replace(card, parts=parts), slot.origin) for card in halves]


# A card (or one part of a split card) being fitted, and whether its type size is settled.
_Part = tuple[_Slot, bool]


def _unsettled(cards: Sequence[Sequence[_Part]]) -> list[tuple[int, int]]:
    """The (card, part) positions whose type size is still to be found."""
    return [
        (card, part)
        for card, parts in enumerate(cards)
        for part, (_slot, settled) in enumerate(parts)
        if not settled
    ]


def _candidates(
    cards: Sequence[Sequence[_Part]], todo: Sequence[tuple[int, int]]
) -> list[tuple[tuple[int, int], _Slot]]:
    """Every unsettled part in its current and every smaller type, largest first."""
    return [
        ((card, part), replace(cards[card][part][0], density=density))
        for card, part in todo
        for density in range(cards[card][part][0].density, DENSITIES)
    ]


def _largest_fitting(
    candidates: Sequence[tuple[tuple[int, int], _Slot]], over: Mapping[int, float]
) -> dict[tuple[int, int], _Slot]:
    """For each part, the first (largest) candidate that did not overflow."""
    chosen: dict[tuple[int, int], _Slot] = {}
    for position, (key, candidate) in enumerate(candidates):
        if position not in over:
            chosen.setdefault(key, candidate)
    return chosen


def _settled(
    renderer: _Renderer,
    card: int,
    parts: Sequence[_Part],
    chosen: Mapping[tuple[int, int], _Slot],
) -> list[_Part]:
    """The parts of ``card`` after a round: a part that fits in some size is settled in it, one
    that fits in none is split into parts to be fitted in the next round."""
    rebuilt: list[_Part] = []
    for part, (slot, settled) in enumerate(parts):
        if settled:
            rebuilt.append((slot, True))
        elif (card, part) in chosen:
            rebuilt.append((chosen[(card, part)], True))
        else:
            renderer.learned[renderer.key(slot)] = fits.SPLIT
            rebuilt.extend((half, False) for half in _split(renderer.job, slot))
    return rebuilt


def _fit(renderer: _Renderer, slots: Sequence[_Slot]) -> list[list[_Slot]]:
    """Each card in the largest type it fits in, or split into parts that each fit.

    Every candidate (each card in each smaller type) is laid out in one small document, one
    card a page, so a round costs one small layout however many cards are too full.
    """
    cards: list[list[_Part]] = [[(slot, False)] for slot in slots]
    for _round in range(MAX_PASSES):
        todo = _unsettled(cards)
        if not todo:
            return [[slot for slot, _settled in parts] for parts in cards]
        candidates = _candidates(cards, todo)
        # Nine to a page: the frames are the same in both layouts, and fewer pages lay out faster.
        measured = renderer.render([slot for _key, slot in candidates], layout="sheet")
        chosen = _largest_fitting(candidates, overflowing_cards(measured.pages))
        cards = [_settled(renderer, card, parts, chosen) for card, parts in enumerate(cards)]
    raise CardRenderError(_("The cards could not be laid out without cutting text."))


def _recalled(renderer: _Renderer) -> tuple[list[_Slot], bool]:
    """The job's cards in the sizes stored for them (a card stored as split, split again into
    its parts), and whether every card was found. One cache round trip per level of splits."""
    slots = [_Slot(card, origin=index) for index, card in enumerate(renderer.job.cards)]
    for _level in range(MAX_PASSES):
        found = fits.recall(renderer.key(slot) for slot in slots)
        renderer.known.update(found)
        if fits.SPLIT not in found.values():
            break
        slots = [
            part
            for slot in slots
            for part in (
                _split(renderer.job, slot)
                if found.get(renderer.key(slot)) == fits.SPLIT
                else [slot]
            )
        ]
    keys = [renderer.key(slot) for slot in slots]
    recalled = [
        replace(slot, density=found[key]) if found.get(key, fits.SPLIT) >= 0 else slot
        for slot, key in zip(slots, keys, strict=True)
    ]
    return recalled, all(found.get(key, fits.SPLIT) >= 0 for key in keys)


def _pages_of(layout: str, slots: Sequence[_Slot]) -> list[list[_Slot]]:
    """The cards of each card page, in order."""
    size = CARDS_PER_SHEET if layout == "sheet" else 1
    return [list(slots[start : start + size]) for start in range(0, len(slots), size)]


def _refitted(
    renderer: _Renderer, slots: Sequence[_Slot], over: Mapping[int, float]
) -> list[_Slot]:
    """The cards with each overflowing one replaced: in the smaller type its fill predicts, or,
    when it is already in the smallest, fitted on its own (and split if need be)."""
    guessed = {index: _predicted(slots[index], fill) for index, fill in over.items()}
    hard = sorted(index for index, slot in guessed.items() if slot is None)
    replacements = {index: [slot] for index, slot in guessed.items() if slot is not None}
    if hard:
        replacements.update(zip(hard, _fit(renderer, [slots[i] for i in hard]), strict=True))
    return _numbered(
        [part for index, slot in enumerate(slots) for part in replacements.get(index, [slot])]
    )


def _spliced(
    renderer: _Renderer,
    pages: Sequence[Page],
    card_pages: int,
    old: Sequence[Sequence[_Slot]],
    new: Sequence[Sequence[_Slot]],
) -> list[Page]:
    """The document's pages with the card pages that changed from ``old`` to ``new`` laid out
    again; the pages after the card pages (the roster sheet) are kept."""
    changed = [n for n, cards in enumerate(new) if n >= len(old) or old[n] != cards]
    size = CARDS_PER_SHEET if renderer.job.layout == "sheet" else 1
    redrawn = renderer.render(
        [slot for n in changed for slot in new[n]],
        numbers=[n * size + i for n in changed for i in range(len(new[n]))],
    )
    # Splits only add cards: the card pages keep their places, new ones are appended.
    card_list = list(pages[: min(card_pages, len(new))])
    card_list += [redrawn.pages[0]] * (len(new) - len(card_list))
    for number, page in zip(changed, redrawn.pages, strict=True):
        card_list[number] = page
    return [*card_list, *pages[card_pages:]]


def render_document(
    job: PrintJob, *, progress: Callable[[int], None] = lambda percent: None
) -> Document:
    """Lay the job out until every card fits: card pages, then the roster sheet.

    The whole document is laid out once. A card too full is given the smaller type its
    measured fill predicts (measured on its own, or split by its system, when no size will
    do); only the card pages that changed are laid out again and spliced in, and checked
    again. ``progress`` hears 10..85 (percent).
    """
    if not job.cards and job.sheet is None:
        raise CardRenderError(_("There is nothing to print."))
    if len(job.cards) > MAX_CARDS_PER_EXPORT:
        raise CardRenderError(too_many_cards_message(len(job.cards)))
    renderer = _Renderer(job)
    recalled, all_known = _recalled(renderer)
    slots = _numbered(recalled)
    document = renderer.render(slots, sheet=True)
    pages = list(document.pages)
    card_pages = len(_pages_of(job.layout, slots))
    progress(60)
    if all_known:
        # Every card was measured in exactly this layout before (fits.layout_digest): it fits.
        progress(85)
        return document
    for _pass in range(MAX_PASSES):
        over = overflowing_cards(pages[:card_pages])
        if not over:
            renderer.learned.update((renderer.key(slot), slot.density) for slot in slots)
            fits.store(renderer.learned, known=renderer.known)
            progress(85)
            return document.copy(pages)
        fitted = _refitted(renderer, slots, over)
        new = _pages_of(job.layout, fitted)
        pages = _spliced(renderer, pages, card_pages, _pages_of(job.layout, slots), new)
        card_pages, slots = len(new), fitted
    raise CardRenderError(_("The cards could not be laid out without cutting text."))


def render_html_pdf(html: str) -> bytes:
    """A document that is not cards (apps.cards.documents): its HTML as it comes, with the
    vendored fonts and the same offline fetcher."""
    fonts = font_paths()
    fetcher = LocalOnlyFetcher(roots=[path.parent for path in fonts.values()])
    pdf = HTML(string=html, url_fetcher=fetcher).write_pdf(font_config=FontConfiguration())
    assert isinstance(pdf, bytes)
    return pdf


def render_pdf(job: PrintJob, *, progress: Callable[[int], None] = lambda percent: None) -> bytes:
    document = render_document(job, progress=progress)
    pdf = document.write_pdf()
    progress(98)
    assert isinstance(pdf, bytes)
    return pdf
