"""Bunkers and Badasses armies and matches for the Django tests: the BattleScribe test rosters
of ../shared/test-data (read there, never copied), imported and answered as a player would."""

from __future__ import annotations

import random
from pathlib import Path

from apps.accounts.models import User
from apps.matches import services
from apps.matches.models import Match
from apps.rosters import army_services
from apps.rosters.models import ArmyUnit, Roster
from apps.rosters.services import roster_refresh_legality

BATTLESCRIBE = Path(__file__).resolve().parents[2].parent / "shared" / "test-data" / "battlescribe"
ARMIES = {
    "salamanders": "salamanders-battalion.ros",
    "bloodangels": "bloodangels-patrol.ros",
    "necrons": "necrons-patrol-over-limit.ros",
}


def army_file(army: str) -> bytes:
    return (BATTLESCRIBE / ARMIES[army]).read_bytes()


def bunkers_army(owner: User, army: str = "salamanders", *, answered: bool = True) -> Roster:
    """An imported army; ``answered``: every base given (60 mm for the walkers, which are
    confirmed), so it is legal."""
    roster = army_services.army_import(
        owner=owner,
        system=army_services.outside_army_system("bunkers"),
        data=army_file(army),
        file_name=ARMIES[army],
        settings={"points_limit": 1000},
    )
    if answered:
        ArmyUnit.objects.filter(roster=roster).update(base="round:40")
        ArmyUnit.objects.filter(roster=roster, name__icontains="Dreadnought").update(
            base="round:60", walker=True
        )
    return roster_refresh_legality(roster)


def bunkers_match(user: User, *, levels: int = 1) -> Match:
    """A match of two answered armies, just opened (the setup roll-offs come next)."""
    return services.match_create(
        creator=user,
        system=army_services.outside_army_system("bunkers"),
        mode="erobern-und-sichern",
        seats=[
            services.Seat("Anna", bunkers_army(user, "salamanders")),
            services.Seat("Bea", bunkers_army(user, "bloodangels")),
        ],
        settings={"levels": levels},
        rng=random.Random(5),
    )
