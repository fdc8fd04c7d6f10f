"""Ratings across leagues: OpenSkill over every counted game of a rule system, and its page."""

from __future__ import annotations

import random
import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from apps.accounts.models import User
from apps.catalog.selectors import game_system_get
from apps.leagues import services
from apps.leagues.models import League, Pairing, Season
from apps.leagues.ratings import PlayerRating, RatedGame, ranks, rate, shown_rating
from apps.leagues.selectors import system_ratings
from apps.leagues.standings import Outcome
from tests.accounts.factories import UserFactory
from tests.leagues.factories import make_league, make_season, organiser_of, report_and_confirm

A, B, C = 1, 2, 3
START_MU = 25.0


def by_player(ratings: list[PlayerRating]) -> dict[int, PlayerRating]:
    return {r.player: r for r in ratings}


# --- The model (no database) -------------------------------------------------------------------


def test_the_winner_goes_up_and_the_loser_down() -> None:
    ratings = by_player(rate([RatedGame(A, B, Outcome.A)]))
    assert ratings[A].mu > START_MU > ratings[B].mu
    assert ratings[A].ordinal > ratings[B].ordinal
    assert (ratings[A].games, ratings[B].games) == (1, 1)


def test_a_win_of_player_b_counts_for_player_b() -> None:
    ratings = by_player(rate([RatedGame(A, B, Outcome.B)]))
    assert ratings[B].mu > START_MU > ratings[A].mu


def test_a_draw_between_equals_changes_little() -> None:
    win = by_player(rate([RatedGame(A, B, Outcome.A)]))
    draw = by_player(rate([RatedGame(A, B, Outcome.DRAW)]))
    assert draw[A].mu == pytest.approx(draw[B].mu)
    assert draw[A].ordinal == pytest.approx(draw[B].ordinal)
    moved_by_draw = abs(draw[A].mu - START_MU)
    moved_by_win = win[A].mu - START_MU
    assert moved_by_draw < 0.1 * moved_by_win


def test_more_wins_rate_higher_and_the_list_is_best_first() -> None:
    ratings = rate(
        [
            RatedGame(A, B, Outcome.A),
            RatedGame(B, C, Outcome.A),
            RatedGame(A, C, Outcome.A),
        ]
    )
    assert [r.player for r in ratings] == [A, B, C]
    assert ratings[0].ordinal > ratings[1].ordinal > ratings[2].ordinal


# --- Counted games of a system -----------------------------------------------------------------


def play(
    league: League, first: User, second: User, outcome: str = "a", *, confirm: bool = True
) -> Pairing:
    """A season of ``league`` where ``first`` and ``second`` play one game, reported by the
    first player (and confirmed by the second unless ``confirm`` is false)."""
    season = make_season(league, name=f"Saison {Season.objects.count() + 1}")
    for player in (first, second):
        services.season_join(
            user=player, season_id=season.pk, code=league.join_code, roster_id=None
        )
    organiser = organiser_of(league)
    round_ = services.round_pair(
        user=organiser, key=league.key, season_id=season.pk, rng=random.Random(1)
    )
    services.round_publish(user=organiser, key=league.key, season_id=season.pk, number=1)
    pairing = round_.pairings.select_related("player_a__player", "player_b__player").get()
    if pairing.player_a.player != first:  # the winner named by ``outcome`` is who we meant
        outcome = {"a": "b", "b": "a", "draw": "draw"}[outcome]
    if confirm:
        report_and_confirm(pairing, outcome)
    else:
        services.result_report(
            user=pairing.player_a.player,
            key=league.key,
            pairing_id=pairing.pk,
            outcome=outcome,
            vp_a=1,
            vp_b=1,
        )
    return pairing


@pytest.mark.django_db
def test_results_of_two_leagues_of_the_system_both_count() -> None:
    anna, bernd = UserFactory(), UserFactory()
    play(make_league(name="Dienstagsliga"), anna, bernd)
    play(make_league(name="Freitagsliga"), anna, bernd)
    ratings = by_player(system_ratings(game_system_get("plain")))
    assert set(ratings) == {anna.pk, bernd.pk}
    assert (ratings[anna.pk].games, ratings[bernd.pk].games) == (2, 2)
    assert ratings[anna.pk].mu > START_MU > ratings[bernd.pk].mu

    one_league = rate([RatedGame(anna.pk, bernd.pk, Outcome.A)])
    assert ratings[anna.pk].mu > by_player(one_league)[anna.pk].mu


@pytest.mark.django_db
def test_results_of_another_system_do_not_count() -> None:
    anna, bernd, carla = UserFactory(), UserFactory(), UserFactory()
    play(make_league(), anna, bernd)
    play(make_league(system="other", name="Bunkerliga"), carla, anna)
    ratings = by_player(system_ratings(game_system_get("plain")))
    assert set(ratings) == {anna.pk, bernd.pk}
    assert ratings[anna.pk].games == 1
    other = by_player(system_ratings(game_system_get("other")))
    assert set(other) == {anna.pk, carla.pk}
    assert other[carla.pk].mu > START_MU > other[anna.pk].mu


@pytest.mark.django_db
def test_an_unconfirmed_result_does_not_count_until_its_time_to_confirm_ran_out() -> None:
    anna, bernd, carla = UserFactory(), UserFactory(), UserFactory()
    league = make_league()
    play(league, anna, bernd)
    pending = play(league, carla, anna, confirm=False)
    system = game_system_get("plain")
    ratings = by_player(system_ratings(system))
    assert set(ratings) == {anna.pk, bernd.pk}
    assert ratings[anna.pk].games == 1

    hours = pending.round.season.confirm_hours
    later = timezone.now() + timedelta(hours=hours, minutes=1)
    assert by_player(system_ratings(system, now=later))[carla.pk].games == 1


