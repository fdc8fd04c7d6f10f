"""Matches as one table plays them: both teams belong to Anna, so she holds both seats and
taps for everybody on one tablet."""

from __future__ import annotations

import random
from typing import Any

from apps.catalog.models import GameSystem
from apps.matches import services
from apps.matches.models import Match
from tests.matches.factories import roster_for, small_team
from tests.matches.grundregeln import grund_roster
from tests.matches.test_universalis import roster as universalis_roster


def one_tablet_match(system: str, anna: Any, seed: int = 5) -> Match:
    if system == "deathmatch":
        teams = small_team("phalanx"), small_team("shelzahav")
        rosters = [roster_for(anna, team) for team in teams]
        mode, settings = "last-man-standing", {"game_size": 3, "gadgets": False}
    elif system == "grundregeln":
        rosters = [grund_roster(anna, "eisenfaust"), grund_roster(anna, "moorvolk")]
        mode, settings = "die-wachhunde", {}
    else:
        rosters = [universalis_roster(anna, "eisenwacht"), universalis_roster(anna, "nebelzirkel")]
        mode, settings = "secret", {"max_rounds": 6}
    return services.match_create(
        creator=anna,
        system=GameSystem.objects.get(slug=system),
        mode=mode,
        seats=[services.Seat("Anna", rosters[0]), services.Seat("Ben", rosters[1])],
        settings=settings,
        rng=random.Random(seed),
    )
