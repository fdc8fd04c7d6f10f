"""The match clock as the tracker shows it: ``{% clock_view match as clock %}``."""

from __future__ import annotations

from typing import Any

from django import template

from apps.common.clock_face import clock_digits
from apps.matches.clock import CHESS, clock_now, match_clock, reading
from apps.matches.models import Match

register = template.Library()


@register.simple_tag
def clock_view(match: Match) -> dict[str, Any] | None:
    """What the clock include needs, read at the server's now; ``None`` without a clock."""
    clock = match_clock(match)
    if clock is None:
        return None
    now = reading(clock, clock_now(match))
    # The seats as the tracker read them (``selectors.match_players``), else in a query here.
    players = getattr(match, "_prefetched_objects_cache", {}).get("players")
    if players is None:
        names = list(match.players.order_by("index").values_list("name", flat=True))
    else:
        names = [player.name for player in sorted(players, key=lambda player: player.index)]
    count = len(now.remaining_ms)
    players = [
        {
            "index": index,
            "name": names[index] if index < len(names) else str(index + 1),
            "remaining_ms": now.remaining_ms[index],
            "digits": clock_digits(now.remaining_ms[index]),
            "expired": now.expired[index],
            "turn": index == now.turn,
            "running": now.running and index == now.turn,
            # Tapping the running face passes the turn to the next seat, naming it.
            "next": (index + 1) % count,
        }
        for index in range(count)
    ]
    return {
        "chess": now.mode == CHESS,
        "running": now.running,
        "minutes": now.limit_ms // 60_000,
        "round": now.round,
        "round_remaining_ms": now.round_remaining_ms,
        "round_digits": clock_digits(now.round_remaining_ms),
        "round_expired": now.round_remaining_ms <= 0,
        "expired": any(now.expired),
        "players": players,
    }
