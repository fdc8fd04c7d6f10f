"""Text no column can store is refused at the door: a NUL character or a lone surrogate.

PostgreSQL refuses NUL in ``text`` and ``jsonb``; no database driver can encode a lone surrogate
(``"\\ud800"`` in JSON) as UTF-8, and neither can the JSON renderer when a view echoes it back.
Without this check every view that saves or echoes a text would answer 500 (or save half a
change), so ``TextInputMiddleware`` looks at everything a view may read as text — the path, the
query string, headers and cookies, form fields, uploaded text files and JSON bodies (also a JSON
document pasted into a form field or uploaded as a file) — and answers 400 ``invalid_text``
before any view runs: ``{"code", "message", "where"}`` under ``/api/``, the error page elsewhere.

It must come after a middleware that caps the body size: it reads JSON and form bodies.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from django.conf import settings
from django.core.files.uploadedfile import UploadedFile
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.translation import gettext as _

from apps.common.parsers import json_loads_bounded

# NUL, and UTF-16 surrogates: in a Python str they can only be unpaired (JSON "\ud800").
_BAD_TEXT = re.compile("[\x00\ud800-\udfff]")
_JSON_TYPES = re.compile(r"^application/(?:[\w.+-]+\+)?json$")
_FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def bad_text(value: str) -> bool:
    """Whether ``value`` holds a character no database column can store."""
    return _BAD_TEXT.search(value) is not None


def json_bad_text(value: Any, root: str = "") -> str | None:
    """Where in a parsed JSON value a key or string holds bad text (``entries[1].name``), or
    ``None``. Iterative, so any nesting the parser accepted is fine."""
    stack: list[tuple[Any, str]] = [(value, root)]
    while stack:
        node, path = stack.pop()
        if isinstance(node, str):
            if bad_text(node):
                return path
        elif isinstance(node, dict):
            for key, child in node.items():
                child_path = f"{path}.{key}" if path else str(key)
                if bad_text(key):
                    return child_path
                stack.append((child, child_path))
        elif isinstance(node, list):
            stack.extend((child, f"{path}[{index}]") for index, child in enumerate(node))
    return None


def _text_bad_text(text: str, where: str) -> str | None:
    """Bad text in a form field or uploaded file: the characters themselves, or escaped in a
    JSON document (the roster import takes one pasted or uploaded)."""
    if bad_text(text):
        return where
    if text.lstrip()[:1] in ("{", "["):
        try:
            document = json_loads_bounded(text)
        except ValueError:
            return None  # not JSON after all: the view reads it as the text it is
        found = json_bad_text(document)
        if found is not None:
            return f"{where}: {found}" if found else where
    return None


def _pairs_bad_text(pairs: Iterable[tuple[str, Iterable[str]]], kind: str) -> str | None:
    for key, values in pairs:
        if bad_text(key):
            return f"{kind}: {key}"
        for value in values:
            found = _text_bad_text(value, f"{kind}: {key}")
            if found is not None:
                return found
    return None


def _upload_bad_text(upload: UploadedFile, where: str) -> str | None:
    """An uploaded file that is UTF-8 text (within the in-memory size) is read as text; a
    binary file or a bigger one is left to the view, which refuses what it cannot read."""
    if upload.name and bad_text(upload.name):
        return where
    if upload.size is None or upload.size > settings.FILE_UPLOAD_MAX_MEMORY_SIZE:
        return None
    content = upload.read()
    upload.seek(0)
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return _text_bad_text(text, where)


def _files_bad_text(request: HttpRequest) -> str | None:
    for key, uploads in request.FILES.lists():
        for upload in uploads:
            found = _upload_bad_text(upload, f"file: {key}")
            if found is not None:
                return found
    return None


def _headers(request: HttpRequest) -> Iterator[tuple[str, list[str]]]:
    for key, value in request.META.items():
        if key.startswith("HTTP_") and isinstance(value, str):
            yield key[5:].replace("_", "-").title(), [value]


def _body_bad_text(request: HttpRequest) -> str | None:
    content_type = request.content_type or ""
    if _JSON_TYPES.match(content_type):
        try:
            document = json_loads_bounded(request.body)
        except ValueError:
            return None  # malformed JSON is the parser's to report
        found = json_bad_text(document)
        return None if found is None else (found or "body")
    if content_type in _FORM_TYPES:
        if request.path.startswith("/api/"):
            # Read the raw body first, so that the API's parsers still find it to read (and
            # answer 415 for a form the view takes no form parser for).
            request.body  # noqa: B018
        return _pairs_bad_text(request.POST.lists(), "form") or _files_bad_text(request)
    return None


def request_bad_text(request: HttpRequest) -> str | None:
    """Where the request carries bad text, or ``None`` when it carries none."""
    if bad_text(request.path):
        return "path"
    return (
        _pairs_bad_text(request.GET.lists(), "query")
        or _pairs_bad_text(((k, [v]) for k, v in request.COOKIES.items()), "cookie")
        or _pairs_bad_text(_headers(request), "header")
        or _body_bad_text(request)
    )


def invalid_text_message() -> str:
    return _(
        "The request contains a character that cannot be stored: a NUL character or an "
        "unpaired surrogate. Remove it and try again."
    )


def invalid_text_response(request: HttpRequest, where: str) -> HttpResponse:
    """400 ``invalid_text``; in the browser's language (the locale middleware runs later)."""
    with translation.override(translation.get_language_from_request(request)):
        message = invalid_text_message()
        where = _BAD_TEXT.sub("\ufffd", where)  # named, not echoed
        if request.path.startswith("/api/"):
            return JsonResponse(
                {"code": "invalid_text", "message": message, "where": where}, status=400
            )
        context = {"status": 400, "title": _("Bad request"), "message": message}
        return render(request, "errors/error.html", context, status=400)


class TextInputMiddleware:
    """Refuse a request with bad text (see the module docstring) before any view runs."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        where = request_bad_text(request)
        if where is not None:
            return invalid_text_response(request, where)
        return self.get_response(request)
