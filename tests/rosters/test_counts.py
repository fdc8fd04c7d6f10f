"""An entry's number of identical models on the web builder: a squad of 8-10 Stahlgewitter
soldiers is one entry whose count is set with −/+ or typed, checked at the edge (the form), in
the service (the system's ``max_count``) and in the database; the totals follow; a roster built
on the web stays importable (at most ``MAX_ENTRIES`` entries). Per system: Stahlgewitter,
Grundregeln and Universalis count models; Deathmatch builds its 3-7 fighters one by one."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import IntegrityError, transaction

from apps.catalog.models import Faction, GameSystem, Profile
from apps.rosters import services
from apps.rosters.documents import MAX_ENTRIES, roster_document
from apps.rosters.models import MAX_ENTRY_COUNT, RosterEntry
from apps.systems.core.registry import registry
from tests.accounts.factories import UserFactory

pytestmark = pytest.mark.django_db


def legion(user: Any, **settings: object) -> Any:
    system = GameSystem.objects.get(slug="stahlgewitter")
    return services.roster_create(
        owner=user,
        system=system,
        name="Höllenhunde",
        faction=Faction.objects.get(system=system, slug="legion-666"),
        settings=settings or {"points_limit": 600},
    )


def test_every_system_says_how_many_models_an_entry_may_be() -> None:
    """Deathmatch: "Game size: small 3, standard 5, large 7" fighters, each with its own
    equipment from the team's pool, so one fighter per entry; the others count models."""
    most = {info.slug: info.rosters.max_count for info in registry().all() if info.rosters}
    assert most == {
        "deathmatch": 1,
        "grundregeln": MAX_ENTRY_COUNT,
        "universalis": MAX_ENTRY_COUNT,
        "stahlgewitter": MAX_ENTRY_COUNT,
        "bunkers": 1,
    }


