"""Two tablets tapping at once: every change lands, none is lost or doubled (PostgreSQL)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections

from apps.rosters import services
from apps.rosters.models import RosterEntry
from tests.rosters.factories import legal_standard_team

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="row locks need PostgreSQL; SQLite serialises writers itself (CI runs PostgreSQL)",
)
def test_simultaneous_adds_to_one_roster_all_land_in_distinct_places(deathmatch, user) -> None:
    document = legal_standard_team()
    document["entries"] = []
    roster = services.roster_import(owner=user, document=document)
    profiles = [
        "organon-konzernschuetze",
        "organon-atalante-klon",
        "organon-wachdrohne-s7",
        "organon-syntek-techniker",
        "organon-argus-geschuetzturm",
        "phalanx-grenadier",
    ]
    start = threading.Barrier(len(profiles))
    errors: list[BaseException] = []

    def add(profile: str) -> None:
        try:
            start.wait()
            services.roster_entry_add(owner=user, roster_id=roster.pk, profile_slug=profile)
        except BaseException as error:  # noqa: BLE001 - reported by the assertion below
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=add, args=(p,)) for p in profiles]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    assert errors == []
    entries = RosterEntry.objects.filter(roster=roster)
    assert sorted(entries.values_list("profile__slug", flat=True)) == sorted(profiles)
    assert sorted(entries.values_list("position", flat=True)) == list(range(1, 7))
    roster.refresh_from_db()
    assert roster.issue_count > 0  # the stored legality reflects all six additions
