"""A sample league to try the pages with: invented players with sample teams, a season of three
played rounds and one open, and results in every state a real season has.

Everything it makes is labelled as sample: the league's ``sample`` flag (shown on every league
page), its name, the players' names and their teams' names. It is made through the services,
as a real league is; only the dates are moved afterwards (the services stamp everything "now",
a believable season has its rounds a week apart).

What the season shows: rounds 1 to 3 confirmed, one dispute the organiser decided (round 1),
one confirmed result an organiser corrected (round 2), one report nobody answered that counted
after its hours to confirm (round 3); round 4 open with a confirmed game, a report waiting for
its confirmation, an open dispute for the organisers and a game not reported yet.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from apps.accounts.models import User
from apps.catalog.selectors import game_system_get
from apps.leagues import services
from apps.leagues.models import League, Pairing, Result, Round, Season
from apps.rosters import services as roster_services
from apps.rosters.models import Roster
from apps.systems.core.errors import RuleViolation
from apps.systems.core.registry import registry

SAMPLE_NAME = "Sample league (invented)"
PLAYERS = ["Ada", "Bruno", "Carla", "Dario", "Elif", "Finn", "Greta", "Hannes", "Ilka"]
ROUNDS = 4

# Legal teams of the shipped sample catalogue, per system whose leagues need rosters.
SAMPLE_TEAMS: dict[str, list[dict[str, object]]] = {
    "grundregeln": [
        {
            "faction": "eisenfaust",
            "settings": {"points_limit": 100},
            "profiles": [
                "eisenfaust-hauptmann",
                "eisenfaust-armbrustschuetze",
                "eisenfaust-hellebardier",
            ],
        },
        {
            "faction": "moorvolk",
            "settings": {"points_limit": 100},
            "profiles": ["moorvolk-schamanin", "moorvolk-krieger", "moorvolk-schleicher"],
        },
    ],
}


class SampleUnavailable(Exception):
    """The sample cannot be made here (no sample teams for the system, catalogue not loaded)."""


def _sample_player(name: str) -> User:
    user, created = User.objects.get_or_create(
        username=f"sample-{name.lower()}", defaults={"display_name": f"{name} (sample)"}
    )
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


def _sample_roster(player: User, system_slug: str, index: int) -> Roster | None:
    """The player's sample team, made once; None for a system whose leagues need none."""
    if registry().get(system_slug).rosters is None:
        return None
    teams = SAMPLE_TEAMS.get(system_slug)
    if not teams:
        raise SampleUnavailable(f"There are no sample teams for {system_slug}.")
    team = teams[index % len(teams)]
    name = f"{str(team['faction']).title()} (sample)"
    existing = Roster.objects.filter(owner=player, system__slug=system_slug, name=name).first()
    if existing is not None and existing.legal:
        return existing
    profiles = team["profiles"]
    assert isinstance(profiles, list)
    document = {
        "format": "skirmish-roster/1",
        "system": system_slug,
        "name": name,
        "faction": team["faction"],
        "settings": team["settings"],
        "entries": [{"profile": slug, "items": [], "count": 1} for slug in profiles],
    }
    try:
        roster = roster_services.roster_import(owner=player, document=document)
    except RuleViolation as error:  # the shipped catalogue is not loaded (or has changed)
        raise SampleUnavailable(
            f"The sample teams do not fit the loaded catalogue ({error.message}); run load_catalog."
        ) from error
    if not roster.legal:
        raise SampleUnavailable("The sample teams are not legal; run load_catalog.")
    return roster


@transaction.atomic
def sample_league_ensure(organiser: User, *, system_slug: str = "grundregeln") -> League:
    """The sample league, made once; ``organiser`` organises it (and may add others)."""
    existing = League.objects.filter(name=SAMPLE_NAME, sample=True).first()
    if existing is not None:
        existing.organisers.add(organiser)
        return existing
    rng = random.Random(7)
    today = timezone.localdate()
    league = services.league_create(
        creator=organiser,
        system=game_system_get(system_slug),
        name=SAMPLE_NAME,
        description="Invented players, teams and results for trying the league pages.",
        visibility=League.Visibility.PUBLIC,
        sample=True,
    )
    season = services.season_create(
        user=organiser,
        key=league.key,
        name="Sample season",
        starts_on=today - timedelta(weeks=ROUNDS),
        ends_on=today + timedelta(weeks=8),
        vp_bonus_points=1,
        vp_bonus_margin=10,
    )
    for index, name in enumerate(PLAYERS):
        player = _sample_player(name)
        roster = _sample_roster(player, system_slug, index)
        services.season_join(
            user=player,
            season_id=season.pk,
            code=league.join_code,
            roster_id=roster.pk if roster else None,
        )
    for number in range(1, ROUNDS + 1):
        services.round_pair(user=organiser, key=league.key, season_id=season.pk, rng=rng)
        services.round_publish(user=organiser, key=league.key, season_id=season.pk, number=number)
        _play(season, number, organiser, rng)
        _date_round(season, number, weeks_ago=ROUNDS - number)
    return league


