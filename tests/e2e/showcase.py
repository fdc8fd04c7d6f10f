"""A player with real data in every part of the app, for the browser tests that visit every page.

One user owns a team per system, a match per system (the Deathmatch one in its first activation,
so that the action buttons show), and organises the sample league, whose season has standings,
published rounds and results in every state. The browser is logged in by the session cookie of
a Django test client, which is quicker than the login form and tests nothing less here: the
login pages are visited too.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.test import Client

from apps.catalog.models import GameSystem
from apps.leagues.sample import sample_league_ensure
from apps.matches import services as match_services
from apps.rosters import services as roster_services
from tests.accounts.factories import UserFactory
from tests.matches.bunkers import bunkers_army, bunkers_match
from tests.matches.factories import roster_for, small_match, small_team
from tests.matches.grundregeln import grund_match, grund_roster
from tests.matches.stahlgewitter import stahlgewitter_match, stahlgewitter_roster
from tests.matches.test_universalis import group
from tests.matches.test_views import first_activation

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext


@dataclass(frozen=True)
class Showcase:
    session_key: str
    pages: dict[str, str]  # what the page is -> its path


def showcase_make() -> Showcase:
    """Create the player and their data; the pages worth visiting, by name."""
    user = UserFactory(username="tischler", display_name="Tischler")
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)

    systems = {
        slug: GameSystem.objects.get(slug=slug)
        for slug in GameSystem.objects.values_list("slug", flat=True)
    }
    deathmatch = small_match(user, systems["deathmatch"])
    first_activation(client, deathmatch)
    grundregeln = grund_match(user, systems["grundregeln"])
    universalis = match_services.match_create(
        creator=user,
        system=systems["universalis"],
        mode="secret",
        seats=[
            match_services.Seat(
                "Anna", roster_services.roster_import(owner=user, document=group("eisenwacht"))
            ),
            match_services.Seat(
                "Ben", roster_services.roster_import(owner=user, document=group("nebelzirkel"))
            ),
        ],
        settings={"max_rounds": 6},
        rng=random.Random(3),
    )
    bunkers = bunkers_match(user, levels=2)
    stahlgewitter = stahlgewitter_match(user)
    builders = {
        "deathmatch": roster_for(user, small_team("phalanx", name="Phalanx der Brandwache")),
        "grundregeln": grund_roster(user),
        "universalis": roster_services.roster_import(owner=user, document=group("eisenwacht")),
    }
    league = sample_league_ensure(user)
    season = league.seasons.order_by("pk").first()
    assert season is not None

    pages = {
        "home": "/",
        "rosters list": "/rosters/",
        "roster import": "/rosters/import/",
        "matches list": "/matches/",
        "leagues list": "/leagues/",
        "league": f"/leagues/{league.key}/",
        "standings (season)": f"/leagues/{league.key}/seasons/{season.pk}/",
        "profile": "/accounts/profile/",
        "password change": "/accounts/password/change/",
        "email addresses": "/accounts/email/",
    }
    for slug, roster in builders.items():
        pages[f"new {slug} team"] = f"/rosters/new/{slug}/"
        pages[f"builder {slug}"] = f"/rosters/{roster.pk}/"
        pages[f"new {slug} match"] = f"/matches/new/{slug}/"
        pages[f"reference {slug}"] = f"/systems/{slug}/"
    for slug, match in (
        ("deathmatch", deathmatch),
        ("grundregeln", grundregeln),
        ("universalis", universalis),
        ("bunkers", bunkers),
        ("stahlgewitter", stahlgewitter),
    ):
        pages[f"tracker {slug}"] = f"/matches/{match.pk}/"
        pages[f"summary {slug}"] = f"/matches/{match.pk}/summary/"
    army = bunkers_army(user, "bloodangels", answered=False)
    pages["army builder bunkers"] = f"/rosters/{army.pk}/"
    pages["army import bunkers"] = "/rosters/import/bunkers/army/"
    pages["new bunkers team"] = "/rosters/new/bunkers/"
    pages["new bunkers match"] = "/matches/new/bunkers/"
    pages["reference bunkers"] = "/systems/bunkers/"
    # Like Bunkers' army builder, not a "builder": its army comes before the add list (H1's
    # layout), which the phone audit's add-list-first check would flag.
    pages["army builder stahlgewitter"] = f"/rosters/{stahlgewitter_roster(user).pk}/"
    pages["new stahlgewitter team"] = "/rosters/new/stahlgewitter/"
    pages["new stahlgewitter match"] = "/matches/new/stahlgewitter/"
    pages["reference stahlgewitter"] = "/systems/stahlgewitter/"
    pages["match log"] = f"/matches/{deathmatch.pk}/log/"
    pages["delete a match"] = f"/matches/{deathmatch.pk}/delete/"
    pages["archived matches"] = "/matches/?archived=1"
    pages["offline page"] = "/offline/"
    shared = roster_services.roster_share(
        owner=user, roster_id=builders["deathmatch"].pk, enabled=True
    )
    pages["shared roster"] = f"/rosters/shared/{shared.share_token}/"
    pages["spectator view"] = f"/matches/watch/{deathmatch.spectator_token}/"
    player = season.registrations.order_by("pk").first()
    if player is not None:
        pages["league player"] = f"/leagues/{league.key}/seasons/{season.pk}/players/{player.pk}/"
    return Showcase(session_key=client.session.session_key or "", pages=pages)


def logged_in_context(
    browser: Browser, base: str, showcase: Showcase, **options: object
) -> BrowserContext:
    """A browser context with the showcase player's session."""
    context = browser.new_context(**options)  # type: ignore[arg-type]
    context.add_cookies([{"name": "sessionid", "value": showcase.session_key, "url": base}])
    return context
