"""Stahlgewitter's printed cards: a unit card per unit (the profile line of each entry as worn,
TP boxes per model, the weapons with FKW/NKW, range, burst and armour breaker, the equipment's
rules and the results legend), the reference cards the rulebook wants copied for every player
("Die auf den letzten Seiten des Regelbuchs abgebildeten Tabellen ... sollten vor Spielbeginn
kopiert und jedem Spieler ausgehändigt werden"), a roster sheet with the unit numbers of the
army plan, and blank cards.

Pure data: the Django templates ``cards/stahlgewitter/<template>.html`` draw it. Labels are
English msgids marked with ``gettext_noop``; the rulebook's terms (B, PW, TP, STK, GES, WIK,
FKW, NKW, the table titles) stay German and get an English gloss only in English. Names and
rule texts come from the catalogue (already in the reader's language) and the tables.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Final

from apps.systems.core.cards import Card, RosterPrint
from apps.systems.core.i18n import gettext_noop
from apps.systems.core.rosters import CatalogData, EntryInput, RosterInput, RosterIssue
from apps.systems.stahlgewitter.catalog import Catalog, loadout, stahlgewitter_catalog
from apps.systems.stahlgewitter.catalog_types import (
    Armour,
    Equipment,
    Profile,
    Skill,
    Variant,
    Weapon,
    WeaponType,
)
from apps.systems.stahlgewitter.roster import entry_cost, totals, units, validate_roster
from apps.systems.stahlgewitter.table_cards import (
    DASH,
    LegendLine,
    legend,
    reference_cards,
)

UNIT: Final = "unit"
BLANK_UNIT: Final = "blank_unit"
BOX: Final = "☐"
UNLIMITED: Final = "∞"
# "Außerdem darf jeder Spieler drei Marken mehr plazieren, als er Einheiten hat."
DECOY_MARKERS: Final = 3
BLANK_MODEL_ROWS: Final = 6
BLANK_TP_BOXES: Final = 3
BLANK_WEAPON_ROWS: Final = 4
UNKNOWN_PROFILE: Final = gettext_noop("(not in the catalogue)")

SKILL_LABELS: Final[Mapping[Skill, str]] = {
    Skill.FANATIKER: gettext_noop("Fanatiker (fanatic)"),
    Skill.GRAUSAM: gettext_noop("grausam (cruel)"),
    Skill.PSITER: gettext_noop("Psiter (psychic)"),
}
# --- The faces -------------------------------------------------------------------------------


@dataclass(frozen=True)
class ModelLine:
    """One entry of a unit as worn: ``count`` identical models of a printed profile line, each
    with its TP boxes (``tracks``: model number and boxes, numbered through the unit)."""

    name: str  # the entry's own name; "" when it has none
    profile: str  # the printed line, "Offizier (E)"
    count: int
    leader: bool
    b: int
    pw: int
    tp: int
    stk: int
    ges: int
    wik: int
    skills: tuple[str, ...]  # gettext_noop-marked labels
    armour: str
    armour_pw: int
    armour_b: int  # the worn armour's movement reduction
    weapons: tuple[str, ...]
    equipment: tuple[str, ...]
    tracks: tuple[tuple[int, str], ...]
    points: int
    continued: bool = False  # the entry's first models are on the previous card


@dataclass(frozen=True)
class WeaponLine:
    """A weapon as its carriers in the unit fight with it (melee weapons with their variant)."""

    name: str
    range: str  # "80 cm", "30 cm" (STK × 10 for its carriers), "∞", "–" for melee
    fkw: str
    nkw: str
    burst: str  # "3× 30 cm": attacks per round and the burst range; "" for single shots
    breaker: bool
    stationary: bool  # "Bew./kämpfen: nein"
    decided: bool  # a printed "?" FKW, decided by the app
    special: str
    breaker_note: str


@dataclass(frozen=True)
class RuleLine:
    name: str
    text: str


@dataclass(frozen=True)
class UnitFace:
    number: int  # the unit's number on the army plan (its deployment marker)
    name: str
    list_name: str
    faction: str
    points: int
    models: int
    lines: tuple[ModelLine, ...]
    weapons: tuple[WeaponLine, ...]
    rules: tuple[RuleLine, ...]
    legend: tuple[LegendLine, ...]
    continuation: bool = False
    continues: bool = False


@dataclass(frozen=True)
class BlankUnitFace:
    tp_boxes: str
    legend: tuple[LegendLine, ...]

    @property
    def model_rows(self) -> range:
        return range(BLANK_MODEL_ROWS)

    @property
    def weapon_rows(self) -> range:
        return range(BLANK_WEAPON_ROWS)


@dataclass(frozen=True)
class SheetEntry:
    count: int
    profile: str
    name: str
    known: bool
    armour: str
    weapons: tuple[str, ...]
    equipment: tuple[str, ...]
    points: int
    values: tuple[int, ...] = ()  # B, PW, TP, STK, GES, WIK as worn


@dataclass(frozen=True)
class SheetUnit:
    number: int
    name: str
    list_name: str
    models: int
    points: int
    entries: tuple[SheetEntry, ...]


@dataclass(frozen=True)
class RosterSheet:
    faction: str
    points: int
    points_limit: int | None
    game_type: str  # its name; "" for a free points limit
    min_points: int | None
    max_points: int | None
    hours: str
    models: int
    units: tuple[SheetUnit, ...]
    markers: int  # deployment markers: one per unit plus the decoys
    provisional: bool
    issues: tuple[RosterIssue, ...]

    @property
    def legal(self) -> bool:
        return not self.issues


# --- Unit cards ------------------------------------------------------------------------------


def _range(weapon: Weapon, strengths: Sequence[int]) -> tuple[str, str]:
    """The range and the burst of ``weapon`` for carriers with ``strengths`` (STK)."""
    if weapon.type is WeaponType.MELEE:
        return DASH, ""
    if weapon.unlimited:
        full = UNLIMITED
        burst_cm = UNLIMITED
    elif weapon.range_stk_x is not None and len(set(strengths)) != 1:
        full = f"STK×{weapon.range_stk_x} cm"
        burst_cm = f"STK×{weapon.range_stk_x // 2} cm"
    else:
        stk = strengths[0] if strengths else 0
        full = f"{weapon.range_for(stk)} cm"
        burst_cm = f"{weapon.burst_range_for(stk)} cm"
    burst = f"{weapon.burst}× {burst_cm}" if weapon.burst else ""
    return full, burst


def weapon_line(weapon: Weapon, strengths: Sequence[int]) -> WeaponLine:
    """One row of the unit's weapon table (``weapon`` already upgraded by any variant)."""
    full, burst = _range(weapon, strengths)
    note = weapon.breaker_note if weapon.breaker_note not in weapon.special else ""
    return WeaponLine(
        name=weapon.name,
        range=full,
        fkw=DASH if weapon.fkw is None else f"{weapon.fkw}{'*' if weapon.fkw_decided else ''}",
        nkw=DASH if weapon.nkw is None else str(weapon.nkw),
        burst=burst,
        breaker=weapon.armour_breaker,
        stationary=not weapon.move_and_fight,
        decided=weapon.fkw_decided,
        special=weapon.special,
        breaker_note=note if weapon.armour_breaker else "",
    )