@pytest.mark.django_db
def test_a_disputed_result_does_not_count() -> None:
    anna, bernd = UserFactory(), UserFactory()
    league = make_league()
    pairing = play(league, anna, bernd, confirm=False)
    services.result_dispute(
        user=pairing.player_b.player, key=league.key, pairing_id=pairing.pk, reason="Falsch"
    )
    later = timezone.now() + timedelta(days=30)
    assert system_ratings(game_system_get("plain"), now=later) == []


# --- The page ----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_ratings_page_lists_players_in_rating_order(client) -> None:
    anna, bernd, carla = (UserFactory(display_name=n) for n in ("Anna", "Bernd", "Carla"))
    league = make_league()
    play(league, anna, bernd)
    play(league, bernd, carla)
    play(league, anna, carla)
    play(make_league(system="other", name="Bunkerliga"), UserFactory(display_name="Dora"), anna)
    client.force_login(UserFactory())

    response = client.get(reverse("leagues:ratings", args=["plain"]), HTTP_ACCEPT_LANGUAGE="en")
    html = response.content.decode()
    assert response.status_code == 200
    assert "Plain (test system) ratings" in html
    rows = re.findall(
        r'<tr><td class="num">(\d+)</td><th scope="row"><a href="/leagues/players/(\d+)/">'
        r'([^<]+)</a></th><td class="num strong">(\d+)</td><td class="num">(\d+)</td>',
        html,
    )
    assert [(rank, int(user), name, games) for rank, user, name, _rating, games in rows] == [
        ("1", anna.pk, "Anna", "2"),
        ("2", bernd.pk, "Bernd", "2"),
        ("3", carla.pk, "Carla", "2"),
    ]
    shown = [int(rating) for _rank, _user, _name, rating, _games in rows]
    assert shown == sorted(shown, reverse=True)
    assert "Dora" not in html


@pytest.mark.django_db
def test_the_ratings_page_without_games_says_so(client) -> None:
    client.force_login(UserFactory())
    response = client.get(reverse("leagues:ratings", args=["other"]), HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    assert "No counted games yet." in response.content.decode()


@pytest.mark.django_db
def test_the_ratings_page_shows_no_mu_sigma_and_no_negative_numbers(client) -> None:
    anna, bernd, carla = (UserFactory(display_name=n) for n in ("Anna", "Bernd", "Carla"))
    league = make_league()
    for _ in range(6):  # Carla loses often: her mu - 3 sigma is well below 0
        play(league, anna, carla)
        play(league, bernd, carla)
    assert by_player(system_ratings(game_system_get("plain")))[carla.pk].ordinal < -5
    client.force_login(UserFactory())

    html = client.get(reverse("leagues:ratings", args=["plain"]), HTTP_ACCEPT_LANGUAGE="en")
    page = html.content.decode()
    table = page[page.index("<table") : page.index("</table>")]
    assert "mu" not in table and "sigma" not in table
    assert not re.search(r">\s*-\s*\d", table)
    assert "starts at 1,000" in page
    assert "down" in table and "over the last 5 games" in table  # the trend, in words too
    assert "▼" in table and "▲" in table


# --- The shown number and the trend (no database) ----------------------------------------------


def test_the_shown_rating_starts_at_1000_and_never_goes_below_0() -> None:
    assert shown_rating(25.0, 25.0 / 3) == 1000  # a newcomer
    assert shown_rating(25.0, 0.0) == 2000  # 40 points per point of mu - 3 sigma
    assert shown_rating(10.0, 10.0) == 200
    assert shown_rating(0.0, 8.34) == 0  # would be -1


def test_the_history_and_trend_of_a_hand_made_series() -> None:
    """A beats B three times, then loses four times: exact numbers of OpenSkill's
    Plackett-Luce model on the 1,000 scale (the trend spans the last five games)."""
    games = [RatedGame(A, B, Outcome.A)] * 3 + [RatedGame(A, B, Outcome.B)] * 4
    ratings = by_player(rate(games))
    assert [p.shown for p in ratings[A].history] == [1138, 1248, 1336, 1219, 1131, 1068, 1022]
    assert [p.shown for p in ratings[B].history] == [927, 875, 837, 997, 1135, 1248, 1340]
    assert (ratings[A].shown, ratings[B].shown) == (1022, 1340)
    assert ratings[A].trend == 1022 - 1248 == -226
    assert ratings[B].trend == 1340 - 875 == 465
    assert (ratings[A].trend_games, ratings[A].trend_size) == (5, 226)


def test_the_trend_of_a_newcomer_counts_from_the_start() -> None:
    ratings = by_player(rate([RatedGame(A, B, Outcome.A)]))
    assert (ratings[A].trend, ratings[A].trend_games) == (138, 1)
    assert (ratings[B].trend, ratings[B].shown) == (-73, 927)


def test_the_history_carries_each_game_date() -> None:
    first, second = timezone.now() - timedelta(days=7), timezone.now()
    ratings = by_player(
        rate([RatedGame(A, B, Outcome.A, played=first), RatedGame(A, C, Outcome.A, played=second)])
    )
    assert [p.played for p in ratings[A].history] == [first, second]
    assert [p.played for p in ratings[C].history] == [second]


def test_players_with_the_same_shown_rating_share_a_rank() -> None:
    ranked = ranks(rate([RatedGame(A, B, Outcome.DRAW), RatedGame(C, C + 1, Outcome.A)]))
    assert [(rank, r.player, r.shown) for rank, r in ranked] == [
        (1, C, 1138),
        (2, A, 1032),
        (2, B, 1032),
        (4, C + 1, 927),
    ]
