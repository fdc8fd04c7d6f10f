"""Log reads stay flat in the log's length (issue 16): the events tail filters in SQL,
``log.json`` and the tracker page make the same number of queries at 10 events as at 200, and
the undo markers are read through an index. The answers are the same as before."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from apps.matches.models import UNDO_EVENT, Match, MatchEvent
from apps.matches.selectors import undo_markers, undone_groups_of
from apps.matches.views import RECENT_EVENTS
from tests.matches.factories import api_for, small_match

pytestmark = pytest.mark.django_db

SHORT, LONG = 10, 200


def grown_match(user: Any, system: Any, events: int) -> Match:
    """A match whose log holds at least ``events`` events: a deployment flip and its undo,
    then copies of that pair (flip, prompt, undo marker, kept decks) with fresh seqs."""
    match = small_match(user, system)
    client = api_for(user)
    url = f"/api/v1/matches/{match.pk}/commands/"
    assert client.post(url, {"type": "deployment_flip"}, format="json").status_code == 200
    assert client.post(url, {"type": "undo"}, format="json").status_code == 200
    pair = list(MatchEvent.objects.filter(match=match, seq__gt=1).order_by("seq"))
    seq = max(row.seq for row in pair)
    copies = []
    while seq < events:
        offset = seq - 1
        for row in pair:
            data = dict(row.data)
            if row.type == UNDO_EVENT:
                data["group"] += offset
            copies.append(
                MatchEvent(
                    match=match,
                    seq=row.seq + offset,
                    group=row.group + offset,
                    round=row.round,
                    type=row.type,
                    data=data,
                    version=row.version,
                    actor=row.actor,
                )
            )
        seq += len(pair)
    MatchEvent.objects.bulk_create(copies)
    Match.objects.filter(pk=match.pk).update(seq=seq)
    match.refresh_from_db()
    return match


def queries_of(read: Callable[[], Any]) -> int:
    with CaptureQueriesContext(connection) as captured:
        read()
    return len(captured)


@pytest.fixture
def short_and_long(deathmatch, user) -> tuple[Match, Match]:
    return grown_match(user, deathmatch, SHORT), grown_match(user, deathmatch, LONG)


@pytest.fixture
def client(user) -> APIClient:
    return api_for(user)


@pytest.fixture
def browser(user) -> Client:
    browser = Client(HTTP_ACCEPT_LANGUAGE="en")
    browser.force_login(user)
    return browser


def test_the_events_tail_makes_as_many_queries_at_200_events_as_at_10(
    client, short_and_long, django_assert_num_queries
) -> None:
    short, long = short_and_long
    assert long.events.count() >= LONG > short.events.count() >= SHORT
    expected = queries_of(lambda: client.get(f"/api/v1/matches/{short.pk}/events/"))
    with django_assert_num_queries(expected):
        response = client.get(f"/api/v1/matches/{long.pk}/events/", {"after": 3})
    assert response.status_code == 200


def test_the_events_tail_reads_only_the_rows_after_n(client, short_and_long) -> None:
    _, long = short_and_long
    after = long.seq - 4
    with CaptureQueriesContext(connection) as captured:
        client.get(f"/api/v1/matches/{long.pk}/events/", {"after": after})
    reads = [q["sql"] for q in captured if "matches_matchevent" in q["sql"]]
    assert len(reads) == 1 and f'"seq" > {after}' in reads[0], reads


def test_the_events_tail_is_the_whole_log_filtered_after_n(client, short_and_long) -> None:
    """Same events, order, text and undone flags as filtering the whole log (the old way),
    whichever N: also when N falls inside a command and its undo marker comes later."""
    _, long = short_and_long
    url = f"/api/v1/matches/{long.pk}/events/"
    whole = client.get(url).json()
    assert whole["seq"] == long.seq
    assert [event["seq"] for event in whole["events"]] == list(range(1, long.seq + 1))
    assert any(event["undone"] for event in whole["events"])
    for after in (0, 1, 2, 3, 4, long.seq - 3, long.seq - 1, long.seq, long.seq + 5):
        tail = client.get(url, {"after": after}).json()
        assert tail == {
            "seq": whole["seq"],
            "events": [event for event in whole["events"] if event["seq"] > after],
        }, after


def test_log_json_makes_as_many_queries_at_200_events_as_at_10(
    browser, short_and_long, django_assert_num_queries
) -> None:
    short, long = short_and_long
    expected = queries_of(lambda: browser.get(f"/matches/{short.pk}/log.json"))
    with django_assert_num_queries(expected):
        response = browser.get(f"/matches/{long.pk}/log.json")
    assert response.status_code == 200


def test_log_json_holds_every_event_as_the_api_shows_it(browser, client, short_and_long) -> None:
    _, long = short_and_long
    document = browser.get(f"/matches/{long.pk}/log.json").json()
    events = client.get(f"/api/v1/matches/{long.pk}/events/").json()["events"]
    assert document["events"] == events
    assert len(events) == long.seq


def test_the_tracker_page_makes_as_many_queries_at_200_events_as_at_10(
    browser, short_and_long, django_assert_num_queries
) -> None:
    """The page reads its latest rows once, and once more (at most ``RECENT_EVENTS``) only
    where their walk did not complete: this log of undone commands has no standing command,
    so at 200 events it takes the second read, the most any length of log takes. At most one
    query more than at 10 events, whose first read is the whole log, and the same count at
    ``RECENT_EVENTS`` + 10 as at 200."""
    short, long = short_and_long
    medium = grown_match(long.created_by, long.system, RECENT_EVENTS + 10)
    at_ten = queries_of(lambda: browser.get(f"/matches/{short.pk}/"))
    expected = queries_of(lambda: browser.get(f"/matches/{medium.pk}/"))
    assert expected <= at_ten + 1
    with django_assert_num_queries(expected):
        response = browser.get(f"/matches/{long.pk}/")
    assert response.status_code == 200


def test_undo_markers_are_read_alone(short_and_long) -> None:
    _, long = short_and_long
    with CaptureQueriesContext(connection) as captured:
        undone = undone_groups_of(long)
    assert undone == {row.data["group"] for row in long.events.filter(type=UNDO_EVENT)}
    assert len(undone) == long.seq // 4
    assert len(captured) == 1
    assert '"type" =' in captured[0]["sql"] and "JOIN" not in captured[0]["sql"]


def query_plan(sql: str, params: tuple[Any, ...]) -> str:
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # A test table is small enough for a sequential scan to be cheapest: ask whether
            # the index serves the query, as it will once the log is long.
            cursor.execute("SET LOCAL enable_seqscan = off")
            cursor.execute(f"EXPLAIN {sql}", params)
        else:
            cursor.execute(f"EXPLAIN QUERY PLAN {sql}", params)
        return "\n".join(str(row) for row in cursor.fetchall())


def test_undo_markers_are_read_through_the_type_index(short_and_long) -> None:
    _, long = short_and_long
    queryset = undo_markers(long).values_list("data", flat=True)
    sql, params = queryset.query.sql_with_params()
    assert "match_event_type" in query_plan(sql, params)
