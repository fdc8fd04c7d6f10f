"""The dead ends of issue 13: conceding and ending on time from the tracker (the result goes to
the league game as any other end), archiving and deleting a match, on the pages and the API."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from apps.catalog.models import GameSystem
from apps.leagues import services as league_services
from apps.leagues.models import Pairing, Result
from apps.matches import services
from apps.matches.models import Match, MatchEvent, MatchStatus
from apps.matches.selectors import matches_in_progress_for_user
from tests.accounts.factories import UserFactory
from tests.leagues.factories import games, make_league, make_season, pair_and_publish
from tests.matches.factories import api_for, concede, roster_for, small_match
from tests.matches.grundregeln import grund_match
from tests.matches.test_universalis import opened as universalis_match

pytestmark = pytest.mark.django_db


def page_client(user: Any) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    return client


def two_player_match(deathmatch: GameSystem) -> tuple[Any, Any, Match]:
    """Alice opens a Deathmatch match against Bob's team; Bob takes his seat."""
    alice, bob = UserFactory(), UserFactory()
    match = small_match(alice, deathmatch, opponent=bob)
    services.match_take_seat(user=bob, match_id=match.pk, index=1)
    return alice, bob, match


def command(user: Any, match: Match, type_: str, **args: Any) -> Match:
    return services.match_apply_command(
        user=user,
        match_id=match.pk,
        command_type=type_,
        args=args,
        expected_seq=None,
        idempotency_key=None,
        rng=random.Random(1),
    ).match


# --- Concede and end on time, through the app ---------------------------------------------------


@pytest.fixture
def deathmatch_league_game(deathmatch: GameSystem) -> tuple[Any, Any, Pairing]:  # noqa: ARG001
    alice, bob = UserFactory(), UserFactory()
    league = make_league(system="deathmatch")
    season = make_season(league)
    for user in (alice, bob):
        league_services.season_join(
            user=user, season_id=season.pk, code=league.join_code, roster_id=roster_for(user).pk
        )
    (game,) = games(pair_and_publish(season))
    return alice, bob, game


def test_a_deathmatch_concession_in_a_league_match_proposes_the_result_to_the_league_game(
    deathmatch, deathmatch_league_game, django_capture_on_commit_callbacks
) -> None:
    alice, bob, game = deathmatch_league_game
    match = small_match(alice, deathmatch, opponent=bob)
    services.match_take_seat(user=bob, match_id=match.pk, index=1)
    with django_capture_on_commit_callbacks(execute=True):
        finished = concede(match, bob, 1)
    assert finished.status == MatchStatus.FINISHED
    assert finished.result == {"winners": [0], "draw": False, "reason": "conceded", "vp": [0, 0]}
    result = Result.objects.get(pairing=game)
    alice_side = "a" if game.player_a.player == alice else "b"
    assert (result.source, result.outcome, result.reported_by) == ("tracked", alice_side, alice)
    assert result.match_url == reverse("matches:tracker", args=[match.pk])


def test_a_player_cannot_concede_for_the_other_seat(deathmatch) -> None:
    alice, _bob, match = two_player_match(deathmatch)
    with pytest.raises(services.NotYourSeat):
        concede(match, alice, 1)


def test_ending_on_time_finishes_the_match_with_a_draw_on_equal_vp(deathmatch) -> None:
    alice, _bob, match = two_player_match(deathmatch)
    finished = command(alice, match, "end_on_time")
    assert finished.status == MatchStatus.FINISHED
    assert finished.result is not None and finished.result["reason"] == "time"
    assert finished.result["draw"] is True


@pytest.mark.parametrize("slug", ["grundregeln", "universalis"])
def test_every_system_ends_on_time_and_concedes(catalogue, user, slug: str) -> None:  # noqa: ARG001
    system = GameSystem.objects.get(slug=slug)

    def opened() -> Match:
        if slug == "grundregeln":
            return grund_match(user, system)
        return universalis_match(system, user, UserFactory())

    timed = command(user, opened(), "end_on_time")
    assert timed.status == MatchStatus.FINISHED and timed.result["reason"] == "time"
    conceded = concede(opened(), user, 0)
    assert conceded.result["winners"] == [1] and conceded.result["reason"] == "conceded"


