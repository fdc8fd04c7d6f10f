"""What the Stahlgewitter army builder shows: totals against the points limit and the game
type's range, the army's units (a head entry with the entries attached to it), each model line
with its grade, printed values, PW and B as worn (the armour's movement reduction shown), its
weapons with FKW/NKW/range, and every option with the reason it is disabled. Pure: the page
renders this, the rules computed it."""

from __future__ import annotations

from dataclasses import dataclass

from apps.systems.core.i18n import gettext_noop
from apps.systems.core.rosters import RosterInput, RosterIssue
from apps.systems.stahlgewitter.catalog import Catalog, loadout
from apps.systems.stahlgewitter.catalog_types import (
    Armour,
    Equipment,
    GameType,
    Item,
    Profile,
    Variant,
    Weapon,
)
from apps.systems.stahlgewitter.roster import (
    Totals,
    attach_valid,
    entry_cost,
    game_type_of,
    model_cost,
    totals,
    unit_of,
    units,
    validate_roster,
)

KIND_LABELS = {
    "weapon": gettext_noop("Weapons"),
    "armour": gettext_noop("Armour"),
    "variant": gettext_noop("Variants"),
    "equipment": gettext_noop("Equipment"),
    "game_type": gettext_noop("Game type"),
}
ITEM_KIND_LABELS = {
    "weapon": gettext_noop("weapon"),
    "armour": gettext_noop("armour"),
    "variant": gettext_noop("variant"),
    "equipment": gettext_noop("equipment"),
    "game_type": gettext_noop("game type"),
    "": gettext_noop("unknown item"),
}
GRADE_LABELS = {
    "regular": gettext_noop("regular"),
    "V": gettext_noop("V (veteran)"),
    "E": gettext_noop("E (elite)"),
}


def _value(value: int | None) -> str:
    return "-" if value is None else str(value)


@dataclass(frozen=True)
class WeaponView:
    """A weapon as the model fights with it (variants applied to melee weapons)."""

    name: str
    fkw: str
    nkw: str
    range: str
    burst: int
    burst_range: str
    notes: tuple[str, ...]
    special: str


def weapon_view(weapon: Weapon, stk: int) -> WeaponView:
    notes: list[str] = []
    if weapon.fkw_decided:
        notes.append(gettext_noop("FKW decided (printed “?”)"))
    if not weapon.move_and_fight:
        notes.append(gettext_noop("no moving and fighting"))
    if weapon.armour_breaker:
        notes.append("Panzerknacker" + (f" ({weapon.breaker_note})" if weapon.breaker_note else ""))
    full = weapon.range_for(stk)
    shown = "-" if not weapon.ranged else ("unbegrenzt" if full is None else f"{full} cm")
    burst_range = weapon.burst_range_for(stk)
    return WeaponView(
        name=weapon.name,
        fkw=_value(weapon.fkw),
        nkw=_value(weapon.nkw),
        range=shown,
        burst=weapon.burst,
        burst_range=""
        if not weapon.burst
        else ("unbegrenzt" if burst_range is None else f"{burst_range} cm"),
        notes=tuple(notes),
        special=weapon.special,
    )


def item_detail(item: Item) -> str:
    """One line of an item's values, as printed."""
    if isinstance(item, Armour):
        return f"PW {item.pw} · B −{item.b_reduction} · {item.cost} P"
    if isinstance(item, Weapon):
        return (
            f"{item.range_label()} · FKW {_value(item.fkw)} · NKW {_value(item.nkw)}"
            + (f" · {item.burst}×" if item.burst else "")
            + f" · {item.cost} P"
        )
    if isinstance(item, Variant):
        return f"NKW +{item.nkw_bonus} · {item.cost} P"
    if isinstance(item, Equipment):
        return f"{item.cost} P"
    return f"{item.min_points}-{item.max_points} P"


@dataclass(frozen=True)
class ItemView:
    """An item an entry carries (the generic builder pairs these with the roster's item rows)."""

    slug: str
    name: str
    kind: str
    detail: str
    text: str
    sample: bool
    # Per model; the page shows only this for a weapon, whose values its weapons table shows.
    cost: int = 0

    @property
    def kind_label(self) -> str:
        return ITEM_KIND_LABELS[self.kind]


@dataclass(frozen=True)
class OptionView:
    slug: str
    name: str
    detail: str
    allowed: bool = True
    reason: str = ""
    sample: bool = False


@dataclass(frozen=True)
class OptionGroup:
    label: str
    options: tuple[OptionView, ...]


