"""The catalogue a season plays, so that an organiser's cost edit never changes the points of a
roster registered for it (issue 17).

A season pins the version of every profile and item at its first registration (while nobody
has joined, its costs follow the catalogue); an organiser may re-pin it to the current catalogue
until the first game of the season is played (a result, or a match started on the tracker):
from then on the costs its games were played with stay. Every place that reads a registered
roster document as rules input (registration, roster changes, the player's page, a league match
on the tracker) reads it with ``season_catalog``.

Only a season whose rosters are counted with catalogue costs is pinned (``plays_costs``): a
system without roster rules, or whose armies come from outside the catalogue (Bunkers and
Badasses), has no costs to keep. A card a pinned season holds cannot be deleted
(``seasons_holding``, registered with ``apps.catalog.pins`` when the app is ready).

A registered document the rules cannot read (more entries than a document holds, say) is not
legal for a season: registration and roster changes refuse it; pages show it without a report.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Prefetch, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.catalog.models import GameSystem
from apps.catalog.pins import catalog_versions, pin_differs, pinned_catalog
from apps.leagues.common import LeagueError, check_season_open
from apps.leagues.common import log_action as _log
from apps.leagues.models import LogEntry, Pairing, Registration, Result, Season
from apps.leagues.selectors import AnyUser, league_access, season_get
from apps.rosters.documents import (
    DocumentInvalid,
    problem_location,
    roster_document,
    system_roster_input,
)
from apps.rosters.models import Roster, RosterEntry, RosterEntryItem
from apps.rosters.selectors import catalog_data
from apps.rosters.templatetags.rosters import issue_message
from apps.systems.core.errors import RuleViolation
from apps.systems.core.registry import registry
from apps.systems.core.rosters import CatalogData, RosterReport


def plays_costs(season: Season) -> bool:
    """Whether the season's rosters are counted with catalogue costs (not a system without
    roster rules, nor one whose armies come from outside the catalogue)."""
    info = registry().get(season.league.system.slug)
    return info.rosters is not None and not info.outside_army


def season_catalog(season: Season) -> CatalogData:
    """The system's catalogue at the versions the season pinned (now, while it has no pin)."""
    system = season.league.system
    current = catalog_data(system)
    if season.catalog_pin is None:
        return current
    return pinned_catalog(system, season.catalog_pin, current)


def season_pin(season: Season) -> None:
    """Pin the season to the catalogue as it is now (call with the season's row locked, for a
    season that ``plays_costs``). The system's row is locked too: a card deleted at the same
    time is either gone from the pin or refused its deletion (``apps.catalog.pins``)."""
    system = season.league.system
    GameSystem.objects.select_for_update().filter(pk=system.pk).values_list("pk").first()
    season.catalog_pin = catalog_versions(system)
    season.catalog_pinned_at = timezone.now()
    season.full_clean()
    season.save(update_fields=["catalog_pin", "catalog_pinned_at"])


def season_pin_first(season: Season) -> None:
    """At the first registration: pin the season unless it is pinned already, or has no
    catalogue costs to pin."""
    if season.catalog_pin is None and plays_costs(season):
        season_pin(season)


def _frozen_report(
    season: Season, document: Mapping[str, Any], catalog: CatalogData | None
) -> RosterReport | None:
    """The report, None for a system without roster rules; raises ``DocumentInvalid``."""
    rules = registry().get(season.league.system.slug).rosters
    if rules is None:
        return None
    roster = system_roster_input(season.league.system, document)
    return rules.report(roster, catalog if catalog is not None else season_catalog(season))


def frozen_report(
    season: Season, document: Mapping[str, Any] | None, catalog: CatalogData | None = None
) -> RosterReport | None:
    """A registered roster document's issues and totals with the season's costs, for display;
    None for no document, a system without roster rules, or a document the rules cannot read
    (which ``check_frozen_roster`` refuses)."""
    if document is None:
        return None
    try:
        return _frozen_report(season, document, catalog)
    except RuleViolation:
        return None


def frozen_problems(
    season: Season, document: Mapping[str, Any] | None, catalog: CatalogData | None = None
) -> list[str]:
    """Why the roster document is not legal with the season's costs, at most three reasons
    in words (none: legal, or a system that takes any roster)."""
    if document is None:
        return []
    try:
        report = _frozen_report(season, document, catalog)
    except DocumentInvalid as invalid:
        return [
            f"{problem_location(p.path)}: {p.message}" if p.path else p.message
            for p in invalid.problems[:3]
        ]
    if report is None or report.valid:
        return []
    return [issue_message(issue) for issue in report.issues[:3]]