# --- The tracker's Match section -----------------------------------------------------------------


def test_the_tracker_offers_concede_for_each_held_seat_and_end_on_time(deathmatch) -> None:
    alice, _bob, match = two_player_match(deathmatch)
    html = page_client(alice).get(reverse("matches:tracker", args=[match.pk])).content.decode()
    assert html.count('value="concede"') == 1  # Alice holds seat 0 only
    assert 'name="args.player:int" value="0"' in html
    assert "Concede for Anna" in html and "Concede for Ben" not in html
    assert 'value="end_on_time"' in html and "hx-confirm=" in html
    assert reverse("matches:archive", args=[match.pk]) in html
    assert reverse("matches:delete", args=[match.pk]) in html


def test_the_tracker_shows_no_delete_to_a_player_who_did_not_open_the_match(deathmatch) -> None:
    _alice, bob, match = two_player_match(deathmatch)
    html = page_client(bob).get(reverse("matches:tracker", args=[match.pk])).content.decode()
    assert "Concede for Ben" in html and "Concede for Anna" not in html
    assert reverse("matches:delete", args=[match.pk]) not in html


def test_a_finished_match_offers_no_concede_and_a_spectator_sees_no_match_section(
    deathmatch,
) -> None:
    alice, _bob, match = two_player_match(deathmatch)
    concede(match, alice, 0)
    html = page_client(alice).get(reverse("matches:tracker", args=[match.pk])).content.decode()
    assert 'value="concede"' not in html and 'value="end_on_time"' not in html
    assert reverse("matches:archive", args=[match.pk]) in html
    spectator = Client(HTTP_ACCEPT_LANGUAGE="en").get(
        reverse("matches:spectate", args=[match.spectator_token])
    )
    assert 'id="match-menu"' not in spectator.content.decode()


def test_a_concede_form_from_the_tracker_ends_the_match(deathmatch) -> None:
    alice, _bob, match = two_player_match(deathmatch)
    response = page_client(alice).post(
        reverse("matches:command", args=[match.pk]),
        {"command": "concede", "args.player:int": "0", "expected_seq": str(match.seq)},
    )
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.result["winners"] == [1]


# --- Archive ------------------------------------------------------------------------------------


def test_archiving_hides_the_match_from_the_list_and_the_archived_filter_shows_it(
    deathmatch,
) -> None:
    alice, bob, match = two_player_match(deathmatch)
    client = page_client(bob)
    response = client.post(reverse("matches:archive", args=[match.pk]))
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.archived_at is not None
    listed = page_client(alice).get(reverse("matches:list")).content.decode()
    assert match.title not in listed and "?archived=1" in listed
    archived = page_client(alice).get(reverse("matches:list") + "?archived=1").content.decode()
    assert match.title in archived
    assert reverse("matches:unarchive", args=[match.pk]) in archived


def test_archiving_is_no_move_and_unarchiving_brings_the_match_back(deathmatch) -> None:
    alice, _bob, match = two_player_match(deathmatch)
    moved = Match.objects.get(pk=match.pk).updated_at
    client = page_client(alice)
    client.post(reverse("matches:archive", args=[match.pk]))
    assert Match.objects.get(pk=match.pk).updated_at == moved
    response = client.post(reverse("matches:unarchive", args=[match.pk]))
    assert response.status_code == 302
    assert Match.objects.get(pk=match.pk).archived_at is None
    assert match.title in client.get(reverse("matches:list")).content.decode()


def test_an_outsider_cannot_archive_and_archiving_needs_a_post(deathmatch) -> None:
    alice, _bob, match = two_player_match(deathmatch)
    outsider = page_client(UserFactory())
    assert outsider.post(reverse("matches:archive", args=[match.pk])).status_code == 404
    assert page_client(alice).get(reverse("matches:archive", args=[match.pk])).status_code == 405
    assert Match.objects.get(pk=match.pk).archived_at is None


