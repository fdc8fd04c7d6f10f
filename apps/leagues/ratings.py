"""Ratings across leagues: OpenSkill's Plackett-Luce model over every counted game of a system.

Plain values in, plain values out: no ORM. The model is the maintained ``openskill`` library;
only the order of the games and the shown number are decided here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

from apps.leagues.standings import Outcome


@dataclass(frozen=True)
class RatedGame:
    """A counted game between two players (user ids), oldest first."""

    a: int
    b: int
    outcome: Outcome


@dataclass(frozen=True)
class PlayerRating:
    player: int
    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        """The shown rating: a cautious estimate (mu - 3 sigma) that rises as games come in."""
        return self.mu - 3 * self.sigma


def rate(games: Iterable[RatedGame]) -> list[PlayerRating]:
    """Every player's rating after the games in order, best first."""
    model = PlackettLuce()
    current: dict[int, PlackettLuceRating] = {}
    played: dict[int, int] = {}
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
        played[game.a] = played.get(game.a, 0) + 1
        played[game.b] = played.get(game.b, 0) + 1
    ratings = [
        PlayerRating(player=p, mu=r.mu, sigma=r.sigma, games=played[p]) for p, r in current.items()
    ]
    ratings.sort(key=lambda r: (-r.ordinal, r.player))
    return ratings
