"""The generic entry assignment (``attach_to``): one entry assigned to another of its roster,
as Universalis assigns a telematon to its operator, through documents, services and the API."""

from __future__ import annotations

from typing import Any

import pytest

from apps.rosters import services
from apps.rosters.documents import DocumentInvalid, roster_document
from apps.rosters.selectors import roster_for_owner
from tests.accounts.factories import UserFactory
from tests.matches.test_universalis import group

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("catalogue")]


def test_import_and_export_keep_the_assignment_by_index() -> None:
    owner = UserFactory()
    roster = services.roster_import(owner=owner, document=group())
    exported = roster_document(roster_for_owner(owner, roster.pk))
    assert [entry.get("attach_to") for entry in exported["entries"]] == [None, None, None, 2]


@pytest.mark.parametrize("bad", [4, -1, 3, "2", True])
def test_an_assignment_to_no_other_entry_is_a_problem_and_saves_nothing(bad: Any) -> None:
    owner = UserFactory()
    document = group()
    document["entries"][3]["attach_to"] = bad
    with pytest.raises(DocumentInvalid) as refused:
        services.roster_import(owner=owner, document=document)
    assert refused.value.problems[0].code == "attach_invalid"
    assert refused.value.problems[0].path == "entries[3].attach_to"
    assert not owner.rosters.exists()


def test_duplicate_keeps_the_assignment() -> None:
    owner = UserFactory()
    roster = services.roster_import(owner=owner, document=group())
    copy = services.roster_duplicate(owner=owner, roster_id=roster.pk, name="Kopie")
    assert roster_document(roster_for_owner(owner, copy.pk))["entries"][3]["attach_to"] == 2
    assert copy.legal


def test_removing_the_operator_releases_its_telematon() -> None:
    owner = UserFactory()
    roster = services.roster_import(owner=owner, document=group())
    entries = list(roster.entries.order_by("position"))
    fresh = services.roster_entry_remove(owner=owner, roster_id=roster.pk, entry_id=entries[2].pk)
    assert not fresh.legal
    assert "attach_to" not in roster_document(roster_for_owner(owner, roster.pk))["entries"][2]


def test_an_entry_cannot_be_assigned_to_itself() -> None:
    owner = UserFactory()
    roster = services.roster_import(owner=owner, document=group())
    entry = roster.entries.order_by("position").last()
    assert entry is not None
    with pytest.raises(services.RosterError):
        services.roster_entry_attach(
            owner=owner, roster_id=roster.pk, entry_id=entry.pk, attach_to_id=entry.pk
        )


def test_validate_endpoint_reports_an_unassigned_telematon(api_client: Any) -> None:
    document = group()
    del document["entries"][3]["attach_to"]
    answer = api_client.post("/api/v1/rosters/validate/", document, format="json").json()
    assert not answer["valid"]
    assert [i["code"] for i in answer["issues"]] == ["telematon_unassigned"]
    assert answer["issues"][0]["entry"] == 3
    document["entries"][3]["attach_to"] = 2
    valid = api_client.post("/api/v1/rosters/validate/", document, format="json").json()
    assert valid["valid"] and valid["totals"]["telematons"] == 1


def test_api_put_replaces_the_entries_with_their_assignments(api_client: Any) -> None:
    owner = UserFactory()
    api_client.force_authenticate(owner)
    created = api_client.post("/api/v1/rosters/", group("nebelzirkel"), format="json").json()
    replaced = api_client.put(f"/api/v1/rosters/{created['id']}/", group(), format="json").json()
    assert replaced["entries"][3]["attach_to"] == 2 and replaced["valid"]
