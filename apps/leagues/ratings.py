"""Ratings across leagues: OpenSkill's Plackett-Luce model over every counted game of a system.

Plain values in, plain values out: no ORM. The model is the maintained ``openskill`` library;
only the order of the games and the shown number are decided here.

The shown number. OpenSkill describes a player by ``mu`` (the estimated strength, 25 at the
start) and ``sigma`` (how unsure that estimate is, 25/3 at the start). Players are ranked by
the cautious estimate ``mu - 3 sigma`` (the "ordinal"), which is 0 for a newcomer and negative
for many players after a few losses: hard to read on a page. It is therefore shown as

    shown = round(1000 + 40 * (mu - 3 sigma)), never below 0

so a newcomer starts at 1,000 and a player rises as their results make their strength more
certain. One point of ordinal is 40 shown points: between two newcomers, the first game
moves the winner to 1,138 and the loser to 927 (both become more certain, so the loss costs less
than the win earns).
The ranking is the same as by the ordinal; only the number is friendlier.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Final

from openskill.models import PlackettLuce, PlackettLuceRating

from apps.leagues.standings import Outcome

SHOWN_START: Final = 1000
SHOWN_PER_ORDINAL: Final = 40
# The trend compares the rating now with the rating this many of the player's games ago.
TREND_GAMES: Final = 5


def shown_rating(mu: float, sigma: float) -> int:
    """The friendly number for a rating (see the module's docstring): never below 0."""
    return max(0, round(SHOWN_START + SHOWN_PER_ORDINAL * (mu - 3 * sigma)))


@dataclass(frozen=True)
class RatedGame:
    """A counted game between two players (user ids), oldest first; ``played`` is when it
    was played (reported), for the rating's history."""

    a: int
    b: int
    outcome: Outcome
    played: datetime | None = None


@dataclass(frozen=True)
class RatingPoint:
    """The player's shown rating right after one of their games."""

    played: datetime | None
    shown: int


@dataclass(frozen=True)
class PlayerRating:
    player: int
    mu: float
    sigma: float
    games: int
    # The shown rating after each of the player's games, oldest first.
    history: tuple[RatingPoint, ...] = ()

    @property
    def ordinal(self) -> float:
        """The cautious estimate (mu - 3 sigma) that rises as games come in."""
        return self.mu - 3 * self.sigma

    @property
    def shown(self) -> int:
        return shown_rating(self.mu, self.sigma)

    @property
    def trend(self) -> int:
        """The change of the shown rating over the player's last ``TREND_GAMES`` games (since
        the start, for a player with fewer games)."""
        if len(self.history) > TREND_GAMES:
            before = self.history[-TREND_GAMES - 1].shown
        else:
            before = SHOWN_START
        return self.shown - before

    @property
    def trend_size(self) -> int:
        """The trend without its sign, for a sentence that says "up" or "down" in words."""
        return abs(self.trend)

    @property
    def trend_games(self) -> int:
        """How many games the trend spans (fewer than ``TREND_GAMES`` for a newcomer)."""
        return min(len(self.history), TREND_GAMES)


def rate(games: Iterable[RatedGame]) -> list[PlayerRating]:
    """Every player's rating after the games in order, best first."""
    model = PlackettLuce()
    current: dict[int, PlackettLuceRating] = {}
    history: dict[int, list[RatingPoint]] = {}
    for game in games:
        teams = [
            [current.get(game.a) or model.rating(name=str(game.a))],
            [current.get(game.b) or model.rating(name=str(game.b))],
        ]
        # Lower rank is better; a draw ranks both first.
        ranks = {Outcome.A: [1.0, 2.0], Outcome.B: [2.0, 1.0], Outcome.DRAW: [1.0, 1.0]}[
            game.outcome
        ]
        [[a], [b]] = model.rate(teams, ranks=ranks)
        current[game.a], current[game.b] = a, b
        for player, rating in ((game.a, a), (game.b, b)):
            point = RatingPoint(game.played, shown_rating(rating.mu, rating.sigma))
            history.setdefault(player, []).append(point)
    ratings = [
        PlayerRating(
            player=p,
            mu=r.mu,
            sigma=r.sigma,
            games=len(history[p]),
            history=tuple(history[p]),
        )
        for p, r in current.items()
    ]
    ratings.sort(key=lambda r: (-r.ordinal, r.player))
    return ratings


def ranks(ratings: Iterable[PlayerRating]) -> list[tuple[int, PlayerRating]]:
    """Each rating (best first) with its rank: players with the same shown number share the
    rank of the first of them (1, 2, 2, 4), so that equal numbers never look ordered."""
    ranked: list[tuple[int, PlayerRating]] = []
    for position, rating in enumerate(ratings, start=1):
        tied = bool(ranked) and ranked[-1][1].shown == rating.shown
        ranked.append((ranked[-1][0] if tied else position, rating))
    return ranked