def _play(season: Season, number: int, organiser: User, rng: random.Random) -> None:
    """Every game of the round as :data:`STORIES` tells it (a confirmed result by default)."""
    games = Pairing.objects.filter(
        round__season=season, round__number=number, player_b__isnull=False
    ).select_related("player_a__player", "player_b__player")
    for table, pairing in enumerate(games.order_by("table"), start=1):
        story = STORIES.get((number, table), _confirmed)
        story(pairing, organiser, rng)


def _score(rng: random.Random) -> tuple[str, int, int]:
    vp_a, vp_b = rng.randint(0, 20), rng.randint(0, 20)
    return ("draw" if vp_a == vp_b else "a" if vp_a > vp_b else "b"), vp_a, vp_b


def _key(pairing: Pairing) -> str:
    return pairing.round.season.league.key


def _reported(pairing: Pairing, organiser: User, rng: random.Random) -> None:
    outcome, vp_a, vp_b = _score(rng)
    services.result_report(
        user=pairing.player_a.player,
        key=_key(pairing),
        pairing_id=pairing.pk,
        outcome=outcome,
        vp_a=vp_a,
        vp_b=vp_b,
    )


def _confirmed(pairing: Pairing, organiser: User, rng: random.Random) -> None:
    _reported(pairing, organiser, rng)
    assert pairing.player_b is not None
    services.result_confirm(user=pairing.player_b.player, key=_key(pairing), pairing_id=pairing.pk)


def _disputed(pairing: Pairing, organiser: User, rng: random.Random) -> None:
    _reported(pairing, organiser, rng)
    assert pairing.player_b is not None
    services.result_dispute(
        user=pairing.player_b.player,
        key=_key(pairing),
        pairing_id=pairing.pk,
        reason="We stopped after round 3 of the scenario; I had the objective by then.",
    )


def _dispute_decided(pairing: Pairing, organiser: User, rng: random.Random) -> None:
    _disputed(pairing, organiser, rng)
    result = Result.objects.get(pairing=pairing)
    services.result_override(
        user=organiser,
        key=_key(pairing),
        pairing_id=pairing.pk,
        outcome="draw",
        vp_a=result.vp_a,
        vp_b=result.vp_a,
        reason="Both score sheets agree on the VP at the end of round 3: a draw.",
    )


def _corrected(pairing: Pairing, organiser: User, rng: random.Random) -> None:
    _confirmed(pairing, organiser, rng)
    result = Result.objects.get(pairing=pairing)
    services.result_override(
        user=organiser,
        key=_key(pairing),
        pairing_id=pairing.pk,
        outcome=result.outcome,
        vp_a=result.vp_a + 2,
        vp_b=result.vp_b,
        reason="A secondary objective was left off the report (2 VP).",
    )


def _not_reported(pairing: Pairing, organiser: User, rng: random.Random) -> None:
    """Not played yet."""


Story = Callable[[Pairing, User, random.Random], None]

# (round, table) -> what happened; every other game was reported and confirmed.
STORIES: dict[tuple[int, int], Story] = {
    (1, 2): _dispute_decided,
    (2, 3): _corrected,
    (3, 1): _reported,  # never answered: it counted after the hours to confirm
    (4, 2): _reported,
    (4, 3): _disputed,
    (4, 4): _not_reported,
}


def _date_round(season: Season, number: int, *, weeks_ago: int) -> None:
    """Move the round and its results back to when they were played."""
    played = timezone.now() - timedelta(weeks=weeks_ago, days=1)
    round_ = Round.objects.get(season=season, number=number)
    Round.objects.filter(pk=round_.pk).update(
        created_at=played - timedelta(days=1), published_at=played - timedelta(days=1)
    )
    results = Result.objects.filter(pairing__round=round_)
    results.update(reported_at=played)
    results.exclude(confirmed_at=None).update(confirmed_at=played + timedelta(hours=5))
    results.exclude(disputed_at=None).update(disputed_at=played + timedelta(hours=6))
    results.exclude(decided_at=None).update(decided_at=played + timedelta(days=1))