def test_the_api_archives_lists_and_unarchives(deathmatch) -> None:
    alice, bob, match = two_player_match(deathmatch)
    api = api_for(bob)
    response = api.post(f"/api/v1/matches/{match.pk}/archive/")
    assert response.status_code == 200 and response.json()["archived_at"] is not None
    assert [m["id"] for m in api_for(alice).get("/api/v1/matches/").json()] == []
    archived = api_for(alice).get("/api/v1/matches/?archived=1").json()
    assert [m["id"] for m in archived] == [match.pk] and archived[0]["archived_at"]
    response = api.post(f"/api/v1/matches/{match.pk}/unarchive/")
    assert response.status_code == 200 and response.json()["archived_at"] is None
    assert api.get("/api/v1/matches/?archived=2").json()["code"] == "invalid"


# --- Delete -------------------------------------------------------------------------------------


def test_the_creator_deletes_a_match_after_confirming(deathmatch) -> None:
    alice, _bob, match = two_player_match(deathmatch)
    client = page_client(alice)
    question = client.get(reverse("matches:delete", args=[match.pk]))
    assert question.status_code == 200 and b'class="button danger"' in question.content
    response = client.post(reverse("matches:delete", args=[match.pk]))
    assert response.status_code == 302 and response["Location"] == reverse("matches:list")
    assert not Match.objects.filter(pk=match.pk).exists()
    assert not MatchEvent.objects.filter(match_id=match.pk).exists()


def test_only_the_creator_deletes_a_match(deathmatch) -> None:
    _alice, bob, match = two_player_match(deathmatch)
    assert page_client(bob).post(reverse("matches:delete", args=[match.pk])).status_code == 403
    outsider = page_client(UserFactory())
    assert outsider.post(reverse("matches:delete", args=[match.pk])).status_code == 404
    response = api_for(bob).delete(f"/api/v1/matches/{match.pk}/")
    assert response.status_code == 403 and response.json()["code"] == "not_creator"
    assert Match.objects.filter(pk=match.pk).exists()


def test_a_match_that_reported_to_a_league_game_is_not_deleted(
    deathmatch, deathmatch_league_game, django_capture_on_commit_callbacks
) -> None:
    alice, bob, _game = deathmatch_league_game
    match = small_match(alice, deathmatch, opponent=bob)
    services.match_take_seat(user=bob, match_id=match.pk, index=1)
    with django_capture_on_commit_callbacks(execute=True):
        concede(match, bob, 1)
    client = page_client(alice)
    question = client.get(reverse("matches:delete", args=[match.pk])).content.decode()
    assert "league game" in question and 'class="button danger"' not in question
    refused = client.post(reverse("matches:delete", args=[match.pk]))
    assert refused.status_code == 409 and b'role="alert"' in refused.content
    response = api_for(alice).delete(f"/api/v1/matches/{match.pk}/")
    assert response.status_code == 409 and response.json()["code"] == "league_record"
    assert Match.objects.filter(pk=match.pk).exists()


def test_the_api_deletes_for_the_creator_and_asks_anonymous_callers_to_log_in(deathmatch) -> None:
    alice, _bob, match = two_player_match(deathmatch)
    anonymous = api_for(UserFactory())
    anonymous.force_authenticate(None)
    assert anonymous.delete(f"/api/v1/matches/{match.pk}/").status_code == 401
    assert api_for(alice).delete(f"/api/v1/matches/{match.pk}/").status_code == 204
    assert not Match.objects.filter(pk=match.pk).exists()


def test_an_archived_match_is_not_offered_to_resume(deathmatch) -> None:
    alice, _bob, match = two_player_match(deathmatch)
    assert matches_in_progress_for_user(alice) == [match]
    services.match_archive(user=alice, match_id=match.pk, archived=True)
    assert matches_in_progress_for_user(alice) == []
