"""Deathmatch's printed cards (rulebook MODELLE UND PROFILE; SPEC §1.1): fighter profile cards,
the equipment cards a roster uses, a one-page roster sheet, and blank cards for organisers.

Pure data: what goes on each card. The Django templates ``cards/deathmatch/<template>.html``
draw it. Labels are English msgids marked with ``gettext_noop``; names and rule texts come from
the catalogue and are printed as they are.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Final

from apps.systems.core.cards import Card, RosterPrint
from apps.systems.core.i18n import gettext_noop
from apps.systems.core.rosters import CatalogData, RosterInput, RosterIssue
from apps.systems.deathmatch.builder import RANK_LABELS, roster_issue
from apps.systems.deathmatch.catalog import (
    ITEM_KIND_CHOICES,
    RED_REFLEX,
    RED_WEAPON_PREFIX,
    Catalog,
    EquipmentCard,
    FighterProfile,
    ItemKind,
    Movement,
    Rank,
    Weapon,
)
from apps.systems.deathmatch.roster import Roster, RosterEntry, totals, validate_roster
from apps.systems.deathmatch.system import deathmatch_catalog, deathmatch_roster

PROFILE: Final = "profile"
EQUIPMENT: Final = "equipment"
BLANK_PROFILE: Final = "blank_profile"
BLANK_EQUIPMENT: Final = "blank_equipment"

# The LP track of a blank card: more boxes than any shipped profile has, to cross out.
BLANK_LP_BOXES: Final = 10
BLANK_WEAPON_ROWS: Final = 3

KIND_LABELS: Final[Mapping[str, str]] = dict(ITEM_KIND_CHOICES)
MOVEMENT_LABELS: Final[Mapping[Movement, str]] = {
    Movement.NORMAL: "",
    # Rule keywords of the rulebook: printed in German in every language.
    Movement.SLOW: "Langsam",
    Movement.FAST: "Schnell",
}
# A ballot box per life point: one text run lays out much faster than a box per point.
LP_BOX: Final = "☐"
UNKNOWN_CARD: Final = gettext_noop("(not in the catalogue)")


@dataclass(frozen=True)
class WeaponLine:
    """One row of a weapons table. ``red`` marks an FK/NK lowered by respawn shock."""

    name: str
    symbol: str
    range_inches: int
    combat_label: str
    combat_value: int
    red: bool
    bonus_cards: int
    strength: int
    special_rules: tuple[str, ...]

    @property
    def bonus(self) -> str:
        return "⬠" * self.bonus_cards


@dataclass(frozen=True)
class AbilityLine:
    name: str
    text: str
    continued: bool = False  # the text goes on from the previous card


@dataclass(frozen=True)
class ProfileFace:
    """A fighter's profile card. A continuation card (``continuation``) repeats the header
    and carries the abilities that did not fit on the first one."""

    name: str
    profile_name: str
    rank_label: str
    factions: tuple[str, ...]
    mercenary: bool
    hero: bool
    mech: bool
    sample: bool
    arp: int
    command: int
    reflex: int
    reflex_red: bool
    resistance: int
    respawner: bool
    lp: int
    move_inches: int
    movement_label: str
    weapons: tuple[WeaponLine, ...]
    abilities: tuple[AbilityLine, ...]
    equipment: tuple[str, ...]
    version: str
    continuation: bool = False
    continues: bool = False  # more abilities follow on the next card

    @property
    def has_red(self) -> bool:
        return self.reflex_red or any(weapon.red for weapon in self.weapons)

    @property
    def lp_boxes(self) -> str:
        """The LP track: one box to tick per life point."""
        return LP_BOX * self.lp


@dataclass(frozen=True)
class ActionLine:
    name: str
    ap: int
    text: str


@dataclass(frozen=True)
class EquipmentFace:
    """An equipment card as the rulebook draws it: ARP cost, name, limit per model, type,
    text, usage limit, special action, weapon profile, version; ``carried_by`` names the
    fighter this copy was bought for."""

    name: str
    cost: int
    limit_per_model: int
    kind_label: str
    text: str
    usage_limit: str
    special_action: ActionLine | None
    weapon: WeaponLine | None
    version: str
    sample: bool
    carried_by: str
    continuation: bool = False
    continues: bool = False

    @property
    def weapon_lines(self) -> tuple[WeaponLine, ...]:
        return (self.weapon,) if self.weapon else ()


@dataclass(frozen=True)
class SheetItem:
    """An equipment card on the roster sheet: ``count`` copies on one fighter, ``cost`` ARP
    for all of them together."""

    name: str
    cost: int
    free: bool = False
    count: int = 1


@dataclass(frozen=True)
class SheetFighter:
    name: str
    profile_name: str
    rank_label: str
    factions: tuple[str, ...]
    mercenary: bool
    hero: bool
    arp: int
    command: int
    reflex: int
    resistance: int
    lp: int
    move_inches: int
    weapons: tuple[str, ...]
    items: tuple[SheetItem, ...]
    count: int
    known: bool = True


@dataclass(frozen=True)
class SheetRank:
    label: str
    have: int
    need: int


@dataclass(frozen=True)
class RosterSheet:
    faction: str
    game_size: int
    last_man_standing: bool
    fighters: tuple[SheetFighter, ...]
    ranks: tuple[SheetRank, ...]
    arp_pool: int
    arp_spent: int
    arp_left: int
    command_points: int
    harmony_bonus: int
    mercenaries: int
    mercenaries_allowed: int
    issues: tuple[RosterIssue, ...]

    @property
    def legal(self) -> bool:
        return not self.issues


def _version(printed: str, version: int) -> str:
    """What the card's corner says: the printed version if the card has one, else the
    catalogue's own revision counter."""
    return printed or f"v{version}"


