"""The post-game summary of a match, the same shape for every system (``engine.summary``).

A system's ``match/summary.py`` reads the effective event list (undone commands left out) and
the state they fold to, and fills a ``Tally``: points by round, damage and knock-outs per model,
and each player's luck. Luck compares what happened with the exact expectation the events
recorded when the dice or cards fell (the odds written into the event before the draw), so a
player who hit 5 times where the odds promised 3.2 hits on average was lucky by 1.8.

The MVP rule is the same everywhere: the model with the most knock-outs, then the most damage
dealt, then the least damage taken, then the lowest model number (roster order, so a tie is
broken the same way on every device). A model of no player (an NPC) is never MVP, and nobody is
when no model has knocked out or hurt anything yet.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from apps.systems.core.i18n import gettext_noop as _

MVP_RULE = _(
    "MVP: most knock-outs, then most damage dealt, then least damage taken, then roster order."
)


@dataclass(frozen=True)
class ModelLine:
    """One model's part in the match; ``player`` is None for a model of no player (an NPC)."""

    unit: int
    player: int | None
    name: str
    dealt: int = 0
    taken: int = 0
    knock_outs: int = 0  # models it knocked out
    knocked_out: int = 0  # times it was knocked out


@dataclass(frozen=True)
class LuckLine:
    """What ``count`` flips or rolls of one kind gave (``observed``: hits, damage, passes)
    against the sum of what the exact odds expected of them at the time (``expected``).
    ``label`` is gettext_noop-marked."""

    label: str
    count: int
    observed: Fraction
    expected: Fraction

    @property
    def difference(self) -> Fraction:
        """Above the expectation: lucky; below: unlucky."""
        return self.observed - self.expected


@dataclass(frozen=True)
class PlayerSummary:
    """``points_by_round[r]`` are the points scored in round r + 1 (points scored while setting
    up count in round 1)."""

    index: int
    name: str
    points_by_round: tuple[int, ...]
    luck: tuple[LuckLine, ...]

    @property
    def total(self) -> int:
        return sum(self.points_by_round)

    @property
    def cumulative(self) -> tuple[int, ...]:
        """The running total after each round."""
        running: list[int] = []
        for points in self.points_by_round:
            running.append((running[-1] if running else 0) + points)
        return tuple(running)


@dataclass(frozen=True)
class Summary:
    """``points_label`` (gettext_noop-marked) says what the points are in this system."""

    rounds: int
    finished: bool
    points_label: str
    players: tuple[PlayerSummary, ...]
    models: tuple[ModelLine, ...]
    mvp: int | None = None  # the unit id
    notes: tuple[str, ...] = field(default=())  # gettext_noop-marked: how the numbers are read

    def model(self, unit: int) -> ModelLine | None:
        return next((line for line in self.models if line.unit == unit), None)


def mvp_of(models: Iterable[ModelLine]) -> int | None:
    """The MVP by ``MVP_RULE``."""
    candidates = [m for m in models if m.player is not None and (m.knock_outs or m.dealt)]
    if not candidates:
        return None
    best = max(candidates, key=lambda m: (m.knock_outs, m.dealt, -m.taken, -m.unit))
    return best.unit


@dataclass
class _Luck:
    count: int = 0
    observed: Fraction = Fraction(0)
    expected: Fraction = Fraction(0)


class Tally:
    """A summary being counted while a system walks its events (mutable on purpose: it lives
    only inside one ``summary`` call)."""

    def __init__(self, luck_labels: Sequence[str]) -> None:
        self._labels = tuple(luck_labels)
        self._dealt: dict[int, int] = {}
        self._taken: dict[int, int] = {}
        self._kos: dict[int, int] = {}
        self._kod: dict[int, int] = {}
        self._points: dict[tuple[int, int], int] = {}
        self._luck: dict[tuple[int, str], _Luck] = {}

    def damage(self, victim: int, amount: int, by: int | None) -> None:
        """``victim`` lost ``amount``; ``by`` is the model that did it (None: nobody's)."""
        if amount <= 0:
            return
        self._taken[victim] = self._taken.get(victim, 0) + amount
        if by is not None and by != victim:
            self._dealt[by] = self._dealt.get(by, 0) + amount

    def knock_out(self, victim: int, by: int | None) -> None:
        self._kod[victim] = self._kod.get(victim, 0) + 1
        if by is not None and by != victim:
            self._kos[by] = self._kos.get(by, 0) + 1

    def points(self, player: int, round_: int, points: int) -> None:
        key = (player, max(round_, 1))
        self._points[key] = self._points.get(key, 0) + points

    def luck(
        self, player: int | None, label: str, observed: Fraction | int, expected: Fraction
    ) -> None:
        """One flip or roll of the kind ``label`` (one of the labels given) for ``player``."""
        if player is None:
            return
        if label not in self._labels:
            raise ValueError(f"unknown luck line {label!r}")
        line = self._luck.setdefault((player, label), _Luck())
        line.count += 1
        line.observed += observed
        line.expected += expected

    def summary(
        self,
        *,
        players: Sequence[str],
        models: Iterable[tuple[int, int | None, str]],
        rounds: int,
        finished: bool,
        points_label: str,
        notes: tuple[str, ...] = (),
    ) -> Summary:
        """``models``: every model as (unit id, player or None, name), in roster order."""
        lines = tuple(
            ModelLine(
                unit=unit,
                player=player,
                name=name,
                dealt=self._dealt.get(unit, 0),
                taken=self._taken.get(unit, 0),
                knock_outs=self._kos.get(unit, 0),
                knocked_out=self._kod.get(unit, 0),
            )
            for unit, player, name in models
        )
        last = max([rounds, *(r for _p, r in self._points)])
        return Summary(
            rounds=rounds,
            finished=finished,
            points_label=points_label,
            players=tuple(
                PlayerSummary(
                    index=index,
                    name=name,
                    points_by_round=tuple(
                        self._points.get((index, r), 0) for r in range(1, last + 1)
                    ),
                    luck=tuple(self._luck_line(index, label) for label in self._labels),
                )
                for index, name in enumerate(players)
            ),
            models=lines,
            mvp=mvp_of(lines),
            notes=notes,
        )

    def _luck_line(self, player: int, label: str) -> LuckLine:
        luck = self._luck.get((player, label), _Luck())
        return LuckLine(label, luck.count, luck.observed, luck.expected)


def odds_value(text: object) -> Fraction | None:
    """An exact probability or expectation as an event records it ("n/d"); None when the event
    has none (a log written before the odds were recorded) or it is unreadable."""
    if not isinstance(text, str) or not text:
        return None
    try:
        return Fraction(text)
    except (ValueError, ZeroDivisionError):
        return None
