"""Grundregeln teams and matches for the Django tests, from the shipped sample catalogue."""

from __future__ import annotations

import random
from typing import Any

from apps.accounts.models import User
from apps.catalog.models import GameSystem
from apps.matches import services
from apps.matches.models import Match
from apps.rosters import services as roster_services
from apps.rosters.models import Roster

TEAMS = {
    "eisenfaust": [
        "eisenfaust-hauptmann",
        "eisenfaust-armbrustschuetze",
        "eisenfaust-hellebardier",
    ],
    "moorvolk": ["moorvolk-schamanin", "moorvolk-krieger", "moorvolk-schleicher"],
}


def team_document(faction: str = "eisenfaust", **changes: Any) -> dict[str, Any]:
    document: dict[str, Any] = {
        "format": "skirmish-roster/1",
        "system": "grundregeln",
        "name": f"Team {faction.title()}",
        "faction": faction,
        "settings": {"points_limit": 100},
        "entries": [{"profile": slug, "items": [], "count": 1} for slug in TEAMS[faction]],
    }
    document.update(changes)
    return document


def grund_roster(owner: User, faction: str = "eisenfaust", **changes: Any) -> Roster:
    return roster_services.roster_import(owner=owner, document=team_document(faction, **changes))


def grund_match(
    creator: User, system: GameSystem, *, mode: str = "die-wachhunde", seed: int = 1
) -> Match:
    """A match of two of ``creator``'s own teams."""
    return shared_grund_match(
        creator, creator, creator, system=system, names=("Anna", "Ben"), mode=mode, seed=seed
    )


def shared_grund_match(
    creator: User,
    first: User,
    second: User,
    *,
    system: GameSystem | None = None,
    names: tuple[str, str] = ("First", "Second"),
    mode: str = "die-wachhunde",
    seed: int = 1,
) -> Match:
    """``creator`` opens a match of ``first``'s Eisenfaust team against ``second``'s Moorvolk
    team; a team of someone else's comes from their share link, so its seat waits for them."""
    return services.match_create(
        creator=creator,
        system=system or GameSystem.objects.get(slug="grundregeln"),
        mode=mode,
        seats=[
            services.Seat(names[0], grund_roster(first, "eisenfaust")),
            services.Seat(names[1], grund_roster(second, "moorvolk")),
        ],
        settings={},
        rng=random.Random(seed),
    )