def _weapon_line(weapon: Weapon, *, red: bool) -> WeaponLine:
    return WeaponLine(
        name=weapon.name,
        symbol=weapon.symbol,
        range_inches=weapon.range_inches,
        combat_label=weapon.combat_label,
        combat_value=weapon.combat_value,
        red=red,
        bonus_cards=weapon.bonus_cards,
        strength=weapon.strength,
        special_rules=weapon.special_rules,
    )


def _red_values(profile: FighterProfile) -> frozenset[str]:
    """The values the card prints red: exactly those respawn shock lowers on the tracker
    (SPEC §6) -- Reflex always ("einen Malus von -1 auf seinen Reflexwert"), FK/NK where the
    card marks them. Mech: the model ignores every effect of respawn shock, so nothing drops."""
    if profile.mech:
        return frozenset()
    return frozenset({RED_REFLEX, *profile.red_values})


def profile_face(
    profile: FighterProfile,
    catalog: Catalog,
    *,
    nickname: str = "",
    mercenary: bool = False,
    equipment: tuple[str, ...] = (),
) -> ProfileFace:
    red = _red_values(profile)
    # Every fighter without a melee weapon fights with the Kampfmesser; the card shows it.
    weapons = tuple(
        _weapon_line(weapon, red=f"{RED_WEAPON_PREFIX}{index}" in red)
        for index, weapon in enumerate(profile.melee_weapons_or_knife)
    )
    return ProfileFace(
        name=nickname or profile.name,
        profile_name=profile.name if nickname else "",
        rank_label=RANK_LABELS[profile.rank],
        factions=tuple(
            faction.name if (faction := catalog.faction(slug)) else slug
            for slug in profile.factions
        ),
        mercenary=mercenary,
        hero=profile.hero,
        mech=profile.mech,
        sample=profile.sample,
        arp=profile.arp,
        command=profile.command,
        reflex=profile.reflex,
        reflex_red=RED_REFLEX in red,
        resistance=profile.resistance,
        respawner=profile.respawner,
        lp=profile.lp,
        move_inches=profile.move_inches,
        movement_label=MOVEMENT_LABELS[profile.movement],
        weapons=weapons,
        abilities=tuple(AbilityLine(a.name, a.text) for a in profile.abilities),
        equipment=equipment,
        version=_version(profile.printed_version, profile.version),
    )


def equipment_face(card: EquipmentCard, *, carried_by: str = "") -> EquipmentFace:
    action = card.special_action
    return EquipmentFace(
        name=card.name,
        cost=card.cost,
        limit_per_model=card.limit_per_model,
        kind_label=KIND_LABELS[card.kind.value],
        text=card.text,
        usage_limit=card.usage_limit,
        special_action=ActionLine(action.name, action.ap, action.text) if action else None,
        weapon=_weapon_line(card.weapon, red=False) if card.weapon else None,
        version=_version(card.printed_version, card.version),
        sample=card.sample,
        carried_by=carried_by,
    )


def _counted(names: Iterable[str]) -> tuple[str, ...]:
    """Names in first-seen order, a repeated one once with its count ("Medkit ×2")."""
    counts = Counter(names)
    return tuple(name if n == 1 else f"{name} ×{n}" for name, n in counts.items())


def _grouped(items: Iterable[SheetItem]) -> tuple[SheetItem, ...]:
    """Repeated cards once, with their count and their total cost, in first-seen order."""
    grouped: dict[str, SheetItem] = {}
    for item in items:
        seen = grouped.get(item.name)
        grouped[item.name] = (
            replace(seen, count=seen.count + 1, cost=seen.cost + item.cost) if seen else item
        )
    return tuple(grouped.values())


