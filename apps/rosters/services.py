"""Writes to rosters. Every change re-runs the system's validator and stores legality."""

from __future__ import annotations

import secrets
from collections.abc import Mapping

from django.db import transaction
from django.db.models import Max
from django.http import Http404
from django.utils.translation import gettext as _

from apps.accounts.models import User
from apps.catalog.models import Faction, GameSystem, Item, Profile
from apps.rosters.documents import MAX_ENTRIES, ParsedRoster, parse_document
from apps.rosters.models import MAX_ENTRY_COUNT, ArmyUnit, Roster, RosterEntry, RosterEntryItem
from apps.rosters.selectors import roster_for_owner, roster_report
from apps.systems.core.errors import RuleViolation
from apps.systems.core.registry import registry
from apps.systems.core.rosters import UnitInput

MAX_ROSTERS_PER_USER = 500


class RosterError(RuleViolation):
    """A request the roster cannot take (wrong system, unknown entry, ...)."""


def normalised_settings(system: GameSystem, settings: Mapping[str, object]) -> dict[str, object]:
    rules = registry().get(system.slug).rosters
    return rules.normalise_settings(settings) if rules else dict(settings)


def roster_refresh_legality(roster: Roster) -> Roster:
    """Re-validate and store the result (call after any change, inside the transaction)."""
    fresh = roster_for_owner(roster.owner, roster.pk)
    report = roster_report(fresh)
    Roster.objects.filter(pk=roster.pk).update(legal=report.valid, issue_count=len(report.issues))
    fresh.legal, fresh.issue_count = report.valid, len(report.issues)
    return fresh


def check_quota(owner: User) -> None:
    if Roster.objects.filter(owner=owner).count() >= MAX_ROSTERS_PER_USER:
        raise RosterError(
            "roster_quota",
            _("You already have %(count)d rosters; delete one first.")
            % {"count": MAX_ROSTERS_PER_USER},
        )


@transaction.atomic
def roster_create(
    *,
    owner: User,
    system: GameSystem,
    name: str,
    faction: Faction | None,
    settings: Mapping[str, object],
) -> Roster:
    check_quota(owner)
    if faction is not None and faction.system_id != system.pk:
        raise RosterError("unknown_faction", _("The faction belongs to another rule system."))
    roster = Roster(
        owner=owner,
        system=system,
        name=name.strip(),
        faction=faction,
        settings=normalised_settings(system, settings),
    )
    roster.full_clean()
    roster.save()
    return roster_refresh_legality(roster)


@transaction.atomic
def roster_update(
    *, owner: User, roster_id: int, name: str, settings: Mapping[str, object]
) -> Roster:
    roster = locked_roster(owner, roster_id)
    roster.name = name.strip()
    roster.settings = normalised_settings(roster.system, {**roster.settings, **settings})
    roster.full_clean()
    roster.save(update_fields=["name", "settings", "updated_at"])
    return roster_refresh_legality(roster)


def touched(roster: Roster) -> Roster:
    """Mark the roster changed now and re-validate it."""
    roster.save(update_fields=["updated_at"])
    return roster_refresh_legality(roster)


def locked_roster(owner: User, roster_id: int) -> Roster:
    """The owner's roster row, locked until the transaction ends (concurrent clicks on two
    tablets apply one after the other); 404 for anyone else's."""
    roster = (
        Roster.objects.select_for_update()
        .select_related("system", "owner")
        .filter(owner=owner, pk=roster_id)
        .first()
    )
    if roster is None:
        raise Http404
    return roster


def _entry(roster: Roster, entry_id: int) -> RosterEntry:
    entry = RosterEntry.objects.select_related("profile").filter(roster=roster, pk=entry_id).first()
    if entry is None:
        raise RosterError(
            "unknown_entry", _("That fighter is no longer in this roster (changed elsewhere?).")
        )
    return entry


def max_count(system: GameSystem) -> int:
    """How many identical models one entry of the system may stand for (``RosterRules``)."""
    rules = registry().get(system.slug).rosters
    return min(rules.max_count, MAX_ENTRY_COUNT) if rules else 1


def _check_count(roster: Roster, count: int) -> None:
    most = max_count(roster.system)
    if most == 1 and count != 1:
        raise RosterError(
            "count_invalid", _("In this rule system every model is an entry of its own.")
        )
    if not 1 <= count <= most:
        raise RosterError(
            "count_invalid",
            _("The number of models must be from 1 to %(most)d.") % {"most": most},
        )


