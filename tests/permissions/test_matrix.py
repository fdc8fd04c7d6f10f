"""Every cell of the permission matrix (``matrix.py``) against the running app: each protected
action, sent by each role, gets exactly the answer the matrix states.

Each case builds the part of the story its action needs (the matches, the roster or the
leagues, see ``matrix.py``), then sends one request as one role."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import Any

import pytest
from django.conf import settings
from django.http import HttpResponse
from django.shortcuts import resolve_url
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from apps.accounts.models import User
from apps.catalog.selectors import game_system_get
from apps.leagues import services as league_services
from apps.leagues.models import League, Pairing, Round, Season
from apps.matches import services as match_services
from apps.matches.models import Match
from apps.rosters import services as roster_services
from apps.rosters.models import Roster
from tests.accounts.factories import UserFactory
from tests.matches.grundregeln import grund_roster, shared_grund_match
from tests.permissions.matrix import AUTH, LOGIN, MATRIX, OK, ROLES, Action

pytestmark = pytest.mark.django_db

PEOPLE = {"owner": "alice", "seat user": "bob", "opponent": "carol", "organiser": "olga"}


@dataclass
class Story:
    """The people, and what the action's area needs of the story (built on demand)."""

    users: dict[str, User]
    objects: dict[str, Any] = field(default_factory=dict)

    def user(self, role: str) -> User | None:
        return None if role == "anonymous" else self.users[role]


def people() -> dict[str, User]:
    users = {role: UserFactory(username=name) for role, name in PEOPLE.items()}
    users["outsider"] = UserFactory(username="otto")
    return users


# --- The three areas of the story -------------------------------------------------------------


def _matches(story: Story) -> None:
    alice, bob, carol = (story.users[r] for r in ("owner", "seat user", "opponent"))

    def opened(opponent: User) -> Match:
        return shared_grund_match(alice, alice, opponent, names=("Alice", "Other"))

    story.objects["M"] = opened(bob)
    match_services.match_take_seat(user=bob, match_id=story.objects["M"].pk, index=1)
    story.objects["M2"] = opened(carol)


def _roster(story: Story) -> None:
    roster = grund_roster(story.users["owner"], "eisenfaust")
    story.objects["R"] = roster_services.roster_share(
        owner=story.users["owner"], roster_id=roster.pk, enabled=True
    )


def _season_with(league: League, name: str, players: list[User]) -> Season:
    organiser = league.organisers.get()
    season = league_services.season_create(
        user=organiser,
        key=league.key,
        name=name,
        starts_on=date(2026, 3, 1),
        ends_on=date(2026, 6, 30),
    )
    for player in players:
        league_services.season_join(
            user=player, season_id=season.pk, code=league.join_code, roster_id=None
        )
    return season


def _leagues(story: Story) -> None:
    u = story.users
    dave = UserFactory(username="dave")
    plain = game_system_get("plain")
    league = league_services.league_create(
        creator=u["organiser"], system=plain, name="Dienstagsliga", visibility="public"
    )
    season = _season_with(league, "Frühjahr", [u["owner"], u["opponent"], u["seat user"], dave])
    registrations = {r.player_id: r for r in season.registrations.all()}
    # Round 1 as the story needs it (the pairing service draws the opponents).
    Season.objects.filter(pk=season.pk).update(status=Season.Status.RUNNING)
    round_ = Round.objects.create(
        season=season, number=1, status=Round.Status.PUBLISHED, published_at=timezone.now()
    )
    story.objects["P"] = Pairing.objects.create(
        round=round_,
        table=1,
        player_a=registrations[u["owner"].pk],
        player_b=registrations[u["opponent"].pk],
    )
    Pairing.objects.create(
        round=round_,
        table=2,
        player_a=registrations[u["seat user"].pk],
        player_b=registrations[dave.pk],
    )
    story.objects["L"] = league
    story.objects["S"] = _season_with(league, "Sommer", [u["owner"], u["opponent"]])
    members = league_services.league_create(
        creator=u["organiser"], system=plain, name="Club only", visibility="members"
    )
    _season_with(members, "Frühjahr", [u["owner"], u["opponent"]])
    story.objects["L2"] = members


