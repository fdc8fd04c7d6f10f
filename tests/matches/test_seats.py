"""Seats: a team opened from someone's share link belongs to no one until its owner takes the
seat; only a seat's own user concedes for it; such a match is neither in the owner's list nor
counted against their quota until they take it (issue 15)."""

from __future__ import annotations

import pytest

from apps.catalog.models import GameSystem
from apps.matches import services
from apps.matches.models import Match, MatchPlayer
from apps.matches.selectors import match_list_for_user
from apps.systems.core.registry import registry
from tests.accounts.factories import UserFactory
from tests.matches.factories import api_for, concede
from tests.matches.grundregeln import shared_grund_match

pytestmark = pytest.mark.django_db

# Alice opens a match of her team against Bob's, which she got from his share link.
NAMES = ("Alice", "Bob")


@pytest.fixture
def grundregeln(catalogue) -> GameSystem:  # noqa: ARG001
    return GameSystem.objects.get(slug="grundregeln")


def test_a_team_from_a_share_link_leaves_its_seat_to_no_one(grundregeln) -> None:
    alice, bob = UserFactory(), UserFactory()
    match = shared_grund_match(alice, alice, bob, system=grundregeln, names=NAMES)
    seats = list(match.players.order_by("index"))
    assert [(s.user, s.team_owner) for s in seats] == [(alice, alice), (None, bob)]


def test_nobody_concedes_for_a_seat_nobody_has_taken(grundregeln) -> None:
    alice, bob = UserFactory(), UserFactory()
    match = shared_grund_match(alice, alice, bob, system=grundregeln, names=NAMES)
    with pytest.raises(services.NotYourSeat) as refused:
        concede(match, alice, 1)
    assert refused.value.code == "not_your_seat"
    assert Match.objects.get(pk=match.pk).status != "finished"


def test_only_the_seat_holder_concedes_for_it(grundregeln) -> None:
    alice, bob = UserFactory(), UserFactory()
    match = shared_grund_match(alice, alice, bob, system=grundregeln, names=NAMES)
    services.match_take_seat(user=bob, match_id=match.pk, index=1)
    with pytest.raises(services.NotYourSeat):
        concede(match, alice, 1)
    with pytest.raises(services.NotYourSeat):
        concede(match, bob, 0)
    finished = concede(match, bob, 1)
    assert finished.status == "finished" and finished.result["winners"] == [0]


def test_conceding_for_another_seat_through_the_api_is_a_403(grundregeln) -> None:
    alice, bob = UserFactory(), UserFactory()
    match = shared_grund_match(alice, alice, bob, system=grundregeln, names=NAMES)
    response = api_for(alice).post(
        f"/api/v1/matches/{match.pk}/commands/",
        {"type": "concede", "args": {"player": 1}},
        format="json",
    )
    assert (response.status_code, response.json()["code"]) == (403, "not_your_seat")


def test_every_engine_lets_only_a_seats_own_user_give_up() -> None:
    giving_up = {"concede", "surrender", "resign", "forfeit"}
    for info in registry().all():
        engine = info.matches
        for spec in engine.commands() if engine is not None else ():
            if spec.type in giving_up:
                assert spec.own_seat_arg == "player", (info.slug, spec.type)


def test_a_match_with_someones_team_is_not_in_their_list_or_quota(grundregeln, monkeypatch) -> None:
    alice, bob = UserFactory(), UserFactory()
    match = shared_grund_match(alice, alice, bob, system=grundregeln, names=NAMES)
    assert list(match_list_for_user(bob)) == []
    assert list(match_list_for_user(alice)) == [match]
    # Bob's quota counts the matches he opened, not those opened with his team.
    monkeypatch.setattr(services, "MAX_ACTIVE_MATCHES_PER_USER", 1)
    shared_grund_match(bob, bob, alice, system=grundregeln, names=NAMES)
    services.match_take_seat(user=bob, match_id=match.pk, index=1)
    assert set(match_list_for_user(bob)) == {match, Match.objects.get(created_by=bob)}


