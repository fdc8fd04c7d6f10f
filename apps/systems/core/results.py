"""How a game is decided when it ends before its own end: a player concedes, or the time is up.

Every system ends a game by its rules; these two ends come from the table, not the rulebook
("we have to stop"). The shared part is deciding a standing from scores (the rules' own
tie-breaks stay in each system) and the command every engine offers for the time being up.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Final

from apps.systems.core.i18n import gettext_noop as _
from apps.systems.core.match import CommandSpec

END_ON_TIME: Final = CommandSpec(
    "end_on_time",
    _(
        "The time is up: the game ends now and is decided as it stands (by the score the "
        "rules count at the game's end; a tie is a draw)."
    ),
)


@dataclass(frozen=True)
class Standing:
    """Who won: ``winners`` are the leaders (all of them when tied), ``draw`` when not one."""

    winners: tuple[int, ...]
    draw: bool


def standing(scores: Mapping[int, int], *, among: Iterable[int] | None = None) -> Standing:
    """The players with the best score (players by index; ``among`` limits the contenders).
    One leader wins; a tie between leaders, or nobody left to contend, is a draw."""
    contenders = set(scores) if among is None else set(among) & set(scores)
    if not contenders:
        return Standing((), True)
    best = max(scores[p] for p in contenders)
    leaders = tuple(sorted(p for p in contenders if scores[p] == best))
    return Standing(leaders, len(leaders) != 1)
