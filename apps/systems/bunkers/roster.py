"""Bunkers and Badasses' roster rules as the rest of the app sees them (``core.rosters``).

An army is Warhammer 40,000 units imported from BattleScribe or typed in (``RosterInput.units``);
there is no catalogue, so ``entries`` stay empty and an entry there is the issue
``catalogue_entry``. Settings: an optional ``points_limit`` (1..10000), in points or, with
``power_level`` true, in power level, as the players agreed ("ihr müsst euch vorher nur auf
eine Variante einigen"). The restrictions and their issue codes are ``army.py``'s.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from apps.systems.bunkers.army import (
    FREE_DEEP_STRIKES,
    army_issues,
    army_total,
    deep_strikes,
    is_aircraft,
    is_vehicle,
    likely_walker,
    parse_base,
    reserve_limit,
    starting_cp,
)
from apps.systems.core.errors import RuleViolation
from apps.systems.core.i18n import gettext_noop
from apps.systems.core.rosters import (
    BuilderEntry,
    CatalogData,
    RosterInput,
    RosterIssue,
    RosterOption,
    RosterReport,
    UnitInput,
    points_limit_settings,
)

POWER_LEVEL = RosterOption(
    "power_level",
    gettext_noop("Built with power level"),
    gettext_noop("The limit and the starting CP count power level (1 PL counts as 20 points)."),
)


def scale_of(settings: Mapping[str, object]) -> str:
    """ "power" when the army is built with power level, else "points"."""
    return "power" if settings.get(POWER_LEVEL.key) is True else "points"


def limit_of(settings: Mapping[str, object]) -> int | None:
    limit = settings.get("points_limit")
    return limit if isinstance(limit, int) and not isinstance(limit, bool) else None


def army_totals(units: Sequence[UnitInput], settings: Mapping[str, object]) -> dict[str, object]:
    """The army's totals. Starting command points follow the agreed limit ("abhängig von der
    gespielten Punktzahl"), or the army's own total when there is none."""
    scale, limit = scale_of(settings), limit_of(settings)
    total = army_total(units, scale)
    played = total if limit is None else limit
    cp = starting_cp(played, None) if scale == "points" else starting_cp(None, played)
    strikes = deep_strikes(units)
    return {
        "units": len(units),
        "models": sum(unit.models for unit in units),
        "points": sum(unit.points for unit in units),
        "power": sum(unit.power for unit in units),
        "scale": scale,
        "points_limit": limit,
        "points_left": None if limit is None else limit - total,
        "starting_cp": cp,
        "reserve": sum(1 for unit in units if unit.reserve),
        "reserve_limit": reserve_limit(len(units)),
        "deep_strikes_free": len(strikes.free),
        "deep_strikes_needing_aus_dem_nichts": len(strikes.needing_aus_dem_nichts),
        "deep_strike_free_units": list(strikes.free),
        "aus_dem_nichts_units": list(strikes.needing_aus_dem_nichts),
        "aus_dem_nichts_cp": strikes.aus_dem_nichts_cp,
    }


def _catalogue_issues(roster: RosterInput) -> list[RosterIssue]:
    if not roster.entries:
        return []
    return [
        RosterIssue(
            code="catalogue_entry",
            template=gettext_noop(
                "A Bunkers and Badasses army is made of imported or typed-in units; "
                "%(count)s catalogue entries are ignored."
            ),
            params={"count": len(roster.entries)},
        )
    ]


# --- The builder's view ----------------------------------------------------------------------


@dataclass(frozen=True)
class UnitRow:
    """One unit as the builder shows it, with its own issues and what the page asks about."""

    index: int
    unit: UnitInput
    issues: tuple[RosterIssue, ...]
    base_label: str  # "32 mm", "120×92 mm oval"; "" while unknown or invalid
    aircraft: bool
    vehicle: bool
    likely_walker: bool  # the walker question's pre-selection
    free_deep_strike: bool  # the one reserve unit that arrives by its rule for free
    needs_aus_dem_nichts: bool  # a further one: the battle option "Aus dem Nichts" (2 CP)


@dataclass(frozen=True)
class BunkersBuilderView:
    units: tuple[UnitRow, ...]
    totals: Mapping[str, object]
    issues: tuple[RosterIssue, ...]  # every issue; those of a unit also sit in its row
    entries: tuple[BuilderEntry, ...] = ()  # no catalogue entries in this system
    panel: str = ""

    @property
    def army_issues(self) -> tuple[RosterIssue, ...]:
        """The issues of the army as a whole (no unit named)."""
        return tuple(issue for issue in self.issues if issue.entry is None)


def _base_label(text: str) -> str:
    try:
        base = parse_base(text)
    except RuleViolation:
        return ""
    return base.label if base is not None else ""


def unit_rows(units: Sequence[UnitInput], issues: Sequence[RosterIssue]) -> tuple[UnitRow, ...]:
    striking = [index for index, unit in enumerate(units) if unit.reserve and unit.deep_strike]
    free = set(striking[:FREE_DEEP_STRIKES])
    return tuple(
        UnitRow(
            index=index,
            unit=unit,
            issues=tuple(issue for issue in issues if issue.entry == index),
            base_label=_base_label(unit.base),
            aircraft=is_aircraft(unit.keywords),
            vehicle=is_vehicle(unit.keywords),
            likely_walker=likely_walker(unit.name, unit.keywords),
            free_deep_strike=index in free,
            needs_aus_dem_nichts=index in striking and index not in free,
        )
        for index, unit in enumerate(units)
    )


class BunkersRosterRules:
    # An outside army has units, not catalogue entries: nothing to count.
    max_count: int = 1
    options: tuple[RosterOption, ...] = (POWER_LEVEL,)

    def normalise_settings(self, settings: Mapping[str, object]) -> dict[str, object]:
        """``{"points_limit": 1..10000, "power_level": bool}`` (both optional; the limit in
        power level when ``power_level``); unknown keys are refused (``settings_invalid``), a
        bad limit too (``points_limit``)."""
        power_level = settings.get(POWER_LEVEL.key, False)
        if not isinstance(power_level, bool):
            raise RuleViolation(
                "settings_invalid", gettext_noop("power_level must be true or false.")
            )
        normal = points_limit_settings(
            {key: value for key, value in settings.items() if key != POWER_LEVEL.key}
        )
        return {**normal, POWER_LEVEL.key: power_level}

    def report(self, roster: RosterInput, catalog: CatalogData) -> RosterReport:
        issues = _catalogue_issues(roster) + army_issues(
            roster.units, scale=scale_of(roster.settings), limit=limit_of(roster.settings)
        )
        return RosterReport(issues=tuple(issues), totals=army_totals(roster.units, roster.settings))

    def builder(self, roster: RosterInput, catalog: CatalogData) -> BunkersBuilderView:
        report = self.report(roster, catalog)
        return BunkersBuilderView(
            units=unit_rows(roster.units, report.issues),
            totals=report.totals,
            issues=report.issues,
        )