@dataclass(frozen=True)
class ModelView:
    """A profile's line as the model is equipped: printed values, PW and B as worn."""

    list: str
    type: str
    grade: str
    grade_label: str
    leader: bool
    b: int
    pw: int
    base_pw: int
    tp: int
    stk: int
    ges: int
    wik: int
    printed_b: int
    printed_pw: int
    armour: str
    reduction: int
    standard_armour: bool
    skills: tuple[str, ...]
    points: int
    provisional: bool
    sample: bool


@dataclass(frozen=True)
class EntryView:
    """One entry: ``count`` models of one profile with the same items."""

    display_name: str
    profile_name: str
    known: bool
    model: ModelView | None
    weapons: tuple[WeaponView, ...]
    items: tuple[ItemView, ...]
    item_groups: tuple[OptionGroup, ...]
    count: int
    cost: int
    head: bool
    unit_head: int
    unit_name: str
    unit_targets: tuple[int, ...]
    unit_reason: str
    issues: tuple[RosterIssue, ...]


@dataclass(frozen=True)
class UnitView:
    head: int
    name: str
    entries: tuple[int, ...]
    models: int
    points: int
    leaders: int


@dataclass(frozen=True)
class PanelList:
    name: str
    options: tuple[OptionView, ...]


@dataclass(frozen=True)
class Panel:
    """The "add models" panel: the faction's printed lists, leaders first; a faction without a
    printed list names the factions that have one."""

    lists: tuple[PanelList, ...]
    no_army_list: bool
    factions_with_lists: tuple[str, ...]


@dataclass(frozen=True)
class BuilderView:
    """``unit_groups``, not ``units``: a view with ``units`` is an outside army's
    (``core.rosters.ArmyBuilderView``)."""

    totals: Totals
    issues: tuple[RosterIssue, ...]
    fighters: tuple[EntryView, ...]
    unit_groups: tuple[UnitView, ...]
    game_type: GameType | None
    panel: Panel

    @property
    def entries(self) -> tuple[EntryView, ...]:
        """One view per roster entry (``core.rosters.BuilderView``)."""
        return self.fighters


def model_view(profile: Profile, worn: Armour | None, catalog: Catalog, points: int) -> ModelView:
    values = catalog.values(profile, worn)
    return ModelView(
        list=profile.list,
        type=profile.type,
        grade=profile.grade_label,
        grade_label=GRADE_LABELS[profile.grade.value],
        leader=profile.leader,
        b=values.b,
        pw=values.pw,
        base_pw=values.base_pw,
        tp=profile.tp,
        stk=profile.stk,
        ges=profile.ges,
        wik=profile.wik,
        printed_b=profile.b,
        printed_pw=profile.pw,
        armour=values.armour.name,
        reduction=values.reduction,
        standard_armour=worn is None or worn.slug == values.standard.slug,
        skills=profile.skill_names,
        points=points,
        provisional=profile.provisional,
        sample=profile.sample,
    )


def _item_view(slug: str, catalog: Catalog) -> ItemView:
    item = catalog.item(slug)
    if item is None:
        return ItemView(slug=slug, name=slug, kind="", detail="", text="", sample=False)
    kind = {
        Armour: "armour",
        Weapon: "weapon",
        Variant: "variant",
        Equipment: "equipment",
        GameType: "game_type",
    }[type(item)]
    text = (
        item.special
        if isinstance(item, Weapon)
        else (item.text if isinstance(item, Equipment) else "")
    )
    return ItemView(
        slug=slug,
        name=item.name,
        kind=kind,
        detail=item_detail(item),
        text=text,
        sample=item.sample,
        cost=0 if isinstance(item, GameType) else item.cost,
    )


def _item_groups(
    profile: Profile | None, items: tuple[str, ...], catalog: Catalog
) -> tuple[OptionGroup, ...]:
    """Everything a model may carry, by kind, each with why it cannot be added, if so."""
    if profile is None:
        return ()
    gear = loadout(items, catalog)
    carried = set(items)
    has_melee = any(w.melee for w in gear.weapons)

    def weapon(w: Weapon) -> OptionView:
        return OptionView(w.slug, w.name, item_detail(w), sample=w.sample)

    def armour(a: Armour) -> OptionView:
        reason = ""
        if gear.armours:
            reason = gettext_noop("The model wears an armour already; remove it first.")
        values = catalog.values(profile, a)
        detail = (
            f"PW {values.pw} · B {values.b} · {a.cost - catalog.standard_armour(profile).cost:+d} P"
        )
        return OptionView(a.slug, a.name, detail, not reason, reason, a.sample)

    def variant(v: Variant) -> OptionView:
        reason = ""
        if v.slug in carried:
            reason = gettext_noop("The model has this variant already.")
        elif not has_melee:
            reason = gettext_noop("Choose a melee weapon first.")
        return OptionView(v.slug, v.name, item_detail(v), not reason, reason, v.sample)

    def equipment(e: Equipment) -> OptionView:
        reason = gettext_noop("The model carries this already.") if e.slug in carried else ""
        return OptionView(e.slug, e.name, item_detail(e), not reason, reason, e.sample)

    return (
        OptionGroup(KIND_LABELS["weapon"], tuple(weapon(w) for w in catalog.weapons.values())),
        OptionGroup(KIND_LABELS["armour"], tuple(armour(a) for a in catalog.armours.values())),
        OptionGroup(KIND_LABELS["variant"], tuple(variant(v) for v in catalog.variants.values())),
        OptionGroup(
            KIND_LABELS["equipment"], tuple(equipment(e) for e in catalog.equipment.values())
        ),
    )


