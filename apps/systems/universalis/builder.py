"""What the Universalis group builder shows: totals, one unit card per entry with its derived
values, the powers it brings, its operator choice, and every option with the reason it is
disabled. Pure: the page renders this, the rules computed it."""

from __future__ import annotations

from dataclasses import dataclass

from apps.systems.core.i18n import gettext_noop
from apps.systems.core.rosters import RosterInput, RosterIssue
from apps.systems.universalis.catalog import (
    EFFECT_NAMES,
    Armour,
    Camouflage,
    Equipment,
    Power,
    Trait,
    UnitCard,
    Weapon,
)
from apps.systems.universalis.roster import (
    Catalog,
    Totals,
    operator_reason,
    power_reason,
    totals,
    validate_roster,
)

TYPE_LABELS = {
    "standard": gettext_noop("Standard"),
    "telematon": gettext_noop("Telematon"),
    "colossus": gettext_noop("Koloss (colossus)"),
}
SIZE_LABELS = {
    "small": gettext_noop("klein (small)"),
    "medium": gettext_noop("mittel (medium)"),
    "large": gettext_noop("groß (large)"),
    "huge": gettext_noop("riesig (huge)"),
}
MOVEMENT_LABELS = {
    "legs": gettext_noop("Beine (legs)"),
    "flight": gettext_noop("Flug (flight)"),
    "tracks": gettext_noop("Kette (tracks)"),
    "wheels": gettext_noop("Rad (wheels)"),
    "hover": gettext_noop("Schweben (hover)"),
    "stationary": gettext_noop("Stationär (stationary)"),
}
ROMAN = ("", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X")


@dataclass(frozen=True)
class WeaponView:
    name: str
    wk: str
    range: str
    strength: str
    damage: int
    notes: tuple[str, ...]
    text: str


def weapon_view(weapon: Weapon, ko: int) -> WeaponView:
    notes: list[str] = []
    if weapon.df:
        notes.append(f"DF {weapon.df}")
    if weapon.area:
        notes.append(f"⌀ {weapon.area} cm")
    if weapon.indirect:
        notes.append("indirekt")
    if weapon.unwieldy:
        notes.append("◆ unhandlich")
    if weapon.reload:
        notes.append("nachladen")
    if weapon.uses is not None:
        notes.append("○" * weapon.uses)
    if weapon.mount:
        notes.append({"left": "links", "right": "rechts"}[weapon.mount])
    notes += [EFFECT_NAMES[e] for e in weapon.effects]
    if weapon.melee:
        shown_range = "NK"
    else:
        length, count = weapon.bands(ko)
        shown_range = f"{length}/{count}"
    strength = f"+{weapon.strength}" if weapon.additive else str(weapon.strength)
    return WeaponView(
        name=weapon.name,
        wk=ROMAN[weapon.wk],
        range=shown_range,
        strength=strength,
        damage=weapon.damage,
        notes=tuple(notes),
        text=weapon.text,
    )


@dataclass(frozen=True)
class CardView:
    """A unit card with its derived values, for the builder, the tracker and the PDF card."""

    name: str
    type: str
    type_label: str
    size_label: str
    movement_label: str
    speed: int
    hp: int
    hp_critical: int
    attributes: tuple[tuple[str, int | None], ...]
    perception_cm: int
    danger_zone_cm: int | None
    capacity_kg: int
    load_kg: int
    overload: int
    points: int
    group_leader: bool
    operator: int
    camouflage: str
    weapons: tuple[WeaponView, ...]
    armour: str
    armour_text: str
    traits: tuple[tuple[str, str], ...]
    equipment: tuple[tuple[str, str], ...]
    disciplines: tuple[str, ...]
    zone_hp: tuple[int, int] | None
    sample: bool


def _spaced(*parts: str) -> str:
    """The parts that are not empty, with a space between them."""
    return " ".join(part for part in parts if part)


def _camouflage_label(camouflage: Camouflage | None) -> str:
    if camouflage is None:
        return ""
    kind = "aktiv" if camouflage.active else "passiv"
    return f"{kind} {ROMAN[camouflage.level] or camouflage.level}"


def _armour_label(armour: Armour | None) -> str:
    """Name, protection/reduction and the armour's effects ("" without armour)."""
    if armour is None:
        return ""
    protection = f"+{armour.protection}" if armour.additive else str(armour.protection)
    extras = [EFFECT_NAMES[e] for e in armour.effects]
    if armour.self_supporting:
        extras.append("selbsttragend")
    return f"{armour.name} · {protection}/{armour.reduction}" + (
        f" · {', '.join(extras)}" if extras else ""
    )


def _trait_line(trait: Trait) -> tuple[str, str]:
    """(heading, text): the name with its level, AP cost and use boxes, as the card prints it."""
    return (
        _spaced(
            trait.name,
            ROMAN[trait.level] if 0 < trait.level < len(ROMAN) else "",
            f"{trait.ap} AP" if trait.ap is not None else "",
            "○" * trait.uses if trait.uses else "",
        ),
        trait.text,
    )


def _equipment_line(equipment: Equipment) -> tuple[str, str]:
    """(heading, text): the name with ◆ when unwieldy, AP cost and use boxes."""
    return (
        _spaced(
            equipment.name,
            "◆" if equipment.unwieldy else "",
            f"{equipment.ap} AP" if equipment.ap is not None else "",
            "○" * equipment.uses if equipment.uses else "",
        ),
        equipment.text,
    )


def card_view(card: UnitCard) -> CardView:
    attributes = (
        ("AGI", card.effective_agi),
        ("NK", card.nk),
        ("FK", card.fk),
        ("KO", card.ko),
        ("WN", card.wn),
        ("EH", card.eh),
    )
    return CardView(
        name=card.name,
        type=card.type.value,
        type_label=TYPE_LABELS[card.type.value],
        size_label=SIZE_LABELS[card.size.value],
        movement_label=MOVEMENT_LABELS[card.movement.value],
        speed=card.effective_speed,
        hp=card.hp,
        hp_critical=card.hp_critical,
        attributes=attributes,
        perception_cm=card.perception_cm,
        danger_zone_cm=card.danger_zone_cm,
        capacity_kg=card.capacity_kg,
        load_kg=card.load_kg,
        overload=card.overload,
        points=card.points,
        group_leader=card.group_leader,
        operator=card.operator,
        camouflage=_camouflage_label(card.camouflage),
        weapons=tuple(weapon_view(w, card.ko) for w in card.weapons),
        armour=_armour_label(card.armour),
        armour_text=card.armour.text if card.armour else "",
        traits=tuple(_trait_line(t) for t in card.traits),
        equipment=tuple(_equipment_line(e) for e in card.equipment),
        disciplines=tuple(f"{d.name} {ROMAN[d.level]}" for d in card.disciplines),
        zone_hp=card.zone_hp if card.colossus else None,
        sample=card.sample,
    )


@dataclass(frozen=True)
class OptionView:
    slug: str
    name: str
    detail: str
    allowed: bool = True
    reason: str = ""
    sample: bool = False


@dataclass(frozen=True)
class ItemView:
    """A power an entry brings (the generic builder pairs these with the roster's item rows)."""

    slug: str
    name: str
    detail: str
    text: str
    sample: bool


@dataclass(frozen=True)
class FighterView:
    """One entry: a model (or ``count`` alike) with its card, powers and operator."""

    display_name: str
    profile_name: str
    known: bool
    card: CardView | None
    items: tuple[ItemView, ...]
    power_options: tuple[OptionView, ...]
    operator_options: tuple[OptionView, ...]
    operator_name: str
    operator_index: int | None
    telematons: tuple[str, ...]
    count: int
    issues: tuple[RosterIssue, ...]


@dataclass(frozen=True)
class Panel:
    """The "add models" panel: the faction's cards, leaders first."""

    options: tuple[OptionView, ...]


@dataclass(frozen=True)
class BuilderView:
    totals: Totals
    issues: tuple[RosterIssue, ...]
    fighters: tuple[FighterView, ...]
    panel: Panel

    @property
    def entries(self) -> tuple[FighterView, ...]:
        """One view per roster entry (``core.rosters.BuilderView``)."""
        return self.fighters


def power_detail(power: Power) -> str:
    difficulty = f"{power.difficulty:+d}" if power.difficulty else ""
    return f"{power.discipline} · {power.ap} AP · {power.attribute.value.upper()}{difficulty}"


def _card_detail(card: UnitCard) -> str:
    parts = [f"{card.points} P", TYPE_LABELS[card.type.value]]
    if card.group_leader:
        parts.append("Gruppenführer")
    return " · ".join(parts)


def _power_items(slugs: tuple[str, ...], catalog: Catalog) -> tuple[ItemView, ...]:
    """The powers an entry brings; one gone from the catalogue is shown by its slug."""
    return tuple(
        ItemView(slug=p.slug, name=p.name, detail=power_detail(p), text=p.text, sample=p.sample)
        if (p := catalog.powers.get(slug)) is not None
        else ItemView(slug=slug, name=slug, detail="", text="", sample=False)
        for slug in slugs
    )


def _power_options(
    card: UnitCard | None, slugs: tuple[str, ...], catalog: Catalog
) -> tuple[OptionView, ...]:
    """The powers of the disciplines the card has, each with why it cannot be added, if so."""
    if card is None or not card.disciplines:
        return ()
    chosen = [catalog.powers[s] for s in slugs if s in catalog.powers]
    return tuple(
        OptionView(
            slug=p.slug,
            name=p.name,
            detail=power_detail(p),
            allowed=not (reason := power_reason(card, chosen, p)),
            reason=reason,
            sample=p.sample,
        )
        for p in catalog.powers.values()
        if card.discipline_level(p.discipline) > 0
    )


def _can_operate(card: UnitCard | None) -> bool:
    """A model that can take telematons: it has an operator value and is no telematon."""
    return card is not None and card.operator > 0 and not card.telematon


def _operator_options(
    roster: RosterInput, catalog: Catalog, index: int, card: UnitCard | None, names: list[str]
) -> tuple[OptionView, ...]:
    """For a telematon: the other entries that could operate it."""
    if card is None or not card.telematon:
        return ()
    return tuple(
        OptionView(
            slug=str(target),
            name=names[target],
            detail="",
            allowed=not (reason := operator_reason(roster, catalog, index, target)),
            reason=reason,
        )
        for target, other in enumerate(roster.entries)
        if target != index and _can_operate(catalog.cards.get(other.profile))
    )


def _fighter(
    index: int,
    roster: RosterInput,
    catalog: Catalog,
    names: list[str],
    issues: tuple[RosterIssue, ...],
) -> FighterView:
    entry = roster.entries[index]
    card = catalog.cards.get(entry.profile)
    attached = entry.attach_to
    return FighterView(
        display_name=names[index],
        profile_name=card.name if card else entry.profile,
        known=card is not None,
        card=card_view(card) if card else None,
        items=_power_items(entry.items, catalog),
        power_options=_power_options(card, entry.items, catalog),
        operator_options=_operator_options(roster, catalog, index, card, names),
        operator_name=names[attached]
        if attached is not None and 0 <= attached < len(names)
        else "",
        operator_index=attached,
        telematons=tuple(names[i] for i, e in enumerate(roster.entries) if e.attach_to == index),
        count=entry.count,
        issues=tuple(issue for issue in issues if issue.entry == index),
    )


def _panel(roster: RosterInput, catalog: Catalog) -> Panel:
    """The faction's cards, leaders first; a second group leader is refused."""
    leaders = sum(
        e.count for e in roster.entries if (c := catalog.cards.get(e.profile)) and c.group_leader
    )
    has_leader = leaders >= 1
    options = sorted(
        (card for card in catalog.cards.values() if roster.faction in card.factions),
        key=lambda c: (not c.group_leader, c.points, c.name),
    )
    return Panel(
        options=tuple(
            OptionView(
                slug=card.slug,
                name=card.name,
                detail=_card_detail(card),
                allowed=not (card.group_leader and has_leader),
                reason=gettext_noop("The group has its group leader already.")
                if card.group_leader and has_leader
                else "",
                sample=card.sample,
            )
            for card in options
        )
    )


def builder_view(roster: RosterInput, catalog: Catalog) -> BuilderView:
    issues = tuple(validate_roster(roster, catalog))
    names = [
        entry.name or (catalog.cards[entry.profile].name if entry.profile in catalog.cards else "?")
        for entry in roster.entries
    ]
    return BuilderView(
        totals=totals(roster, catalog),
        issues=issues,
        fighters=tuple(
            _fighter(index, roster, catalog, names, issues) for index in range(len(roster.entries))
        ),
        panel=_panel(roster, catalog),
    )
