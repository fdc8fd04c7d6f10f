"""League games played on the tracker: "Start this match" on a pairing opens a match of the two
players' season rosters, as they registered them, each seat held by its player.

Only the two players of the game may start it. The pairing row is locked while the match is
made, and a game has at most one match (a database constraint), so two players tapping "Start"
at once end up at the same table: the second opens the match the first made.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from random import Random
from typing import Any

from django.db import transaction
from django.http import Http404
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from apps.accounts.models import User
from apps.leagues.models import Pairing, Registration, Result, Round, Season
from apps.leagues.reveal import lists_hidden
from apps.leagues.season_catalog import season_catalog
from apps.matches.models import Match
from apps.matches.services import MatchError, Seat, match_create
from apps.systems.core.registry import registry


@dataclass(frozen=True)
class LeagueGame:
    """A game of a published round as one of its two players sees it."""

    pairing: Pairing
    mine: Registration
    opponent: Registration

    @property
    def seats(self) -> tuple[Registration, Registration]:
        """Both players in the pairing's order: the first player sits first."""
        assert self.pairing.player_b is not None
        return self.pairing.player_a, self.pairing.player_b

    @property
    def match_id(self) -> int | None:
        match: Match | None = getattr(self.pairing, "match", None)
        return match.pk if match is not None else None


def _pairing(pairing_id: int, *, lock: bool) -> Pairing | None:
    # Lock first, read the related rows after: they are then not stale. Only the pairing's
    # row (``of``): its ordering joins round, season and league, which a plain FOR UPDATE
    # would lock too, by accident; the start locks the season itself when it needs it.
    if lock and not list(
        Pairing.objects.select_for_update(of=("self",)).filter(pk=pairing_id).values("pk")
    ):
        return None
    return (
        Pairing.objects.select_related(
            "round__season__league__system",
            "player_a__player",
            "player_b__player",
            "result",
            "match",
        )
        .filter(pk=pairing_id)
        .first()
    )


def league_game_for_player(user: User, pairing_id: int, *, lock: bool = False) -> LeagueGame:
    """The game if ``user`` plays in it, else 404: to anyone else (organisers included) the
    start page does not exist, so it reveals nothing about a members-only league."""
    pairing = _pairing(pairing_id, lock=lock)
    # A draft round's games are the organisers' until published (the game page is a 404 too).
    if (
        pairing is None
        or pairing.player_b is None
        or pairing.round.status != Round.Status.PUBLISHED
    ):
        raise Http404
    a, b = pairing.player_a, pairing.player_b
    if a.player_id == user.pk:
        return LeagueGame(pairing, a, b)
    if b.player_id == user.pk:
        return LeagueGame(pairing, b, a)
    raise Http404


def league_game_refusal(game: LeagueGame) -> MatchError | None:
    """Why the game cannot be started now, or None. A game already started never refuses: its
    players open the match they have."""
    if game.match_id is not None:
        return None
    pairing = game.pairing
    season = pairing.round.season
    if season.status != Season.Status.RUNNING:
        return MatchError("season_not_running", _("This season is not running."))
    if registry().get(season.league.system.slug).matches is None:
        return MatchError(
            "no_tracker",
            _("%(system)s has no match tracker yet.") % {"system": season.league.system.name},
        )
    result: Result | None = getattr(pairing, "result", None)
    if result is not None:
        return MatchError(
            "game_has_result",
            _("This game has a result already: it is reported on the game's page."),
        )
    if lists_hidden(season):
        # The tracker shows both teams in full: not before the organisers reveal the lists.
        return MatchError(
            "lists_hidden",
            _("The lists are revealed at %(time)s: the match starts after that.")
            % {
                "time": formats.date_format(
                    timezone.localtime(season.lists_reveal_at), "SHORT_DATETIME_FORMAT"
                )
            },
        )
    if any(registration.roster_snapshot is None for registration in game.seats):
        return MatchError(
            "no_season_roster",
            _("Both players need a registered roster to play this game on the tracker."),
        )
    return None


def league_game_size(game: LeagueGame) -> Any:
    """The game size both registered rosters were built for (None when they differ or the
    system has no size), so the start form begins at it."""
    setting = registry().get(game.pairing.round.season.league.system.slug).sizing.setting
    first, second = (
        ((registration.roster_snapshot or {}).get("settings") or {}).get(setting)
        for registration in game.seats
    )
    return first if first == second else None


def _lock_season(pairing: Pairing) -> None:
    """Lock the pairing's season row and read it again: what was read before the lock (its
    status, its pin) may have changed while waiting for it."""
    season = (
        Season.objects.select_for_update(of=("self",))
        .select_related("league__system")
        .get(pk=pairing.round.season_id)
    )
    pairing.round.season = season


@transaction.atomic
def league_match_start(
    *,
    user: User,
    pairing_id: int,
    mode: str,
    settings: Mapping[str, Any],
    rng: Random | None = None,
) -> Match:
    """The game's match: the one already started, or a new one of both season rosters (the
    registered documents, so a roster edited since plays as registered, with the season's
    costs) with each seat held by its player. Only the game's two players may start it.

    Locks the pairing's row, then the season's, explicitly, before the season's catalogue is
    read: an organiser's re-pin (``season_costs_repin``) holds the season's row while it checks
    that no game has a match yet and sets the new costs. So either the re-pin comes first and
    the match plays its costs, or the match comes first and the re-pin is refused
    (``costs_locked``); never a match made with costs the season no longer plays. The pairing
    comes first, as in result reporting; a draft round's pairing (which round writes touch
    under the season's lock) is refused before the season is locked."""
    game = league_game_for_player(user, pairing_id, lock=True)
    existing = Match.objects.filter(league_pairing_id=pairing_id).first()
    if existing is not None:
        return existing
    _lock_season(game.pairing)
    refusal = league_game_refusal(game)
    if refusal is not None:
        raise refusal
    # Both teams with the season's costs, not the catalogue's now (apps.leagues.season_catalog).
    catalog = season_catalog(game.pairing.round.season)
    seats = [
        Seat(
            registration.player.shown_name[:40],
            registration.roster,
            document=registration.roster_snapshot,
            holder=registration.player,
            catalog=catalog,
        )
        for registration in game.seats
    ]
    return match_create(
        creator=user,
        system=game.pairing.round.season.league.system,
        mode=mode,
        seats=seats,
        settings=settings,
        rng=rng,
        league_pairing=game.pairing,
    )
