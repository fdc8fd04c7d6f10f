"""What a rule system's catalogue schema looks like to the rest of the app.

A system validates the JSON ``stats`` of its profiles and items and describes their fields, so
that the admin can show one input per field and import can report every problem at once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from apps.systems.core.errors import RuleViolation


@dataclass(frozen=True)
class FieldError:
    """One problem: ``field`` is a dotted path into the data ("weapons.1.strength") or, for the
    text formats, the field whose textarea holds the bad ``line`` (1-based)."""

    field: str
    message: str
    line: int | None = None

    def __str__(self) -> str:
        where = self.field if self.line is None else f"{self.field} line {self.line}"
        return f"{where}: {self.message}"


class SchemaError(RuleViolation):
    """Catalogue data that does not fit the schema; ``errors`` lists every problem found."""

    def __init__(self, errors: Sequence[FieldError]) -> None:
        self.errors = tuple(errors)
        super().__init__("invalid_stats", "; ".join(str(error) for error in self.errors))


class FieldErrors:
    """Collects every problem of one piece of catalogue data, so that one ``SchemaError`` can
    report them all at once."""

    def __init__(self) -> None:
        self.found: list[FieldError] = []

    def add(self, field: str, message: str, line: int | None = None) -> None:
        self.found.append(FieldError(field, message, line))

    def raise_if_any(self) -> None:
        if self.found:
            raise SchemaError(self.found)


def field_path(path: str, key: str | int) -> str:
    """The dotted path of ``key`` below ``path`` ("weapons" + 1 -> "weapons.1")."""
    return f"{path}.{key}" if path else str(key)


def read_int(
    errors: FieldErrors, value: object, path: str, minimum: int | None, maximum: int | None
) -> int:
    """``value`` as a whole number within the bounds; a problem is noted in ``errors``."""
    if not isinstance(value, int) or isinstance(value, bool):
        errors.add(path, f"must be a whole number, not {value!r}.")
        return 0
    if minimum is not None and value < minimum:
        errors.add(path, f"must be at least {minimum}, not {value}.")
    if maximum is not None and value > maximum:
        errors.add(path, f"must be at most {maximum}, not {value}.")
    return value


def numbered_lines(text: str) -> list[tuple[int, str]]:
    """The non-blank lines of a text format with their 1-based numbers, for error lines."""
    return [(n, line.strip()) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]


@dataclass(frozen=True)
class FieldSpec:
    """One key of ``stats`` as a form input.

    ``type`` is "int", "bool", "choice", "text" or a structured type the system edits as lines
    of text (Deathmatch: "weapons", "abilities", ...); ``label`` and ``help`` are
    gettext_noop-marked. ``required``: the key must be in ``stats`` and the input may not be
    left empty; keys that are not required may be missing and then take ``default``.
    Booleans are never required (false is a value).
    """

    name: str
    label: str
    type: str
    choices: tuple[tuple[str, str], ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    required: bool = True
    help: str = ""
    default: int | bool | str | None = None


class CatalogSchema(Protocol):
    """The catalogue schema a rule system provides (see ``GameSystemInfo.catalog``)."""

    profile_fields: tuple[FieldSpec, ...]
    item_fields: tuple[FieldSpec, ...]
    item_kinds: tuple[tuple[str, str], ...]

    def check_profile(
        self, *, slug: str, name: str, factions: Sequence[str], stats: Mapping[str, object]
    ) -> None:
        """Raise ``SchemaError`` listing every problem of a profile."""

    def check_item(
        self, *, slug: str, name: str, kind: str, cost: int, stats: Mapping[str, object]
    ) -> None:
        """Raise ``SchemaError`` listing every problem of an item."""

    def profile_summary(self, stats: Mapping[str, object]) -> dict[str, object]:
        """Key values the API lists beside a profile's stats (e.g. Deathmatch's rank, arp)."""

    def item_summary(self, *, kind: str, stats: Mapping[str, object]) -> dict[str, object]:
        """Key values the API lists beside an item's stats."""

    def format_field(self, spec: FieldSpec, value: object) -> object:
        """The value of a structured field as form input (text); plain fields pass through."""

    def parse_field(self, spec: FieldSpec, value: object) -> object:
        """The inverse of ``format_field``; raises ``SchemaError`` naming the line."""
