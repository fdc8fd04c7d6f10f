"""The ``units`` of a roster document for an outside army (``GameSystemInfo.outside_army``):
``[{"name", "models", "points", "power", "keywords", "wounds", "base", "walker", "reserve",
"deep_strike"}]``. Only the shape is checked here, every problem with its path
("units[2].base"); the house rules are the system's (a unit over the base limit is an issue of
a draft army, not a broken document)."""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext as _

from apps.rosters.models import (
    BASE_PATTERN,
    MAX_UNIT_MODELS,
    MAX_UNIT_POINTS,
    MAX_UNIT_POWER,
    MAX_UNIT_WOUNDS,
    Roster,
)
from apps.rosters.problems import Problem
from apps.systems.core.rosters import MAX_KEYWORD_LENGTH, MAX_UNIT_KEYWORDS, UnitInput

MAX_UNITS = 60
MAX_KEYWORDS = MAX_UNIT_KEYWORDS
_BASE = re.compile(BASE_PATTERN)
_NUMBERS = {
    "models": (1, MAX_UNIT_MODELS, 1),
    "points": (0, MAX_UNIT_POINTS, 0),
    "power": (0, MAX_UNIT_POWER, 0),
    "wounds": (1, MAX_UNIT_WOUNDS, 1),
}
_FLAGS = ("walker", "reserve", "deep_strike")


def units_document(roster: Roster) -> list[dict[str, Any]]:
    """The roster's units as the document holds them (export)."""
    return [
        {
            "name": unit.name,
            "models": unit.model_count,
            "points": unit.points,
            "power": unit.power,
            "keywords": list(unit.keywords),
            "wounds": unit.wounds,
            "base": unit.base,
            "walker": unit.walker,
            "reserve": unit.reserve,
            "deep_strike": unit.deep_strike,
        }
        for unit in roster.units.all()
    ]


def parse_units(raw: Any, problems: list[Problem]) -> list[UnitInput]:
    """The document's units; every problem is appended to ``problems``."""
    if not isinstance(raw, list) or len(raw) > MAX_UNITS:
        problems.append(
            Problem(
                "invalid_type",
                "units",
                _("Must be a list of at most %(limit)d units.") % {"limit": MAX_UNITS},
            )
        )
        return []
    units = []
    for index, unit in enumerate(raw):
        parsed = _unit(unit, f"units[{index}]", problems)
        if parsed is not None:
            units.append(parsed)
    return units


def _unit(raw: Any, path: str, problems: list[Problem]) -> UnitInput | None:
    if not isinstance(raw, dict):
        problems.append(Problem("invalid_type", path, _("Must be an object.")))
        return None
    before = len(problems)
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip() or len(name) > 100:
        problems.append(
            Problem("invalid_type", f"{path}.name", _("Must be a name of 1 to 100 characters."))
        )
    numbers = {key: _number(raw, key, path, problems) for key in _NUMBERS}
    keywords = _keywords(raw.get("keywords", []), path, problems)
    base = _base(raw.get("base", ""), path, problems)
    for flag in _FLAGS:
        if not isinstance(raw.get(flag, False), bool):
            problems.append(Problem("invalid_type", f"{path}.{flag}", _("Must be true or false.")))
    if len(problems) > before:
        return None
    return UnitInput(
        name=str(name).strip(),
        keywords=keywords,
        base=base,
        **numbers,
        **{flag: raw.get(flag, False) for flag in _FLAGS},
    )


def _keywords(raw: Any, path: str, problems: list[Problem]) -> tuple[str, ...]:
    if (
        isinstance(raw, list)
        and len(raw) <= MAX_KEYWORDS
        and all(isinstance(word, str) and 0 < len(word) <= MAX_KEYWORD_LENGTH for word in raw)
    ):
        return tuple(raw)
    problems.append(
        Problem(
            "invalid_type",
            f"{path}.keywords",
            _("Must be a list of at most %(limit)d short texts.") % {"limit": MAX_KEYWORDS},
        )
    )
    return ()


def _base(raw: Any, path: str, problems: list[Problem]) -> str:
    if isinstance(raw, str) and (not raw or _BASE.match(raw)):
        return raw
    problems.append(
        Problem(
            "base_invalid",
            f"{path}.base",
            _('Must be "round:<mm>", "oval:<width>x<depth>" or empty.'),
        )
    )
    return ""


def _number(
    raw: dict[str, Any],
    key: str,
    path: str,
    problems: list[Problem],
) -> int:
    low, high, default = _NUMBERS[key]
    value = raw.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        problems.append(
            Problem(
                "invalid_type",
                f"{path}.{key}",
                _("Must be a whole number from %(low)d to %(high)d.") % {"low": low, "high": high},
            )
        )
        return default
    return value
