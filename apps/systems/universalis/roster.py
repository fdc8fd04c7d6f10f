"""Building a Universalis group (SPEC §3, rulebook 2.2-2.3, 5.3, 19.1-19.2, 20.1): the one
validator with its stable issue codes, and the totals.

A group is one faction, at least 2 models and exactly one group leader. Telematons are assigned
to an operator (an entry with ``attach_to``) within the operator's capacity. Powers are roster
items of kind "power": a model brings at most as many different powers of a discipline as its
level in it. A points limit is optional (SPEC Decision) and checked only when set.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from apps.systems.core.i18n import gettext_noop
from apps.systems.core.rosters import CatalogData, CatalogEntry, RosterInput, RosterIssue
from apps.systems.core.schema import SchemaError
from apps.systems.universalis.catalog import Power, UnitCard
from apps.systems.universalis.catalog_stats import card_from_stats, power_from_stats

MIN_MODELS: Final = 2

# The stable issue codes (README, API section).
UNKNOWN_FACTION: Final = "unknown_faction"
UNKNOWN_PROFILE: Final = "unknown_profile"
UNKNOWN_ITEM: Final = "unknown_item"
WRONG_FACTION: Final = "wrong_faction"
TOO_FEW_MODELS: Final = "too_few_models"
LEADER_COUNT: Final = "leader_count"
TELEMATON_UNASSIGNED: Final = "telematon_unassigned"
ATTACH_INVALID: Final = "attach_invalid"
OPERATOR_CAPACITY: Final = "operator_capacity"
OPERATOR_COUNT: Final = "operator_count"
POWER_NO_DISCIPLINE: Final = "power_no_discipline"
POWER_LIMIT: Final = "power_limit"
POWER_DUPLICATE: Final = "power_duplicate"
POINTS_LIMIT: Final = "points_limit"
ISSUE_CODES: Final = (
    UNKNOWN_FACTION,
    UNKNOWN_PROFILE,
    UNKNOWN_ITEM,
    WRONG_FACTION,
    TOO_FEW_MODELS,
    LEADER_COUNT,
    TELEMATON_UNASSIGNED,
    ATTACH_INVALID,
    OPERATOR_CAPACITY,
    OPERATOR_COUNT,
    POWER_NO_DISCIPLINE,
    POWER_LIMIT,
    POWER_DUPLICATE,
    POINTS_LIMIT,
)


@dataclass(frozen=True)
class Catalog:
    factions: Mapping[str, str]
    cards: Mapping[str, UnitCard]
    powers: Mapping[str, Power]


# Builder clicks re-read the whole catalogue; cards are immutable per version, so parsed cards
# are kept by content (bounded, cleared when full). None: stored data that no longer fits.
_PARSED: dict[str, UnitCard | Power | None] = {}
_CACHE_LIMIT: Final = 4096


def _key(kind: str, entry: CatalogEntry) -> str:
    return json.dumps(
        [
            kind,
            entry.slug,
            entry.name,
            entry.version,
            entry.sample,
            entry.factions,
            entry.kind,
            entry.stats,
        ],
        sort_keys=True,
        default=str,
    )


def _parse(kind: str, entry: CatalogEntry) -> UnitCard | Power | None:
    key = _key(kind, entry)
    if key not in _PARSED:
        if len(_PARSED) >= _CACHE_LIMIT:
            _PARSED.clear()
        try:
            _PARSED[key] = (
                card_from_stats(
                    slug=entry.slug,
                    name=entry.name,
                    factions=entry.factions,
                    stats=entry.stats,
                    version=entry.version,
                    sample=entry.sample,
                )
                if kind == "card"
                else power_from_stats(
                    slug=entry.slug,
                    name=entry.name,
                    kind=entry.kind,
                    stats=entry.stats,
                    version=entry.version,
                    sample=entry.sample,
                )
            )
        except SchemaError:
            _PARSED[key] = None
    return _PARSED[key]


def universalis_catalog(data: CatalogData) -> Catalog:
    cards = {s: c for s, e in data.profiles.items() if isinstance(c := _parse("card", e), UnitCard)}
    powers = {s: p for s, e in data.items.items() if isinstance(p := _parse("power", e), Power)}
    return Catalog(factions=dict(data.factions), cards=cards, powers=powers)


def _issue(code: str, template: str, entry: int | None = None, **params: str | int) -> RosterIssue:
    return RosterIssue(code=code, template=template, params=params, entry=entry)


@dataclass(frozen=True)
class Totals:
    points: int
    points_limit: int | None
    models: int
    leaders: int
    telematons: int
    powers: int

    def as_dict(self) -> dict[str, object]:
        return {
            "points": self.points,
            "points_limit": self.points_limit,
            "models": self.models,
            "leaders": self.leaders,
            "telematons": self.telematons,
            "powers": self.powers,
        }


def totals(roster: RosterInput, catalog: Catalog) -> Totals:
    points = models = leaders = telematons = powers = 0
    for entry in roster.entries:
        card = catalog.cards.get(entry.profile)
        if card is None:
            continue
        models += entry.count
        points += card.points * entry.count
        leaders += entry.count if card.group_leader else 0
        telematons += entry.count if card.telematon else 0
        powers += sum(1 for slug in entry.items if slug in catalog.powers) * entry.count
    limit = roster.settings.get("points_limit")
    return Totals(
        points=points,
        points_limit=limit if isinstance(limit, int) else None,
        models=models,
        leaders=leaders,
        telematons=telematons,
        powers=powers,
    )


def assigned_telematons(roster: RosterInput, operator: int) -> int:
    return sum(e.count for e in roster.entries if e.attach_to == operator)


def operator_reason(roster: RosterInput, catalog: Catalog, index: int, target: int) -> str:
    """Why entry ``index`` (a telematon) cannot be assigned to entry ``target`` ("" if it can);
    a gettext_noop-marked sentence."""
    if not 0 <= target < len(roster.entries) or target == index:
        return gettext_noop("Choose another model of this group as the operator.")
    operator = roster.entries[target]
    card = catalog.cards.get(operator.profile)
    if card is None or card.telematon or card.operator <= 0:
        return gettext_noop("This model cannot operate telematons.")
    if operator.count != 1:
        return gettext_noop("An operator must be a single model (count 1).")
    already = assigned_telematons(roster, target) - (
        roster.entries[index].count if roster.entries[index].attach_to == target else 0
    )
    if already + roster.entries[index].count > card.operator:
        return gettext_noop("This operator controls as many telematons as it can.")
    return ""


def power_reason(card: UnitCard, chosen: list[Power], power: Power) -> str:
    """Why ``power`` cannot join the ``chosen`` powers of a model ("" if it can)."""
    level = card.discipline_level(power.discipline)
    if level == 0:
        return gettext_noop("The model does not belong to this power's discipline.")
    if any(p.slug == power.slug for p in chosen):
        return gettext_noop("The model brings this power already.")
    if sum(1 for p in chosen if p.discipline == power.discipline) >= level:
        return gettext_noop("The discipline level allows no more powers of this discipline.")
    return ""


def validate_roster(roster: RosterInput, catalog: Catalog) -> list[RosterIssue]:
    issues: list[RosterIssue] = []
    if roster.faction not in catalog.factions:
        issues.append(_issue(UNKNOWN_FACTION, gettext_noop("Choose the group's faction.")))
    for index, entry in enumerate(roster.entries):
        card = catalog.cards.get(entry.profile)
        if card is None:
            issues.append(
                _issue(
                    UNKNOWN_PROFILE,
                    gettext_noop("%(profile)s is not a card of this catalogue."),
                    index,
                    profile=entry.profile,
                )
            )
            continue
        if roster.faction in catalog.factions and roster.faction not in card.factions:
            issues.append(
                _issue(
                    WRONG_FACTION,
                    gettext_noop("%(name)s does not belong to the group's faction."),
                    index,
                    name=card.name,
                )
            )
        issues += _telematon_issues(roster, catalog, index, card)
        issues += _power_issues(catalog, index, card, entry.items)
    sums = totals(roster, catalog)
    if sums.models < MIN_MODELS:
        issues.append(
            _issue(
                TOO_FEW_MODELS,
                gettext_noop("A group has at least %(min)s models; it has %(count)s."),
                min=MIN_MODELS,
                count=sums.models,
            )
        )
    if sums.leaders != 1:
        issues.append(
            _issue(
                LEADER_COUNT,
                gettext_noop("A group has exactly one group leader; it has %(count)s."),
                count=sums.leaders,
            )
        )
    if sums.points_limit is not None and sums.points > sums.points_limit:
        issues.append(
            _issue(
                POINTS_LIMIT,
                gettext_noop("%(points)s points are above the limit of %(limit)s."),
                points=sums.points,
                limit=sums.points_limit,
            )
        )
    return issues


def _telematon_issues(
    roster: RosterInput, catalog: Catalog, index: int, card: UnitCard
) -> list[RosterIssue]:
    issues: list[RosterIssue] = []
    assignment = _assignment_issue(roster, catalog, index, card)
    if assignment is not None:
        issues.append(assignment)
    if card.operator > 0 and not card.telematon:
        issues += _operator_issues(roster, index, card)
    return issues


def _assignment_issue(
    roster: RosterInput, catalog: Catalog, index: int, card: UnitCard
) -> RosterIssue | None:
    """What is wrong with the entry's operator assignment: a telematon needs an operator that
    can operate it; no other model is assigned to one."""
    entry = roster.entries[index]
    if card.telematon and entry.attach_to is None:
        return _issue(
            TELEMATON_UNASSIGNED,
            gettext_noop("%(name)s is a telematon: assign it to an operator."),
            index,
            name=card.name,
        )
    if entry.attach_to is None:
        return None
    if not card.telematon:
        return _issue(
            ATTACH_INVALID,
            gettext_noop("Only telematons are assigned to an operator (%(name)s)."),
            index,
            name=card.name,
        )
    if not _valid_operator(roster, catalog, index, entry.attach_to):
        return _issue(
            ATTACH_INVALID,
            gettext_noop("%(name)s is assigned to a model that cannot operate it."),
            index,
            name=card.name,
        )
    return None


def _valid_operator(roster: RosterInput, catalog: Catalog, index: int, target: int) -> bool:
    """Whether entry ``target`` is another entry of the roster whose card operates telematons."""
    if not 0 <= target < len(roster.entries) or target == index:
        return False
    operator_card = catalog.cards.get(roster.entries[target].profile)
    return operator_card is not None and not operator_card.telematon and operator_card.operator > 0


def _operator_issues(roster: RosterInput, index: int, card: UnitCard) -> list[RosterIssue]:
    """An operator of telematons is one model, and operates no more than its capacity."""
    issues: list[RosterIssue] = []
    assigned = assigned_telematons(roster, index)
    if assigned and roster.entries[index].count != 1:
        issues.append(
            _issue(
                OPERATOR_COUNT,
                gettext_noop("%(name)s operates telematons and must be a single model."),
                index,
                name=card.name,
            )
        )
    if assigned > card.operator:
        issues.append(
            _issue(
                OPERATOR_CAPACITY,
                gettext_noop("%(name)s can operate %(capacity)s telematons, not %(count)s."),
                index,
                name=card.name,
                capacity=card.operator,
                count=assigned,
            )
        )
    return issues


def _power_issues(
    catalog: Catalog, index: int, card: UnitCard, slugs: tuple[str, ...]
) -> list[RosterIssue]:
    issues: list[RosterIssue] = []
    chosen: list[Power] = []
    for slug, times in Counter(slugs).items():
        power = catalog.powers.get(slug)
        if power is None:
            issues.append(
                _issue(
                    UNKNOWN_ITEM,
                    gettext_noop("%(item)s is not a power of this catalogue."),
                    index,
                    item=slug,
                )
            )
            continue
        if times > 1:
            issues.append(
                _issue(
                    POWER_DUPLICATE,
                    gettext_noop("%(name)s brings %(power)s more than once."),
                    index,
                    name=card.name,
                    power=power.name,
                )
            )
        if card.discipline_level(power.discipline) == 0:
            issues.append(
                _issue(
                    POWER_NO_DISCIPLINE,
                    gettext_noop("%(name)s does not belong to the discipline %(discipline)s."),
                    index,
                    name=card.name,
                    discipline=power.discipline,
                )
            )
        chosen.append(power)
    for discipline, count in Counter(p.discipline for p in chosen).items():
        level = card.discipline_level(discipline)
        if level and count > level:
            issues.append(
                _issue(
                    POWER_LIMIT,
                    gettext_noop(
                        "%(name)s brings %(count)s powers of %(discipline)s; its level allows "
                        "%(level)s."
                    ),
                    index,
                    name=card.name,
                    count=count,
                    discipline=discipline,
                    level=level,
                )
            )
    return issues
