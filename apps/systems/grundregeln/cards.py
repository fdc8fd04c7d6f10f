"""Grundregeln's printed cards: a profile card per model of a roster (size, B, LP track, morale
value and dice, defence dice, weapons with attack dice, abilities and items), a one-page roster
sheet, and a blank profile card for organisers.

Pure data: what goes on each card. The Django templates ``cards/grundregeln/<template>.html``
draw it. Labels are English msgids marked with ``gettext_noop``; names and rule texts come from
the catalogue and are printed as they are.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Final

from apps.systems.core.cards import Card, RosterPrint
from apps.systems.core.i18n import gettext_noop
from apps.systems.core.rosters import CatalogData, RosterInput, RosterIssue
from apps.systems.grundregeln.catalog import Catalog, Item, ItemKind, Profile, Reload, Weapon
from apps.systems.grundregeln.system import grundregeln_catalog, totals, validate

PROFILE: Final = "profile"
BLANK_PROFILE: Final = "blank_profile"
LP_BOX: Final = "☐"
BLANK_LP_BOXES: Final = 10
BLANK_WEAPON_ROWS: Final = 3
RELOAD_LABELS: Final[Mapping[Reload, str]] = {
    Reload.NONE: "",
    # Rule terms of the rulebook: printed in German in every language.
    Reload.FAST: "Schnelles Nachladen",
    Reload.SLOW: "Langsames Nachladen",
}
REROLL_LABELS: Final[Mapping[str, str]] = {
    "attack": gettext_noop("attack"),
    "defence": gettext_noop("defence"),
    "morale": gettext_noop("morale"),
    "movement": gettext_noop("movement"),
}


@dataclass(frozen=True)
class WeaponLine:
    name: str
    kind: str  # NK or FK
    attack_dice: int
    range_inches: int
    reload: str


@dataclass(frozen=True)
class AbilityLine:
    name: str
    text: str
    continued: bool = False  # the text goes on from the previous card


@dataclass(frozen=True)
class ProfileFace:
    """A model's profile card; a continuation card repeats the header and carries the
    abilities that did not fit on the first one."""

    name: str
    profile_name: str
    faction: str
    size: str
    move: int
    lp: int
    morale: int
    morale_dice: int
    defence_dice: int
    points: int
    weapons: tuple[WeaponLine, ...]
    abilities: tuple[AbilityLine, ...]
    reroll_ones: tuple[str, ...]
    items: tuple[str, ...]
    sample: bool
    version: str
    continuation: bool = False
    continues: bool = False

    @property
    def lp_boxes(self) -> str:
        return LP_BOX * self.lp


@dataclass(frozen=True)
class SheetModel:
    name: str
    profile_name: str
    count: int
    known: bool
    size: str
    move: int
    lp: int
    morale: int
    morale_dice: int
    defence_dice: int
    points: int
    weapons: tuple[str, ...]
    items: tuple[str, ...]


@dataclass(frozen=True)
class RosterSheet:
    faction: str
    points: int
    points_limit: int | None
    models: int
    lines: tuple[SheetModel, ...]
    issues: tuple[RosterIssue, ...]

    @property
    def legal(self) -> bool:
        return not self.issues


@dataclass(frozen=True)
class BlankFace:
    lp: int

    @property
    def lp_boxes(self) -> str:
        return LP_BOX * self.lp

    @property
    def weapon_rows(self) -> range:
        return range(BLANK_WEAPON_ROWS)


def weapon_line(weapon: Weapon) -> WeaponLine:
    return WeaponLine(
        name=weapon.name,
        kind="NK" if weapon.melee else "FK",
        attack_dice=weapon.attack_dice,
        range_inches=weapon.range_inches,
        reload=RELOAD_LABELS[weapon.reload],
    )


def profile_face(
    profile: Profile, catalog: Catalog, *, nickname: str = "", items: tuple[Item, ...] = ()
) -> ProfileFace:
    """The card of ``profile`` as a model carrying ``items`` (their weapons and armour join
    its own)."""
    faction = next((catalog.factions.get(s, s) for s in profile.factions), "")
    return ProfileFace(
        name=nickname or profile.name,
        profile_name=profile.name if nickname else "",
        faction=faction,
        size=profile.size.value,
        move=profile.move,
        lp=profile.lp,
        morale=profile.morale,
        morale_dice=profile.morale_dice,
        defence_dice=profile.defence_dice + sum(item.defence_dice for item in items),
        points=profile.points + sum(item.cost for item in items),
        weapons=tuple(
            weapon_line(w)
            for w in (*profile.weapons, *(i.weapon for i in items if i.weapon is not None))
        ),
        abilities=tuple(AbilityLine(a.name, a.text) for a in profile.abilities),
        reroll_ones=tuple(REROLL_LABELS[kind.value] for kind in profile.reroll_ones),
        items=tuple(item.name for item in items if item.kind is ItemKind.GEAR),
        sample=profile.sample,
        version=f"v{profile.version}",
    )


def _sheet_model(
    nickname: str, slug: str, count: int, profile: Profile | None, items: tuple[Item, ...]
) -> SheetModel:
    if profile is None:
        return SheetModel(nickname or slug, "", count, False, "?", 0, 0, 0, 0, 0, 0, (), ())
    weapons = (*profile.weapons, *(i.weapon for i in items if i.weapon is not None))
    return SheetModel(
        name=nickname or profile.name,
        profile_name=profile.name if nickname else "",
        count=count,
        known=True,
        size=profile.size.value,
        move=profile.move,
        lp=profile.lp,
        morale=profile.morale,
        morale_dice=profile.morale_dice,
        defence_dice=profile.defence_dice + sum(item.defence_dice for item in items),
        points=(profile.points + sum(item.cost for item in items)) * count,
        weapons=tuple(
            f"{w.name} ({'NK' if w.melee else 'FK'} A{w.attack_dice}"
            + ("" if w.melee else f' {w.range_inches}"')
            + ")"
            for w in weapons
        ),
        items=tuple(item.name for item in items),
    )


def _split_text(text: str) -> tuple[str, str] | None:
    """``text`` cut in two at the word boundary nearest its middle; None for a single word."""
    middle = len(text) // 2
    before, after = text.rfind(" ", 0, middle + 1), text.find(" ", middle)
    cuts = [cut for cut in (before, after) if cut > 0]
    if not cuts:
        return None
    cut = min(cuts, key=lambda c: abs(c - middle))
    return text[:cut].rstrip(), text[cut:].lstrip()


class GrundregelnCardLayouts:
    def roster_print(self, roster: RosterInput, catalog: CatalogData) -> RosterPrint:
        cards = grundregeln_catalog(catalog)
        printed: list[Card] = []
        lines: list[SheetModel] = []
        for entry in roster.entries:
            profile = cards.profiles.get(entry.profile)
            items = tuple(cards.items[s] for s in entry.items if s in cards.items)
            lines.append(_sheet_model(entry.name, entry.profile, entry.count, profile, items))
            if profile is None:
                continue
            for copy in range(entry.count):
                face = profile_face(profile, cards, nickname=entry.name, items=items)
                name = face.name if entry.count == 1 else f"{face.name} {copy + 1}"
                printed.append(Card(PROFILE, name, replace(face, name=name)))
        team = totals(roster, cards)
        limit = team["points_limit"]
        sheet = RosterSheet(
            faction=cards.factions.get(roster.faction, roster.faction),
            points=int(str(team["points"])),
            points_limit=limit if isinstance(limit, int) else None,
            models=int(str(team["models"])),
            lines=tuple(lines),
            issues=tuple(validate(roster, cards)),
        )
        return RosterPrint(cards=tuple(printed), sheet=sheet)

    def blank_cards(self) -> tuple[Card, ...]:
        return (Card(BLANK_PROFILE, gettext_noop("Blank profile card"), BlankFace(BLANK_LP_BOXES)),)

    def split(self, card: Card) -> tuple[Card, Card] | None:
        face = card.face
        if not isinstance(face, ProfileFace):
            return None
        abilities = face.abilities
        if len(abilities) > 1:
            middle = len(abilities) // 2
            first, rest = abilities[:middle], abilities[middle:]
        elif len(abilities) == 1 and (texts := _split_text(abilities[0].text)) is not None:
            first = (replace(abilities[0], text=texts[0]),)
            rest = (replace(abilities[0], text=texts[1], continued=True),)
        else:
            return None
        head = replace(face, abilities=first, continues=True)
        tail = replace(face, abilities=rest, continuation=True, continues=face.continues)
        return replace(card, face=head), replace(card, face=tail, part=card.part + 1)
