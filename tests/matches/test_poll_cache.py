"""The poll answered from the cache: no query once warmed, access still checked, never stale."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

from apps.matches import seqcache
from apps.matches.models import Match
from tests.accounts.factories import UserFactory
from tests.matches.factories import small_match

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("production_caching")]


@pytest.fixture
def match(deathmatch: Any, user: Any) -> Match:
    return small_match(user, deathmatch, gadgets=True)


def login(user: Any) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    return client


def poll_url_of(client: Client, match: Match) -> str:
    page = client.get(f"/matches/{match.pk}/")
    found = re.search(r'data-poll-url="([^"]+)"', page.content.decode())
    assert found is not None
    return found.group(1).replace("&amp;", "&")


def tap(client: Client, match: Match, command: str) -> None:
    match.refresh_from_db()
    data = {"command": command, "expected_seq": str(match.seq)}
    response = client.post(f"/matches/{match.pk}/command/", data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200


def test_an_unchanged_poll_makes_no_query_once_warmed(
    match, user, django_assert_num_queries
) -> None:
    client = login(user)
    url = poll_url_of(client, match)
    first = client.get(url)
    assert first.json() == {"seq": match.seq}
    with django_assert_num_queries(0):
        response = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert response.status_code == 304


def test_a_command_moves_the_cached_seq_on_commit(
    match, user, django_assert_num_queries, django_capture_on_commit_callbacks
) -> None:
    client = login(user)
    url = poll_url_of(client, match)
    etag = client.get(url)["ETag"]
    with django_capture_on_commit_callbacks(execute=True):
        tap(client, match, "skip_gadgets")
    match.refresh_from_db()
    with django_assert_num_queries(0):
        response = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 200
    assert response.json() == {"seq": match.seq}


def test_the_cached_seq_never_goes_back(match) -> None:
    nonce = seqcache.nonce_of(match.spectator_token)
    seqcache.remember(match.pk, nonce, 7)
    seqcache.remember(match.pk, nonce, 5)  # a callback of an earlier commit, run late
    assert seqcache.cached_seq(match.pk, nonce) == 7


def test_a_stranger_gets_404_with_or_without_a_players_token(match, user) -> None:
    url = poll_url_of(login(user), match)
    stranger = login(UserFactory())
    assert stranger.get(f"/matches/{match.pk}/poll/").status_code == 404
    # The token names its user: in another user's session it grants nothing.
    assert stranger.get(url).status_code == 404
    assert Client().get(url).status_code == 404


def test_a_token_for_another_match_or_forged_takes_the_database_path(
    match, user, deathmatch
) -> None:
    client = login(user)
    other = small_match(user, deathmatch)
    other_url = poll_url_of(client, other)
    token = other_url.split("t=", 1)[1]
    client.get(poll_url_of(client, match))  # warm the cache of this match
    for forged in (token, token[:-2] + "xx", "garbage"):
        response = client.get(f"/matches/{match.pk}/poll/?t={forged}")
        assert response.json() == {"seq": match.seq}
    stranger = login(UserFactory())
    assert stranger.get(f"/matches/{match.pk}/poll/?t={token}").status_code == 404


def test_a_spectator_polls_without_a_query(match, django_assert_num_queries) -> None:
    watcher = Client(HTTP_ACCEPT_LANGUAGE="en")
    page = watcher.get(f"/matches/watch/{match.spectator_token}/")
    url = re.search(r'data-poll-url="([^"]+)"', page.content.decode()).group(1)
    url = url.replace("&amp;", "&")
    etag = watcher.get(url)["ETag"]
    with django_assert_num_queries(0):
        assert watcher.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304


def test_without_a_shared_cache_every_poll_asks_the_database(
    match, user, settings, django_assert_num_queries
) -> None:
    settings.MATCH_SEQ_IN_CACHE = False
    client = login(user)
    url = poll_url_of(client, match)
    etag = client.get(url)["ETag"]
    # The user and the match row: another process may have stored a newer seq meanwhile.
    with django_assert_num_queries(2):
        assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304


def test_a_deleted_match_is_forgotten(match, user, django_capture_on_commit_callbacks) -> None:
    client = login(user)
    url = poll_url_of(client, match)
    client.get(url)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/matches/{match.pk}/delete/")
    assert response.status_code in (302, 200)
    assert not Match.objects.filter(pk=match.pk).exists()
    assert client.get(url).status_code == 404


def test_an_unchanged_poll_is_one_read_of_the_cache(match, user) -> None:
    """The session and the seq come in one round trip (``poll.session_and``): on Redis each
    round trip is a good part of a poll's cost."""
    from unittest import mock

    client = login(user)
    url = poll_url_of(client, match)
    assert client.get(url).status_code == 200  # fills the seq
    reads: list[str] = []
    inside: list[bool] = []
    get_many, get = cache.get_many, cache.get

    def many(*args: Any, **kwargs: Any) -> Any:
        reads.append("get_many")
        inside.append(True)
        try:
            return get_many(*args, **kwargs)
        finally:
            inside.pop()

    def single(*args: Any, **kwargs: Any) -> Any:
        if not inside:  # the local-memory cache's get_many reads key by key
            reads.append("get")
        return get(*args, **kwargs)

    with mock.patch.object(cache, "get_many", many), mock.patch.object(cache, "get", single):
        response = client.get(url, HTTP_IF_NONE_MATCH=f'"{match.seq}"')
    assert response.status_code == 304
    assert reads == ["get_many"]
