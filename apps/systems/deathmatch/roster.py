"""Deathmatch team building (SPEC §1.2): the one roster validator, totals and builder options.

``validate_roster`` is what the builder, the API and the import all call. A roster may be saved
while illegal (a draft), so nothing here raises for a broken rule: every problem becomes an
``Issue`` naming the fighter and the rule, and all of them are listed. An ``Issue`` keeps its
English ``template`` (marked with ``gettext_noop``) and ``params`` apart so that the Django
layer can translate the template first and fill in the params afterwards.

An entry with ``count`` 2 stands for two identical fighters, each carrying the entry's items;
issues still point at the entry's index. The leader's Respawn-Fokus is implicit: it is never
listed in the entries and costs nothing.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final, NamedTuple

from apps.systems.core.errors import RuleViolation
from apps.systems.core.i18n import gettext_noop
from apps.systems.deathmatch.catalog import (
    RANK_ORDER,
    Catalog,
    EquipmentCard,
    FighterProfile,
    ItemKind,
    Rank,
)

GAME_SIZES: Final = (3, 5, 7)
# The rulebook's table (4. TEAMS ZUSAMMENSTELLEN): exact numbers per rank and game size.
RANK_NEEDS: Final[Mapping[int, Mapping[Rank, int]]] = {
    3: {Rank.LEADER: 1, Rank.TROOPER: 1, Rank.SPECIALIST: 1},
    5: {Rank.LEADER: 1, Rank.TROOPER: 2, Rank.SPECIALIST: 2},
    7: {Rank.LEADER: 1, Rank.TROOPER: 3, Rank.SPECIALIST: 3},
}
MERCENARIES_ALLOWED: Final[Mapping[int, int]] = {3: 1, 5: 2, 7: 3}
# No game size has more fighters, so a bigger count is a typo, not a team.
MAX_COUNT: Final = max(GAME_SIZES)

# Every issue code, with what it means. The first ten are the stable API codes (api.md).
ISSUE_CODES: Final[Mapping[str, str]] = {
    "rank_count": gettext_noop("A rank does not have the exact number the game size asks for."),
    "specialists_exceed_troopers": gettext_noop("More Specialists than Troopers."),
    "mercenary_limit": gettext_noop("More mercenaries than the game size allows."),
    "mercenary_leader": gettext_noop("A leader from another faction."),
    "hero_duplicate": gettext_noop("The same hero hired twice."),
    "hero_character_upgrade": gettext_noop("A hero with a character-upgrade card."),
    "arp_overspent": gettext_noop("Equipment costs more ARP than the team's pool."),
    "item_limit": gettext_noop("More copies of a card on one fighter than the card allows."),
    "unknown_profile": gettext_noop("An entry names a profile the catalogue does not have."),
    "unknown_item": gettext_noop("An entry names a card the catalogue does not have."),
    "unknown_faction": gettext_noop("The team's faction is not in the catalogue."),
    "game_size": gettext_noop("The game size is not 3, 5 or 7."),
    "count_invalid": gettext_noop("An entry's count is below 1 or above 7."),
    "respawn_focus_free": gettext_noop(
        "A free Respawn-Fokus card is listed; only the leader carries it, implicitly."
    ),
    "hero_mercenary": gettext_noop("A hero from another faction (heroes are never mercenaries)."),
}

_GAME_SIZE = gettext_noop("Game size: a team has 3, 5 or 7 fighters, not %(size)s.")
_UNKNOWN_FACTION = gettext_noop("Faction: the catalogue has no faction %(faction)s.")
_COUNT_INVALID = gettext_noop(
    "%(fighter)s: the number of such fighters must be 1 to %(maximum)s, not %(count)s."
)
_UNKNOWN_PROFILE = gettext_noop("%(fighter)s: the catalogue has no fighter profile %(profile)s.")
_UNKNOWN_ITEM = gettext_noop("%(fighter)s: the catalogue has no equipment card %(item)s.")
# Per rank and "needs exactly one", so that each sentence can be translated whole.
_RANK_COUNT: Final[Mapping[tuple[Rank, bool], str]] = {
    (Rank.LEADER, True): gettext_noop(
        "Rank count: the team needs exactly 1 Leader (Anführer) for game size %(size)s, "
        "it has %(have)s."
    ),
    (Rank.TROOPER, True): gettext_noop(
        "Rank count: the team needs exactly 1 Trooper for game size %(size)s, it has %(have)s."
    ),
    (Rank.TROOPER, False): gettext_noop(
        "Rank count: the team needs exactly %(need)s Troopers for game size %(size)s, "
        "it has %(have)s."
    ),
    (Rank.SPECIALIST, True): gettext_noop(
        "Rank count: the team needs exactly 1 Specialist (Spezialist) for game size %(size)s, "
        "it has %(have)s."
    ),
    (Rank.SPECIALIST, False): gettext_noop(
        "Rank count: the team needs exactly %(need)s Specialists (Spezialisten) for game size "
        "%(size)s, it has %(have)s."
    ),
}
_RANK_FULL: Final[Mapping[tuple[Rank, bool], str]] = {
    (Rank.LEADER, True): gettext_noop("Rank count: the team already has its Leader (Anführer)."),
    (Rank.TROOPER, True): gettext_noop(
        "Rank count: the team already has its 1 Trooper for game size %(size)s."
    ),
    (Rank.TROOPER, False): gettext_noop(
        "Rank count: the team already has all %(need)s Troopers for game size %(size)s."
    ),
    (Rank.SPECIALIST, True): gettext_noop(
        "Rank count: the team already has its 1 Specialist (Spezialist) for game size %(size)s."
    ),
    (Rank.SPECIALIST, False): gettext_noop(
        "Rank count: the team already has all %(need)s Specialists (Spezialisten) for game "
        "size %(size)s."
    ),
}
_SPECIALISTS_EXCEED_TROOPERS = gettext_noop(
    "Specialists: a team may never have more Specialists (Spezialisten) than Troopers "
    "(Specialists: %(specialists)s, Troopers: %(troopers)s)."
)
_MERCENARY_LIMIT = gettext_noop(
    "%(fighter)s is one Söldner (mercenary) too many: at most %(allowed)s for game size "
    "%(size)s, the team has %(have)s."
)
_MERCENARY_LIMIT_REACHED = gettext_noop(
    "%(fighter)s would be a Söldner (mercenary): the team already has %(have)s, the most "
    "game size %(size)s allows."
)
_MERCENARY_LEADER = gettext_noop(
    "%(fighter)s is a Söldner (mercenary) leader: only Troopers and Specialists may come from "
    "another faction."
)
_HERO_MERCENARY = gettext_noop(
    "%(fighter)s is a hero (Held) of another faction: heroes are never hired as Söldner "
    "(mercenaries)."
)
_HERO_DUPLICATE = gettext_noop(
    "%(fighter)s: the hero %(hero)s may be hired only once per team, and is already in it."
)
_HERO_CHARACTER_UPGRADE = gettext_noop(
    "%(fighter)s is a hero (Held) and may not take the character upgrade %(item)s."
)
_ARP_OVERSPENT = gettext_noop(
    "Equipment points: the equipment costs %(spent)s ARP, the team has only %(pool)s ARP."
)
_ARP_NOT_ENOUGH = gettext_noop(
    "Equipment points: %(item)s costs %(cost)s ARP for %(fighter)s, the team has %(left)s ARP left."
)
_ITEM_LIMIT = gettext_noop(
    "%(fighter)s carries %(have)s × %(item)s; the card allows at most %(limit)s per model."
)
_ITEM_LIMIT_REACHED = gettext_noop(
    "%(fighter)s already carries %(have)s × %(item)s, the most the card allows per model."
)
_RESPAWN_FOCUS_FREE = gettext_noop(
    "%(fighter)s: the %(item)s is not for sale; the leader carries one for free."
)


# The values filled into an issue's template.
Params = dict[str, str | int]


@dataclass(frozen=True)
class RosterEntry:
    """One line of a roster: ``count`` identical fighters of ``profile``, each with ``items``
    (card slugs, a card listed twice is carried twice) and the nickname ``name``."""

    profile: str
    items: tuple[str, ...] = ()
    name: str = ""
    count: int = 1


@dataclass(frozen=True)
class Roster:
    faction: str
    game_size: int
    entries: tuple[RosterEntry, ...]


@dataclass(frozen=True)
class Issue:
    """A broken rule. ``entry`` is the index of the entry concerned, None for the whole team."""

    code: str
    template: str
    params: Mapping[str, str | int]
    entry: int | None = None

    @property
    def message(self) -> str:
        """The English sentence; the Django layer translates ``template`` instead."""
        return self.template % dict(self.params)

    def as_dict(self) -> dict[str, object]:
        """The API's issue shape (api.md), in English."""
        return {"code": self.code, "message": self.message, "entry": self.entry}


