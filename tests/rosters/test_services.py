"""Roster services: every change re-validates; imports save all or nothing; versions pin."""

from __future__ import annotations

from dataclasses import replace

import pytest

from apps.catalog.models import Profile
from apps.catalog.services import profile_save
from apps.rosters import services
from apps.rosters.documents import DocumentInvalid, roster_document
from apps.rosters.models import Roster, RosterEntry
from apps.rosters.selectors import roster_for_owner, roster_report
from apps.systems.core.registry import registry
from tests.accounts.factories import UserFactory
from tests.rosters.factories import legal_standard_team

pytestmark = pytest.mark.django_db


def test_import_of_legal_team_is_marked_legal(deathmatch, user) -> None:
    roster = services.roster_import(owner=user, document=legal_standard_team())
    assert roster.legal is True
    assert roster.issue_count == 0
    totals = roster_report(roster).totals
    assert totals["mercenaries"] == 1
    assert totals["arp_spent"] == 3


def test_import_round_trip_gives_the_same_document(deathmatch, user) -> None:
    document = legal_standard_team()
    roster = services.roster_import(owner=user, document=document)
    exported = roster_document(roster_for_owner(user, roster.pk))
    for entry in document["entries"]:
        entry.setdefault("count", 1)
        entry.setdefault("name", "")
    assert exported == document


def test_import_reports_every_problem_and_saves_nothing(deathmatch, user) -> None:
    document = legal_standard_team(system="deathmatch")
    document["entries"][1]["profile"] = "no-such-fighter"
    document["entries"][2]["items"] = ["no-such-card", "medkit"]
    document["entries"][3]["count"] = -2
    with pytest.raises(DocumentInvalid) as raised:
        services.roster_import(owner=user, document=document)
    found = {(p.code, p.path) for p in raised.value.problems}
    assert found == {
        ("unknown_profile", "entries[1].profile"),
        ("unknown_item", "entries[2].items[0]"),
        ("count_invalid", "entries[3].count"),
    }
    assert not Roster.objects.exists()
    assert not RosterEntry.objects.exists()


def test_import_of_another_system_is_refused(deathmatch, user) -> None:
    with pytest.raises(DocumentInvalid) as raised:
        services.roster_import(owner=user, document=legal_standard_team(system="chess", name=""))
    found = {(p.code, p.path) for p in raised.value.problems}
    assert found == {("unknown_system", "system"), ("required", "name")}


def test_import_for_a_system_without_a_builder_is_refused(deathmatch, user, monkeypatch) -> None:
    # Every registered system builds rosters now: take Stahlgewitter's roster rules away.
    systems = registry()._systems
    monkeypatch.setitem(systems, "stahlgewitter", replace(systems["stahlgewitter"], rosters=None))
    document = legal_standard_team(system="stahlgewitter", faction=None, entries=[])
    with pytest.raises(DocumentInvalid) as raised:
        services.roster_import(owner=user, document=document)
    assert [(p.code, p.path) for p in raised.value.problems] == [("not_supported", "system")]
    assert not Roster.objects.exists()


def test_import_without_a_faction_is_refused(deathmatch, user) -> None:
    with pytest.raises(DocumentInvalid) as raised:
        services.roster_import(owner=user, document=legal_standard_team(faction=None))
    assert [(p.code, p.path) for p in raised.value.problems] == [("required", "faction")]
    assert not Roster.objects.exists()


def test_replace_refuses_a_document_of_another_system(deathmatch, user) -> None:
    roster = services.roster_import(owner=user, document=legal_standard_team())
    with pytest.raises(DocumentInvalid) as raised:
        services.roster_replace(
            owner=user, roster_id=roster.pk, document=legal_standard_team(system="grundregeln")
        )
    assert [(p.code, p.path) for p in raised.value.problems] == [("wrong_system", "system")]
    assert roster_for_owner(user, roster.pk).entries.count() == 5


def test_illegal_roster_is_saved_as_draft(deathmatch, user) -> None:
    document = legal_standard_team()
    document["entries"] = document["entries"][:2]
    roster = services.roster_import(owner=user, document=document)
    assert roster.legal is False
    assert roster.issue_count > 0


def test_adding_a_fighter_updates_legality(deathmatch, user) -> None:
    document = legal_standard_team()
    missing = document["entries"].pop()
    roster = services.roster_import(owner=user, document=document)
    assert roster.legal is False
    roster = services.roster_entry_add(
        owner=user, roster_id=roster.pk, profile_slug=missing["profile"]
    )
    assert roster.legal is True


def test_changed_card_keeps_old_version_in_existing_roster(deathmatch, user) -> None:
    roster = services.roster_import(owner=user, document=legal_standard_team())
    pool_before = roster_report(roster_for_owner(user, roster.pk)).totals["arp_pool"]
    profile = Profile.objects.get(slug="organon-konzernschuetze")
    changed = {**profile.stats, "arp": profile.stats["arp"] + 5}
    updated = profile_save(
        system=deathmatch,
        slug=profile.slug,
        name=profile.name,
        factions=list(profile.factions.all()),
        stats=changed,
        sample=profile.sample,
    )
    assert updated.version == profile.version + 1
    entry = RosterEntry.objects.get(roster=roster, profile=profile)
    assert entry.profile_version == profile.version
    # The roster is still judged by the card it was built with ...
    assert roster_report(roster_for_owner(user, roster.pk)).totals["arp_pool"] == pool_before
    # ... until its owner moves the entry to the new version.
    services.roster_entry_update_version(owner=user, roster_id=roster.pk, entry_id=entry.pk)
    pool_after = roster_report(roster_for_owner(user, roster.pk)).totals["arp_pool"]
    assert pool_after == pool_before + 5
    entry.refresh_from_db()
    assert entry.profile_version == updated.version


def test_other_users_roster_is_not_found(deathmatch, user) -> None:
    roster = services.roster_import(owner=user, document=legal_standard_team())
    stranger = UserFactory()
    from django.http import Http404

    with pytest.raises(Http404):
        services.roster_entry_add(
            owner=stranger, roster_id=roster.pk, profile_slug="organon-konzernschuetze"
        )


def test_duplicate_copies_entries_and_items(deathmatch, user) -> None:
    roster = services.roster_import(owner=user, document=legal_standard_team())
    copy = services.roster_duplicate(owner=user, roster_id=roster.pk, name="Copy")
    original = roster_document(roster_for_owner(user, roster.pk))
    duplicated = roster_document(roster_for_owner(user, copy.pk))
    assert {**duplicated, "name": original["name"]} == original
    assert copy.legal is True


def test_share_link_is_unguessable_and_can_be_revoked(deathmatch, user) -> None:
    roster = services.roster_import(owner=user, document=legal_standard_team())
    shared = services.roster_share(owner=user, roster_id=roster.pk, enabled=True)
    assert shared.share_token is not None and len(shared.share_token) >= 32
    again = services.roster_share(owner=user, roster_id=roster.pk, enabled=True)
    assert again.share_token != shared.share_token
    assert services.roster_share(owner=user, roster_id=roster.pk, enabled=False).share_token is None
