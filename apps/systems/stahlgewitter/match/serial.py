"""JSON in and out of the match's dataclasses (cattrs' JSON converter: enums by value, tuples as
lists, unknown keys refused, so a corrupt snapshot fails loudly instead of half-loading)."""

from __future__ import annotations

from typing import Any, TypeVar

from cattrs.preconf.json import make_converter

_converter = make_converter(forbid_extra_keys=True)
_T = TypeVar("_T")


def dump(value: object) -> Any:
    return _converter.unstructure(value)


def load(data: object, cls: type[_T]) -> _T:
    return _converter.structure(data, cls)
