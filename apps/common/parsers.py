"""JSON bodies with a bound on nesting: no request the API takes is more than a few levels deep,
and Python's parser overflows the stack (a ``RecursionError``, which DRF does not catch) on
input nested a thousand levels deep.
"""

from __future__ import annotations

import json
from typing import Any

from django.utils.translation import gettext as _
from rest_framework import parsers
from rest_framework.exceptions import ParseError

# Roster documents and command args are at most about six levels deep.
MAX_JSON_DEPTH = 32


def _too_deep() -> str:
    return _("The JSON is nested too deeply.")


class JSONTooDeep(ValueError):
    """The document is nested deeper than ``MAX_JSON_DEPTH``."""


def json_depth_check(value: Any, *, limit: int = MAX_JSON_DEPTH) -> None:
    """Raise ``JSONTooDeep`` if ``value`` nests lists/objects deeper than ``limit``.
    Iterative, so it cannot overflow the stack itself."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict):
            children = node.values()
        elif isinstance(node, list):
            children = node
        else:
            continue
        if depth > limit:
            raise JSONTooDeep(_too_deep())
        stack.extend((child, depth + 1) for child in children)


def json_loads_bounded(text: str | bytes) -> Any:
    """``json.loads`` for untrusted text: every way it can fail is a ``ValueError`` (malformed
    JSON, an integer of thousands of digits, nesting too deep for the parser or for us)."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise JSONTooDeep(_too_deep()) from None
    json_depth_check(value)
    return value


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser, with too-deep nesting a ``parse_error`` (400) instead of a 500."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(_too_deep()) from None
        try:
            json_depth_check(data)
        except JSONTooDeep as error:
            raise ParseError(str(error)) from None
        return data
