"""The rating-over-time chart of a player's history page: the geometry of a small SVG line chart.

Plain values in, plain values out: no ORM, no request, no markup. The template
``leagues/_rating_chart.html`` draws it (server-rendered, no script), so that its labels go
through the translations and its colours come from the stylesheet's classes (light and dark
theme alike).

The x axis counts the player's games (0 is the start), not dates: a rating takes in games of
leagues the viewer may not see, and their dates are not the viewer's to know.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

WIDTH: Final = 320
HEIGHT: Final = 150
LEFT: Final = 44  # room for the rating labels
RIGHT: Final = 10
TOP: Final = 10
BOTTOM: Final = 24  # room for the game numbers
# The y axis runs between multiples of this, so that its labels are round numbers.
STEP: Final = 50


@dataclass(frozen=True)
class Tick:
    at: float  # the x or y coordinate in the drawing
    label: int


@dataclass(frozen=True)
class RatingChart:
    points: str  # the polyline's points, "x,y x,y ..."
    last: tuple[float, float]  # the latest rating, marked with a dot
    y_ticks: tuple[Tick, Tick]  # lowest and highest value of the axis
    x_ticks: tuple[Tick, Tick]  # the start (game 0) and the latest game
    start_y: float | None  # the starting rating's line, when it is inside the axis
    low: int  # the lowest and highest rating the player had
    high: int
    first: int
    latest: int
    games: int
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    right_edge: int = WIDTH - RIGHT
    top: int = TOP
    bottom: int = HEIGHT - BOTTOM

    @property
    def view_box(self) -> str:
        return f"0 0 {self.width} {self.height}"


def rating_chart(ratings: Sequence[int], *, start: int) -> RatingChart | None:
    """The chart of ``ratings`` (the shown rating after each game, oldest first), drawn from
    ``start`` (the rating before the first game); None without games, where a line would
    show nothing."""
    if not ratings:
        return None
    values = [start, *ratings]
    low, high = min(values), max(values)
    axis_low = math.floor(low / STEP) * STEP
    axis_high = max(math.ceil(high / STEP) * STEP, axis_low + STEP)
    span_x = WIDTH - LEFT - RIGHT
    span_y = HEIGHT - TOP - BOTTOM

    def x(index: int) -> float:
        return round(LEFT + span_x * index / len(ratings), 1)

    def y(value: int) -> float:
        return round(HEIGHT - BOTTOM - span_y * (value - axis_low) / (axis_high - axis_low), 1)

    coordinates = [(x(i), y(v)) for i, v in enumerate(values)]
    return RatingChart(
        points=" ".join(f"{cx},{cy}" for cx, cy in coordinates),
        last=coordinates[-1],
        y_ticks=(Tick(y(axis_low), axis_low), Tick(y(axis_high), axis_high)),
        x_ticks=(Tick(x(0), 0), Tick(x(len(ratings)), len(ratings))),
        start_y=y(start) if axis_low < start < axis_high else None,
        low=min(ratings),
        high=max(ratings),
        first=start,
        latest=ratings[-1],
        games=len(ratings),
    )