@transaction.atomic
def roster_entry_add(
    *,
    owner: User,
    roster_id: int,
    profile_slug: str,
    attach_to_id: int | None = None,
    count: int = 1,
) -> Roster:
    """Add an entry of ``count`` models of ``profile_slug``; ``attach_to_id`` assigns it to
    another entry at once (a Stahlgewitter model into a unit), whose legality is the system's
    rules' issue. A roster keeps at most as many entries as a document may hold, so whatever
    the builder builds can be exported and imported again."""
    roster = locked_roster(owner, roster_id)
    _check_count(roster, count)
    if roster.entries.count() >= MAX_ENTRIES:
        raise RosterError(
            "too_many_entries",
            _(
                "A roster holds at most %(limit)d entries; raise the number of an entry's "
                "models instead of adding the same model again."
            )
            % {"limit": MAX_ENTRIES}
            if max_count(roster.system) > 1
            else _("A roster holds at most %(limit)d entries.") % {"limit": MAX_ENTRIES},
        )
    profile = Profile.objects.filter(system=roster.system, slug=profile_slug).first()
    if profile is None:
        raise RosterError(
            "unknown_profile", _("Unknown profile %(profile)r.") % {"profile": profile_slug}
        )
    target = None if attach_to_id is None else _entry(roster, attach_to_id)
    position = (roster.entries.aggregate(Max("position"))["position__max"] or 0) + 1
    RosterEntry.objects.create(
        roster=roster,
        position=position,
        profile=profile,
        profile_version=profile.version,
        attach_to=target,
        count=count,
    )
    return touched(roster)


@transaction.atomic
def roster_entry_set_count(
    *, owner: User, roster_id: int, entry_id: int, count: int | None = None, change: int = 0
) -> Roster:
    """Set an entry's number of identical models to ``count``, or step it by ``change`` from
    the stored number (taps on −/+ apply one after the other under the roster's lock). The
    number stays within 1 and the system's ``max_count``; a step past either end is refused."""
    roster = locked_roster(owner, roster_id)
    entry = _entry(roster, entry_id)
    wanted = entry.count + change if count is None else count
    _check_count(roster, wanted)
    if wanted == entry.count:
        return roster_refresh_legality(roster)
    entry.count = wanted
    entry.full_clean(exclude=["roster", "profile", "attach_to"])
    entry.save(update_fields=["count"])
    return touched(roster)


@transaction.atomic
def roster_entry_remove(*, owner: User, roster_id: int, entry_id: int) -> Roster:
    roster = locked_roster(owner, roster_id)
    _entry(roster, entry_id).delete()
    return touched(roster)


@transaction.atomic
def roster_entry_rename(*, owner: User, roster_id: int, entry_id: int, name: str) -> Roster:
    roster = locked_roster(owner, roster_id)
    entry = _entry(roster, entry_id)
    entry.name = name.strip()
    entry.full_clean()
    entry.save(update_fields=["name"])
    return touched(roster)


@transaction.atomic
def roster_entry_attach(
    *, owner: User, roster_id: int, entry_id: int, attach_to_id: int | None
) -> Roster:
    """Assign an entry to another entry of the roster (a telematon to its operator), or
    (``None``) release it; whether the assignment is legal is the system's rules' issue."""
    roster = locked_roster(owner, roster_id)
    entry = _entry(roster, entry_id)
    target = None if attach_to_id is None else _entry(roster, attach_to_id)
    if target is not None and target.pk == entry.pk:
        raise RosterError("attach_invalid", _("A model cannot be assigned to itself."))
    entry.attach_to = target
    entry.save(update_fields=["attach_to"])
    return touched(roster)


@transaction.atomic
def roster_entry_update_version(*, owner: User, roster_id: int, entry_id: int) -> Roster:
    """Move an entry (and its items) to the current versions of their cards."""
    roster = locked_roster(owner, roster_id)
    entry = _entry(roster, entry_id)
    entry.profile_version = entry.profile.version
    entry.save(update_fields=["profile_version"])
    for row in entry.items.all():
        row.item_version = row.item.version
        row.save(update_fields=["item_version"])
    return touched(roster)


@transaction.atomic
def roster_item_add(*, owner: User, roster_id: int, entry_id: int, item_slug: str) -> Roster:
    roster = locked_roster(owner, roster_id)
    entry = _entry(roster, entry_id)
    item = Item.objects.filter(system=roster.system, slug=item_slug).first()
    if item is None:
        raise RosterError("unknown_item", _("Unknown item %(item)r.") % {"item": item_slug})
    position = (entry.items.aggregate(Max("position"))["position__max"] or 0) + 1
    RosterEntryItem.objects.create(
        entry=entry, position=position, item=item, item_version=item.version
    )
    return touched(roster)


@transaction.atomic
def roster_item_remove(*, owner: User, roster_id: int, entry_id: int, row_id: int) -> Roster:
    roster = locked_roster(owner, roster_id)
    entry = _entry(roster, entry_id)
    deleted, _by_model = RosterEntryItem.objects.filter(entry=entry, pk=row_id).delete()
    if not deleted:
        raise RosterError(
            "unknown_item", _("That card is no longer on this fighter (changed elsewhere?).")
        )
    return touched(roster)


