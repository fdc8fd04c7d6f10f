"""A sample league to try the pages with: invented players, three rounds played, one open.

Everything it makes is labelled as sample: the league's ``sample`` flag (shown on every league
page), its name, and the players' names. Made through the services, as a real league is.
"""

from __future__ import annotations

import random
from datetime import date

from django.db import transaction

from apps.accounts.models import User
from apps.catalog.selectors import game_system_get
from apps.leagues import services
from apps.leagues.models import League, Round, Season

SAMPLE_NAME = "Sample league (invented)"
PLAYERS = ["Ada", "Bruno", "Carla", "Dario", "Elif", "Finn", "Greta", "Hannes", "Ilka"]


def _sample_player(name: str) -> User:
    user, created = User.objects.get_or_create(
        username=f"sample-{name.lower()}", defaults={"display_name": f"{name} (sample)"}
    )
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


@transaction.atomic
def sample_league_ensure(organiser: User, *, system_slug: str = "grundregeln") -> League:
    """The sample league, made once; ``organiser`` organises it (and may add others)."""
    existing = League.objects.filter(name=SAMPLE_NAME, sample=True).first()
    if existing is not None:
        existing.organisers.add(organiser)
        return existing
    rng = random.Random(7)
    league = services.league_create(
        creator=organiser,
        system=game_system_get(system_slug),
        name=SAMPLE_NAME,
        description="Invented players and results for trying the league pages.",
        visibility=League.Visibility.PUBLIC,
        sample=True,
    )
    season = services.season_create(
        user=organiser,
        key=league.key,
        name="Sample season",
        starts_on=date(2026, 1, 1),
        ends_on=date(2026, 12, 31),
        vp_bonus_points=1,
        vp_bonus_margin=10,
    )
    for name in PLAYERS:
        services.season_join(
            user=_sample_player(name), season_id=season.pk, code=league.join_code, roster_id=None
        )
    for number in range(1, 5):
        services.round_pair(user=organiser, key=league.key, season_id=season.pk, rng=rng)
        services.round_publish(user=organiser, key=league.key, season_id=season.pk, number=number)
        _play(season, number, rng, finished=number < 4)
    return league


def _play(season: Season, number: int, rng: random.Random, *, finished: bool) -> None:
    round_ = Round.objects.get(season=season, number=number)
    key = season.league.key
    games = round_.pairings.filter(player_b__isnull=False).select_related(
        "player_a__player", "player_b__player"
    )
    for i, pairing in enumerate(games.order_by("table")):
        if not finished and i % 2:
            continue  # the open round: some games still to be reported
        vp_a, vp_b = rng.randint(0, 20), rng.randint(0, 20)
        outcome = "draw" if vp_a == vp_b else "a" if vp_a > vp_b else "b"
        services.result_report(
            user=pairing.player_a.player,
            key=key,
            pairing_id=pairing.pk,
            outcome=outcome,
            vp_a=vp_a,
            vp_b=vp_b,
        )
        assert pairing.player_b is not None
        if finished:
            services.result_confirm(user=pairing.player_b.player, key=key, pairing_id=pairing.pk)