def check_frozen_roster(season: Season, document: Mapping[str, Any] | None) -> None:
    """Refuse a roster that is not legal with the season's costs, or that the rules cannot
    read at all (registration, changes)."""
    problems = frozen_problems(season, document)
    if problems:
        raise LeagueError(
            "roster_not_legal",
            _("The roster is not legal with this season's costs: %(problems)s")
            % {"problems": "; ".join(problems)},
        )


def prefetched_rosters(rosters: QuerySet[Roster]) -> list[Roster]:
    """The rosters with what their documents are made of, in a few queries however many."""
    items = RosterEntryItem.objects.select_related("item").order_by("position")
    entries = (
        RosterEntry.objects.select_related("profile")
        .prefetch_related(Prefetch("items", queryset=items))
        .order_by("position")
    )
    return list(
        rosters.select_related("system", "faction").prefetch_related(
            Prefetch("entries", queryset=entries), "units"
        )
    )


def _pin_key(season: Season) -> str:
    return json.dumps(season.catalog_pin, sort_keys=True)


def rosters_legal_for(
    seasons: Sequence[Season], rosters: Iterable[Roster]
) -> dict[int, list[Roster]]:
    """For each season (by id) the rosters that are legal with its costs, as registration
    checks them (``check_frozen_roster``): each roster's document is made once, and its report
    made once per distinct catalogue, so a page offering rosters for several seasons costs a
    query or two per distinct pin. Call with the rosters' entries, items and units prefetched
    (``prefetched_rosters``)."""
    documents = [(roster, roster_document(roster)) for roster in rosters]
    offered: dict[int, list[Roster]] = {}
    by_pin: dict[str, list[Roster]] = {}
    for season in seasons:
        key = _pin_key(season)
        if key not in by_pin:
            catalog = season_catalog(season)
            by_pin[key] = [
                roster
                for roster, document in documents
                if not frozen_problems(season, document, catalog)
            ]
        offered[season.pk] = by_pin[key]
    return offered


def seasons_holding(system: GameSystem, kind: str, slugs: Collection[str]) -> list[str]:
    """The pinned seasons of ``system`` that hold any of these cards (``kind``: "profiles" or
    "items"), named for the refusal of their deletion (``apps.catalog.pins``)."""
    seasons = Season.objects.filter(
        league__system=system, **{f"catalog_pin__{kind}__has_any_keys": list(slugs)}
    ).select_related("league")
    return [
        _("the season “%(season)s” of the league “%(league)s”")
        % {"season": season.name, "league": season.league.name}
        for season in seasons.order_by("league__name", "name")
    ]


def costs_locked(season: Season) -> bool:
    """Whether the season's first game is played: a result, or a match started on the tracker."""
    return (
        Result.objects.filter(pairing__round__season=season).exists()
        or Pairing.objects.filter(round__season=season, match__isnull=False).exists()
    )


@dataclass(frozen=True)
class Repinned:
    """A re-pinned season and the players whose registered roster is not legal any more."""

    season: Season
    changed: bool
    illegal: tuple[str, ...]


@transaction.atomic
def season_costs_repin(*, user: AnyUser, key: str, season_id: int) -> Repinned:
    """An organiser sets the season's costs to the current catalogue (logged). Refused once the
    season is finished or its first game is played."""
    access = league_access(user, key)
    access.require_organiser()
    season = season_get(access, season_id, lock=True)
    check_season_open(season)
    if not plays_costs(season):
        raise LeagueError(
            "no_costs",
            _(
                "This rule system's rosters are not counted with catalogue costs: there are none "
                "to set."
            ),
            status=409,
        )
    if costs_locked(season):
        raise LeagueError(
            "costs_locked",
            _("Games of this season are played: its costs stay as they were."),
            status=409,
        )
    current = catalog_data(season.league.system)
    changed = season.catalog_pin is None or pin_differs(season.catalog_pin, current)
    season_pin(season)
    _log(
        access.league,
        LogEntry.Action.COSTS_PINNED,
        actor=user,
        season=season,
        as_of=season.catalog_pinned_at.isoformat() if season.catalog_pinned_at else "",
    )
    catalog = season_catalog(season)
    registrations = Registration.objects.filter(
        season=season, dropped_at__isnull=True, roster_snapshot__isnull=False
    ).select_related("player")
    illegal = tuple(
        registration.player.shown_name
        for registration in registrations
        if frozen_problems(season, registration.roster_snapshot, catalog)
    )
    return Repinned(season=season, changed=changed, illegal=illegal)
