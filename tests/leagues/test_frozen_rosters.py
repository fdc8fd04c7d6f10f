"""A season counts registered rosters with the costs it pinned (issue 17: "A season may pin its
own costs, so an edit never changes a frozen league roster's points"), and every place agrees on
what that admits: registration refuses a roster the rules cannot read, the join page and the
roster-change form offer the rosters legal with the season's costs (not today's), a re-pin reads
the registrations without a query each, a card a pinned season holds is not deleted, and a
season of a system without catalogue costs is never pinned. Played with the Universalis sample
catalogue (a profile's cost: its ``points``)."""

from __future__ import annotations

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.test import APIClient

from apps.catalog.models import Profile
from apps.catalog.pins import CardHeld
from apps.leagues import services
from apps.leagues.models import League, Season
from apps.leagues.season_catalog import (
    frozen_report,
    plays_costs,
    season_costs_repin,
)
from apps.rosters.documents import MAX_ENTRIES
from apps.rosters.models import RosterEntry
from tests.accounts.factories import UserFactory
from tests.leagues.factories import join as join_plain
from tests.leagues.factories import make_league, make_season, organiser_of
from tests.leagues.test_pinned_costs import (
    EISENWACHT_POINTS,
    SOLDIER,
    join,
    roster,
    set_points,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(catalogue: None) -> League:
    return make_league(system="universalis")


@pytest.fixture
def season(league: League) -> Season:
    return make_season(league)


def _code(season: Season) -> str:
    return season.league.join_code


# --- A roster the rules cannot read is not legal ----------------------------------------------


def test_a_roster_of_more_entries_than_a_document_holds_is_refused(season: Season) -> None:
    """A roster saved before the builder's cap (52 entries, above its points limit too) cannot
    be read as a document (at most 50 entries): registration refuses it, naming why."""
    player = UserFactory()
    big = roster(player)
    soldier = Profile.objects.get(system__slug="universalis", slug=SOLDIER)
    for position in range(5, MAX_ENTRIES + 3):
        RosterEntry.objects.create(
            roster=big, position=position, profile=soldier, profile_version=soldier.version
        )
    assert RosterEntry.objects.filter(roster=big).count() == MAX_ENTRIES + 2
    with pytest.raises(services.LeagueError) as refused:
        services.season_join(user=player, season_id=season.pk, code=_code(season), roster_id=big.pk)
    assert refused.value.code == "roster_not_legal"
    assert f"at most {MAX_ENTRIES} entries" in refused.value.message
    season.refresh_from_db()
    assert not season.registrations.exists() and season.catalog_pin is None
    # The join page does not offer it either.
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(player)
    page = client.get(reverse("leagues:join") + f"?code={_code(season)}")
    ((_season, form),) = page.context["season_forms"]
    assert big.pk not in [pk for pk, _name in form.fields["roster"].choices]


def test_a_roster_change_the_rules_cannot_read_is_refused(season: Season) -> None:
    player = UserFactory()
    registration = join(season, player)
    big = roster(player)
    soldier = Profile.objects.get(system__slug="universalis", slug=SOLDIER)
    for position in range(5, MAX_ENTRIES + 3):
        RosterEntry.objects.create(
            roster=big, position=position, profile=soldier, profile_version=soldier.version
        )
    with pytest.raises(services.LeagueError) as refused:
        services.roster_change_request(
            user=player, key=season.league.key, registration_id=registration.pk, roster_id=big.pk
        )
    assert refused.value.code == "roster_not_legal"
    # Shown, where one was registered before the check, without a report.
    assert frozen_report(season, {"format": "skirmish-roster/1", "entries": "all"}) is None


# --- The pages offer what registration takes --------------------------------------------------


def test_the_join_page_offers_each_season_the_rosters_legal_with_its_costs(
    league: League,
) -> None:
    """A roster exactly at its limit with the season's costs is offered for the pinned season
    although the builder calls it not legal now; the unpinned season (today's costs) does not
    offer it. Joining with it works: page and service agree."""
    pinned = make_season(league)
    join(pinned, UserFactory())
    today = make_season(league, name="Herbst")
    set_points(SOLDIER, 40)  # the group of 145 points costs 155 now
    newcomer = UserFactory()
    exact = roster(newcomer, limit=EISENWACHT_POINTS)
    roomy = roster(newcomer, limit=EISENWACHT_POINTS + 10)
    exact.refresh_from_db()
    assert not exact.legal
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(newcomer)
    url = reverse("leagues:join") + f"?code={league.join_code}"
    offered = {
        season.pk: {pk for pk, _name in form.fields["roster"].choices}
        for season, form in client.get(url).context["season_forms"]
    }
    assert offered == {pinned.pk: {exact.pk, roomy.pk}, today.pk: {roomy.pk}}
    response = client.post(
        reverse("leagues:join"),
        {"code": league.join_code, "season": pinned.pk, "roster": exact.pk},
    )
    assert response.status_code == 302
    assert pinned.registrations.filter(player=newcomer, roster=exact).exists()


def test_the_join_page_reads_the_catalogue_once_per_pin(league: League) -> None:
    """Offering rosters for several seasons costs the same queries for 1 roster as for 6."""
    for name in ("Frühjahr", "Sommer", "Herbst"):
        join(make_season(league, name=name), UserFactory())
    set_points(SOLDIER, 40)
    newcomer = UserFactory()
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(newcomer)
    url = reverse("leagues:join") + f"?code={league.join_code}"

    def queries() -> int:
        client.get(url)  # the catalogue cache warm, as on a server
        with CaptureQueriesContext(connection) as captured:
            client.get(url)
        return len(captured)

    roster(newcomer)
    one = queries()
    for _ in range(5):
        roster(newcomer, "nebelzirkel", limit=None)
    assert queries() == one


def test_the_roster_change_form_offers_the_rosters_legal_with_the_seasons_costs(
    season: Season,
) -> None:
    player = UserFactory()
    registration = join(season, player)
    set_points(SOLDIER, 40)
    exact = roster(player, limit=EISENWACHT_POINTS)  # legal with the season's costs only
    tight = roster(player, limit=EISENWACHT_POINTS - 5)  # legal with neither
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(player)
    url = reverse("leagues:player", args=[season.league.key, season.pk, registration.pk])
    form = client.get(url).context["roster_form"]
    choices = {pk for pk, _name in form.fields["roster"].choices}
    assert exact.pk in choices and tight.pk not in choices
    services.roster_change_request(
        user=player, key=season.league.key, registration_id=registration.pk, roster_id=exact.pk
    )


# --- A re-pin reads the registrations in a constant number of queries ---------------------------


def test_a_repin_costs_the_same_queries_for_2_registrations_as_for_12(season: Season) -> None:
    organiser = organiser_of(season.league)

    def repin_queries(points: int) -> int:
        set_points(SOLDIER, points)
        with CaptureQueriesContext(connection) as captured:
            outcome = season_costs_repin(user=organiser, key=season.league.key, season_id=season.pk)
        assert outcome.changed
        return len(captured)

    for _ in range(2):
        join(season, UserFactory())
    two = repin_queries(40)
    for _ in range(10):
        join(season, UserFactory(), limit=EISENWACHT_POINTS + 10)
    assert season.registrations.count() == 12
    assert repin_queries(35) == two


# --- Deleting a card a pinned season holds ------------------------------------------------------


def _unused_profile() -> Profile:
    """A Universalis card no saved roster uses (a roster's entry protects its card already)."""
    used = RosterEntry.objects.values("profile")
    profile = Profile.objects.filter(system__slug="universalis").exclude(pk__in=used).first()
    assert profile is not None
    return profile


def test_a_card_a_pinned_season_holds_is_not_deleted(season: Season) -> None:
    card = _unused_profile()
    join(season, UserFactory())
    with pytest.raises(CardHeld) as refused, transaction.atomic():
        card.delete()
    assert f"the season “{season.name}” of the league “{season.league.name}”" in str(refused.value)
    assert Profile.objects.filter(pk=card.pk).exists()
    with pytest.raises(CardHeld), transaction.atomic():
        Profile.objects.filter(pk=card.pk).delete()
    assert Profile.objects.filter(pk=card.pk).exists()


def test_a_card_no_pin_holds_is_deleted(season: Season) -> None:
    card = _unused_profile()
    card.delete()
    assert not Profile.objects.filter(pk=card.pk).exists()


def test_the_admin_refuses_deleting_a_card_a_pinned_season_holds(season: Season) -> None:
    card = _unused_profile()
    join(season, UserFactory())
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    url = reverse("admin:catalog_profile_delete", args=[card.pk])
    page = client.get(url).content.decode()
    assert f"{card.name} cannot be deleted" in page and season.league.name in page
    client.post(url, {"post": "yes"})
    action = client.post(
        reverse("admin:catalog_profile_changelist"),
        {"action": "delete_selected", ACTION_CHECKBOX_NAME: [card.pk], "post": "yes"},
    )
    assert "cannot be deleted" in action.content.decode()
    assert Profile.objects.filter(pk=card.pk).exists()


# --- A system without catalogue costs ---------------------------------------------------------


def test_a_season_without_catalogue_costs_is_not_pinned_nor_repinned(db: None) -> None:
    """The test system "plain" has no roster rules; Bunkers' armies come from outside."""
    season = make_season(make_league())
    assert not plays_costs(season)
    join_plain(season, 2)
    season.refresh_from_db()
    assert (season.catalog_pin, season.catalog_pinned_at) == (None, None)
    organiser = organiser_of(season.league)
    with pytest.raises(services.LeagueError) as refused:
        season_costs_repin(user=organiser, key=season.league.key, season_id=season.pk)
    assert (refused.value.code, refused.value.status) == ("no_costs", 409)
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    api.force_authenticate(organiser)
    response = api.post(f"/api/v1/leagues/{season.league.key}/seasons/{season.pk}/costs/")
    assert response.status_code == 409 and response.json()["code"] == "no_costs"
    season.refresh_from_db()
    assert season.catalog_pin is None
    bunkers = make_season(make_league(system="bunkers"))
    assert not plays_costs(bunkers)
