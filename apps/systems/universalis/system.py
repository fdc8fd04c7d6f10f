"""Universalis as the rest of the app sees it: its catalogue schema and roster rules."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from apps.systems.core.rosters import (
    MAX_ENTRY_COUNT,
    CatalogData,
    RosterInput,
    RosterOption,
    RosterReport,
    points_limit_settings,
)
from apps.systems.core.schema import FieldSpec, SchemaError
from apps.systems.universalis.builder import BuilderView, builder_view
from apps.systems.universalis.catalog_fields import (
    ITEM_FIELDS,
    ITEM_KIND_CHOICES,
    PROFILE_FIELDS,
    format_field,
    parse_field,
)
from apps.systems.universalis.catalog_stats import card_from_stats, power_from_stats
from apps.systems.universalis.roster import (
    totals,
    universalis_catalog,
    validate_roster,
)


class UniversalisCatalogSchema:
    profile_fields: tuple[FieldSpec, ...] = PROFILE_FIELDS
    item_fields: tuple[FieldSpec, ...] = ITEM_FIELDS
    item_kinds: tuple[tuple[str, str], ...] = ITEM_KIND_CHOICES

    def check_profile(
        self, *, slug: str, name: str, factions: Sequence[str], stats: Mapping[str, object]
    ) -> None:
        card_from_stats(slug=slug, name=name, factions=factions, stats=stats)

    def check_item(
        self, *, slug: str, name: str, kind: str, cost: int, stats: Mapping[str, object]
    ) -> None:
        power_from_stats(slug=slug, name=name, kind=kind, stats=stats)

    def profile_summary(self, stats: Mapping[str, object]) -> dict[str, object]:
        """The card's key values and its derived ones (perception range, danger zone, carrying
        capacity, overload); empty when the stats do not fit the schema."""
        try:
            card = card_from_stats(slug="-", name="-", factions=("-",), stats=stats)
        except SchemaError:
            return {}
        return {
            "type": card.type.value,
            "points": card.points,
            "group_leader": card.group_leader,
            "operator": card.operator,
            "perception_cm": card.perception_cm,
            "danger_zone_cm": card.danger_zone_cm,
            "capacity_kg": card.capacity_kg,
            "load_kg": card.load_kg,
            "overload": card.overload,
        }

    def item_summary(self, *, kind: str, stats: Mapping[str, object]) -> dict[str, object]:
        return {"discipline": stats.get("discipline")}

    def format_field(self, spec: FieldSpec, value: object) -> object:
        return format_field(spec, value)

    def parse_field(self, spec: FieldSpec, value: object) -> object:
        return parse_field(spec, value)


class UniversalisRosterRules:
    # Identical models share an entry; an operator stays a single model (the validator says so).
    max_count: int = MAX_ENTRY_COUNT
    options: tuple[RosterOption, ...] = ()

    def normalise_settings(self, settings: Mapping[str, object]) -> dict[str, object]:
        return points_limit_settings(settings)

    def report(self, roster: RosterInput, catalog: CatalogData) -> RosterReport:
        cards = universalis_catalog(catalog)
        return RosterReport(
            issues=tuple(validate_roster(roster, cards)),
            totals=totals(roster, cards).as_dict(),
        )

    def builder(self, roster: RosterInput, catalog: CatalogData) -> BuilderView:
        return builder_view(roster, universalis_catalog(catalog))