AREAS: dict[str, Callable[[Story], None]] = {
    "match": _matches,
    "roster": _roster,
    "league": _leagues,
}


# --- Preparations some actions need -----------------------------------------------------------


def _a_command_to_undo(story: Story) -> None:
    match_services.match_apply_command(
        user=story.users["owner"],
        match_id=story.objects["M"].pk,
        command_type="roll_round_start",
        args={},
        expected_seq=None,
        idempotency_key=None,
        rng=random.Random(3),
    )


def _a_draft_round(story: Story) -> None:
    league = story.objects["L"]
    league_services.round_pair(
        user=story.users["organiser"],
        key=league.key,
        season_id=story.objects["S"].pk,
        rng=random.Random(1),
    )


def _a_tracked_report_by_alice(story: Story) -> None:
    alice, carol = story.users["owner"], story.users["opponent"]
    result = league_services.league_result_propose_from_match(
        system_slug="plain",
        user_ids=(alice.pk, carol.pk),
        winner_user_id=alice.pk,
        vp_by_user={alice.pk: 12, carol.pk: 4},
        match_url="/matches/1/",
        reporter_user_id=alice.pk,
    )
    assert result is not None and result.reported_side == "a"


PREPARE: dict[str, Callable[[Story], None]] = {
    "match.undo": _a_command_to_undo,
    "round.publish": _a_draft_round,
    "result.confirm": _a_tracked_report_by_alice,
    "result.dispute": _a_tracked_report_by_alice,
}


# --- The request of each action ---------------------------------------------------------------


@dataclass(frozen=True)
class Request:
    method: str
    url: str
    data: dict[str, Any] | None = None
    api: bool = False


def _command(story: Story, match: str, type_: str, **args: Any) -> Request:
    url = f"/api/v1/matches/{story.objects[match].pk}/commands/"
    return Request("post", url, {"type": type_, "args": args}, api=True)


def _league(story: Story, path: str) -> str:
    return f"/api/v1/leagues/{story.objects['L'].key}/{path}"


def _pairing(story: Story, path: str = "") -> str:
    return _league(story, f"pairings/{story.objects['P'].pk}/result/{path}")


def _roster_url(story: Story, path: str = "") -> str:
    roster: Roster = story.objects["R"]
    return f"/rosters/{roster.pk}/{path}"


