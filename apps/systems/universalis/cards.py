"""Universalis's printed unit cards (rulebook 2.4 Einheitenkarte): the front with the values a
table looks up during a game, the back with the rules of the weapons, armour, equipment, traits
and the powers the model brings (2.4: "Auf der Rückseite ..."), a roster sheet, and blank cards.

Pure data: what goes on each card. The Django templates ``cards/universalis/<template>.html``
draw it. Labels are English msgids marked with ``gettext_noop``; names and rule texts come from
the catalogue and are printed as they are.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final

from apps.systems.core.cards import Card, RosterPrint
from apps.systems.core.i18n import gettext_noop
from apps.systems.core.rosters import CatalogData, EntryInput, RosterInput, RosterIssue
from apps.systems.universalis.builder import ROMAN, CardView, card_view, power_detail
from apps.systems.universalis.catalog import Power, UnitCard
from apps.systems.universalis.roster import totals, universalis_catalog, validate_roster

FRONT: Final = "unit_front"
BACK: Final = "unit_back"
BLANK_FRONT: Final = "blank_front"
BLANK_BACK: Final = "blank_back"
# A circle per hit point to cross out: white (normal) and the critical ones filled grey.
HP_NORMAL: Final = "○"
HP_CRITICAL: Final = "◍"
BLANK_WEAPON_ROWS: Final = 3
UNKNOWN_CARD: Final = gettext_noop("(not in the catalogue)")
TARGET_LABELS: Final = {
    "area": gettext_noop("area"),
    "model": gettext_noop("model"),
    "user": gettext_noop("user"),
}
RANGE_LABELS: Final = {"touch": gettext_noop("touch"), "distance": gettext_noop("distance")}
DURATION_LABELS: Final = {"instant": gettext_noop("instant"), "lasting": gettext_noop("lasting")}
ZONE_LABELS: Final = (
    gettext_noop("left side"),
    gettext_noop("right side"),
    gettext_noop("movement"),
)


def hp_track(normal: int, critical: int) -> str:
    return HP_NORMAL * normal + HP_CRITICAL * critical


@dataclass(frozen=True)
class FrontFace:
    """The front of a unit card: ``card`` is the builder's card view (derived values
    included); ``telematons`` / ``operator`` name the assignments of this group."""

    name: str
    profile_name: str
    card: CardView
    factions: tuple[str, ...]
    hp: str
    zones: tuple[tuple[str, str], ...]  # a colossus's sides and movement: (label, track)
    powers: tuple[str, ...]
    operator: str
    telematons: tuple[str, ...]
    version: int


@dataclass(frozen=True)
class RuleLine:
    """One rule on the back: what it belongs to, and its text."""

    name: str
    text: str
    continued: bool = False


@dataclass(frozen=True)
class PowerLine:
    name: str
    detail: str
    hp_loss: str
    target: str
    range: str
    duration: str
    text: str


@dataclass(frozen=True)
class BackFace:
    """The back of a unit card: the rules of its weapons, armour, equipment and traits, and
    the full text of every power it brings. A back too full for one card continues on the
    next (``continuation`` / ``continues``)."""

    name: str
    rules: tuple[RuleLine, ...]
    powers: tuple[PowerLine, ...]
    capacity_kg: int
    load_kg: int
    overload: int
    sample: bool
    continuation: bool = False
    continues: bool = False


@dataclass(frozen=True)
class SheetModel:
    name: str
    profile_name: str
    count: int
    known: bool
    type_label: str
    points: int
    attributes: tuple[tuple[str, int | None], ...]
    speed: int
    hp: str
    weapons: tuple[str, ...]
    powers: tuple[str, ...]
    operator: str


@dataclass(frozen=True)
class RosterSheet:
    faction: str
    points: int
    points_limit: int | None
    models: tuple[SheetModel, ...]
    issues: tuple[RosterIssue, ...]

    @property
    def legal(self) -> bool:
        return not self.issues


@dataclass(frozen=True)
class BlankFace:
    """An empty card to fill in by hand: ``hp`` circles to colour in."""

    hp: str

    @property
    def weapon_rows(self) -> range:
        return range(BLANK_WEAPON_ROWS)


def _power_line(power: Power) -> PowerLine:
    loss = ""
    if power.hp_loss:
        loss = f"−{power.hp_loss} TP" + ("" if power.hp_loss_always else " ✗")
    return PowerLine(
        name=power.name,
        detail=power_detail(power),
        hp_loss=loss,
        target=TARGET_LABELS[power.target.value],
        range=RANGE_LABELS[power.range.value],
        duration=DURATION_LABELS[power.duration.value],
        text=power.text,
    )


def _trait_name(name: str, level: int) -> str:
    return f"{name} {ROMAN[level]}" if 0 < level < len(ROMAN) else name


def _rules(card: UnitCard) -> tuple[RuleLine, ...]:
    lines = [RuleLine(w.name, w.text) for w in card.weapons if w.text]
    if card.armour is not None and card.armour.text:
        lines.append(RuleLine(card.armour.name, card.armour.text))
    lines += [RuleLine(e.name, e.text) for e in card.equipment if e.text]
    lines += [RuleLine(_trait_name(t.name, t.level), t.text) for t in card.traits if t.text]
    return tuple(lines)


def front_face(
    card: UnitCard,
    *,
    name: str,
    factions: tuple[str, ...],
    powers: tuple[Power, ...] = (),
    operator: str = "",
    telematons: tuple[str, ...] = (),
) -> FrontFace:
    zones: tuple[tuple[str, str], ...] = ()
    if card.colossus:
        normal, critical = card.zone_hp
        zones = tuple((label, hp_track(normal, critical)) for label in ZONE_LABELS)
    return FrontFace(
        name=name or card.name,
        profile_name=card.name if name and name != card.name else "",
        card=card_view(card),
        factions=factions,
        hp=hp_track(card.hp, card.hp_critical),
        zones=zones,
        powers=tuple(p.name for p in powers),
        operator=operator,
        telematons=telematons,
        version=card.version,
    )


def back_face(card: UnitCard, *, name: str, powers: tuple[Power, ...] = ()) -> BackFace:
    return BackFace(
        name=name or card.name,
        rules=_rules(card),
        powers=tuple(_power_line(p) for p in powers),
        capacity_kg=card.capacity_kg,
        load_kg=card.load_kg,
        overload=card.overload,
        sample=card.sample,
    )


def _unknown_model(name: str, count: int) -> SheetModel:
    """The sheet line of an entry whose card is gone from the catalogue: it prints no cards."""
    return SheetModel(
        name=name,
        profile_name=UNKNOWN_CARD,
        count=count,
        known=False,
        type_label="",
        points=0,
        attributes=(),
        speed=0,
        hp="",
        weapons=(),
        powers=(),
        operator="",
    )


def _sheet_model(
    card: UnitCard, entry: EntryInput, name: str, powers: tuple[Power, ...], operator: str
) -> SheetModel:
    view = card_view(card)
    return SheetModel(
        name=name,
        profile_name=card.name if entry.name else "",
        count=entry.count,
        known=True,
        type_label=view.type_label,
        points=card.points,
        attributes=view.attributes,
        speed=view.speed,
        hp=f"{card.hp}+{card.hp_critical}",
        weapons=tuple(w.name for w in card.weapons),
        powers=tuple(p.name for p in powers),
        operator=operator,
    )


def _model_cards(
    card: UnitCard,
    *,
    name: str,
    count: int,
    factions: tuple[str, ...],
    powers: tuple[Power, ...],
    operator: str,
    telematons: tuple[str, ...],
) -> list[Card]:
    """Front and back for each of the entry's ``count`` models, numbered when several."""
    printed: list[Card] = []
    for copy in range(count):
        model = name if count == 1 else f"{name} {copy + 1}"
        front = front_face(
            card,
            name=model,
            factions=factions,
            powers=powers,
            operator=operator,
            telematons=telematons,
        )
        printed.append(Card(FRONT, model, front))
        printed.append(Card(BACK, model, back_face(card, name=model, powers=powers)))
    return printed


