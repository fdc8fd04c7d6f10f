"""The army restrictions of Bunkers and Badasses over a Warhammer 40,000 army (SPEC §5).

The rulebook ("Auswahl & Beschränkungen der Modelle", "Reserven", "Befehlspunkte"): no aircraft
and no vehicles except walkers; round bases at most 90 mm, oval bases at most 120×92 mm; at most
25 % of the units (rounded up) in reserve; one reserve unit arrives by its deep-strike-like rule for
free, every further one needs the battle option "Aus dem Nichts" during the game (a cost, not an
illegality); starting command points by the points played.

Stable issue codes: ``no_units``, ``aircraft``, ``vehicle``, ``base_unknown``, ``base_invalid``,
``base_round_too_large``, ``base_oval_too_large``, ``reserve_over``, ``points_over``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from apps.systems.core.errors import RuleViolation
from apps.systems.core.i18n import gettext_noop
from apps.systems.core.rosters import BASE_PATTERN, RosterIssue, UnitInput

# --- The rulebook's numbers ------------------------------------------------------------------

# "Die maximale Größe bei Rundbases beträgt 90mm und bei Ovalbases 120x92mm."
MAX_ROUND_MM: Final = 90
MAX_OVAL_MM: Final = (120, 92)  # long side, short side: an oval may stand either way round
# A base outside these bounds is a typing error, not a model.
BASE_MM_RANGE: Final = (10, 500)
# "Es dürfen maximal 25% (aufgerundet) der Einheiten in Reserve bleiben."
RESERVE_PERCENT: Final = 25
# "Jeder Spieler darf eine seiner Einheiten ... so aufstellen."
FREE_DEEP_STRIKES: Final = 1
AUS_DEM_NICHTS_CP: Final = 2
# "Bis 1000 Punkte = 6 ... Bis 1250 = 7 ... Bis 1500 = 8 ... Ab 1501 Punkten = 9 Befehlspunkte"
STARTING_CP: Final = ((1000, 6), (1250, 7), (1500, 8))
STARTING_CP_ABOVE: Final = 9
# SPEC §5 decision: with power level, 1 PL counts as 20 points for the command point table.
POINTS_PER_POWER: Final = 20

# --- Keywords (Warhammer 40,000 categories, compared case-insensitively) -----------------------

AIRCRAFT_KEYWORDS: Final = frozenset({"aircraft", "flyer"})
VEHICLE_KEYWORDS: Final = frozenset({"vehicle"})
WALKER_KEYWORDS: Final = frozenset({"walker"})
# 9th edition has no WALKER keyword: a vehicle whose name or keywords contain one of these is
# probably a walker. Only pre-selects the walker question; the player confirms.
WALKER_HINTS: Final = (
    "dreadnought",
    "sentinel",
    "walker",
    "knight",
    "armiger",
    "cybot",
    "helbrute",
    "defiler",
    "killa kan",
    "deff dread",
    "penitent engine",
    "invictor",
    "ironstrider",
    "dunecrawler",
)

# Rule and ability names of deep-strike-like arrivals ("Die entsprechende Sonderregel ist bei
# jedem Volk anders benannt"), matched case-insensitively as parts of a rule's name.
DEEP_STRIKE_RULES: Final = (
    "deep strike",
    "teleport strike",
    "teleportarium",
    "death from above",
    "jump pack assault",
    "drop pod assault",
    "manta strike",
    "webway strike",
    "webway assault",
    "daemonic ritual",
    "cult ambush",
    "tellyporta",
    "subterranean assault",
    "vanguard of the dark",
)

SCALES: Final = ("points", "power")


def _has(keywords: Sequence[str], wanted: frozenset[str]) -> bool:
    return any(keyword.strip().casefold() in wanted for keyword in keywords)


def is_aircraft(keywords: Sequence[str]) -> bool:
    return _has(keywords, AIRCRAFT_KEYWORDS)


def is_vehicle(keywords: Sequence[str]) -> bool:
    return _has(keywords, VEHICLE_KEYWORDS)


def likely_walker(name: str, keywords: Sequence[str]) -> bool:
    """Whether a vehicle looks like a walker (Dreadnought, Sentinel, ...): a pre-selection."""
    if not is_vehicle(keywords):
        return False
    if _has(keywords, WALKER_KEYWORDS):
        return True
    text = " ".join((name, *keywords)).casefold()
    return any(hint in text for hint in WALKER_HINTS)


def is_deep_strike_rule(name: str) -> bool:
    """Whether a rule or ability name is a deep-strike-like arrival from reserve."""
    folded = name.casefold()
    return any(rule in folded for rule in DEEP_STRIKE_RULES)


# --- Bases -----------------------------------------------------------------------------------

_BASE = re.compile(BASE_PATTERN)


@dataclass(frozen=True)
class Base:
    """A base size in millimetres; a round base has ``length_mm == width_mm``."""

    shape: str  # "round" or "oval"
    width_mm: float
    length_mm: float

    def format(self) -> str:
        """The stored text: "round:32", "oval:120x92"."""
        if self.shape == "round":
            return f"round:{self.width_mm:g}"
        return f"oval:{self.width_mm:g}x{self.length_mm:g}"

    @property
    def label(self) -> str:
        """What a player reads: "32 mm", "120×92 mm oval"."""
        if self.shape == "round":
            return f"{self.width_mm:g} mm"
        return f"{self.width_mm:g}×{self.length_mm:g} mm oval"


def parse_base(text: str) -> Base | None:
    """The base of "round:<mm>" / "oval:<w>x<h>", None for "" (nobody has said yet); raises
    ``RuleViolation("base_invalid")`` for anything else."""
    text = text.strip().lower().replace("×", "x").replace(" ", "")
    if not text:
        return None
    if not _BASE.match(text):
        raise RuleViolation(
            "base_invalid",
            gettext_noop('A base is "round:<mm>" or "oval:<width>x<length>".'),
        )
    shape, _, size = text.partition(":")
    first, _, second = size.partition("x")
    width = float(first)
    length = float(second) if second else width
    low, high = BASE_MM_RANGE
    if not (low <= width <= high and low <= length <= high):
        raise RuleViolation(
            "base_invalid",
            gettext_noop("A base measures %(low)s to %(high)s mm."),
            {"low": low, "high": high},
        )
    return Base(shape, width, length)


def _issue(code: str, template: str, entry: int | None = None, **params: str | int) -> RosterIssue:
    return RosterIssue(code=code, template=template, params=params, entry=entry)


def base_issue(index: int, unit: UnitInput) -> RosterIssue | None:
    try:
        base = parse_base(unit.base)
    except RuleViolation:
        return _issue(
            "base_invalid",
            gettext_noop("%(name)s: the base size %(base)s is not a round or oval base."),
            index,
            name=unit.name,
            base=unit.base,
        )
    if base is None:
        return _issue(
            "base_unknown",
            gettext_noop("%(name)s: say which base its models stand on."),
            index,
            name=unit.name,
        )
    if base.shape == "round" and base.width_mm > MAX_ROUND_MM:
        return _issue(
            "base_round_too_large",
            gettext_noop("%(name)s stands on a %(base)s base; round bases are at most %(max)s."),
            index,
            name=unit.name,
            base=base.label,
            max=f"{MAX_ROUND_MM} mm",
        )
    long_side, short_side = MAX_OVAL_MM
    sides = sorted((base.width_mm, base.length_mm), reverse=True)
    if base.shape == "oval" and (sides[0] > long_side or sides[1] > short_side):
        return _issue(
            "base_oval_too_large",
            gettext_noop("%(name)s stands on a %(base)s base; oval bases are at most %(max)s."),
            index,
            name=unit.name,
            base=base.label,
            max=f"{long_side}×{short_side} mm",
        )
    return None


# --- Restrictions ------------------------------------------------------------------------------


def unit_issues(index: int, unit: UnitInput) -> list[RosterIssue]:
    """What keeps one unit out of the bunker: aircraft, vehicles that are not confirmed
    walkers, bases too large or not given yet."""
    issues = []
    if is_aircraft(unit.keywords):
        issues.append(
            _issue(
                "aircraft",
                gettext_noop("%(name)s is an aircraft: aircraft do not fit into a bunker."),
                index,
                name=unit.name,
            )
        )
    elif is_vehicle(unit.keywords) and not unit.walker:
        issues.append(
            _issue(
                "vehicle",
                gettext_noop("%(name)s is a vehicle: only walkers may enter the bunker."),
                index,
                name=unit.name,
            )
        )
    issue = base_issue(index, unit)
    if issue is not None:
        issues.append(issue)
    return issues


def reserve_limit(unit_count: int) -> int:
    """At most 25 % of the units, rounded up, may be in reserve (5 units: 2)."""
    return -(-unit_count * RESERVE_PERCENT // 100)


@dataclass(frozen=True)
class DeepStrikes:
    """The reserve units arriving by a deep-strike-like rule: the free one, and the further
    ones that each need the battle option "Aus dem Nichts" during the game."""

    free: tuple[str, ...]
    needing_aus_dem_nichts: tuple[str, ...]

    @property
    def aus_dem_nichts_cp(self) -> int:
        return AUS_DEM_NICHTS_CP * len(self.needing_aus_dem_nichts)


def deep_strikes(units: Sequence[UnitInput]) -> DeepStrikes:
    names = tuple(unit.name for unit in units if unit.reserve and unit.deep_strike)
    return DeepStrikes(
        free=names[:FREE_DEEP_STRIKES], needing_aus_dem_nichts=names[FREE_DEEP_STRIKES:]
    )


def army_total(units: Sequence[UnitInput], scale: str) -> int:
    """The army's points, or its power level when the players build by power level."""
    if scale == "power":
        return sum(unit.power for unit in units)
    return sum(unit.points for unit in units)