class RankCount(NamedTuple):
    rank: Rank
    have: int
    need: int


class FighterCount(NamedTuple):
    have: int
    need: int


@dataclass(frozen=True)
class Totals:
    """What the builder shows beside the roster. ``arp_left`` is negative when overspent;
    the ``need`` values are 0 for a game size that does not exist."""

    arp_pool: int
    arp_spent: int
    arp_left: int
    command_points: int
    harmony_bonus: int
    mercenaries: int
    mercenaries_allowed: int
    ranks: tuple[RankCount, ...]
    fighters: FighterCount

    def as_dict(self) -> dict[str, object]:
        return {
            "arp_pool": self.arp_pool,
            "arp_spent": self.arp_spent,
            "arp_left": self.arp_left,
            "command_points": self.command_points,
            "harmony_bonus": self.harmony_bonus,
            "mercenaries": self.mercenaries,
            "mercenaries_allowed": self.mercenaries_allowed,
            "ranks": {
                count.rank.value: {"have": count.have, "need": count.need} for count in self.ranks
            },
            "fighters": {"have": self.fighters.have, "need": self.fighters.need},
        }


@dataclass(frozen=True)
class FighterOption:
    """A profile the builder can offer; when not ``allowed``, ``reason`` says which limit
    adding one more would break (the builder shows it disabled, not hidden)."""

    profile: str
    mercenary: bool
    allowed: bool
    reason: Issue | None = None