class UniversalisCardLayouts:
    def roster_print(self, roster: RosterInput, catalog: CatalogData) -> RosterPrint:
        cards = universalis_catalog(catalog)
        names = [
            entry.name or (c.name if (c := cards.cards.get(entry.profile)) else entry.profile)
            for entry in roster.entries
        ]
        printed: list[Card] = []
        models: list[SheetModel] = []
        for index, entry in enumerate(roster.entries):
            card = cards.cards.get(entry.profile)
            if card is None:
                models.append(_unknown_model(names[index], entry.count))
                continue
            powers = tuple(cards.powers[s] for s in entry.items if s in cards.powers)
            attach = entry.attach_to
            operator = names[attach] if attach is not None and 0 <= attach < len(names) else ""
            models.append(_sheet_model(card, entry, names[index], powers, operator))
            printed += _model_cards(
                card,
                name=names[index],
                count=entry.count,
                factions=tuple(cards.factions.get(slug, slug) for slug in card.factions),
                powers=powers,
                operator=operator,
                telematons=tuple(
                    names[i] for i, other in enumerate(roster.entries) if other.attach_to == index
                ),
            )
        sums = totals(roster, cards)
        sheet = RosterSheet(
            faction=cards.factions.get(roster.faction, roster.faction),
            points=sums.points,
            points_limit=sums.points_limit,
            models=tuple(models),
            issues=tuple(validate_roster(roster, cards)),
        )
        return RosterPrint(cards=tuple(printed), sheet=sheet)

    def blank_cards(self) -> tuple[Card, ...]:
        return (
            Card(BLANK_FRONT, gettext_noop("Blank unit card (front)"), BlankFace(HP_NORMAL * 20)),
            Card(BLANK_BACK, gettext_noop("Blank unit card (back)"), BlankFace("")),
        )

    def split(self, card: Card) -> tuple[Card, Card] | None:
        """A back too full for one card: its rules and powers in two halves, or one long
        text cut at the word nearest its middle."""
        face = card.face
        if not isinstance(face, BackFace):
            return None
        entries: list[RuleLine | PowerLine] = [*face.rules, *face.powers]
        if len(entries) > 1:
            middle = len(entries) // 2
            first, rest = entries[:middle], entries[middle:]
        elif entries and isinstance(entries[0], RuleLine) and (cut := _cut(entries[0].text)):
            first = [replace(entries[0], text=cut[0])]
            rest = [replace(entries[0], text=cut[1], continued=True)]
        else:
            return None
        head = replace(
            face,
            rules=tuple(e for e in first if isinstance(e, RuleLine)),
            powers=tuple(e for e in first if isinstance(e, PowerLine)),
            continues=True,
        )
        tail = replace(
            face,
            rules=tuple(e for e in rest if isinstance(e, RuleLine)),
            powers=tuple(e for e in rest if isinstance(e, PowerLine)),
            continuation=True,
            continues=face.continues,
        )
        return replace(card, face=head), replace(card, face=tail, part=card.part + 1)


def _cut(text: str) -> tuple[str, str] | None:
    middle = len(text) // 2
    cuts = [c for c in (text.rfind(" ", 0, middle + 1), text.find(" ", middle)) if c > 0]
    if not cuts:
        return None
    cut = min(cuts, key=lambda c: abs(c - middle))
    return text[:cut].rstrip(), text[cut:].lstrip()