REQUESTS: dict[str, Callable[[Story], Request]] = {
    "match.view": lambda s: Request("get", f"/matches/{s.objects['M'].pk}/"),
    "match.read": lambda s: Request("get", f"/api/v1/matches/{s.objects['M'].pk}/", api=True),
    "match.log": lambda s: Request("get", f"/matches/{s.objects['M'].pk}/log/"),
    "match.command": lambda s: _command(s, "M", "roll_round_start"),
    "match.concede_own": lambda s: _command(s, "M", "concede", player=0),
    "match.concede_other": lambda s: _command(s, "M", "concede", player=1),
    "match.concede_open": lambda s: _command(s, "M2", "concede", player=1),
    "match.undo": lambda s: _command(s, "M", "undo"),
    "match.archive": lambda s: Request("post", f"/matches/{s.objects['M'].pk}/archive/"),
    "match.archive_api": lambda s: Request(
        "post", f"/api/v1/matches/{s.objects['M'].pk}/archive/", api=True
    ),
    "match.delete": lambda s: Request("post", f"/matches/{s.objects['M'].pk}/delete/"),
    "match.delete_api": lambda s: Request(
        "delete", f"/api/v1/matches/{s.objects['M'].pk}/", api=True
    ),
    "match.spectate": lambda s: Request("get", f"/matches/watch/{s.objects['M'].spectator_token}/"),
    "match.view_open": lambda s: Request("get", f"/matches/{s.objects['M2'].pk}/"),
    "match.take_seat": lambda s: Request("post", f"/matches/{s.objects['M2'].pk}/seats/1/take/"),
    "match.take_seat_api": lambda s: Request(
        "post", f"/api/v1/matches/{s.objects['M2'].pk}/seats/1/take/", api=True
    ),
    "roster.view": lambda s: Request("get", _roster_url(s)),
    "roster.read": lambda s: Request("get", f"/api/v1/rosters/{s.objects['R'].pk}/", api=True),
    "roster.view_shared": lambda s: Request(
        "get", f"/rosters/shared/{s.objects['R'].share_token}/"
    ),
    "roster.edit": lambda s: Request(
        "patch", f"/api/v1/rosters/{s.objects['R'].pk}/", {"name": "Renamed"}, api=True
    ),
    "roster.share": lambda s: Request("post", _roster_url(s, "share/"), {"enabled": "1"}),
    "roster.print": lambda s: Request("get", f"/cards/rosters/{s.objects['R'].pk}/"),
    "roster.print_shared": lambda s: Request(
        "get", f"/cards/rosters/{s.objects['R'].pk}/?share={s.objects['R'].share_token}"
    ),
    "roster.delete": lambda s: Request("post", _roster_url(s, "delete/")),
    "league.view": lambda s: Request("get", f"/leagues/{s.objects['L'].key}/"),
    "league.view_members": lambda s: Request("get", f"/leagues/{s.objects['L2'].key}/"),
    "league.create": lambda s: Request(
        "post", "/api/v1/leagues/", {"system": "plain", "name": "Neue Liga"}, api=True
    ),
    "league.edit": lambda s: Request("patch", _league(s, ""), {"name": "Renamed"}, api=True),
    "round.pair": lambda s: Request(
        "post", _league(s, f"seasons/{s.objects['S'].pk}/rounds/"), {}, api=True
    ),
    "round.publish": lambda s: Request(
        "post", _league(s, f"seasons/{s.objects['S'].pk}/rounds/1/publish/"), {}, api=True
    ),
    "result.report": lambda s: Request(
        "post", _pairing(s), {"outcome": "a", "vp_a": 10, "vp_b": 5}, api=True
    ),
    "result.confirm": lambda s: Request("post", _pairing(s, "confirm/"), {}, api=True),
    "result.dispute": lambda s: Request(
        "post", _pairing(s, "dispute/"), {"reason": "Carol won on objectives."}, api=True
    ),
    "result.override": lambda s: Request(
        "post",
        _pairing(s, "override/"),
        {"outcome": "draw", "vp_a": 8, "vp_b": 8, "reason": "Both sheets say 8."},
        api=True,
    ),
}


def send(request: Request, user: User | None) -> HttpResponse:
    client: Client | APIClient
    if request.api:
        client = APIClient(HTTP_ACCEPT_LANGUAGE="en")
        if user is not None:
            client.force_authenticate(user)
        method = getattr(client, request.method)
        return method(request.url, request.data, format="json")
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    if user is not None:
        client.force_login(user)
    return getattr(client, request.method)(request.url, request.data or {})


def answer(response: HttpResponse) -> str:
    """The response as the matrix writes it."""
    if response.status_code in (301, 302, 303):
        login = resolve_url(settings.LOGIN_URL)
        return LOGIN if response["Location"].split("?")[0] == login else OK
    if 200 <= response.status_code < 300:
        return OK
    return str(response.status_code)


def test_every_action_has_its_request() -> None:
    assert set(REQUESTS) == {action.key for action in MATRIX}
    assert len({action.key for action in MATRIX}) == len(MATRIX)
    assert {action.area for action in MATRIX} == set(AREAS)
    for action in MATRIX:
        assert set(action.expected) <= {OK, "403", "404", LOGIN, AUTH}, action.key


@pytest.mark.usefixtures("catalogue", "plain_systems")
@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("action", MATRIX, ids=lambda action: action.key)
def test_permission(action: Action, role: str) -> None:
    story = Story(users=people())
    AREAS[action.area](story)
    if action.key in PREPARE:
        PREPARE[action.key](story)
    response = send(REQUESTS[action.key](story), story.user(role))
    assert answer(response) == action.answer(role), (
        f"{action.label} as {role}: {response.status_code} "
        f"{getattr(response, 'data', '') or response.get('Location', '')}"
    )