def army_unit_row(roster: Roster, position: int, unit: UnitInput) -> ArmyUnit:
    """An outside army's unit as a row of ``roster`` (checked, not saved)."""
    row = ArmyUnit(
        roster=roster,
        position=position,
        name=unit.name.strip()[:100],
        model_count=unit.models,
        points=unit.points,
        power=unit.power,
        keywords=list(unit.keywords),
        wounds=unit.wounds,
        base=unit.base,
        walker=unit.walker,
        reserve=unit.reserve,
        deep_strike=unit.deep_strike,
    )
    row.full_clean(exclude=["roster"])
    return row


def _fill(roster: Roster, parsed: ParsedRoster) -> None:
    created: list[RosterEntry] = []
    for position, parsed_entry in enumerate(parsed.entries, start=1):
        entry = RosterEntry.objects.create(
            roster=roster,
            position=position,
            profile=parsed_entry.profile,
            profile_version=parsed_entry.profile.version,
            name=parsed_entry.name,
            count=parsed_entry.count,
        )
        RosterEntryItem.objects.bulk_create(
            RosterEntryItem(entry=entry, position=i, item=item, item_version=item.version)
            for i, item in enumerate(parsed_entry.items, start=1)
        )
        created.append(entry)
    for parsed_entry, entry in zip(parsed.entries, created, strict=True):
        if parsed_entry.attach_to is not None:
            entry.attach_to = created[parsed_entry.attach_to]
            entry.save(update_fields=["attach_to"])
    ArmyUnit.objects.bulk_create(
        army_unit_row(roster, position, unit) for position, unit in enumerate(parsed.units)
    )


@transaction.atomic
def roster_import(*, owner: User, document: object) -> Roster:
    """Create a roster from a document; every problem is reported and nothing is saved."""
    parsed = parse_document(document)
    check_quota(owner)
    roster = Roster(
        owner=owner,
        system=parsed.system,
        name=parsed.name,
        faction=parsed.faction,
        settings=parsed.settings,
    )
    roster.full_clean()
    roster.save()
    _fill(roster, parsed)
    return roster_refresh_legality(roster)


@transaction.atomic
def roster_replace(*, owner: User, roster_id: int, document: object) -> Roster:
    """Replace a roster's contents with a document of the same system (API PUT)."""
    roster = locked_roster(owner, roster_id)
    parsed = parse_document(document, expected_system=roster.system.slug)
    roster.entries.all().delete()
    roster.units.all().delete()
    roster.name, roster.faction, roster.settings = parsed.name, parsed.faction, parsed.settings
    roster.full_clean()
    roster.save()
    _fill(roster, parsed)
    return roster_refresh_legality(roster)


@transaction.atomic
def roster_duplicate(*, owner: User, roster_id: int, name: str) -> Roster:
    source = roster_for_owner(owner, roster_id)
    check_quota(owner)
    copy = Roster.objects.create(
        owner=owner,
        system=source.system,
        name=name[:100],
        faction=source.faction,
        settings=source.settings,
    )
    copies: dict[int, RosterEntry] = {}
    for entry in source.entries.all():
        new_entry = RosterEntry.objects.create(
            roster=copy,
            position=entry.position,
            profile=entry.profile,
            profile_version=entry.profile_version,
            name=entry.name,
            count=entry.count,
        )
        RosterEntryItem.objects.bulk_create(
            RosterEntryItem(
                entry=new_entry, position=row.position, item=row.item, item_version=row.item_version
            )
            for row in entry.items.all()
        )
        copies[entry.pk] = new_entry
    ArmyUnit.objects.bulk_create(
        ArmyUnit(
            roster=copy,
            **{
                f.name: getattr(unit, f.name)
                for f in ArmyUnit._meta.concrete_fields
                if f.name not in {"id", "roster"}
            },
        )
        for unit in source.units.all()
    )
    for entry in source.entries.all():
        if entry.attach_to_id in copies:
            copy_entry = copies[entry.pk]
            copy_entry.attach_to = copies[entry.attach_to_id]
            copy_entry.save(update_fields=["attach_to"])
    return roster_refresh_legality(copy)


@transaction.atomic
def roster_delete(*, owner: User, roster_id: int) -> None:
    locked_roster(owner, roster_id).delete()


@transaction.atomic
def roster_share(*, owner: User, roster_id: int, enabled: bool) -> Roster:
    """Turn the read-only share link on (a new unguessable token) or off."""
    roster = locked_roster(owner, roster_id)
    roster.share_token = secrets.token_urlsafe(24) if enabled else None
    roster.save(update_fields=["share_token", "updated_at"])
    return roster