def army_issues(
    units: Sequence[UnitInput], *, scale: str = "points", limit: int | None = None
) -> list[RosterIssue]:
    """Every restriction the army breaks; ``limit`` is in the scale's unit (points or PL)."""
    if not units:
        return [_issue("no_units", gettext_noop("An army needs at least one unit."))]
    issues = [issue for index, unit in enumerate(units) for issue in unit_issues(index, unit)]
    reserve = sum(1 for unit in units if unit.reserve)
    allowed = reserve_limit(len(units))
    if reserve > allowed:
        issues.append(
            _issue(
                "reserve_over",
                gettext_noop(
                    "%(reserve)s of %(units)s units are in reserve; at most %(limit)s may be "
                    "(25 %% of the units, rounded up)."
                ),
                reserve=reserve,
                units=len(units),
                limit=allowed,
            )
        )
    total = army_total(units, scale)
    if limit is not None and total > limit:
        template = (
            gettext_noop(
                "The army has %(total)s power level, %(over)s over the limit of %(limit)s."
            )
            if scale == "power"
            else gettext_noop(
                "The army costs %(total)s points, %(over)s over the limit of %(limit)s."
            )
        )
        issues.append(_issue("points_over", template, total=total, over=total - limit, limit=limit))
    return issues


def starting_cp(points: int | None, power: int | None) -> int:
    """Command points at the start by the points played; with power level 1 PL counts as 20
    points (SPEC §5). Points win when both are given; neither counts as 0 points."""
    if points is not None:
        value = points
    elif power is not None:
        value = power * POINTS_PER_POWER
    else:
        value = 0
    for up_to, cp in STARTING_CP:
        if value <= up_to:
            return cp
    return STARTING_CP_ABOVE