@dataclass(frozen=True)
class _Member:
    """An entry of a unit as parsed: its profile and what it carries."""

    entry: EntryInput
    profile: Profile
    weapons: tuple[Weapon, ...]
    line: ModelLine


def _member(entry: EntryInput, catalog: Catalog, first: int) -> _Member | None:
    profile = catalog.profiles.get(entry.profile)
    if profile is None:
        return None
    gear = loadout(entry.items, catalog)
    values = catalog.values(profile, gear.armour)
    count = max(entry.count, 0)
    line = ModelLine(
        name=entry.name,
        profile=profile.name,
        count=count,
        leader=profile.leader,
        b=values.b,
        pw=values.pw,
        tp=profile.tp,
        stk=profile.stk,
        ges=profile.ges,
        wik=profile.wik,
        skills=tuple(SKILL_LABELS[s] for s in profile.skills),
        armour=values.armour.name,
        armour_pw=values.armour.pw,
        armour_b=values.armour.b_reduction,
        weapons=tuple(w.name for w in gear.armed_weapons),
        equipment=tuple(e.name for e in gear.equipment),
        tracks=tuple((first + n, BOX * profile.tp) for n in range(count)),
        points=entry_cost(entry, catalog),
    )
    return _Member(entry, profile, gear.armed_weapons, line)


