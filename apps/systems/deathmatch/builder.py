"""What the Deathmatch team builder shows: counters, fighters, and every option with the reason
it is disabled. Pure: the page renders this, the rules computed it."""

from __future__ import annotations

from dataclasses import dataclass

from apps.systems.core.i18n import gettext_noop
from apps.systems.core.rosters import RosterIssue
from apps.systems.deathmatch.catalog import (
    RANK_ORDER,
    Catalog,
    EquipmentCard,
    FighterProfile,
    Rank,
    Weapon,
    WeaponKind,
)
from apps.systems.deathmatch.roster import (
    FighterOption,
    Issue,
    Roster,
    RosterEntry,
    Totals,
    fighter_options,
    item_options,
    totals,
    validate_roster,
)

RANK_LABELS = {
    Rank.LEADER: gettext_noop("Leader"),
    Rank.TROOPER: gettext_noop("Trooper"),
    Rank.SPECIALIST: gettext_noop("Specialist"),
}
RANK_GROUP_LABELS = {
    Rank.LEADER: gettext_noop("Leader"),
    Rank.TROOPER: gettext_noop("Troopers"),
    Rank.SPECIALIST: gettext_noop("Specialists"),
}
RESPAWN_FOCUS_LABEL = gettext_noop("Respawn-Fokus (leader)")
KNIFE_LABEL = gettext_noop('Kampfmesser (combat knife: RW 0", NK 1, ⬠⬠, S 0)')


@dataclass(frozen=True)
class WeaponView:
    name: str
    kind_symbol: str
    range_inches: int
    combat_label: str
    bonus_cards: int
    strength: int
    special_rules: tuple[str, ...]


@dataclass(frozen=True)
class OptionView:
    slug: str
    name: str
    detail: str
    allowed: bool
    reason: RosterIssue | None = None
    sample: bool = False
    hero: bool = False


@dataclass(frozen=True)
class ItemView:
    slug: str
    name: str
    cost: int
    kind: str
    sample: bool


@dataclass(frozen=True)
class AbilityView:
    name: str
    text: str


@dataclass(frozen=True)
class FighterView:
    index: int
    display_name: str
    profile_name: str
    rank_label: str
    count: int
    mercenary: bool
    hero: bool
    mech: bool
    sample: bool
    faction_names: tuple[str, ...]
    arp: int
    command: int
    reflex: int
    resistance: int
    lp: int
    move_inches: int
    weapons: tuple[WeaponView, ...]
    abilities: tuple[AbilityView, ...]
    items: tuple[ItemView, ...]
    free_items: tuple[str, ...]
    item_options: tuple[OptionView, ...]
    issues: tuple[RosterIssue, ...]

    @property
    def can_buy(self) -> bool:
        return any(option.allowed for option in self.item_options)


@dataclass(frozen=True)
class RankView:
    rank: str
    label: str
    have: int
    need: int


@dataclass(frozen=True)
class RankGroup:
    rank: str
    label: str
    have: int
    need: int
    options: tuple[OptionView, ...]


@dataclass(frozen=True)
class TotalsView:
    arp_pool: int
    arp_spent: int
    arp_left: int
    command_points: int
    harmony_bonus: int
    mercenaries: int
    mercenaries_allowed: int
    ranks: tuple[RankView, ...]


@dataclass(frozen=True)
class BuilderView:
    totals: TotalsView
    issues: tuple[RosterIssue, ...]
    fighters: tuple[FighterView, ...]
    rank_groups: tuple[RankGroup, ...]
    mercenary_options: tuple[OptionView, ...]
    # Other factions' leaders can never be Söldner; listed apart so the list stays short.
    foreign_leaders: tuple[OptionView, ...]

    @property
    def entries(self) -> tuple[FighterView, ...]:
        """One view per roster entry (``core.rosters.BuilderView``)."""
        return self.fighters

    @property
    def panel(self) -> tuple[object, ...]:
        """What the "add fighters" panel shows (the page caches it by this)."""
        return (self.rank_groups, self.mercenary_options, self.foreign_leaders)