@dataclass(frozen=True)
class ItemOption:
    item: str
    allowed: bool
    reason: Issue | None = None


# --- The analysis shared by validation, totals and options -----------------------------------


@dataclass(frozen=True)
class _Entry:
    index: int
    entry: RosterEntry
    profile: FighterProfile | None
    # Fighters this entry stands for; a count below 1 stands for none.
    fighters: int
    mercenary: bool
    label: str


@dataclass(frozen=True)
class _Team:
    entries: tuple[_Entry, ...]
    faction_known: bool
    size_valid: bool
    needs: Mapping[Rank, int]
    mercenaries_allowed: int
    have: Mapping[Rank, int]
    mercenaries: int
    arp_spent: int


def _analyse(roster: Roster, catalog: Catalog) -> _Team:
    faction_known = roster.faction in catalog.faction_slugs()
    entries: list[_Entry] = []
    have: Counter[Rank] = Counter()
    mercenaries = 0
    arp_spent = 0
    for index, entry in enumerate(roster.entries):
        profile = catalog.profiles.get(entry.profile)
        fighters = max(entry.count, 0)
        mercenary = profile is not None and roster.faction not in profile.factions
        label = entry.name.strip() or (profile.name if profile is not None else entry.profile)
        entries.append(_Entry(index, entry, profile, fighters, mercenary, label))
        if profile is not None:
            have[profile.rank] += fighters
            mercenaries += fighters if mercenary else 0
        for slug in entry.items:
            item = catalog.items.get(slug)
            if item is not None:
                arp_spent += item.cost * fighters
    size_valid = roster.game_size in RANK_NEEDS
    return _Team(
        entries=tuple(entries),
        faction_known=faction_known,
        size_valid=size_valid,
        needs=RANK_NEEDS.get(roster.game_size, dict.fromkeys(RANK_ORDER, 0)),
        mercenaries_allowed=MERCENARIES_ALLOWED.get(roster.game_size, 0),
        have=have,
        mercenaries=mercenaries,
        arp_spent=arp_spent,
    )


