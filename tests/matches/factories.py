"""Teams and matches for tests, built from the shipped Deathmatch catalogue."""

from __future__ import annotations

import random
from typing import Any

from rest_framework.test import APIClient

from apps.accounts.models import User
from apps.catalog.models import GameSystem
from apps.matches import services
from apps.matches.models import Match
from apps.rosters import services as roster_services
from apps.rosters.models import Roster
from tests.rosters.factories import legal_standard_team


def small_team(faction: str = "phalanx", **changes: Any) -> dict[str, Any]:
    """A legal small (3) team of one faction."""
    teams = {
        "phalanx": [
            {"profile": "phalanx-hauptmann-brandt", "items": []},
            {"profile": "phalanx-schildtraeger", "items": []},
            {"profile": "phalanx-brandmeister", "items": []},
        ],
        "shelzahav": [
            {"profile": "shelzahav-emirin-sahar-vel", "items": []},
            {"profile": "shelzahav-duenenlaeufer", "items": []},
            {"profile": "shelzahav-scharfschuetzin", "items": []},
        ],
    }
    document: dict[str, Any] = {
        "format": "skirmish-roster/1",
        "system": "deathmatch",
        "name": f"Team {faction.title()}",
        "faction": faction,
        "settings": {"game_size": 3},
        "entries": teams[faction],
    }
    document.update(changes)
    return document


def roster_for(owner: User, document: dict[str, Any] | None = None) -> Roster:
    return roster_services.roster_import(owner=owner, document=document or small_team())


def small_match(
    creator: User,
    system: GameSystem,
    *,
    mode: str = "last-man-standing",
    opponent: User | None = None,
    gadgets: bool = False,
    seed: int = 1,
) -> Match:
    first = roster_for(creator, small_team("phalanx"))
    second = roster_for(opponent or creator, small_team("shelzahav"))
    return services.match_create(
        creator=creator,
        system=system,
        mode=mode,
        seats=[services.Seat("Anna", first), services.Seat("Ben", second)],
        settings={"game_size": 3, "gadgets": gadgets},
        rng=random.Random(seed),
    )


def api_for(user: User) -> APIClient:
    """An API client logged in as ``user``, in English (messages are asserted in English)."""
    client = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    client.force_authenticate(user)
    return client


def concede(match: Match, user: User, player: int) -> Match:
    """``user`` concedes for seat ``player`` (theirs only if they hold it)."""
    return services.match_apply_command(
        user=user,
        match_id=match.pk,
        command_type="concede",
        args={"player": player},
        expected_seq=None,
        idempotency_key=None,
        rng=random.Random(2),
    ).match


__all__ = ["api_for", "concede", "legal_standard_team", "roster_for", "small_match", "small_team"]
