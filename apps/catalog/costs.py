"""Where a card's cost is, for every system alike: an item's is its ``cost`` column, a
profile's the key of its stats that the system's schema names ``points`` (Universalis,
Grundregeln, Stahlgewitter; a system sized by fighters, such as Deathmatch, has none). A cost
the rulebook does not print is marked ``"provisional": true`` in the stats (issue 17).

The admin shows both beside each other, so that organisers see which costs are invented.
"""

from __future__ import annotations

from collections.abc import Mapping

from apps.systems.core.schema import CatalogSchema, FieldSpec

PROFILE_COST_KEY = "points"
PROVISIONAL_KEY = "provisional"


def _field(fields: tuple[FieldSpec, ...], name: str) -> FieldSpec | None:
    return next((spec for spec in fields if spec.name == name), None)


def profile_cost_field(schema: CatalogSchema | None) -> FieldSpec | None:
    """The schema's field holding a profile's cost, if its profiles have a cost."""
    return _field(schema.profile_fields, PROFILE_COST_KEY) if schema is not None else None


def provisional_field(schema: CatalogSchema | None, *, items: bool) -> FieldSpec | None:
    """The schema's field marking a profile's or an item's cost as provisional, if any."""
    if schema is None:
        return None
    return _field(schema.item_fields if items else schema.profile_fields, PROVISIONAL_KEY)


def profile_cost(schema: CatalogSchema | None, stats: Mapping[str, object]) -> int | None:
    """A profile's cost, None where the system's profiles have none (or it is missing)."""
    if profile_cost_field(schema) is None:
        return None
    value = stats.get(PROFILE_COST_KEY)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def is_provisional(stats: Mapping[str, object]) -> bool:
    """Whether the card's cost is marked provisional (invented, not printed)."""
    return stats.get(PROVISIONAL_KEY) is True