def _unit_targets(roster: RosterInput, index: int) -> tuple[tuple[int, ...], str]:
    """The units entry ``index`` could join (every other head), and why it cannot move, if so
    (an entry heading models of its own cannot join another unit)."""
    if any(e.attach_to == index for e in roster.entries):
        return (), gettext_noop("Other models have joined this unit; it cannot join another.")
    return tuple(t for t in range(len(roster.entries)) if attach_valid(roster, index, t)), ""


def _entry_view(
    index: int,
    roster: RosterInput,
    catalog: Catalog,
    names: list[str],
    issues: tuple[RosterIssue, ...],
) -> EntryView:
    entry = roster.entries[index]
    profile = catalog.profiles.get(entry.profile)
    gear = loadout(entry.items, catalog)
    head = unit_of(roster, index)
    targets, reason = _unit_targets(roster, index)
    model = (
        model_view(profile, gear.armour, catalog, model_cost(profile, gear, catalog))
        if profile
        else None
    )
    return EntryView(
        display_name=names[index],
        profile_name=profile.name if profile else entry.profile,
        known=profile is not None,
        model=model,
        weapons=tuple(weapon_view(w, profile.stk) for w in gear.armed_weapons) if profile else (),
        items=tuple(_item_view(slug, catalog) for slug in entry.items),
        item_groups=_item_groups(profile, entry.items, catalog),
        count=entry.count,
        cost=entry_cost(entry, catalog),
        head=head == index,
        unit_head=head,
        unit_name=names[head],
        unit_targets=targets,
        unit_reason=reason,
        issues=tuple(issue for issue in issues if issue.entry == index),
    )


def _panel(roster: RosterInput, catalog: Catalog) -> Panel:
    profiles = catalog.faction_profiles(roster.faction)
    lists: dict[str, list[Profile]] = {}
    for profile in profiles:
        lists.setdefault(profile.list, []).append(profile)
    with_lists = tuple(
        sorted(name for slug, name in catalog.factions.items() if catalog.faction_profiles(slug))
    )
    return Panel(
        lists=tuple(
            PanelList(
                name=name,
                options=tuple(
                    OptionView(
                        slug=p.slug,
                        name=p.name,
                        detail=_profile_detail(p),
                        sample=p.sample,
                    )
                    for p in sorted(members, key=lambda p: (-p.rank_order, p.points))
                ),
            )
            for name, members in lists.items()
        ),
        no_army_list=roster.faction in catalog.factions and not profiles,
        factions_with_lists=with_lists,
    )


def _profile_detail(profile: Profile) -> str:
    values = (
        f"B {profile.b} · PW {profile.pw} · TP {profile.tp} · STK {profile.stk} · "
        f"GES {profile.ges} · WIK {profile.wik}"
    )
    skills = ", ".join(profile.skill_names)
    return f"{values}{' · ' + skills if skills else ''} · {profile.points} P"


def _leads(fighter: EntryView) -> bool:
    return fighter.model is not None and fighter.model.leader


def builder_view(roster: RosterInput, catalog: Catalog) -> BuilderView:
    issues = tuple(validate_roster(roster, catalog))
    names = [
        entry.name
        or (catalog.profiles[entry.profile].name if entry.profile in catalog.profiles else "?")
        for entry in roster.entries
    ]
    fighters = tuple(
        _entry_view(index, roster, catalog, names, issues) for index in range(len(roster.entries))
    )
    unit_views = tuple(
        UnitView(
            head=head,
            name=names[head],
            entries=members,
            models=sum(roster.entries[i].count for i in members if fighters[i].known),
            points=sum(fighters[i].cost for i in members),
            leaders=sum(roster.entries[i].count for i in members if _leads(fighters[i])),
        )
        for head, members in units(roster).items()
    )
    return BuilderView(
        totals=totals(roster, catalog),
        issues=issues,
        fighters=fighters,
        unit_groups=unit_views,
        game_type=game_type_of(roster, catalog),
        panel=_panel(roster, catalog),
    )
