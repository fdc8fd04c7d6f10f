"""What a match is opened with: its seats and their teams, each checked against the rules
and the match's settings before the engine sets them up."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from apps.accounts.models import User
from apps.catalog.models import GameSystem
from apps.matches.errors import MatchError
from apps.rosters.documents import document_roster_input, roster_document
from apps.rosters.forms import size_amount
from apps.rosters.models import Roster
from apps.rosters.selectors import catalog_data, roster_input
from apps.systems.core.errors import RuleViolation
from apps.systems.core.match import MatchEngine
from apps.systems.core.registry import Sizing, registry
from apps.systems.core.rosters import CatalogData, RosterInput, RosterIssue


@dataclass(frozen=True)
class Seat:
    """A team at the table: a saved roster (the creator's own or a shared one), or, for a league
    game, the roster document its player registered for the season (``document``), played as
    registered, with the seat held by that player (``holder``) from the start: the pairing
    seated them, so the match is theirs without taking the seat. ``catalog``: the catalogue
    a document is played with (a league season's pinned costs); the current one when None."""

    name: str
    roster: Roster | None
    document: Mapping[str, Any] | None = None
    holder: User | None = None
    catalog: CatalogData | None = None

    @property
    def team_owner(self) -> User | None:
        return self.holder or (self.roster.owner if self.roster is not None else None)

    def held_by(self, creator: User) -> User | None:
        """Who holds the seat when the match opens: a league seat's player, the creator for
        their own team, nobody for a team from someone else's share link."""
        if self.holder is not None:
            return self.holder
        return creator if self.roster is not None and self.roster.owner_id == creator.pk else None

    def saved_document(self) -> dict[str, Any]:
        if self.document is not None:
            return dict(self.document)
        assert self.roster is not None
        return roster_document(self.roster)


def _size_text(sizing: Sizing, value: object) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        return size_amount(sizing, value)
    return _("no size")


def _checked_size(
    team: str, built_settings: Mapping[str, Any], sizing: Sizing, wanted: int | None
) -> None:
    """A team built for another size than the match's is refused, in the system's words."""
    built = built_settings.get(sizing.setting)
    if wanted is None or built == wanted:
        return
    raise MatchError(
        "game_size_mismatch",
        _("%(team)s is built for %(built)s, the match for %(wanted)s.")
        % {
            "team": team,
            "built": _size_text(sizing, built),
            "wanted": _size_text(sizing, wanted),
        },
    )


@dataclass(frozen=True)
class _Team:
    """A seat's team as the rules see it, with what the size check and messages need."""

    name: str
    system_id: int
    built_settings: Mapping[str, Any]
    team_input: RosterInput
    catalog: CatalogData


def _seat_team(seat: Seat) -> _Team:
    if seat.document is not None:
        system, team_input = document_roster_input(seat.document)
        name = str(seat.document.get("name") or seat.name)
        catalog = seat.catalog if seat.catalog is not None else catalog_data(system)
        return _Team(name, system.pk, team_input.settings, team_input, catalog)
    roster = seat.roster
    assert roster is not None
    team_input = roster_input(roster)
    return _Team(
        roster.name,
        roster.system_id,
        roster.settings,
        team_input,
        catalog_data(roster.system, roster),
    )


def checked_team(
    engine: MatchEngine, seat: Seat, settings: Mapping[str, object], system: GameSystem
) -> dict[str, Any]:
    team = _seat_team(seat)
    if team.system_id != system.pk:
        raise MatchError(
            "wrong_system",
            _("%(team)s is a team for another rule system.") % {"team": team.name},
        )
    info = registry().get(system.slug)
    base = team.team_input
    team_input = RosterInput(
        faction=base.faction,
        settings={**base.settings, **settings},
        entries=base.entries,
        units=base.units,
    )
    if info.rosters is not None:
        sizing = info.sizing
        wanted = settings.get(sizing.setting)
        _checked_size(
            team.name, team.built_settings, sizing, wanted if isinstance(wanted, int) else None
        )
        report = info.rosters.report(team_input, team.catalog)
        if not report.valid:
            problems = "; ".join(_translated_issue(issue) for issue in report.issues[:3])
            raise MatchError(
                "roster_illegal",
                _("%(team)s is not legal: %(problems)s")
                % {"team": team.name, "problems": problems},
            )
    return {"name": seat.name or team.name, **engine.team_setup(team_input, team.catalog)}


def _with_defaults(engine: MatchEngine, settings: Mapping[str, Any]) -> dict[str, Any]:
    """The match settings with the engine's defaults for those not given: a match opened
    through the API starts like one opened with the page's form (its fields start at them)."""
    defaults = {
        spec.name: _setting_value(spec.default)
        for spec in engine.setup_fields()
        if spec.default is not None
    }
    return {**defaults, **settings}


def _setting_value(default: object) -> object:
    """A choice field's default as its value (choices are texts; numbers mean numbers)."""
    if isinstance(default, str) and default.isascii() and default.isdigit():
        return int(default)
    return default


def _sized(system: GameSystem, settings: Mapping[str, Any]) -> dict[str, Any]:
    """The match settings with the team size read as the system sizes teams (a number given
    as digits is a number; anything else is refused with the sizes it may be)."""
    sizing = registry().get(system.slug).sizing
    if sizing.setting not in settings:
        return dict(settings)
    try:
        size = sizing.parse(settings[sizing.setting])
    except RuleViolation as error:
        raise MatchError("settings_invalid", _(error.message)) from None
    return {**settings, sizing.setting: size}


def _translated_issue(issue: RosterIssue) -> str:
    params = {k: _(v) if isinstance(v, str) else v for k, v in issue.params.items()}
    return _(issue.template) % params


def match_settings(
    engine: MatchEngine, system: GameSystem, settings: Mapping[str, Any]
) -> dict[str, Any]:
    """The settings a match opens with: the engine's defaults for those not given, the team
    size read as the system sizes teams."""
    return _sized(system, _with_defaults(engine, settings))
