"""The decision in progress (``Ctx``) and the registry every Grundregeln command handler joins.

Every event a command emits carries the command's number ``n``: the dice panel shows the dice
of the last command only, and the number says which events belong to it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction
from typing import Any, TypeVar

from apps.systems.core.dice import ExplodingRoll, roll_exploding_once
from apps.systems.core.engine import Decision
from apps.systems.core.match import CommandHandlers, Event
from apps.systems.grundregeln.match.apply import apply
from apps.systems.grundregeln.match.state import MatchState

T = TypeVar("T")


class Ctx(Decision[MatchState]):
    """A Grundregeln command being decided; ``number`` is stamped into its events (by default
    the command after the last one decided)."""

    def __init__(
        self,
        state: MatchState,
        rng: random.Random,
        *,
        probe: bool = False,
        number: int | None = None,
    ) -> None:
        super().__init__(apply, state, rng, probe=probe)
        self.number = state.command_no + 1 if number is None else number

    def emit(self, event_type: str, **data: Any) -> None:
        self.record(Event(event_type, {**data, "n": self.number}))

    def roll(self, count: int, reroll: bool = False) -> ExplodingRoll:
        return roll_exploding_once(self.rng, count, reroll_ones=reroll)

    def described(self, odds: Callable[[], list[T]]) -> list[T]:
        """The exact odds written into an event; a probe skips them (they only describe)."""
        return [] if self.probe else odds()


COMMANDS: CommandHandlers[Ctx] = CommandHandlers()
command = COMMANDS.command


def fraction(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


def roll_data(roll: ExplodingRoll) -> dict[str, list[int]]:
    return {"dice": list(roll.dice), "extra": list(roll.extra), "rerolled": list(roll.rerolled)}
