"""Stahlgewitter as the rest of the app sees it: its catalogue schema and roster rules."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from apps.systems.core.i18n import gettext_noop
from apps.systems.core.rosters import (
    MAX_ENTRY_COUNT,
    CatalogData,
    RosterInput,
    RosterOption,
    RosterReport,
)
from apps.systems.core.schema import FieldSpec, SchemaError
from apps.systems.stahlgewitter.builder import BuilderView, builder_view
from apps.systems.stahlgewitter.catalog import stahlgewitter_catalog
from apps.systems.stahlgewitter.catalog_schema import (
    ITEM_FIELDS,
    ITEM_KIND_CHOICES,
    PROFILE_FIELDS,
    format_field,
    item_from_stats,
    parse_field,
    profile_from_stats,
)
from apps.systems.stahlgewitter.catalog_types import Armour, GameType, Weapon
from apps.systems.stahlgewitter.roster import normalise_settings, totals, validate_roster

# The game type as a roster setting: "" for a free points limit, or one of the catalogue's
# game_type items (the three the rulebook prints and any an organiser adds in the admin), each
# offered with its range of army points.
GAME_TYPE: Final = RosterOption(
    key="game_type",
    label=gettext_noop("Game type (Spieltyp)"),
    help=gettext_noop("Its range of army points; with a free points limit, only the limit counts."),
    choices=(("", gettext_noop("Free points limit")),),
    catalog_kind="game_type",
    catalog_label=gettext_noop("%(name)s (%(min_points)s-%(max_points)s points)"),
    catalog_order="min_points",
)


class StahlgewitterCatalogSchema:
    profile_fields: tuple[FieldSpec, ...] = PROFILE_FIELDS
    item_fields: tuple[FieldSpec, ...] = ITEM_FIELDS
    item_kinds: tuple[tuple[str, str], ...] = ITEM_KIND_CHOICES

    def check_profile(
        self, *, slug: str, name: str, factions: Sequence[str], stats: Mapping[str, object]
    ) -> None:
        profile_from_stats(slug=slug, name=name, factions=factions, stats=stats)

    def check_item(
        self, *, slug: str, name: str, kind: str, cost: int, stats: Mapping[str, object]
    ) -> None:
        item_from_stats(slug=slug, name=name, kind=kind, cost=cost, stats=stats)

    def profile_summary(self, stats: Mapping[str, object]) -> dict[str, object]:
        """The line's list, type, grade, rank and points; empty when the stats do not fit."""
        try:
            profile = profile_from_stats(slug="-", name="-", factions=("-",), stats=stats)
        except SchemaError:
            return {}
        return {
            "list": profile.list,
            "type": profile.type,
            "grade": profile.grade.value,
            "rank": profile.rank.value,
            "points": profile.points,
            "armour": profile.armour,
        }

    def item_summary(self, *, kind: str, stats: Mapping[str, object]) -> dict[str, object]:
        try:
            item = item_from_stats(slug="-", name="-", kind=kind, cost=0, stats=stats)
        except SchemaError:
            return {}
        if isinstance(item, Armour):
            return {"pw": item.pw, "b_reduction": item.b_reduction}
        if isinstance(item, Weapon):
            return {"type": item.type.value, "fkw": item.fkw, "nkw": item.nkw}
        if isinstance(item, GameType):
            return {"min_points": item.min_points, "max_points": item.max_points}
        return {}

    def format_field(self, spec: FieldSpec, value: object) -> object:
        return format_field(spec, value)

    def parse_field(self, spec: FieldSpec, value: object) -> object:
        return parse_field(spec, value)


class StahlgewitterRosterRules:
    options: tuple[RosterOption, ...] = (GAME_TYPE,)
    # An entry is ``count`` identical models (a squad's soldiers), as many as any entry may be.
    max_count: int = MAX_ENTRY_COUNT

    def normalise_settings(self, settings: Mapping[str, object]) -> dict[str, object]:
        return normalise_settings(settings)

    def report(self, roster: RosterInput, catalog: CatalogData) -> RosterReport:
        parsed = stahlgewitter_catalog(catalog)
        return RosterReport(
            issues=tuple(validate_roster(roster, parsed)),
            totals=totals(roster, parsed).as_dict(),
        )

    def builder(self, roster: RosterInput, catalog: CatalogData) -> BuilderView:
        return builder_view(roster, stahlgewitter_catalog(catalog))
