"""Stahlgewitter armies and a match in progress for the browser audits: two legal Scharmützel
armies saved from their documents, and a match walked through the setup by the same commands
the tracker sends, so a revealed unit of the start player stands in its Fernkampfphase with its
attack buttons showing."""

from __future__ import annotations

import random
from typing import Any

from apps.accounts.models import User
from apps.catalog.models import GameSystem
from apps.matches import services
from apps.matches.models import Match
from apps.matches.selectors import match_state
from apps.rosters import services as roster_services
from apps.rosters.models import Roster

SEK: dict[str, Any] = {
    "format": "skirmish-roster/1",
    "system": "stahlgewitter",
    "name": "Zugriff",
    "faction": "sek",
    "settings": {"game_type": "scharmuetzel"},
    "entries": [
        {"profile": "sek-offizier", "items": ["sturmgewehre", "fahne"], "name": "Kommando"},
        {"profile": "sek-soldat", "items": ["maschinenpistolen"], "count": 5, "attach_to": 0},
        {"profile": "sek-unteroffizier", "items": ["gewehre"], "name": "Feuertrupp"},
    ],
}
LEGION: dict[str, Any] = {
    **SEK,
    "name": "Höllenhunde",
    "faction": "legion-666",
    "entries": [
        {"profile": "legion-666-offizier", "items": ["sturmgewehre"], "name": "Trupp 1"},
        {"profile": "legion-666-soldat", "items": ["sturmgewehre"], "count": 5, "attach_to": 0},
        {"profile": "legion-666-kultist", "items": ["messer"], "count": 3, "name": "Kult"},
    ],
}
ARMIES = {"sek": SEK, "legion": LEGION}


def stahlgewitter_roster(owner: User, army: str = "sek") -> Roster:
    return roster_services.roster_import(owner=owner, document=ARMIES[army])


def _send(user: User, match: Match, command: str, **args: Any) -> None:
    match.refresh_from_db()
    services.match_apply_command(
        user=user,
        match_id=match.pk,
        command_type=command,
        args=args,
        expected_seq=match.seq,
        idempotency_key=None,
        rng=random.Random(7),
    )
    match.refresh_from_db()


def stahlgewitter_match(user: User, *, in_battle: bool = True) -> Match:
    """A free game of SEK against Legion 666; ``in_battle``: set up (every marker placed, the
    start roll made), the start player's first unit activated and revealed, in its
    Fernkampfphase, an enemy unit revealed too."""
    match = services.match_create(
        creator=user,
        system=GameSystem.objects.get(slug="stahlgewitter"),
        mode="free",
        seats=[
            services.Seat("Anna", stahlgewitter_roster(user, "sek")),
            services.Seat("Ben", stahlgewitter_roster(user, "legion")),
        ],
        settings={"rounds": 3},
        rng=random.Random(3),
    )
    if not in_battle:
        return match
    _send(user, match, "choose_terrain", method="quarters")
    state = match_state(match)
    _send(user, match, "choose_zone", player=state.zone_chooser, edge="north")
    _send(user, match, "roll_deployment")
    state = match_state(match)
    for player in state.players:
        for number, unit in enumerate(state.side_units(player.index), start=1):
            _send(user, match, "hide_unit", player=player.index, unit=unit.id, marker=number)
    for _ in range(20):
        state = match_state(match)
        free = [m for m in state.player_markers(state.placer) if not m.placed]
        if not free:
            break
        _send(user, match, "place_marker", player=state.placer, marker=free[0].number)
    _send(user, match, "roll_start")
    state = match_state(match)
    mine = state.side_units(state.turn_player)[0]
    theirs = state.side_units(1 - state.turn_player)[0]
    _send(user, match, "activate", unit=mine.id)
    _send(user, match, "move", band="far")
    _send(user, match, "next_phase")
    for unit in (mine, theirs):
        marker = match_state(match).marker_of(unit.id)
        _send(user, match, "reveal_marker", player=unit.player, marker=marker.number, reason="seen")
    match.refresh_from_db()
    return match