def _weapons(members: Sequence[_Member]) -> tuple[WeaponLine, ...]:
    """Every weapon of the unit once, in the order the entries carry them."""
    carriers: dict[Weapon, list[int]] = {}
    for member in members:
        for weapon in member.weapons:
            carriers.setdefault(weapon, []).append(member.profile.stk)
    return tuple(weapon_line(weapon, stk) for weapon, stk in carriers.items())


def _rules(entries: Sequence[EntryInput], catalog: Catalog) -> tuple[RuleLine, ...]:
    seen: dict[str, RuleLine] = {}
    for entry in entries:
        for item in loadout(entry.items, catalog).equipment:
            if item.text:
                seen.setdefault(item.slug, RuleLine(item.name, item.text))
    return tuple(seen.values())


def unit_face(
    number: int, entries: Sequence[EntryInput], catalog: Catalog, faction: str
) -> UnitFace | None:
    """The card of the unit headed by ``entries[0]``; None when none of its profiles is in the
    catalogue any more."""
    members: list[_Member] = []
    first = 1
    for entry in entries:
        member = _member(entry, catalog, first)
        if member is not None:
            members.append(member)
            first += member.line.count
    if not members:
        return None
    name = entries[0].name or members[0].profile.name
    if members[0].entry is entries[0]:
        # The head entry's name is the unit's, in the title already.
        members[0] = replace(members[0], line=replace(members[0].line, name=""))
    lists = tuple(dict.fromkeys(m.profile.list for m in members))
    return UnitFace(
        number=number,
        name=name,
        list_name=" / ".join(lists),
        faction=faction,
        points=sum(m.line.points for m in members),
        models=sum(m.line.count for m in members),
        lines=tuple(m.line for m in members),
        weapons=_weapons(members),
        rules=_rules([m.entry for m in members], catalog),
        legend=legend(),
    )


def _weapon_subset(face: UnitFace, lines: Sequence[ModelLine]) -> tuple[WeaponLine, ...]:
    carried = {name for line in lines for name in line.weapons}
    return tuple(w for w in face.weapons if w.name in carried)


def _halve_lines(
    lines: tuple[ModelLine, ...],
) -> tuple[tuple[ModelLine, ...], tuple[ModelLine, ...]] | None:
    if len(lines) > 1:
        middle = len(lines) // 2
        return lines[:middle], lines[middle:]
    if len(lines) == 1 and len(lines[0].tracks) > 1:
        line = lines[0]
        middle = len(line.tracks) // 2
        head = replace(line, tracks=line.tracks[:middle])
        tail = replace(line, tracks=line.tracks[middle:], continued=True)
        return (head,), (tail,)
    return None


def split_unit(face: UnitFace) -> tuple[UnitFace, UnitFace] | None:
    """A unit too long for one card. First its equipment rules and the legend go on a card of
    their own (the profiles and weapons stay together); then its entries are halved (one
    entry's models when it is alone), each part with the weapons its models carry; a card of
    rules alone is halved by its rules."""
    if face.lines and face.rules:
        head = replace(face, rules=(), legend=(), continues=True)
        tail = replace(face, lines=(), weapons=(), continuation=True)
        return head, tail
    halves = _halve_lines(face.lines)
    if halves is not None:
        first, rest = halves
        head = replace(
            face, lines=first, weapons=_weapon_subset(face, first), legend=(), continues=True
        )
        tail = replace(face, lines=rest, weapons=_weapon_subset(face, rest), continuation=True)
        return head, tail
    if len(face.rules) > 1:
        middle = len(face.rules) // 2
        head = replace(face, rules=face.rules[:middle], continues=True)
        tail = replace(face, rules=face.rules[middle:], continuation=True)
        return head, tail
    return None


# --- The roster sheet ------------------------------------------------------------------------


