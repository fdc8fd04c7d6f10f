"""Writes to outside armies (``GameSystemInfo.outside_army``: Bunkers and Badasses): a list
builder's file imported as a roster, units typed in by hand, and the answers a player gives
about a unit (walker, base), remembered per unit name for the next import.

An import either saves the whole army or nothing: it is parsed and checked before the first
row is written, inside one transaction.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, replace

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.http import Http404
from django.utils.translation import gettext as _

from apps.accounts.models import User
from apps.catalog.models import GameSystem
from apps.catalog.selectors import game_system_get
from apps.rosters.models import ArmySource, ArmyUnit, Roster, UnitAnswer
from apps.rosters.services import (
    RosterError,
    army_unit_row,
    check_quota,
    locked_roster,
    normalised_settings,
    roster_refresh_legality,
    touched,
)
from apps.rosters.unit_documents import MAX_UNITS
from apps.systems.bunkers.battlescribe import (
    BattleScribeRefused,
    ImportedArmy,
    army_units,
    parse_roster_file,
)
from apps.systems.core.registry import registry
from apps.systems.core.rosters import UnitInput


def outside_army_system(slug: str) -> GameSystem:
    """The rule system an outside army is built for; 404 for any other."""
    system = game_system_get(slug)
    if not registry().get(slug).outside_army:
        raise Http404(f"{slug} builds its teams from the catalogue.")
    return system


def _answer_key(name: str) -> str:
    """Unit names are remembered without regard to case and surrounding blanks."""
    return " ".join(name.split()).casefold()[:100]


def parse_army(data: bytes, file_name: str) -> ImportedArmy:
    """A list builder's file read; raises ``BattleScribeRefused`` naming the problem."""
    return parse_roster_file(data, file_name)


def refusal_message(error: BattleScribeRefused) -> str:
    """Why a file was refused, in the reader's language."""
    return _(error.template) % dict(error.params)


def remembered_units(owner: User | None, units: Iterable[UnitInput]) -> list[UnitInput]:
    """The units with what ``owner`` answered about units of the same name before (nothing
    for an anonymous reader)."""
    units = list(units)
    if owner is None:
        return units
    answers = {
        answer.name: answer
        for answer in UnitAnswer.objects.filter(
            owner=owner, name__in={_answer_key(unit.name) for unit in units}
        )
    }
    remembered = []
    for unit in units:
        answer = answers.get(_answer_key(unit.name))
        if answer is not None:
            unit = replace(
                unit,
                walker=unit.walker if answer.walker is None else answer.walker,
                base=answer.base or unit.base,
            )
        remembered.append(unit)
    return remembered


def _outside_army(roster: Roster) -> Roster:
    """The roster, if its system builds armies from outside the catalogue."""
    if not registry().get(roster.system.slug).outside_army:
        raise RosterError("not_supported", _("Teams of this rule system have no units."))
    return roster


def _check_unit_count(count: int) -> None:
    if count > MAX_UNITS:
        raise RosterError(
            "too_many_units",
            _("An army has at most %(limit)d units.") % {"limit": MAX_UNITS},
        )


@transaction.atomic
def army_create(
    *,
    owner: User,
    system: GameSystem,
    name: str,
    settings: Mapping[str, object],
    units: Iterable[UnitInput],
    source: ImportedArmy | None = None,
    file_name: str = "",
) -> Roster:
    """A new roster holding ``units`` (with the owner's remembered answers filled in)."""
    check_quota(owner)
    units = remembered_units(owner, units)
    _check_unit_count(len(units))
    roster = Roster(
        owner=owner,
        system=system,
        name=name.strip()[:100],
        settings=normalised_settings(system, settings),
    )
    roster.full_clean()
    roster.save()
    try:
        rows = [army_unit_row(roster, position, unit) for position, unit in enumerate(units)]
    except ValidationError as error:
        raise RosterError("unit_invalid", " ".join(error.messages)) from None
    ArmyUnit.objects.bulk_create(rows)
    if source is not None:
        ArmySource.objects.create(
            roster=roster,
            file_name=file_name[:200],
            game_system=source.game_system[:100],
            catalogues=list(dict.fromkeys(force.catalogue for force in source.forces)),
            declared=asdict(source.declared) if source.declared else {},
            computed=asdict(source.computed),
        )
    return roster_refresh_legality(roster)


def army_import(
    *,
    owner: User,
    system: GameSystem,
    data: bytes,
    file_name: str,
    settings: Mapping[str, object],
    name: str = "",
) -> Roster:
    """A list builder's file (BattleScribe .ros/.rosz, New Recruit's compatible export) as a
    new roster; raises ``BattleScribeRefused`` naming the problem, saving nothing."""
    army = parse_army(data, file_name)
    return army_create(
        owner=owner,
        system=system,
        name=name or army.name or file_name,
        settings=settings,
        units=army_units(army),
        source=army,
        file_name=file_name,
    )


@transaction.atomic
def army_unit_add(*, owner: User, roster_id: int, unit: UnitInput) -> Roster:
    roster = _outside_army(locked_roster(owner, roster_id))
    _check_unit_count(roster.units.count() + 1)
    last = roster.units.aggregate(last=Max("position"))["last"]
    (remembered,) = remembered_units(owner, [unit])
    army_unit_row(roster, 0 if last is None else last + 1, remembered).save()
    return touched(roster)


def _unit(roster: Roster, unit_id: int) -> ArmyUnit:
    unit = ArmyUnit.objects.filter(roster=roster, pk=unit_id).first()
    if unit is None:
        raise RosterError(
            "unknown_unit", _("That unit is no longer in this army (changed elsewhere?).")
        )
    return unit


@transaction.atomic
def army_unit_remove(*, owner: User, roster_id: int, unit_id: int) -> Roster:
    roster = _outside_army(locked_roster(owner, roster_id))
    _unit(roster, unit_id).delete()
    return touched(roster)


@transaction.atomic
def army_unit_answer(
    *,
    owner: User,
    roster_id: int,
    unit_id: int,
    walker: bool,
    base: str,
    reserve: bool,
    deep_strike: bool,
) -> Roster:
    """What the player says about a unit; walker and base are remembered for its name, and
    every unit of the same name in this army takes them too."""
    roster = _outside_army(locked_roster(owner, roster_id))
    unit = _unit(roster, unit_id)
    unit.walker, unit.base, unit.reserve, unit.deep_strike = walker, base, reserve, deep_strike
    unit.full_clean(exclude=["roster"])
    unit.save(update_fields=["walker", "base", "reserve", "deep_strike"])
    key = _answer_key(unit.name)
    UnitAnswer.objects.update_or_create(
        owner=owner, name=key, defaults={"walker": walker, "base": base}
    )
    for twin in roster.units.exclude(pk=unit.pk):
        if _answer_key(twin.name) == key:
            twin.walker, twin.base = walker, base
            twin.save(update_fields=["walker", "base"])
    return touched(roster)