def test_the_team_owner_takes_the_seat_from_the_match_link(grundregeln, client) -> None:
    alice, bob = UserFactory(), UserFactory()
    match = shared_grund_match(alice, alice, bob, system=grundregeln, names=NAMES)
    url = f"/matches/{match.pk}/"
    client.force_login(alice)
    tracker = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Seats not taken yet" in tracker and "waiting for" in tracker
    client.force_login(bob)
    listed = client.get("/matches/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Seats waiting for you" in listed and f"/matches/{match.pk}/seats/1/take/" in listed
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200 and "Take my seat" in page.content.decode()
    assert client.post(f"/matches/{match.pk}/command/", {"command": "undo"}).status_code == 404
    taken = client.post(f"/matches/{match.pk}/seats/1/take/")
    assert taken.status_code == 302 and taken["Location"] == url
    assert MatchPlayer.objects.get(match=match, index=1).user == bob
    assert "Take my seat" not in client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()


def test_the_seat_pages_render_in_german_too(grundregeln, client) -> None:
    alice, bob = UserFactory(), UserFactory()
    match = shared_grund_match(alice, alice, bob, system=grundregeln, names=NAMES)
    for user, url in (
        (alice, f"/matches/{match.pk}/"),
        (bob, f"/matches/{match.pk}/"),
        (bob, "/matches/"),
    ):
        client.force_login(user)
        page = client.get(url, HTTP_ACCEPT_LANGUAGE="de")
        assert page.status_code == 200, url
        assert '<html lang="de">' in page.content.decode()
        assert f"/matches/{match.pk}/seats/1/take/" in page.content.decode() or user == alice


def test_only_the_team_owner_takes_a_seat(grundregeln, client) -> None:
    alice, bob, stranger = UserFactory(), UserFactory(), UserFactory()
    match = shared_grund_match(alice, alice, bob, system=grundregeln, names=NAMES)
    take = f"/matches/{match.pk}/seats/1/take/"
    client.force_login(alice)
    assert client.post(take).status_code == 403
    client.force_login(stranger)
    assert client.post(take).status_code == 404
    assert client.get(f"/matches/{match.pk}/").status_code == 404
    client.logout()
    assert client.post(take)["Location"].startswith("/accounts/login/")
    assert MatchPlayer.objects.get(match=match, index=1).user is None


def test_the_api_lists_the_seats_waiting_for_you_and_takes_one(grundregeln) -> None:
    alice, bob = UserFactory(), UserFactory()
    match = shared_grund_match(alice, alice, bob, system=grundregeln, names=NAMES)
    api = api_for(bob)
    assert api.get(f"/api/v1/matches/{match.pk}/").status_code == 404
    (waiting,) = api.get("/api/v1/matches/seats/").json()
    assert (waiting["match"], waiting["index"], waiting["name"]) == (match.pk, 1, "Bob")
    taken = api.post(f"/api/v1/matches/{match.pk}/seats/1/take/")
    assert taken.status_code == 200 and taken.json()["viewer"] == 1
    assert api.get("/api/v1/matches/seats/").json() == []
    assert list(match_list_for_user(bob)) == [match]
    again = api.post(f"/api/v1/matches/{match.pk}/seats/1/take/")
    assert again.status_code == 200
    refused = api_for(alice).post(f"/api/v1/matches/{match.pk}/seats/1/take/")
    assert (refused.status_code, refused.json()["code"]) == (403, "not_your_team")


def test_the_seats_read_with_a_match_are_the_seats_rows(grundregeln) -> None:
    """The unlocked read carries the seats as JSON (``selectors._keep_seats``): each seat is
    the row it stands for, with its own id, its match, and its team's document on demand."""
    from django.db.models import F

    from apps.matches.selectors import match_for_participant, match_players

    alice, bob = UserFactory(), UserFactory()
    match = shared_grund_match(alice, alice, bob, system=grundregeln, names=NAMES)
    read = match_for_participant(alice, match.pk)
    stored = list(
        MatchPlayer.objects.filter(match=match)
        .order_by("index")
        .values("id", "match_id", "index", "name", "user_id", "team_owner_id", "roster_id")
    )
    kept = match_players(read)
    assert [{field: getattr(seat, field) for field in stored[0]} for seat in kept] == stored
    assert len({seat.pk for seat in kept}) == len(kept)
    document = MatchPlayer.objects.filter(pk=kept[-1].pk).values_list(
        F("roster_document"), flat=True
    )
    assert kept[-1].roster_document == document.get()
