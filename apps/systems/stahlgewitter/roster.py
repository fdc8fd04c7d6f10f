"""Building a Stahlgewitter army (SPEC §4, rulebook "Zusammenstellung der Streitkräfte" and
"Armeelisten"): the one validator with its stable issue codes, the units and the totals.

An army is one faction's printed army list(s), bought with army points: a game type
(Scharmützel, Gefecht, Schlacht) gives the range of points, or the players agree on a free
points limit. An entry is ``count`` identical models of one profile with the same items; a unit
is a head entry (``attach_to`` None) plus the entries attached to it. Every model carries at
least one weapon, at most one armour (none: its standard armour), variants only with a melee
weapon. The rulebook prints no costs; the catalogue's are provisional (see its notes).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from apps.systems.core.errors import RuleViolation
from apps.systems.core.i18n import gettext_noop
from apps.systems.core.rosters import (
    MAX_POINTS_LIMIT,
    EntryInput,
    RosterInput,
    RosterIssue,
)
from apps.systems.stahlgewitter.catalog import Catalog, Loadout, loadout
from apps.systems.stahlgewitter.catalog_types import GameType, Profile

# The stable issue codes (design; API section).
UNKNOWN_FACTION: Final = "unknown_faction"
NO_ARMY_LIST: Final = "no_army_list"
UNKNOWN_PROFILE: Final = "unknown_profile"
WRONG_FACTION: Final = "wrong_faction"
UNKNOWN_ITEM: Final = "unknown_item"
ITEM_KIND: Final = "item_kind"
ITEM_DUPLICATE: Final = "item_duplicate"
ARMOUR_COUNT: Final = "armour_count"
VARIANT_WITHOUT_MELEE: Final = "variant_without_melee"
UNARMED: Final = "unarmed"
ATTACH_INVALID: Final = "attach_invalid"
EMPTY_ROSTER: Final = "empty_roster"
POINTS_LIMIT: Final = "points_limit"
GAME_TYPE_UNKNOWN: Final = "game_type_unknown"
GAME_TYPE_RANGE: Final = "game_type_range"
ISSUE_CODES: Final = (
    UNKNOWN_FACTION,
    NO_ARMY_LIST,
    UNKNOWN_PROFILE,
    WRONG_FACTION,
    UNKNOWN_ITEM,
    ITEM_KIND,
    ITEM_DUPLICATE,
    ARMOUR_COUNT,
    VARIANT_WITHOUT_MELEE,
    UNARMED,
    ATTACH_INVALID,
    EMPTY_ROSTER,
    POINTS_LIMIT,
    GAME_TYPE_UNKNOWN,
    GAME_TYPE_RANGE,
)

SETTING_KEYS: Final = frozenset({"points_limit", "game_type"})
_SLUG_CHARS: Final = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-_")


def normalise_settings(settings: Mapping[str, object]) -> dict[str, object]:
    """``points_limit`` (whole number or none) and ``game_type`` ("" or a game type's slug;
    whether the catalogue has it is the validator's ``game_type_unknown``)."""
    unknown = sorted(set(settings) - SETTING_KEYS)
    if unknown:
        raise RuleViolation("settings_invalid", f"Unknown settings: {', '.join(unknown)}.")
    result: dict[str, object] = {}
    limit = settings.get("points_limit")
    if isinstance(limit, str) and limit.strip().isascii() and limit.strip().isdigit():
        limit = int(limit.strip())
    if limit is not None and limit != "":
        if (
            not isinstance(limit, int)
            or isinstance(limit, bool)
            or not 1 <= limit <= MAX_POINTS_LIMIT
        ):
            raise RuleViolation(
                "points_limit",
                gettext_noop("The points limit must be a whole number from 1 to 10000, or none."),
            )
        result["points_limit"] = limit
    game_type = settings.get("game_type")
    if game_type is not None and game_type != "":
        if (
            not isinstance(game_type, str)
            or len(game_type) > 80
            or not set(game_type) <= _SLUG_CHARS
        ):
            raise RuleViolation(
                "settings_invalid",
                gettext_noop("The game type must be the slug of a game type, or empty."),
            )
        result["game_type"] = game_type
    return result


def _issue(code: str, template: str, entry: int | None = None, **params: str | int) -> RosterIssue:
    return RosterIssue(code=code, template=template, params=params, entry=entry)


# --- Units -----------------------------------------------------------------------------------


def is_head(roster: RosterInput, index: int) -> bool:
    return roster.entries[index].attach_to is None


def attach_valid(roster: RosterInput, index: int, target: int) -> bool:
    """Whether entry ``index`` may join the unit headed by entry ``target``: another entry
    that heads a unit (units do not nest)."""
    return 0 <= target < len(roster.entries) and target != index and is_head(roster, target)


def unit_of(roster: RosterInput, index: int) -> int:
    """The index of the head of the unit entry ``index`` belongs to (an entry attached to
    something invalid counts as its own unit)."""
    target = roster.entries[index].attach_to
    if target is None or not attach_valid(roster, index, target):
        return index
    return target


def units(roster: RosterInput) -> dict[int, tuple[int, ...]]:
    """Head index -> the indexes of its unit's entries (the head first), in roster order."""
    grouped: dict[int, list[int]] = {}
    for index in range(len(roster.entries)):
        head = unit_of(roster, index)
        grouped.setdefault(head, [])
        if head == index:
            grouped[head].insert(0, index)
        else:
            grouped[head].append(index)
    return {head: tuple(members) for head, members in grouped.items()}


# --- Costs and totals ------------------------------------------------------------------------


def model_cost(profile: Profile, gear: Loadout, catalog: Catalog) -> int:
    """One model's army points: its profile (which includes its standard armour) and items; an
    armour bought replaces the standard one, so only the difference is paid (never below 0
    in all)."""
    cost = profile.points
    cost += sum(w.cost for w in gear.weapons)
    cost += sum(v.cost for v in gear.variants)
    cost += sum(e.cost for e in gear.equipment)
    if gear.armour is not None:
        cost += gear.armour.cost - catalog.standard_armour(profile).cost
    cost += sum(a.cost for a in gear.armours[1:])
    return max(0, cost)


def entry_cost(entry: EntryInput, catalog: Catalog) -> int:
    profile = catalog.profiles.get(entry.profile)
    if profile is None:
        return 0
    return entry.count * model_cost(profile, loadout(entry.items, catalog), catalog)


@dataclass(frozen=True)
class Totals:
    points: int
    points_limit: int | None
    models: int
    units: int
    leaders: int
    game_type: str
    min_points: int | None
    max_points: int | None

    def as_dict(self) -> dict[str, object]:
        return {
            "points": self.points,
            "points_limit": self.points_limit,
            "models": self.models,
            "units": self.units,
            "leaders": self.leaders,
            "game_type": self.game_type,
            "min_points": self.min_points,
            "max_points": self.max_points,
        }


def game_type_of(roster: RosterInput, catalog: Catalog) -> GameType | None:
    slug = roster.settings.get("game_type")
    return catalog.game_types.get(slug) if isinstance(slug, str) else None


def totals(roster: RosterInput, catalog: Catalog) -> Totals:
    """Points, models, units and leaders; the points limit is the one agreed, else the game
    type's maximum."""
    points = models = leaders = 0
    for entry in roster.entries:
        profile = catalog.profiles.get(entry.profile)
        if profile is None:
            continue
        models += entry.count
        leaders += entry.count if profile.leader else 0
        points += entry_cost(entry, catalog)
    game_type = game_type_of(roster, catalog)
    limit = roster.settings.get("points_limit")
    if not isinstance(limit, int) or isinstance(limit, bool):
        limit = game_type.max_points if game_type else None
    return Totals(
        points=points,
        points_limit=limit,
        models=models,
        units=len(units(roster)),
        leaders=leaders,
        game_type=game_type.slug if game_type else "",
        min_points=game_type.min_points if game_type else None,
        max_points=game_type.max_points if game_type else None,
    )


# --- The validator ---------------------------------------------------------------------------


def validate_roster(roster: RosterInput, catalog: Catalog) -> list[RosterIssue]:
    issues: list[RosterIssue] = []
    faction_known = roster.faction in catalog.factions
    if not faction_known:
        issues.append(_issue(UNKNOWN_FACTION, gettext_noop("Choose the army's faction.")))
    elif not catalog.faction_profiles(roster.faction):
        issues.append(
            _issue(
                NO_ARMY_LIST,
                gettext_noop(
                    "The rulebook prints no army list for %(faction)s; choose a faction with one."
                ),
                faction=catalog.factions[roster.faction],
            )
        )
    if not roster.entries:
        issues.append(_issue(EMPTY_ROSTER, gettext_noop("The army has no models yet: add a unit.")))
    for index, entry in enumerate(roster.entries):
        issues += _entry_issues(roster, catalog, index, entry, faction_known=faction_known)
    issues += _settings_issues(roster, catalog)
    return issues


def _entry_issues(
    roster: RosterInput, catalog: Catalog, index: int, entry: EntryInput, *, faction_known: bool
) -> list[RosterIssue]:
    issues: list[RosterIssue] = []
    if entry.attach_to is not None and not attach_valid(roster, index, entry.attach_to):
        issues.append(
            _issue(
                ATTACH_INVALID,
                gettext_noop("%(name)s must join the head of another unit."),
                index,
                name=entry.name or entry.profile,
            )
        )
    profile = catalog.profiles.get(entry.profile)
    if profile is None:
        issues.append(
            _issue(
                UNKNOWN_PROFILE,
                gettext_noop("%(profile)s is not a profile of this catalogue."),
                index,
                profile=entry.profile,
            )
        )
        return issues
    if faction_known and roster.faction not in profile.factions:
        issues.append(
            _issue(
                WRONG_FACTION,
                gettext_noop("%(name)s (%(list)s) does not belong to the army's faction."),
                index,
                name=profile.name,
                list=profile.list,
            )
        )
    return issues + _gear_issues(catalog, index, profile, entry.items)


def _gear_issues(
    catalog: Catalog, index: int, profile: Profile, items: tuple[str, ...]
) -> list[RosterIssue]:
    issues: list[RosterIssue] = []
    gear = loadout(items, catalog)
    for slug in gear.unknown:
        issues.append(
            _issue(
                UNKNOWN_ITEM,
                gettext_noop("%(item)s is not an item of this catalogue."),
                index,
                item=slug,
            )
        )
    for game_type in gear.game_types:
        issues.append(
            _issue(
                ITEM_KIND,
                gettext_noop("%(item)s is a game type, not something a model carries."),
                index,
                item=game_type.name,
            )
        )
    carried = [*(v.slug for v in gear.variants), *(e.slug for e in gear.equipment)]
    for slug, times in Counter(carried).items():
        if times > 1:
            found = catalog.item(slug)
            issues.append(
                _issue(
                    ITEM_DUPLICATE,
                    gettext_noop("%(name)s carries %(item)s more than once."),
                    index,
                    name=profile.name,
                    item=found.name if found else slug,
                )
            )
    if len(gear.armours) > 1:
        issues.append(
            _issue(
                ARMOUR_COUNT,
                gettext_noop("%(name)s wears %(count)s armours; a model wears at most one."),
                index,
                name=profile.name,
                count=len(gear.armours),
            )
        )
    if gear.variants and not any(w.melee for w in gear.weapons):
        issues.append(
            _issue(
                VARIANT_WITHOUT_MELEE,
                gettext_noop("%(name)s has a variant but no melee weapon to upgrade."),
                index,
                name=profile.name,
            )
        )
    if not gear.weapons:
        issues.append(
            _issue(
                UNARMED,
                gettext_noop("%(name)s carries no weapon: choose at least one."),
                index,
                name=profile.name,
            )
        )
    return issues


def _settings_issues(roster: RosterInput, catalog: Catalog) -> list[RosterIssue]:
    issues: list[RosterIssue] = []
    slug = roster.settings.get("game_type")
    game_type = game_type_of(roster, catalog)
    if isinstance(slug, str) and slug and game_type is None:
        issues.append(
            _issue(
                GAME_TYPE_UNKNOWN,
                gettext_noop("%(game_type)s is not a game type of this catalogue."),
                game_type=slug,
            )
        )
    sums = totals(roster, catalog)
    if sums.points_limit is not None and sums.points > sums.points_limit:
        issues.append(
            _issue(
                POINTS_LIMIT,
                gettext_noop("%(points)s points are above the limit of %(limit)s."),
                points=sums.points,
                limit=sums.points_limit,
            )
        )
    if game_type is not None:
        limit = roster.settings.get("points_limit")
        if isinstance(limit, int) and not game_type.min_points <= limit <= game_type.max_points:
            issues.append(
                _issue(
                    GAME_TYPE_RANGE,
                    gettext_noop(
                        "The points limit %(limit)s is outside %(game_type)s "
                        "(%(min)s-%(max)s points)."
                    ),
                    limit=limit,
                    game_type=game_type.name,
                    min=game_type.min_points,
                    max=game_type.max_points,
                )
            )
        elif sums.points < game_type.min_points:
            issues.append(
                _issue(
                    GAME_TYPE_RANGE,
                    gettext_noop(
                        "%(points)s points are below %(game_type)s (%(min)s-%(max)s points)."
                    ),
                    points=sums.points,
                    game_type=game_type.name,
                    min=game_type.min_points,
                    max=game_type.max_points,
                )
            )
    return issues