def _respawn_focus(catalog: Catalog) -> EquipmentCard | None:
    return next(
        (item for item in catalog.items.values() if item.kind is ItemKind.RESPAWN_FOCUS), None
    )


def _sheet_fighter(
    *,
    nickname: str,
    slug: str,
    profile: FighterProfile | None,
    items: tuple[SheetItem, ...],
    count: int,
    factions: tuple[str, ...],
    mercenary: bool,
) -> SheetFighter:
    if profile is None:
        # A card the catalogue no longer has: listed by its slug so the sheet stays complete.
        return SheetFighter(
            name=nickname or slug,
            profile_name=UNKNOWN_CARD,
            rank_label="",
            factions=(),
            mercenary=False,
            hero=False,
            arp=0,
            command=0,
            reflex=0,
            resistance=0,
            lp=0,
            move_inches=0,
            weapons=(),
            items=items,
            count=count,
            known=False,
        )
    return SheetFighter(
        name=nickname or profile.name,
        profile_name=profile.name if nickname else "",
        rank_label=RANK_LABELS[profile.rank],
        factions=factions,
        mercenary=mercenary,
        hero=profile.hero,
        arp=profile.arp,
        command=profile.command,
        reflex=profile.reflex,
        resistance=profile.resistance,
        lp=profile.lp,
        move_inches=profile.move_inches,
        weapons=tuple(weapon.name for weapon in profile.melee_weapons_or_knife),
        items=items,
        count=count,
    )


@dataclass(frozen=True)
class _PrintedEntry:
    """What one roster entry puts in the PDF: its line on the sheet, a profile card per model
    and the equipment cards they carry."""

    fighter: SheetFighter
    profile_cards: tuple[Card, ...] = ()
    equipment_cards: tuple[Card, ...] = ()


def _sheet_items(
    slugs: tuple[str, ...], items: list[EquipmentCard | None], focus: EquipmentCard | None
) -> tuple[SheetItem, ...]:
    """The entry's cards as the sheet lists them (an unknown one by its slug, at no cost), after the
    leader's free Respawn-Fokus (``focus``) when there is one."""
    bought = tuple(
        SheetItem(item.name, item.cost) if item else SheetItem(slug, 0)
        for slug, item in zip(slugs, items, strict=True)
    )
    return bought if focus is None else (SheetItem(focus.name, 0, free=True), *bought)


def _model_cards(
    entry: RosterEntry,
    profile: FighterProfile,
    cards: Catalog,
    *,
    mercenary: bool,
    carried: tuple[str, ...],
    equipment: tuple[EquipmentCard, ...],
) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """A profile card per model of the entry (numbered when there are several) and each
    model's own copy of the equipment it carries, naming its carrier."""
    profile_cards: list[Card] = []
    equipment_cards: list[Card] = []
    for copy in range(entry.count):
        face = profile_face(
            profile, cards, nickname=entry.name, mercenary=mercenary, equipment=carried
        )
        name = face.name if entry.count == 1 else f"{face.name} {copy + 1}"
        profile_cards.append(Card(PROFILE, name, replace(face, name=name)))
        equipment_cards.extend(
            Card(EQUIPMENT, item.name, equipment_face(item, carried_by=name)) for item in equipment
        )
    return tuple(profile_cards), tuple(equipment_cards)


def _printed_entry(
    entry: RosterEntry, team: Roster, cards: Catalog, focus: EquipmentCard | None
) -> _PrintedEntry:
    """One entry; a profile missing from the catalogue gets its sheet line and no cards."""
    profile = cards.profiles.get(entry.profile)
    items = [cards.items.get(slug) for slug in entry.items]
    # Only a leader carries the Respawn-Fokus, and gets it free.
    leader_focus = focus if profile is not None and profile.rank is Rank.LEADER else None
    sheet_items = _sheet_items(entry.items, items, leader_focus)
    mercenary = profile is not None and team.faction not in profile.factions
    factions = (
        tuple(f.name if (f := cards.faction(s)) else s for s in profile.factions) if profile else ()
    )
    fighter = _sheet_fighter(
        nickname=entry.name,
        slug=entry.profile,
        profile=profile,
        items=_grouped(sheet_items),
        count=entry.count,
        factions=factions,
        mercenary=mercenary,
    )
    if profile is None:
        return _PrintedEntry(fighter)
    bought = tuple(item for item in items if item is not None)
    equipment = bought if leader_focus is None else (leader_focus, *bought)
    profile_cards, equipment_cards = _model_cards(
        entry,
        profile,
        cards,
        mercenary=mercenary,
        carried=_counted(item.name for item in sheet_items),
        equipment=equipment,
    )
    return _PrintedEntry(fighter, profile_cards, equipment_cards)