def _arp_pool(team: _Team, *, last_man_standing: bool) -> int:
    pool = 0
    mechs = 0
    for entry in team.entries:
        if entry.profile is not None:
            pool += entry.profile.arp * entry.fighters
            mechs += entry.fighters if entry.profile.mech else 0
    if last_man_standing:
        # 0.5 ARP per Mech for the team, rounded up once (SPEC §1.2), not per fighter.
        pool += math.ceil(mechs / 2)
    return pool


# --- Validation ------------------------------------------------------------------------------


def validate_roster(
    roster: Roster, catalog: Catalog, *, last_man_standing: bool = False
) -> tuple[Issue, ...]:
    """Every broken team-building rule, team-wide issues first, then by entry, then by code.

    With ``last_man_standing`` the ARP pool includes that mode's Mech bonus. Rules that depend
    on what could not be resolved are skipped: an unknown profile or card, an unknown faction
    (no mercenary checks) or game size (no rank or mercenary counts).
    """
    team = _analyse(roster, catalog)
    issues = [
        *_team_issues(team, roster, last_man_standing=last_man_standing),
        *_fighter_issues(team, catalog, roster.game_size),
    ]
    # Stable: within one entry and code, the order of the checks above is kept.
    issues.sort(key=lambda issue: (issue.entry is not None, issue.entry or 0, issue.code))
    return tuple(issues)


def _team_issues(team: _Team, roster: Roster, *, last_man_standing: bool) -> list[Issue]:
    """The issues of the team as a whole: game size, faction, ranks and the ARP pool."""
    issues: list[Issue] = []
    size = roster.game_size
    if not team.size_valid:
        issues.append(Issue("game_size", _GAME_SIZE, {"size": size}))
    if not team.faction_known:
        issues.append(Issue("unknown_faction", _UNKNOWN_FACTION, {"faction": roster.faction}))
    if team.size_valid:
        for rank in RANK_ORDER:
            need, have = team.needs[rank], team.have[rank]
            if have != need:
                template = _RANK_COUNT[(rank, need == 1)]
                params: Params = {"need": need, "have": have, "size": size}
                issues.append(Issue("rank_count", template, params))
    troopers, specialists = team.have[Rank.TROOPER], team.have[Rank.SPECIALIST]
    if specialists > troopers:
        params = {"specialists": specialists, "troopers": troopers}
        issues.append(Issue("specialists_exceed_troopers", _SPECIALISTS_EXCEED_TROOPERS, params))
    pool = _arp_pool(team, last_man_standing=last_man_standing)
    if team.arp_spent > pool:
        params = {"spent": team.arp_spent, "pool": pool}
        issues.append(Issue("arp_overspent", _ARP_OVERSPENT, params))
    return issues


def _fighter_issues(team: _Team, catalog: Catalog, size: int) -> list[Issue]:
    """The issues of each entry, in roster order: its own, then the limits it breaks given the
    entries before it (the mercenary over the limit, the second copy of a hero)."""
    issues: list[Issue] = []
    mercenaries_seen = 0
    heroes_seen: set[str] = set()
    for entry in team.entries:
        issues.extend(_entry_issues(entry, catalog))
        profile = entry.profile
        if profile is None:
            continue
        if team.faction_known and entry.mercenary:
            mercenaries_seen += entry.fighters
            issues.extend(_mercenary_issues(team, entry, profile, mercenaries_seen, size))
        if profile.hero:
            if profile.slug in heroes_seen or entry.fighters > 1:
                params: Params = {"fighter": entry.label, "hero": profile.name}
                issues.append(Issue("hero_duplicate", _HERO_DUPLICATE, params, entry.index))
            heroes_seen.add(profile.slug)
    return issues


def _mercenary_issues(
    team: _Team, entry: _Entry, profile: FighterProfile, seen: int, size: int
) -> list[Issue]:
    """A Söldner may not lead, is never a hero ("Top-Stars und erfahrene Veteranen [bleiben]
    stets dem eigenen Team vorbehalten", SPEC §6), and may not take the team past its
    mercenaries (``seen`` counts this entry's and those before it)."""
    issues: list[Issue] = []
    fighter = entry.label
    if profile.rank is Rank.LEADER:
        issues.append(
            Issue("mercenary_leader", _MERCENARY_LEADER, {"fighter": fighter}, entry.index)
        )
    if profile.hero:
        issues.append(Issue("hero_mercenary", _HERO_MERCENARY, {"fighter": fighter}, entry.index))
    if team.size_valid and seen > team.mercenaries_allowed:
        params: Params = {
            "fighter": fighter,
            "allowed": team.mercenaries_allowed,
            "size": size,
            "have": team.mercenaries,
        }
        issues.append(Issue("mercenary_limit", _MERCENARY_LIMIT, params, entry.index))
    return issues


