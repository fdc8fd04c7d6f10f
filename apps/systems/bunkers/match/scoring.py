"""Victory points as the missions count them (pure functions of the tracked state)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from apps.systems.bunkers.match.state import Marker, Piece, Unit
from apps.systems.bunkers.match.tables import VP_BELOW_HALF, VP_DESTROYED, VP_HELD, VP_TAKEN


def held_vp(markers: Sequence[Marker], holders: Sequence[int | None]) -> list[tuple[int, int, str]]:
    """Erobern und Sichern / Kampf um den Reaktor: per player (player, VP, detail). "Für jedes
    gehaltene Missionsziel gibt es 1 Siegespunkt. Für jedes Missionsziel, das in der vorigen
    Befehlsphase noch vom Gegner gehalten wurde, gibt es 2 Siegespunkte" (instead of 1)."""
    scored: list[tuple[int, int, str]] = []
    for player in (0, 1):
        held = [m for m, h in zip(markers, holders, strict=True) if h == player]
        taken = [m for m in held if m.holder == 1 - player]
        points = VP_HELD * (len(held) - len(taken)) + VP_TAKEN * len(taken)
        detail = ",".join(str(m.number) for m in held)
        if points:
            scored.append((player, points, detail))
    return scored


def damage_vp(units: Iterable[Unit], pieces: Iterable[Piece] = ()) -> list[tuple[int, int, str]]:
    """Maximaler Schaden for both players: 2 VP per destroyed enemy unit, 1 VP per enemy unit
    below half its starting strength (a single model: below half its wounds). A sentry gun
    "gilt nach dem Aufstellen als eigenständige Einheit": a destroyed enemy sentry gun counts
    as a destroyed unit (one removed by hand does not; a barricade is no unit)."""
    points = [0, 0]
    destroyed = [0, 0]
    below = [0, 0]
    for piece in pieces:
        if piece.kind == "sentry" and piece.destroyed:
            points[1 - piece.player] += VP_DESTROYED
            destroyed[1 - piece.player] += 1
    for unit in units:
        scorer = 1 - unit.player
        if unit.destroyed:
            points[scorer] += VP_DESTROYED
            destroyed[scorer] += 1
        elif unit.below_half:
            points[scorer] += VP_BELOW_HALF
            below[scorer] += 1
    return [
        (player, points[player], f"{destroyed[player]}/{below[player]}")
        for player in (0, 1)
        if points[player]
    ]
