"""The domain error raised when a rule forbids what was asked."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeVar


class RuleViolation(Exception):
    """An illegal request; the calling service maps it to a 4xx response.

    ``code`` is a stable snake_case identifier for clients and tests; ``message`` is a human
    English sentence (the Django layer may replace it with a translated text keyed by ``code``).
    """

    def __init__(self, code: str, message: str, params: Mapping[str, object] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        # The numbers and names a translated message of the code may name (``%(shots)s``).
        self.params: Mapping[str, object] = params or {}

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"


T = TypeVar("T")


def numbered(items: Sequence[T], index: int, code: str, noun: str) -> T:
    """``items[index]`` for an index a command sent (a unit, a model, a player); one outside the
    list is refused with ``code`` ("There is no unit number 7."), never a negative index."""
    if not 0 <= index < len(items):
        raise RuleViolation(code, f"There is no {noun} number {index}.")
    return items[index]
