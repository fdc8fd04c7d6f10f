"""Bunkers and Badasses' printed cards: a unit card per unit of the army (models and wounds to
tick), the Gefechtsoptionen with their CP and timing, a door and laser barrier tracker and an
objective tracker, plus the one-page roster sheet with the starting CP.

Pure data: the Django templates ``cards/bunkers/<template>.html`` draw it. Labels are English
msgids marked with ``gettext_noop``; unit names and keywords are printed as the list had them.
The 40K profiles themselves are not printed: the product ships no 40K data.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from apps.systems.bunkers.army import deep_strikes, is_vehicle, parse_base
from apps.systems.bunkers.match.tables import (
    DEFAULT_ROUNDS,
    DOOR_SAVE,
    DOOR_TOUGHNESS,
    DOOR_WOUNDS,
    MARKERS,
    MISSION_NAMES,
    OPTIONS,
    SENTRY_PROFILE,
    BattleOption,
)
from apps.systems.bunkers.roster import BunkersRosterRules
from apps.systems.core.cards import Card, RosterPrint
from apps.systems.core.errors import RuleViolation
from apps.systems.core.i18n import gettext_noop
from apps.systems.core.rosters import (
    EMPTY_CATALOG,
    CatalogData,
    RosterInput,
    RosterIssue,
    UnitInput,
)

UNIT: Final = "unit"
BLANK_UNIT: Final = "blank_unit"
OPTIONS_CARD: Final = "options"
DOORS_CARD: Final = "doors"
OBJECTIVES_CARD: Final = "objectives"
BOX: Final = "☐"
# A unit card ticks each model's wounds up to this many boxes; a larger unit ticks its models.
MAX_WOUND_BOXES: Final = 40
MAX_MODEL_BOXES: Final = 40
DOOR_ROWS: Final = 8
BLANK_UNIT_BOXES: Final = 20


@dataclass(frozen=True)
class UnitFace:
    name: str
    models: int
    wounds: int
    points: int
    power: int
    keywords: tuple[str, ...]
    base: str
    walker: bool
    reserve: bool
    deep_strike: bool
    # One string of boxes per model (its wounds), or one string of boxes for the models.
    tracks: tuple[str, ...]
    per_model: bool


@dataclass(frozen=True)
class OptionLine:
    name: str
    gloss: str
    cost: int
    timing: str
    once_per_game: bool


@dataclass(frozen=True)
class OptionsFace:
    lines: tuple[OptionLine, ...]
    sentry_gun: str


@dataclass(frozen=True)
class DoorsFace:
    rows: range
    wound_boxes: str
    profile: str


@dataclass(frozen=True)
class ObjectivesFace:
    missions: tuple[tuple[str, int], ...]  # name, markers
    markers: range
    rounds: range


@dataclass(frozen=True)
class SheetUnit:
    name: str
    models: int
    wounds: int
    points: int
    power: int
    keywords: str
    base: str
    place: str  # gettext_noop-marked: deployed, reserve, reserve by deep strike


@dataclass(frozen=True)
class ArmySheet:
    points: int
    power: int
    limit: int | None
    power_level: bool
    starting_cp: int
    reserve: int
    reserve_limit: int
    deep_strikes_extra: tuple[str, ...]
    units: tuple[SheetUnit, ...]
    options: tuple[OptionLine, ...]
    issues: tuple[RosterIssue, ...]

    @property
    def legal(self) -> bool:
        return not self.issues


@dataclass(frozen=True)
class BlankUnitFace:
    boxes: str


def _base_label(unit: UnitInput) -> str:
    try:
        base = parse_base(unit.base)
    except RuleViolation:
        return unit.base
    return base.label if base is not None else ""


def unit_face(unit: UnitInput) -> UnitFace:
    per_model = unit.models * unit.wounds <= MAX_WOUND_BOXES and unit.wounds > 1
    if per_model:
        tracks = tuple(BOX * unit.wounds for _ in range(unit.models))
    else:
        tracks = (BOX * min(unit.models, MAX_MODEL_BOXES),)
    return UnitFace(
        name=unit.name,
        models=unit.models,
        wounds=unit.wounds,
        points=unit.points,
        power=unit.power,
        keywords=unit.keywords,
        base=_base_label(unit),
        walker=unit.walker and is_vehicle(unit.keywords),
        reserve=unit.reserve,
        deep_strike=unit.deep_strike,
        tracks=tracks,
        per_model=per_model,
    )


def option_line(option: BattleOption) -> OptionLine:
    return OptionLine(option.name, option.gloss, option.cost, option.timing, option.once_per_game)


def _place(unit: UnitInput) -> str:
    if not unit.reserve:
        return gettext_noop("deployed")
    return gettext_noop("reserve, deep strike") if unit.deep_strike else gettext_noop("reserve")


def _sheet_unit(unit: UnitInput) -> SheetUnit:
    return SheetUnit(
        name=unit.name,
        models=unit.models,
        wounds=unit.wounds,
        points=unit.points,
        power=unit.power,
        keywords=", ".join(unit.keywords),
        base=_base_label(unit),
        place=_place(unit),
    )


def army_sheet(roster: RosterInput) -> ArmySheet:
    """The roster sheet, with the totals and issues of the one validator."""
    report = BunkersRosterRules().report(roster, EMPTY_CATALOG)
    totals = report.totals
    limit = totals["points_limit"]
    return ArmySheet(
        points=int(str(totals["points"])),
        power=int(str(totals["power"])),
        limit=limit if isinstance(limit, int) else None,
        power_level=totals["scale"] == "power",
        starting_cp=int(str(totals["starting_cp"])),
        reserve=int(str(totals["reserve"])),
        reserve_limit=int(str(totals["reserve_limit"])),
        deep_strikes_extra=deep_strikes(roster.units).needing_aus_dem_nichts,
        units=tuple(_sheet_unit(unit) for unit in roster.units),
        options=tuple(option_line(option) for option in OPTIONS),
        issues=report.issues,
    )


def _tracker_cards() -> tuple[Card, ...]:
    return (
        Card(
            OPTIONS_CARD,
            gettext_noop("Gefechtsoptionen"),
            OptionsFace(tuple(option_line(o) for o in OPTIONS), SENTRY_PROFILE),
        ),
        Card(
            DOORS_CARD,
            gettext_noop("Türen und Laserbarrieren"),
            DoorsFace(
                range(DOOR_ROWS),
                BOX * DOOR_WOUNDS,
                f"T{DOOR_TOUGHNESS} W{DOOR_WOUNDS} Sv{DOOR_SAVE}+",
            ),
        ),
        Card(
            OBJECTIVES_CARD,
            gettext_noop("Missionsziele"),
            ObjectivesFace(
                tuple((MISSION_NAMES[key], count) for key, count in MARKERS.items()),
                range(1, max(MARKERS.values()) + 1),
                range(1, DEFAULT_ROUNDS + 1),
            ),
        ),
    )


class BunkersCardLayouts:
    def roster_print(self, roster: RosterInput, catalog: CatalogData) -> RosterPrint:
        sheet = army_sheet(roster)
        cards = tuple(Card(UNIT, unit.name, unit_face(unit)) for unit in roster.units)
        return RosterPrint(cards=cards + _tracker_cards(), sheet=sheet)

    def blank_cards(self) -> tuple[Card, ...]:
        blank = Card(BLANK_UNIT, gettext_noop("Unit"), BlankUnitFace(BOX * BLANK_UNIT_BOXES))
        return (blank, *_tracker_cards())

    def split(self, card: Card) -> tuple[Card, Card] | None:
        # The faces are sized for one card (boxes capped, keywords one line); nothing to split.
        return None