def roster_issue(issue: Issue) -> RosterIssue:
    """A Deathmatch issue in the shape every system reports (``apps.systems.core.rosters``)."""
    return RosterIssue(
        code=issue.code, template=issue.template, params=issue.params, entry=issue.entry
    )


def _issue(issue: Issue | None) -> RosterIssue | None:
    return None if issue is None else roster_issue(issue)


def _weapon(weapon: Weapon) -> WeaponView:
    return WeaponView(
        name=weapon.name,
        kind_symbol=weapon.symbol,
        range_inches=weapon.range_inches,
        combat_label=f"{weapon.combat_label} {weapon.combat_value}",
        bonus_cards=weapon.bonus_cards,
        strength=weapon.strength,
        special_rules=weapon.special_rules,
    )


def _item_view(card: EquipmentCard) -> ItemView:
    return ItemView(
        slug=card.slug, name=card.name, cost=card.cost, kind=card.kind.value, sample=card.sample
    )


def _item_option_views(
    roster: Roster, catalog: Catalog, index: int, *, last_man_standing: bool
) -> tuple[OptionView, ...]:
    """Every card the fighter could buy, disabled with the reason where the rules refuse it."""
    return tuple(
        OptionView(
            slug=option.item,
            name=catalog.items[option.item].name,
            detail=f"{catalog.items[option.item].cost} ARP",
            allowed=option.allowed,
            reason=_issue(option.reason),
            sample=catalog.items[option.item].sample,
        )
        for option in item_options(roster, catalog, index, last_man_standing=last_man_standing)
    )


def _bought_items(slugs: tuple[str, ...], catalog: Catalog) -> tuple[ItemView, ...]:
    """The fighter's cards; one no longer in the catalogue is shown by its slug, free."""
    return tuple(
        _item_view(catalog.items[slug])
        if slug in catalog.items
        else ItemView(slug=slug, name=slug, cost=0, kind="", sample=False)
        for slug in slugs
    )


def _free_items(profile: FighterProfile) -> tuple[str, ...]:
    """What every such fighter carries without paying: a leader's Respawn-Fokus, and a combat
    knife for anyone without a melee weapon."""
    free = []
    if profile.rank is Rank.LEADER:
        free.append(RESPAWN_FOCUS_LABEL)
    if not any(weapon.kind is WeaponKind.MELEE for weapon in profile.weapons):
        free.append(KNIFE_LABEL)
    return tuple(free)


def _unknown_fighter(
    index: int,
    entry: RosterEntry,
    items: tuple[ItemView, ...],
    options: tuple[OptionView, ...],
    issues: tuple[RosterIssue, ...],
) -> FighterView:
    """A fighter whose profile is not in the catalogue: named by its slug, no values, so that
    its owner can still see and remove it."""
    return FighterView(
        index=index,
        display_name=entry.name or entry.profile,
        profile_name=entry.profile,
        rank_label="",
        count=entry.count,
        mercenary=False,
        hero=False,
        mech=False,
        sample=False,
        faction_names=(),
        arp=0,
        command=0,
        reflex=0,
        resistance=0,
        lp=0,
        move_inches=0,
        weapons=(),
        abilities=(),
        items=items,
        free_items=(),
        item_options=options,
        issues=issues,
    )


def _fighter(
    index: int,
    roster: Roster,
    catalog: Catalog,
    issues: tuple[RosterIssue, ...],
    *,
    last_man_standing: bool,
) -> FighterView:
    entry = roster.entries[index]
    profile: FighterProfile | None = catalog.profiles.get(entry.profile)
    options = _item_option_views(roster, catalog, index, last_man_standing=last_man_standing)
    items = _bought_items(entry.items, catalog)
    own_issues = tuple(issue for issue in issues if issue.entry == index)
    if profile is None:
        return _unknown_fighter(index, entry, items, options, own_issues)
    faction_names = tuple(
        faction.name if (faction := catalog.faction(slug)) else slug for slug in profile.factions
    )
    return FighterView(
        index=index,
        display_name=entry.name or profile.name,
        profile_name=profile.name,
        rank_label=RANK_LABELS[profile.rank],
        count=entry.count,
        mercenary=roster.faction not in profile.factions,
        hero=profile.hero,
        mech=profile.mech,
        sample=profile.sample,
        faction_names=faction_names,
        arp=profile.arp,
        command=profile.command,
        reflex=profile.reflex,
        resistance=profile.resistance,
        lp=profile.lp,
        move_inches=profile.move_inches,
        weapons=tuple(_weapon(weapon) for weapon in profile.weapons),
        abilities=tuple(AbilityView(a.name, a.text) for a in profile.abilities),
        items=items,
        free_items=_free_items(profile),
        item_options=options,
        issues=own_issues,
    )