def _sheet_entry(entry: EntryInput, catalog: Catalog, *, head: bool) -> SheetEntry:
    """An entry's line on the sheet; the head's name is the unit's, printed above it."""
    name = "" if head else entry.name
    profile = catalog.profiles.get(entry.profile)
    if profile is None:
        return SheetEntry(entry.count, UNKNOWN_PROFILE, name, False, "", (), (), 0)
    gear = loadout(entry.items, catalog)
    values = catalog.values(profile, gear.armour)
    return SheetEntry(
        count=entry.count,
        profile=profile.name,
        name=name,
        known=True,
        armour=values.armour.name,
        weapons=tuple(w.name for w in gear.armed_weapons),
        equipment=tuple(e.name for e in gear.equipment),
        points=entry_cost(entry, catalog),
        values=(values.b, values.pw, profile.tp, profile.stk, profile.ges, profile.wik),
    )


def roster_sheet(roster: RosterInput, catalog: Catalog) -> RosterSheet:
    sums = totals(roster, catalog)
    game_type = catalog.game_types.get(sums.game_type) if sums.game_type else None
    sheet_units: list[SheetUnit] = []
    for number, members in enumerate(units(roster).values(), start=1):
        entries = tuple(
            _sheet_entry(roster.entries[i], catalog, head=i == members[0]) for i in members
        )
        head = roster.entries[members[0]]
        profiles = [catalog.profiles.get(roster.entries[i].profile) for i in members]
        known = [p for p in profiles if p is not None]
        sheet_units.append(
            SheetUnit(
                number=number,
                name=head.name or entries[0].profile,
                list_name=" / ".join(dict.fromkeys(p.list for p in known)),
                models=sum(e.count for e in entries if e.known),
                points=sum(e.points for e in entries),
                entries=entries,
            )
        )
    return RosterSheet(
        faction=catalog.factions.get(roster.faction, roster.faction),
        points=sums.points,
        points_limit=sums.points_limit,
        game_type=game_type.name if game_type else "",
        min_points=sums.min_points,
        max_points=sums.max_points,
        hours=game_type.hours if game_type else "",
        models=sums.models,
        units=tuple(sheet_units),
        markers=len(sheet_units) + DECOY_MARKERS,
        provisional=_provisional(roster, catalog),
        issues=tuple(validate_roster(roster, catalog)),
    )


def _provisional(roster: RosterInput, catalog: Catalog) -> bool:
    """Whether any cost the army pays is provisional (the rulebook prints none)."""
    for entry in roster.entries:
        profile = catalog.profiles.get(entry.profile)
        if profile is not None and profile.provisional:
            return True
        gear = loadout(entry.items, catalog)
        bought: list[Weapon | Armour | Variant | Equipment] = [
            *gear.weapons,
            *gear.armours,
            *gear.variants,
            *gear.equipment,
        ]
        if any(item.provisional for item in bought):
            return True
    return False


# --- The layouts -----------------------------------------------------------------------------


class StahlgewitterCardLayouts:
    def roster_print(self, roster: RosterInput, catalog: CatalogData) -> RosterPrint:
        parsed = stahlgewitter_catalog(catalog)
        faction = parsed.factions.get(roster.faction, roster.faction)
        cards: list[Card] = []
        for number, members in enumerate(units(roster).values(), start=1):
            face = unit_face(number, [roster.entries[i] for i in members], parsed, faction)
            if face is not None:
                cards.append(Card(UNIT, face.name, face))
        if cards:
            cards += reference_cards()
        return RosterPrint(cards=tuple(cards), sheet=roster_sheet(roster, parsed))

    def blank_cards(self) -> tuple[Card, ...]:
        blank = Card(
            BLANK_UNIT, gettext_noop("Unit"), BlankUnitFace(BOX * BLANK_TP_BOXES, legend())
        )
        return (blank, *reference_cards())

    def split(self, card: Card) -> tuple[Card, Card] | None:
        face = card.face
        if not isinstance(face, UnitFace):
            return None
        halves = split_unit(face)
        if halves is None:
            return None
        return (
            replace(card, face=halves[0]),
            replace(card, face=halves[1], part=card.part + 1),
        )
