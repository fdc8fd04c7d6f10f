"""The fixed cost of a tap (issue 16), in queries: an API command reads the match once, with
its seats, and stores its decision by a write made only if the seq has not
moved (no second read under the row lock), and an HTMX tap answers with a tracker partial that
reads the latest rows once. The answer is the same board a
fresh page render shows. Timings are printed by ``make bench``, never asserted here."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from apps.matches import services
from apps.matches.models import Match
from tests.accounts.factories import UserFactory
from tests.matches.factories import api_for, small_match

pytestmark = pytest.mark.django_db

# Per-response values: CSRF tokens, idempotency keys, the poll token's signing time.
VOLATILE = re.compile(r'(csrfmiddlewaretoken" value=|idempotency_key" value=|cmd-|[?&]t=)"?[^"&]*')


@pytest.fixture
def queries() -> Callable[[int], Any]:
    """``with queries(n):`` asserts n queries, not counting the session's read: the session
    lives in the cache where Redis is configured and in the database otherwise."""

    @contextmanager
    def expect(count: int) -> Iterator[None]:
        with CaptureQueriesContext(connection) as captured:
            yield
        made = [q["sql"] for q in captured if '"django_session"' not in q["sql"]]
        assert len(made) == count, "\n".join(made)

    return expect


@pytest.fixture
def browser(user) -> Client:
    browser = Client(HTTP_ACCEPT_LANGUAGE="en")
    browser.force_login(user)
    return browser


def _flips(match: Match, user: Any, count: int) -> Match:
    client = api_for(user)
    for _ in range(count):
        response = client.post(
            f"/api/v1/matches/{match.pk}/commands/",
            {"type": "flip", "args": {"player": 0}},
            format="json",
        )
        assert response.status_code == 200
    match.refresh_from_db()
    return match


def _tap_data(match: Match) -> dict[str, str]:
    """A free flip's form as the tracker draws it (the seq read here, before any count)."""
    seq = Match.objects.filter(pk=match.pk).values_list("seq", flat=True).get()
    return {
        "command": "flip",
        "args.player:int": "0",
        "expected_seq": str(seq),
        "idempotency_key": uuid.uuid4().hex,
    }


def _tap(browser: Client, match: Match, data: dict[str, str] | None = None) -> Any:
    data = _tap_data(match) if data is None else data
    return browser.post(f"/matches/{match.pk}/command/", data, HTTP_HX_REQUEST="true")


def test_an_api_command_reads_the_match_once_and_writes_once(deathmatch, user, queries) -> None:
    match = _flips(small_match(user, deathmatch), user, 2)
    client = api_for(user)
    url = f"/api/v1/matches/{match.pk}/commands/"
    command = {"type": "flip", "args": {"player": 0}, "idempotency_key": uuid.uuid4().hex}
    # The match before the lock (with the user's seats and the key's command, if any); then a
    # savepoint, the snapshot written only if the seq has not moved (taking the row lock), the
    # events and the release. The answer's secrets follow the seats read with the match.
    with queries(5):
        response = client.post(url, command, format="json")
    assert response.status_code == 200
    # The same key again: the first answer, from the rows it stored (found before the lock,
    # looked up again under it), with the undone commands among them.
    with queries(8):
        again = client.post(url, command, format="json")
    assert again.json()["replayed"] is True
    assert again.json()["events"] == response.json()["events"]


def test_an_htmx_tap_reads_the_match_with_its_seats_and_the_latest_rows_once(
    deathmatch, user, browser, queries
) -> None:
    match = _flips(small_match(user, deathmatch), user, 3)
    _tap(browser, match)
    data = _tap_data(match)
    # The user; the command as through the API (five); the latest rows for the partial (the
    # seats came with the match).
    with queries(7):
        response = _tap(browser, match, data)
    assert response.status_code == 200


def test_an_open_seat_adds_its_owner_and_another_player_costs_the_same(
    deathmatch, user, browser, queries
) -> None:
    """The seats are read once whoever taps: a seat nobody took yet adds its owner (named in
    the partial); another player than the creator taps at the creator's cost (the match is
    read once, with the seats they hold)."""
    other = UserFactory()
    match = _flips(small_match(user, deathmatch, opponent=other), user, 3)
    data = _tap_data(match)
    with queries(8):
        response = _tap(browser, match, data)
    assert "Seats not taken yet" in response.content.decode()
    services.match_take_seat(user=other, match_id=match.pk, index=1)
    them = Client(HTTP_ACCEPT_LANGUAGE="en")
    them.force_login(other)
    assert _tap(them, match).status_code == 200
    data = _tap_data(match)
    with queries(7):
        response = _tap(them, match, data)
    assert response.status_code == 200
    assert "Seats not taken yet" not in response.content.decode()


def test_the_taps_answer_is_the_board_a_fresh_render_shows(deathmatch, user, browser) -> None:
    match = _flips(small_match(user, deathmatch), user, 5)
    client = api_for(user)
    assert client.post(
        f"/api/v1/matches/{match.pk}/commands/", {"type": "undo"}, format="json"
    ).json()["events"]
    answer = _tap(browser, match)
    assert answer.status_code == 200
    fresh = browser.get(f"/matches/{match.pk}/", HTTP_HX_REQUEST="true")
    assert VOLATILE.sub("", answer.content.decode()) == VOLATILE.sub("", fresh.content.decode())
    assert "undo-form" in fresh.content.decode()
