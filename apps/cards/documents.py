"""Printed documents other than cards (e.g. a league's pairings and standings), made by the
same export pipeline: the ``CardExport`` row, its Celery task, progress, polling page, download
and cleanup. Only the HTML differs, so another app registers a kind here (in its
``AppConfig.ready``) and the cards app never imports it: plugins by registry.

An export of a document kind keeps what the document is of (e.g. a season and a round) in
``CardExport.document``; the kind reads it to build the HTML, to name the file and to decide
who may see the export.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser

from apps.accounts.models import User
from apps.cards.models import CardExport


@dataclass(frozen=True)
class DocumentKind:
    """One kind of document. ``html`` builds the whole HTML document as it is now (raising
    ``CardRenderError`` with a message when it cannot); ``title`` names it on the export's
    page, ``back_url`` leads from there to where it was asked for."""

    kind: str
    html: Callable[[CardExport], str]
    filename: Callable[[CardExport], str]
    title: Callable[[CardExport], str]
    back_url: Callable[[CardExport], str]
    may_see: Callable[[CardExport, User | AnonymousUser], bool]


_KINDS: dict[str, DocumentKind] = {}


def register_document(kind: DocumentKind) -> None:
    if kind.kind not in CardExport.Contents.values:
        raise ValueError(f"{kind.kind!r} is not a CardExport.Contents value")
    _KINDS[kind.kind] = kind


def document_kind(contents: str) -> DocumentKind | None:
    """The registered kind of an export's ``contents``; None for cards."""
    return _KINDS.get(contents)
