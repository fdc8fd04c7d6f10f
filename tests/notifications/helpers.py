"""Leagues with a game ready for the notification tests, and mailable users."""

from __future__ import annotations

from allauth.account.models import EmailAddress

from apps.accounts.models import User
from apps.leagues import services
from apps.leagues.models import Pairing, Result
from apps.notifications.models import Notification
from tests.leagues.factories import games, join, make_league, make_season, pair_and_publish


def mailable(user: User) -> User:
    """The user with a verified primary address, as after clicking allauth's link."""
    EmailAddress.objects.update_or_create(
        user=user, email=user.email, defaults={"verified": True, "primary": True}
    )
    return user


def published_game(players: int = 2) -> Pairing:
    """The first game of a published round 1 of a new season (no notifications kept)."""
    season = make_season(make_league())
    join(season, players)
    pairing = games(pair_and_publish(season))[0]
    Notification.objects.all().delete()
    return pairing


def report(pairing: Pairing, *, side: str = "a", vp_a: int = 12, vp_b: int = 7) -> Result:
    reporter = pairing.player_a if side == "a" else pairing.player_b
    assert reporter is not None
    return services.result_report(
        user=reporter.player,
        key=pairing.round.season.league.key,
        pairing_id=pairing.pk,
        outcome="a",
        vp_a=vp_a,
        vp_b=vp_b,
    )


def of_kind(kind: str) -> list[Notification]:
    return list(Notification.objects.filter(kind=kind).order_by("user_id"))
