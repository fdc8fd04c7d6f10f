"""A catalogue read at pinned versions (``apps.catalog.pins``, issue 17: "A season may pin its own
costs"): each card at the revision of its pinned version; a card added since, or a pin that is
malformed, is read as it is now. And the admin shows every card's cost and whether it is
provisional (``apps.catalog.costs``), for any system by its schema."""

from __future__ import annotations

import logging

import pytest
from django.urls import reverse

from apps.catalog import services
from apps.catalog.costs import is_provisional, profile_cost
from apps.catalog.models import GameSystem, Item, Profile, ProfileRevision
from apps.catalog.pins import catalog_versions, pin_differs, pinned_catalog
from apps.rosters.selectors import catalog_data
from apps.systems.core.registry import registry
from tests.accounts.factories import UserFactory

pytestmark = pytest.mark.django_db

POWER = "nebelmagie-geisterhand"
SOLDIER = "eisenwacht-wachsoldat"


@pytest.fixture
def universalis(catalogue: None) -> GameSystem:
    return GameSystem.objects.get(slug="universalis")


def item_cost(system: GameSystem, slug: str, cost: int) -> Item:
    item = Item.objects.get(system=system, slug=slug)
    return services.item_save(
        system=system,
        slug=slug,
        name=item.name,
        kind=item.kind,
        cost=cost,
        stats=item.stats,
        sample=item.sample,
        item=item,
    )


def profile_points(system: GameSystem, slug: str, points: int) -> Profile:
    profile = Profile.objects.get(system=system, slug=slug)
    return services.profile_save(
        system=system,
        slug=slug,
        name=profile.name,
        factions=list(profile.factions.all()),
        stats={**profile.stats, "points": points},
        sample=profile.sample,
        profile=profile,
    )


def test_an_item_and_a_profile_are_read_at_their_pinned_version(universalis: GameSystem) -> None:
    pin = catalog_versions(universalis)
    item_cost(universalis, POWER, 15)
    profile_points(universalis, SOLDIER, 40)
    current = catalog_data(universalis)
    assert current.items[POWER].cost == 15 and current.profiles[SOLDIER].stats["points"] == 40
    assert pin_differs(pin, current)
    pinned = pinned_catalog(universalis, pin, current)
    assert (pinned.items[POWER].cost, pinned.items[POWER].version) == (0, 1)
    assert pinned.items[POWER].kind == "power"
    assert (pinned.profiles[SOLDIER].stats["points"], pinned.profiles[SOLDIER].version) == (30, 1)
    assert pinned.profiles[SOLDIER].factions == ("eisenwacht",)
    assert not pin_differs(catalog_versions(universalis), current)


def test_a_card_added_after_the_pin_is_read_as_it_is(universalis: GameSystem) -> None:
    pin = catalog_versions(universalis)
    del pin["items"][POWER]
    item_cost(universalis, POWER, 15)
    pinned = pinned_catalog(universalis, pin, catalog_data(universalis))
    assert pinned.items[POWER].cost == 15


@pytest.mark.parametrize(
    "pin",
    [
        None,
        [],
        {"profiles": "all", "items": None},
        {"profiles": {SOLDIER: "1"}, "items": {POWER: True}},
        {"profiles": {SOLDIER: 99}, "items": {POWER: -1}},
    ],
)
def test_a_malformed_pin_reads_the_current_cards(universalis: GameSystem, pin: object) -> None:
    profile_points(universalis, SOLDIER, 40)
    item_cost(universalis, POWER, 15)
    pinned = pinned_catalog(universalis, pin, catalog_data(universalis))
    assert pinned.profiles[SOLDIER].stats["points"] == 40 and pinned.items[POWER].cost == 15


def test_a_pinned_version_without_its_revision_is_read_as_now_and_logged(
    universalis: GameSystem, caplog: pytest.LogCaptureFixture
) -> None:
    """Only data written around the services lacks a revision: the card is read as it is now
    (the season's pages stay up) and the error is logged, never silently."""
    pin = catalog_versions(universalis)
    profile_points(universalis, SOLDIER, 40)
    ProfileRevision.objects.filter(profile__slug=SOLDIER, version=1).delete()
    with caplog.at_level(logging.ERROR, logger="apps.catalog.pins"):
        pinned = pinned_catalog(universalis, pin, catalog_data(universalis))
    assert pinned.profiles[SOLDIER].stats["points"] == 40
    (record,) = caplog.records
    assert record.levelno == logging.ERROR
    assert f"{SOLDIER} v1 (now v2)" in record.getMessage()
    caplog.clear()
    pinned_catalog(universalis, catalog_versions(universalis), catalog_data(universalis))
    assert not caplog.records


# --- The admin shows costs ----------------------------------------------------------------------


@pytest.fixture
def staff_client(client, universalis):  # noqa: ANN001, ANN201
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


def test_a_profiles_cost_comes_from_its_systems_schema() -> None:
    universalis = registry().get("universalis").catalog
    deathmatch = registry().get("deathmatch").catalog
    assert profile_cost(universalis, {"points": 30}) == 30
    assert profile_cost(deathmatch, {"points": 30}) is None  # sized by fighters: no cost
    assert profile_cost(universalis, {"points": "30"}) is None
    assert is_provisional({"provisional": True}) and not is_provisional({"provisional": "yes"})


def test_the_profile_list_shows_cost_and_provisional(staff_client, universalis) -> None:  # noqa: ANN001
    Profile.objects.filter(system=universalis, slug=SOLDIER).update(
        stats={**Profile.objects.get(slug=SOLDIER).stats, "provisional": True}
    )
    url = reverse("admin:catalog_profile_changelist") + f"?system__id__exact={universalis.pk}"
    html = staff_client.get(url).content.decode()
    assert "column-cost_shown" in html and "column-provisional_shown" in html
    marked = staff_client.get(url + "&provisional=yes")
    assert [p.slug for p in marked.context["cl"].result_list] == [SOLDIER]
    others = staff_client.get(url + "&provisional=no").context["cl"].result_list
    unmarked = [
        p.slug for p in Profile.objects.filter(system=universalis) if not is_provisional(p.stats)
    ]
    assert SOLDIER not in unmarked
    assert sorted(p.slug for p in others) == sorted(unmarked)


def test_the_change_forms_show_the_cost_in_its_own_fieldset(staff_client) -> None:  # noqa: ANN001
    profile = Profile.objects.get(slug=SOLDIER)
    response = staff_client.get(reverse("admin:catalog_profile_change", args=[profile.pk]))
    fieldsets = response.context["adminform"].fieldsets
    # The fieldset's name is translated (the staff user's browser may ask for German).
    assert ["stats__points"] in [opts["fields"] for _name, opts in fieldsets]
    assert response.content.decode().count('name="stats__points"') == 1
    item = Item.objects.get(slug=POWER)
    response = staff_client.get(reverse("admin:catalog_item_change", args=[item.pk]))
    fieldsets = response.context["adminform"].fieldsets
    assert ["cost"] in [opts["fields"] for _name, opts in fieldsets]
    assert response.content.decode().count('name="cost"') == 1
    listing = staff_client.get(reverse("admin:catalog_item_changelist")).content.decode()
    assert "column-cost" in listing and "column-provisional_shown" in listing