def _roster_sheet(
    team: Roster, cards: Catalog, fighters: tuple[SheetFighter, ...], *, last_man_standing: bool
) -> RosterSheet:
    summary = totals(team, cards, last_man_standing=last_man_standing)
    return RosterSheet(
        faction=(f.name if (f := cards.faction(team.faction)) else team.faction),
        game_size=team.game_size,
        last_man_standing=last_man_standing,
        fighters=fighters,
        ranks=tuple(SheetRank(RANK_LABELS[c.rank], c.have, c.need) for c in summary.ranks),
        arp_pool=summary.arp_pool,
        arp_spent=summary.arp_spent,
        arp_left=summary.arp_left,
        command_points=summary.command_points,
        harmony_bonus=summary.harmony_bonus,
        mercenaries=summary.mercenaries,
        mercenaries_allowed=summary.mercenaries_allowed,
        issues=tuple(
            roster_issue(issue)
            for issue in validate_roster(team, cards, last_man_standing=last_man_standing)
        ),
    )


class DeathmatchCardLayouts:
    def roster_print(self, roster: RosterInput, catalog: CatalogData) -> RosterPrint:
        cards = deathmatch_catalog(catalog)
        team = deathmatch_roster(roster)
        lms = roster.settings.get("last_man_standing") is True
        focus = _respawn_focus(cards)
        printed = [_printed_entry(entry, team, cards, focus) for entry in team.entries]
        # All profile cards first, then all equipment cards, each in roster order.
        return RosterPrint(
            cards=(
                *(card for entry in printed for card in entry.profile_cards),
                *(card for entry in printed for card in entry.equipment_cards),
            ),
            sheet=_roster_sheet(
                team, cards, tuple(entry.fighter for entry in printed), last_man_standing=lms
            ),
        )

    def blank_cards(self) -> tuple[Card, ...]:
        return (
            Card(BLANK_PROFILE, gettext_noop("Blank profile card"), BlankFace(BLANK_LP_BOXES)),
            Card(BLANK_EQUIPMENT, gettext_noop("Blank equipment card"), BlankFace(0)),
        )

    def split(self, card: Card) -> tuple[Card, Card] | None:
        face = card.face
        head: ProfileFace | EquipmentFace
        tail: ProfileFace | EquipmentFace
        if isinstance(face, ProfileFace):
            halves = _split_abilities(face.abilities)
            if halves is None:
                return None
            first, rest = halves
            head = replace(face, abilities=first, continues=True)
            tail = replace(face, abilities=rest, continuation=True, continues=face.continues)
        elif isinstance(face, EquipmentFace):
            texts = _split_text(face.text)
            if texts is None:
                return None
            # The first part carries the start of the text; the rest of the card follows it.
            head = replace(
                face,
                text=texts[0],
                continues=True,
                special_action=None,
                weapon=None,
                usage_limit="",
            )
            tail = replace(face, text=texts[1], continuation=True)
        else:
            return None
        return (
            replace(card, face=head),
            replace(card, face=tail, part=card.part + 1),
        )


@dataclass(frozen=True)
class BlankFace:
    """An empty card: lines to write on, ``lp_boxes`` boxes for the LP track."""

    lp: int

    @property
    def lp_boxes(self) -> str:
        return LP_BOX * self.lp

    @property
    def weapon_rows(self) -> range:
        return range(BLANK_WEAPON_ROWS)


def _split_text(text: str) -> tuple[str, str] | None:
    """``text`` cut in two at the word boundary nearest its middle; None for a single word."""
    middle = len(text) // 2
    before, after = text.rfind(" ", 0, middle + 1), text.find(" ", middle)
    cuts = [cut for cut in (before, after) if cut > 0]
    if not cuts:
        return None
    cut = min(cuts, key=lambda c: abs(c - middle))
    return text[:cut].rstrip(), text[cut:].lstrip()


def _split_abilities(
    abilities: tuple[AbilityLine, ...],
) -> tuple[tuple[AbilityLine, ...], tuple[AbilityLine, ...]] | None:
    """Half the abilities on each card, or one long ability's text cut in two."""
    if len(abilities) > 1:
        middle = len(abilities) // 2
        return abilities[:middle], abilities[middle:]
    if len(abilities) == 1:
        ability = abilities[0]
        texts = _split_text(ability.text)
        if texts is None:
            return None
        return (
            (replace(ability, text=texts[0]),),
            (replace(ability, text=texts[1], continued=True),),
        )
    return None