def _entry_issues(entry: _Entry, catalog: Catalog) -> list[Issue]:
    """The issues of one entry on its own: count, profile and cards."""
    issues: list[Issue] = []
    index, fighter = entry.index, entry.label
    if not 1 <= entry.entry.count <= MAX_COUNT:
        params: Params = {"fighter": fighter, "maximum": MAX_COUNT, "count": entry.entry.count}
        issues.append(Issue("count_invalid", _COUNT_INVALID, params, index))
    if entry.profile is None:
        params = {"fighter": fighter, "profile": entry.entry.profile}
        issues.append(Issue("unknown_profile", _UNKNOWN_PROFILE, params, index))
    carried = Counter(entry.entry.items)
    for slug, have in carried.items():
        item = catalog.items.get(slug)
        if item is None:
            params = {"fighter": fighter, "item": slug}
            issues.append(Issue("unknown_item", _UNKNOWN_ITEM, params, index))
            continue
        if _free_focus(item):
            params = {"fighter": fighter, "item": item.name}
            issues.append(Issue("respawn_focus_free", _RESPAWN_FOCUS_FREE, params, index))
        if item.character_upgrade and entry.profile is not None and entry.profile.hero:
            params = {"fighter": fighter, "item": item.name}
            issues.append(Issue("hero_character_upgrade", _HERO_CHARACTER_UPGRADE, params, index))
        if have > item.limit_per_model:
            params = {
                "fighter": fighter,
                "have": have,
                "item": item.name,
                "limit": item.limit_per_model,
            }
            issues.append(Issue("item_limit", _ITEM_LIMIT, params, index))
    return issues


def _free_focus(item: EquipmentCard) -> bool:
    # The leader's free Respawn-Fokus is implicit. Listing a free focus card would hand one
    # to any fighter at no cost, so only a focus card with a price can be bought.
    return item.kind is ItemKind.RESPAWN_FOCUS and item.cost == 0


# --- Totals ----------------------------------------------------------------------------------


def totals(roster: Roster, catalog: Catalog, *, last_man_standing: bool = False) -> Totals:
    """The numbers beside the roster. Unknown profiles and cards add nothing."""
    team = _analyse(roster, catalog)
    pool = _arp_pool(team, last_man_standing=last_man_standing)
    fighters = sum(entry.fighters for entry in team.entries)
    # Perfekte Harmonie: every fighter provably of the team's faction, and at least one.
    harmony = (
        fighters > 0
        and team.faction_known
        and all(
            entry.profile is not None and not entry.mercenary
            for entry in team.entries
            if entry.fighters
        )
    )
    harmony_bonus = 1 if harmony else 0
    command = sum(
        entry.profile.command * entry.fighters
        for entry in team.entries
        if entry.profile is not None
    )
    return Totals(
        arp_pool=pool,
        arp_spent=team.arp_spent,
        arp_left=pool - team.arp_spent,
        command_points=command + harmony_bonus,
        harmony_bonus=harmony_bonus,
        mercenaries=team.mercenaries,
        mercenaries_allowed=team.mercenaries_allowed,
        ranks=tuple(RankCount(rank, team.have[rank], team.needs[rank]) for rank in RANK_ORDER),
        fighters=FighterCount(fighters, roster.game_size if team.size_valid else 0),
    )


# --- Options for the builder -----------------------------------------------------------------


