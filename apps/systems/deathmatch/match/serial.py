"""JSON in and out of the match's dataclasses (cattrs' JSON converter: enums by value, tuples
as lists, strict types on the way in, so a corrupt snapshot fails loudly instead of half-loading).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from cattrs.gen import make_dict_structure_fn
from cattrs.preconf.json import make_converter

from apps.systems.deathmatch.match.state import Attack

_converter = make_converter(forbid_extra_keys=True)
_T = TypeVar("_T")


def _upgraded_attack(data: Any) -> Any:
    """An attack stored before ``Attack.queued_hits``: its one queued automatic hit was encoded
    in ``then`` as "auto:<cause>:<strength>[:<then>]"."""
    then = data.get("then", "") if isinstance(data, Mapping) else ""
    if not (isinstance(then, str) and then.startswith("auto:")):
        return data
    _, cause, strength, *rest = then.split(":", 3)
    return {**data, "queued_hits": [[cause, int(strength)]], "then": rest[0] if rest else ""}


_structure_attack = make_dict_structure_fn(Attack, _converter)
_converter.register_structure_hook(
    Attack, lambda data, cls: _structure_attack(_upgraded_attack(data), cls)
)


def dump(value: object) -> Any:
    """A dataclass (or tuple of them) as JSON-ready values."""
    return _converter.unstructure(value)


def load(data: object, cls: type[_T]) -> _T:
    return _converter.structure(data, cls)


def load_mapping(data: Mapping[str, Any], key: str, cls: type[_T]) -> _T:
    return _converter.structure(data[key], cls)
