"""Check-in for the next round: players answer for themselves, organisers for anyone; a Swiss
pairing leaves the absent (and, when required, the unanswered) out of that round only; a
round-robin season ignores check-in; the season page's panel and the API."""

from __future__ import annotations

import random

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from apps.leagues import checkins, services
from apps.leagues.models import CheckIn, LogEntry, Round, Season
from apps.leagues.services import LeagueError
from tests.leagues.factories import join, make_league, make_season, organiser_of, pair_and_publish

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true", "HTTP_ACCEPT_LANGUAGE": "en"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


# --- Check-in -----------------------------------------------------------------------------


def _season_with(count: int, **changes: object) -> tuple[Season, list]:
    season = make_season(make_league(), **changes)
    return season, join(season, count)


def _answer(season: Season, registration, answer: str, user=None) -> None:  # noqa: ANN001
    checkins.check_in_set(
        user=user or registration.player, key=season.league.key, season_id=season.pk,
        registration_id=registration.pk, answer=answer,
    )  # fmt: skip


def _paired_ids(round_: Round) -> set[int]:
    ids = set()
    for pairing in round_.pairings.all():
        ids.add(pairing.player_a_id)
        if pairing.player_b_id:
            ids.add(pairing.player_b_id)
    return ids


def test_absent_players_sit_out_the_swiss_round_and_stay_registered() -> None:
    season, players = _season_with(6)
    _answer(season, players[0], "absent")
    _answer(season, players[1], "present")
    round_ = pair_and_publish(season)
    assert _paired_ids(round_) == {p.pk for p in players[1:]}
    players[0].refresh_from_db()
    assert players[0].dropped_at is None
    # The answer was for round 1 only: round 2 pairs them again.
    for pairing in round_.pairings.filter(player_b__isnull=False):
        services.result_override(
            user=organiser_of(season.league), key=season.league.key, pairing_id=pairing.pk,
            outcome="a", vp_a=5, vp_b=2, reason="entered",
        )  # fmt: skip
    assert players[0].pk in _paired_ids(pair_and_publish(season, seed=3))


def test_required_check_in_pairs_only_the_checked_in() -> None:
    season, players = _season_with(5, check_in_required=True)
    for registration in players[:3]:
        _answer(season, registration, "present")
    round_ = pair_and_publish(season)
    assert _paired_ids(round_) == {p.pk for p in players[:3]}
    assert round_.pairings.filter(player_b__isnull=True).count() == 1  # odd: one bye


def test_too_few_checked_in_refuses_to_pair() -> None:
    season, players = _season_with(3, check_in_required=True)
    _answer(season, players[0], "present")
    with pytest.raises(LeagueError) as refused:
        pair_and_publish(season)
    assert refused.value.code == "not_enough_players"


def test_round_robin_ignores_check_in() -> None:
    season, players = _season_with(4, pairing_method=Season.Method.ROUND_ROBIN)
    assert checkins.check_in_round(season) is None
    with pytest.raises(LeagueError) as refused:
        _answer(season, players[0], "absent")
    assert refused.value.code == "no_check_in"
    assert len(_paired_ids(pair_and_publish(season))) == 4


def test_players_answer_for_themselves_organisers_for_anyone() -> None:
    season, players = _season_with(3)
    with pytest.raises(LeagueError) as refused:
        _answer(season, players[1], "absent", user=players[0].player)
    assert refused.value.status == 403
    _answer(season, players[1], "absent", user=organiser_of(season.league))
    _answer(season, players[1], "unknown", user=organiser_of(season.league))
    assert not CheckIn.objects.filter(registration=players[1]).exists()
    assert LogEntry.objects.filter(season=season, action="check_in_set").count() == 2
    with pytest.raises(IntegrityError), transaction.atomic():
        CheckIn.objects.create(registration=players[0], round_number=0, present=True)


def test_check_in_closes_while_a_draft_waits() -> None:
    season, players = _season_with(4)
    services.round_pair(
        user=organiser_of(season.league), key=season.league.key, season_id=season.pk,
        rng=random.Random(1),
    )  # fmt: skip
    with pytest.raises(LeagueError) as refused:
        _answer(season, players[0], "present")
    assert refused.value.code == "no_check_in"


def test_check_in_panel_on_the_season_page(client) -> None:
    season, players = _season_with(3)
    url = reverse("leagues:season", args=[season.league.key, season.pk])
    client.force_login(players[0].player)
    page = client.get(url, **EN).content.decode()
    assert "I&#x27;m here" in page or "I'm here" in page
    post = reverse("leagues:check_in", args=[season.league.key, season.pk])
    answered = client.post(post, {"registration": players[0].pk, "answer": "present"}, **HTMX)
    assert answered.status_code == 200 and "You are checked in." in answered.content.decode()
    bad = client.post(post, {"registration": players[0].pk, "answer": "maybe"}, **HTMX)
    assert bad.status_code == 422
    other = client.post(post, {"registration": players[1].pk, "answer": "absent"}, **HTMX)
    assert other.status_code == 403
    assert client.get(post, **HTMX).status_code == 403  # the list is the organisers'
    client.force_login(organiser_of(season.league))
    counted = client.get(url, **EN).content.decode()
    assert "Present: 1 · absent: 0 · no answer: 2" in counted
    assert "check-in-list" not in counted  # every player's answer only when asked for
    listed = client.get(post, **HTMX).content.decode()
    assert "check-in-list" in listed and "check-in-present" in listed
    assert client.get(post, **EN)["Location"] == url + "?check_in=all"
    assert "check-in-list" in client.get(url + "?check_in=all", **EN).content.decode()


def test_check_in_api(api_client) -> None:
    season, players = _season_with(3)
    url = reverse("api:season-check-in", args=[season.league.key, season.pk])
    api_client.force_authenticate(players[0].player)
    done = api_client.post(url, {"registration": players[0].pk, "answer": "absent"}, format="json")
    assert done.status_code == 200
    assert done.json()["players"] == [
        {"id": players[0].pk, "name": players[0].player.shown_name, "answer": "absent"}
    ]
    refused = api_client.post(
        url, {"registration": players[1].pk, "answer": "absent"}, format="json"
    )
    assert refused.status_code == 403 and refused.json()["code"] == "not_your_check_in"
    api_client.force_authenticate(organiser_of(season.league))
    assert len(api_client.get(url).json()["players"]) == 3


def test_an_answer_after_the_round_was_paired_says_check_in_closed(client) -> None:
    """The panel's HTMX post once the next round is a draft: the panel gives way to the reason."""
    season, players = _season_with(4)
    services.round_pair(
        user=organiser_of(season.league), key=season.league.key, season_id=season.pk,
        rng=random.Random(1),
    )  # fmt: skip
    client.force_login(players[0].player)
    answer = client.post(
        reverse("leagues:check_in", args=[season.league.key, season.pk]),
        {"registration": players[0].pk, "answer": "present"},
        **HTMX,
    )
    assert answer.status_code == 422
    assert 'id="check-in"' in answer.content.decode()
    assert 'role="alert"' in answer.content.decode()
