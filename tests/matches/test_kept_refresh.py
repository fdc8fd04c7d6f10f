"""A tracker refresh answered from the kept render without the database
(apps.matches.kept_refresh): no query, the same page the usual path gives, and the usual path
whenever anything it relies on is missing, forged, or changed since."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from django.core.cache import cache
from django.test import Client

from apps.matches import services
from apps.matches.clock import match_clock_act
from apps.matches.models import Match
from tests.matches.factories import small_match

REFRESH = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "tracker"}


pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("production_caching")]


@pytest.fixture
def match(seated_match: Match) -> Match:
    return seated_match


def login(user: Any) -> Client:
    from apps.matches import poll

    # The fixtures saved the user after creating it (setting its password), which stops the
    # quick path for a minute (poll.forget_auth_hash): as if that minute had passed.
    cache.delete(poll.auth_hash_key(str(user.pk)))
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    client.get("/")  # the CSRF cookie, as a browser has it from its first page
    return client


def token_of(client: Client, match: Match) -> str:
    page = client.get(f"/matches/{match.pk}/").content.decode()
    url = re.search(r'data-poll-url="([^"]+)"', page).group(1).replace("&amp;", "&")
    return parse_qs(urlsplit(url).query)["t"][0]


def refresh(client: Client, match: Match, token: str, query: str = "") -> Any:
    response = client.get(
        f"/matches/{match.pk}/{query}", HTTP_X_SKIRMISH_POLL_TOKEN=token, **REFRESH
    )
    assert response.status_code == 200
    return response


def fresh_values_out(html: str) -> str:
    """Without the values every response makes afresh: form keys, CSRF tokens, the poll URL
    (signed per response, with the second it was signed)."""
    fresh = r'value="[^"]{16,}"|id="cmd-[0-9a-f]+"|form="cmd-[0-9a-f]+"|data-poll-url="[^"]*"'
    return re.sub(fresh, "", html)


def warmed(client: Client, match: Match) -> str:
    """The token, after one refresh the usual way (which keeps the render and the head)."""
    token = token_of(client, match)
    refresh(client, match, token)
    return token


def test_a_refresh_with_its_token_makes_no_query(match, user, django_assert_num_queries) -> None:
    client = login(user)
    token = warmed(client, match)
    usual = refresh(client, match, token="").content.decode()
    with django_assert_num_queries(0):
        kept = refresh(client, match, token)
    html = kept.content.decode()
    assert fresh_values_out(html) == fresh_values_out(usual)
    assert "csrfmiddlewaretoken" in html and "Concede for Anna" in html
    assert kept["Content-Language"] == "en" and "Cookie" in kept["Vary"]


def test_the_other_player_s_device_gets_the_tap_s_render_without_a_query(
    match, user, opponent, django_assert_num_queries, django_capture_on_commit_callbacks
) -> None:
    """Anna taps; Ben's refresh (his page warmed before) is served the render her tap drew,
    as Ben sees it."""
    anna, ben = login(user), login(opponent)
    ben_token = warmed(ben, match)
    match.refresh_from_db()
    tap = {"command": "skip_gadgets", "expected_seq": str(match.seq)}
    with django_capture_on_commit_callbacks(execute=True):  # the seq reaches the cache
        assert anna.post(f"/matches/{match.pk}/command/", tap, **REFRESH).status_code == 200
    with django_assert_num_queries(0):
        html = refresh(ben, match, ben_token).content.decode()
    assert f'data-seq="{Match.objects.get(pk=match.pk).seq}"' in html
    assert "Concede for Ben" in html and "Concede for Anna" not in html


def test_a_form_of_a_kept_answer_takes_a_tap(match, user) -> None:
    client = login(user)
    token = warmed(client, match)
    html = refresh(client, match, token).content.decode()
    form = re.search(r'<form class="command[^"]*"[^>]*>(.*?)</form>', html, re.S).group(0)
    fields = dict(re.findall(r'name="([^"]+)" value="([^"]*)"', form))
    checked = Client(HTTP_ACCEPT_LANGUAGE="en", enforce_csrf_checks=True)
    checked.cookies = client.cookies
    response = checked.post(f"/matches/{match.pk}/command/", fields, **REFRESH)
    assert response.status_code in (200, 422)  # CSRF passed: the rules decided


def _queries(action: Any) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        action()
    return len(captured)


def test_the_usual_path_answers_without_a_valid_token_or_session(match, user, opponent) -> None:
    client = login(user)
    token = warmed(client, match)
    stranger_token = token_of(login(opponent), match)
    forged = token[:-2] + ("AA" if not token.endswith("AA") else "BB")
    for who, asking, sent in (
        ("no token", client, ""),
        ("a forged token", client, forged),
        ("another user's token", client, stranger_token),
        ("another browser with Anna's token", login(opponent), token),
    ):
        assert _queries(lambda c=asking, t=sent: refresh(c, match, t)) > 0, who
    no_csrf = Client(HTTP_ACCEPT_LANGUAGE="en")
    no_csrf.force_login(user)
    assert _queries(lambda: refresh(no_csrf, match, token)) > 0, "no CSRF cookie"
    # A malformed cookie would get a new secret only the usual path sends back.
    no_csrf.cookies["csrftoken"] = "short"
    assert _queries(lambda: refresh(no_csrf, match, token)) > 0, "a malformed CSRF cookie"


def test_a_password_change_ends_the_quick_path_of_every_other_session(match, user) -> None:
    client = login(user)
    token = warmed(client, match)
    user.set_password("a-new-password-987")
    user.save()
    response = client.get(f"/matches/{match.pk}/", HTTP_X_SKIRMISH_POLL_TOKEN=token, **REFRESH)
    assert response.status_code == 302  # logged out, as everywhere else


@pytest.mark.parametrize("change", ["archive", "clock"])
def test_a_change_without_a_new_seq_is_shown_at_once(
    match, user, change, django_capture_on_commit_callbacks
) -> None:
    client = login(user)
    token = warmed(client, match)
    with django_capture_on_commit_callbacks(execute=True):
        _change(change, match, user)
    if change == "archive":
        assert "Unarchive" in refresh(client, match, token).content.decode()
    else:
        assert "data-clock-face" in refresh(client, match, token).content.decode()


def _change(change: str, match: Match, user: Any) -> None:
    if change == "archive":
        services.match_archive(user=user, match_id=match.pk, archived=True)
    else:
        match_clock_act(user=user, match_id=match.pk, action="start", mode="chess", minutes=30)
        match_clock_act(user=user, match_id=match.pk, action="pause")


def test_a_seat_taken_since_is_shown_at_once(
    deathmatch, user, opponent, django_capture_on_commit_callbacks
) -> None:
    game = small_match(user, deathmatch, opponent=opponent, gadgets=True)
    client = login(user)
    token = warmed(client, game)
    assert "waiting for" in refresh(client, game, token).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        services.match_take_seat(user=opponent, match_id=game.pk, index=1)
    assert "waiting for" not in refresh(client, game, token).content.decode()


def test_a_head_read_before_a_change_is_never_used_after_it(
    match, opponent, django_capture_on_commit_callbacks
) -> None:
    """The race the generation closes: a refresh reads the match, a change commits, and only
    then does the refresh write the head it read. That head is never used."""
    from apps.matches import seqcache, tracker_head

    nonce = seqcache.nonce_of(match.spectator_token)
    seqcache.remember(match.pk, nonce, match.seq)
    row = (match.spectator_token, match.created_by_id, None, {})
    seats = [(0, match.created_by_id, "Anna", match.created_by_id), (1, None, "Ben", opponent.pk)]
    read_under = tracker_head.generation(match.pk)
    with django_capture_on_commit_callbacks(execute=True):
        tracker_head.renew_on_commit(match.pk)  # the change commits
    tracker_head.remember(match.pk, read_under, row, seats)
    assert tracker_head.current(match.pk, nonce) is None
    tracker_head.remember(match.pk, tracker_head.generation(match.pk), row, seats)
    assert tracker_head.current(match.pk, nonce) == (match.seq, row, seats)


@pytest.mark.django_db(transaction=True)  # real commits: on_commit runs when they happen
def test_the_other_devices_learn_a_tap_s_seq_once_its_render_is_kept(match, user) -> None:
    """While the tap's answer is drawn the cache still says the old seq (a device polling then
    sees no change yet); once the answer is kept, the new seq is announced."""
    from unittest import mock

    from apps.matches import seqcache, tracker_cache

    client = login(user)
    warmed(client, match)
    match.refresh_from_db()
    nonce, before = seqcache.nonce_of(match.spectator_token), match.seq
    seen: list[int | None] = []
    keep = tracker_cache.render_and_keep_html

    def watched(*args: Any, **kwargs: Any) -> Any:
        seen.append(seqcache.cached_seq(match.pk, nonce))
        return keep(*args, **kwargs)

    tap = {"command": "skip_gadgets", "expected_seq": str(before)}
    with mock.patch.object(tracker_cache, "render_and_keep_html", watched):
        response = client.post(f"/matches/{match.pk}/command/", tap, **REFRESH)
    assert response.status_code == 200
    assert seen == [before]
    assert seqcache.cached_seq(match.pk, nonce) == Match.objects.get(pk=match.pk).seq > before


def test_the_quick_answer_is_compressed_as_the_tracker_is(match, user) -> None:
    client = login(user)
    token = warmed(client, match)
    response = client.get(
        f"/matches/{match.pk}/",
        HTTP_X_SKIRMISH_POLL_TOKEN=token,
        HTTP_ACCEPT_ENCODING="gzip",
        **REFRESH,
    )
    assert response["Content-Encoding"] == "gzip"


def test_a_deleted_match_is_not_answered_from_the_cache(
    match, user, django_capture_on_commit_callbacks
) -> None:
    client = login(user)
    token = warmed(client, match)
    with django_capture_on_commit_callbacks(execute=True):
        services.match_delete(user=user, match_id=match.pk)
    response = client.get(f"/matches/{match.pk}/", HTTP_X_SKIRMISH_POLL_TOKEN=token, **REFRESH)
    assert response.status_code == 404


def test_a_request_that_loaded_the_user_before_a_save_cannot_put_the_old_hash_back(
    user, django_capture_on_commit_callbacks
) -> None:
    """A refresh loads Anna; she changes her password; the refresh then keeps the hash it
    loaded. The tombstone of the save wins: her old sessions are not answered from the cache."""
    from apps.matches import poll

    loaded_before = type(user).objects.get(pk=user.pk)
    old_hash = loaded_before.get_session_auth_hash()
    with django_capture_on_commit_callbacks(execute=True):
        user.set_password("a-new-password-987")
        user.save()
    poll.remember_auth_hash(loaded_before)
    kept = cache.get(poll.auth_hash_key(str(user.pk)))
    assert kept == poll.REVOKED != old_hash
    session = {"_auth_user_id": str(user.pk), "_auth_user_hash": old_hash}
    assert not poll.session_is_user(session, str(user.pk), kept)