def fighter_options(roster: Roster, catalog: Catalog) -> tuple[FighterOption, ...]:
    """Every profile the team could hire, with why adding one more is refused, if it is.

    Listed: every profile of the team's faction, then every profile of other factions
    (mercenaries; their leaders and heroes are always refused), each group by rank and name.
    Only true limits refuse: a full rank, the mercenary limit, a hero already hired, a foreign
    leader or hero. "Never more Specialists than Troopers" is not a reason, because a
    Specialist picked before its Troopers is a fine draft and the Specialist rank is full at
    the Troopers' number.
    """
    team = _analyse(roster, catalog)
    heroes = {
        entry.profile.slug: entry.index
        for entry in reversed(team.entries)
        if entry.profile is not None and entry.profile.hero and entry.fighters
    }
    options: list[tuple[tuple[bool, int, str, str], FighterOption]] = []
    for profile in catalog.profiles.values():
        mercenary = roster.faction not in profile.factions
        reason = _fighter_refusal(team, roster, profile, heroes, mercenary=mercenary)
        option = FighterOption(profile.slug, mercenary, reason is None, reason)
        key = (mercenary, RANK_ORDER.index(profile.rank), profile.name.casefold(), profile.slug)
        options.append((key, option))
    options.sort(key=lambda pair: pair[0])
    return tuple(option for _, option in options)


def _fighter_refusal(
    team: _Team,
    roster: Roster,
    profile: FighterProfile,
    heroes: Mapping[str, int],
    *,
    mercenary: bool,
) -> Issue | None:
    """Why one more ``profile`` may not join the team, if it may not (``heroes``: the entry
    index of each hero hired)."""
    size = roster.game_size
    params: Params = {"fighter": profile.name}
    if not team.size_valid:
        return Issue("game_size", _GAME_SIZE, {"size": size})
    if not team.faction_known:
        return Issue("unknown_faction", _UNKNOWN_FACTION, {"faction": roster.faction})
    if mercenary and profile.rank is Rank.LEADER:
        return Issue("mercenary_leader", _MERCENARY_LEADER, params)
    if mercenary and profile.hero:
        return Issue("hero_mercenary", _HERO_MERCENARY, params)
    if profile.slug in heroes:
        params["hero"] = profile.name
        return Issue("hero_duplicate", _HERO_DUPLICATE, params, heroes[profile.slug])
    if team.have[profile.rank] >= team.needs[profile.rank]:
        need = team.needs[profile.rank]
        template = _RANK_FULL[(profile.rank, need == 1)]
        return Issue("rank_count", template, {"need": need, "size": size})
    if mercenary and team.mercenaries >= team.mercenaries_allowed:
        params.update(have=team.mercenaries, size=size)
        return Issue("mercenary_limit", _MERCENARY_LIMIT_REACHED, params)
    return None


def item_options(
    roster: Roster, catalog: Catalog, entry_index: int, *, last_man_standing: bool = False
) -> tuple[ItemOption, ...]:
    """Every card in catalogue order, with why giving one more to the entry is refused.

    An entry of several fighters gives the card to each of them, so it costs that many times.
    Raises ``RuleViolation`` ("entry_not_found") for an index the roster does not have.
    """
    if not 0 <= entry_index < len(roster.entries):
        raise RuleViolation("entry_not_found", f"The roster has no entry number {entry_index + 1}.")
    team = _analyse(roster, catalog)
    entry = team.entries[entry_index]
    left = _arp_pool(team, last_man_standing=last_man_standing) - team.arp_spent
    carried = Counter(entry.entry.items)
    hero = entry.profile is not None and entry.profile.hero
    fighter = entry.label
    options: list[ItemOption] = []
    for item in catalog.items.values():
        params: Params = {"fighter": fighter, "item": item.name}
        cost = item.cost * max(entry.fighters, 1)
        reason: Issue | None = None
        if _free_focus(item):
            reason = Issue("respawn_focus_free", _RESPAWN_FOCUS_FREE, params, entry_index)
        elif hero and item.character_upgrade:
            reason = Issue("hero_character_upgrade", _HERO_CHARACTER_UPGRADE, params, entry_index)
        elif carried[item.slug] >= item.limit_per_model:
            params["have"] = carried[item.slug]
            reason = Issue("item_limit", _ITEM_LIMIT_REACHED, params, entry_index)
        elif cost > left:
            params.update(cost=cost, left=left)
            reason = Issue("arp_overspent", _ARP_NOT_ENOUGH, params, entry_index)
        options.append(ItemOption(item.slug, reason is None, reason))
    return tuple(options)