def _profile_detail(profile: FighterProfile, *, mercenary: bool, catalog: Catalog) -> str:
    parts = [f"ARP {profile.arp}", f"◆ {profile.command}", f"LP {profile.lp}"]
    if mercenary:
        names = [f.name if (f := catalog.faction(s)) else s for s in profile.factions]
        parts.append(" / ".join(names))
    return " · ".join(parts)


def _rank_groups(
    options: tuple[FighterOption, ...], summary: Totals, catalog: Catalog
) -> tuple[RankGroup, ...]:
    """The faction's own fighters to add, by rank, with how many the team has and needs."""
    have_need = {count.rank: count for count in summary.ranks}
    groups = []
    for rank in RANK_ORDER:
        group_options = tuple(
            _option(option.profile, option.allowed, option.reason, catalog, mercenary=False)
            for option in options
            if not option.mercenary and catalog.profiles[option.profile].rank is rank
        )
        count = have_need[rank]
        groups.append(
            RankGroup(
                rank=rank.value,
                label=RANK_GROUP_LABELS[rank],
                have=count.have,
                need=count.need,
                options=group_options,
            )
        )
    return tuple(groups)


def _mercenary_options(
    options: tuple[FighterOption, ...], catalog: Catalog, *, leaders: bool
) -> tuple[OptionView, ...]:
    """Other factions' fighters: the leaders (``leaders``) or everyone else."""
    return tuple(
        _option(option.profile, option.allowed, option.reason, catalog, mercenary=True)
        for option in options
        if option.mercenary and (catalog.profiles[option.profile].rank is Rank.LEADER) == leaders
    )


def _totals_view(summary: Totals) -> TotalsView:
    return TotalsView(
        arp_pool=summary.arp_pool,
        arp_spent=summary.arp_spent,
        arp_left=summary.arp_left,
        command_points=summary.command_points,
        harmony_bonus=summary.harmony_bonus,
        mercenaries=summary.mercenaries,
        mercenaries_allowed=summary.mercenaries_allowed,
        ranks=tuple(
            RankView(rank=c.rank.value, label=RANK_GROUP_LABELS[c.rank], have=c.have, need=c.need)
            for c in summary.ranks
        ),
    )


def builder_view(
    roster: Roster, catalog: Catalog, *, last_man_standing: bool = False
) -> BuilderView:
    """Everything the builder page shows for a roster, computed by the rules."""
    issues = tuple(
        issue
        for issue in map(
            _issue, validate_roster(roster, catalog, last_man_standing=last_man_standing)
        )
        if issue is not None
    )
    summary = totals(roster, catalog, last_man_standing=last_man_standing)
    options = fighter_options(roster, catalog)
    return BuilderView(
        totals=_totals_view(summary),
        issues=issues,
        fighters=tuple(
            _fighter(index, roster, catalog, issues, last_man_standing=last_man_standing)
            for index in range(len(roster.entries))
        ),
        rank_groups=_rank_groups(options, summary, catalog),
        mercenary_options=_mercenary_options(options, catalog, leaders=False),
        foreign_leaders=_mercenary_options(options, catalog, leaders=True),
    )


def _option(
    slug: str, allowed: bool, reason: Issue | None, catalog: Catalog, *, mercenary: bool
) -> OptionView:
    profile = catalog.profiles[slug]
    return OptionView(
        slug=slug,
        name=profile.name,
        detail=_profile_detail(profile, mercenary=mercenary, catalog=catalog),
        allowed=allowed,
        reason=_issue(reason),
        sample=profile.sample,
        hero=profile.hero,
    )