def test_a_squad_is_added_as_one_entry_and_its_count_stepped_and_typed(
    catalogue, user, client
) -> None:
    client.force_login(user)
    roster = legion(user)
    base = f"/rosters/{roster.pk}/"
    client.post(f"{base}fighters/", {"profile": "legion-666-offizier"})
    head = roster.entries.get()
    response = client.post(
        f"{base}fighters/",
        {"profile": "legion-666-soldat", "attach_to": head.pk, "count": "9"},
        HTTP_HX_REQUEST="true",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    squad = roster.entries.exclude(pk=head.pk).get()
    assert (squad.count, squad.attach_to_id) == (9, head.pk)
    page = response.content.decode()
    # The totals follow at once: 28 + 9 × 25 points, ten models.
    assert "<dd>253<small>/600</small></dd>" in page and "<dd>10</dd>" in page
    assert f'id="count-{squad.pk}"' in page and 'max="20"' in page
    client.post(f"{base}fighters/{squad.pk}/count/", {"count": "9", "change": "1"})
    client.post(f"{base}fighters/{squad.pk}/count/", {"count": "9", "change": "1"})
    squad.refresh_from_db()
    assert squad.count == 11  # two taps on + add two, whatever the page showed
    response = client.post(
        f"{base}fighters/{squad.pk}/count/",
        {"count": "8"},
        HTTP_HX_REQUEST="true",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    squad.refresh_from_db()
    assert squad.count == 8 and "<dd>228<small>/600</small></dd>" in response.content.decode()


@pytest.mark.parametrize("sent", [{"count": "0"}, {"count": "21"}, {"count": "x"}, {}])
def test_a_count_out_of_range_is_refused_at_the_edge(catalogue, user, client, sent) -> None:
    client.force_login(user)
    roster = legion(user)
    client.post(f"/rosters/{roster.pk}/fighters/", {"profile": "legion-666-soldat"})
    entry = roster.entries.get()
    response = client.post(
        f"/rosters/{roster.pk}/fighters/{entry.pk}/count/",
        sent,
        HTTP_HX_REQUEST="true",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 422
    assert "The number of models must be from 1 to 20." in response.content.decode()
    entry.refresh_from_db()
    assert entry.count == 1


def test_a_step_below_one_is_refused_and_the_minus_button_is_disabled_at_one(
    catalogue, user, client
) -> None:
    client.force_login(user)
    roster = legion(user)
    page = client.post(
        f"/rosters/{roster.pk}/fighters/", {"profile": "legion-666-soldat"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    entry = roster.entries.get()
    assert f'id="count-{entry.pk}-less" disabled' in page
    response = client.post(
        f"/rosters/{roster.pk}/fighters/{entry.pk}/count/",
        {"change": "-1"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 422
    entry.refresh_from_db()
    assert entry.count == 1


def test_the_database_refuses_a_count_past_the_limit(catalogue, user) -> None:
    roster = legion(user)
    profile = Profile.objects.get(system=roster.system, slug="legion-666-soldat")
    with pytest.raises(IntegrityError), transaction.atomic():
        RosterEntry.objects.create(
            roster=roster,
            position=1,
            profile=profile,
            profile_version=profile.version,
            count=MAX_ENTRY_COUNT + 1,
        )


def test_deathmatch_builds_fighter_by_fighter(deathmatch, user, client) -> None:
    client.force_login(user)
    roster = services.roster_create(
        owner=user,
        system=deathmatch,
        name="Team",
        faction=deathmatch.factions.first(),
        settings={"game_size": 5},
    )
    profile = Profile.objects.filter(system=deathmatch).first()
    assert profile is not None
    page = client.post(
        f"/rosters/{roster.pk}/fighters/", {"profile": profile.slug}, HTTP_HX_REQUEST="true"
    ).content.decode()
    entry = roster.entries.get()
    assert f"count-{entry.pk}" not in page
    response = client.post(
        f"/rosters/{roster.pk}/fighters/{entry.pk}/count/",
        {"count": "2"},
        HTTP_HX_REQUEST="true",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 422
    assert "every model is an entry of its own" in response.content.decode()
    entry.refresh_from_db()
    assert entry.count == 1


@pytest.mark.parametrize("slug", ["grundregeln", "universalis"])
def test_grundregeln_and_universalis_offer_the_count(catalogue, user, client, slug) -> None:
    client.force_login(user)
    system = GameSystem.objects.get(slug=slug)
    profile = Profile.objects.filter(system=system).first()
    assert profile is not None
    roster = services.roster_create(
        owner=user, system=system, name="Team", faction=system.factions.first(), settings={}
    )
    client.post(f"/rosters/{roster.pk}/fighters/", {"profile": profile.slug})
    entry = roster.entries.get()
    client.post(f"/rosters/{roster.pk}/fighters/{entry.pk}/count/", {"count": "3"})
    page = client.get(f"/rosters/{roster.pk}/").content.decode()
    entry.refresh_from_db()
    assert entry.count == 3 and f'id="count-{entry.pk}"' in page and "×3" in page


def test_a_roster_keeps_at_most_as_many_entries_as_a_document_holds(catalogue, user) -> None:
    roster = legion(user)
    for _ in range(MAX_ENTRIES):
        services.roster_entry_add(
            owner=user, roster_id=roster.pk, profile_slug="legion-666-kultist"
        )
    with pytest.raises(services.RosterError) as refused:
        services.roster_entry_add(
            owner=user, roster_id=roster.pk, profile_slug="legion-666-kultist"
        )
    assert refused.value.code == "too_many_entries"
    assert RosterEntry.objects.filter(roster=roster).count() == MAX_ENTRIES


def test_a_600_point_army_built_on_the_web_exports_and_imports_again(
    catalogue, user, client
) -> None:
    client.force_login(user)
    roster = legion(user)
    base = f"/rosters/{roster.pk}/"
    for leader, soldiers in (("legion-666-offizier", 9), ("legion-666-unteroffizier", 7)):
        client.post(f"{base}fighters/", {"profile": leader})
        head = roster.entries.order_by("-position").first()
        assert head is not None
        client.post(f"{base}fighters/{head.pk}/items/", {"item": "sturmgewehre"})
        client.post(
            f"{base}fighters/",
            {"profile": "legion-666-soldat", "attach_to": head.pk, "count": str(soldiers)},
        )
        squad = roster.entries.order_by("-position").first()
        assert squad is not None
        client.post(f"{base}fighters/{squad.pk}/items/", {"item": "sturmgewehre"})
    document = roster_document(services.roster_refresh_legality(roster))
    assert len(document["entries"]) == 4
    assert [e["count"] for e in document["entries"]] == [1, 9, 1, 7]
    again = services.roster_import(owner=user, document=document)
    assert again.legal and again.entries.count() == 4
    assert sum(e.count for e in again.entries.all()) == 18


def test_only_the_owner_counts_an_entry(catalogue, user, client) -> None:
    roster = legion(user)
    services.roster_entry_add(owner=user, roster_id=roster.pk, profile_slug="legion-666-soldat")
    entry = RosterEntry.objects.get(roster=roster)
    url = f"/rosters/{roster.pk}/fighters/{entry.pk}/count/"
    assert client.post(url, {"count": "5"}).status_code == 302  # to the login page
    client.force_login(UserFactory())
    assert client.post(url, {"count": "5"}).status_code == 404
    assert client.post(url, {"count": "0"}).status_code == 404
    entry.refresh_from_db()
    assert entry.count == 1
