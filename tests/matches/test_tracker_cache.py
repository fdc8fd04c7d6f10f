"""The tracker refresh served from the cache: not drawn again while nothing it shows changed,
drawn fresh when anything does, and never one viewer's render for another."""

from __future__ import annotations

import re
from typing import Any
from unittest import mock

import pytest
from django.core.cache import cache
from django.test import Client

from apps.matches import services, tracker_cache
from apps.matches.models import Match
from apps.matches.templatetags.match_poll import PLACEHOLDER as POLL_PLACEHOLDER

pytestmark = pytest.mark.django_db

REFRESH = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "tracker"}


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    cache.clear()


@pytest.fixture
def match(seated_match: Match) -> Match:
    return seated_match


@pytest.fixture
def renders() -> Any:
    """Counts the renders of the tracker partial that are kept for reuse."""
    with mock.patch.object(
        tracker_cache, "render_to_string", wraps=tracker_cache.render_to_string
    ) as spy:
        yield spy


def login(user: Any, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def refresh(client: Client, match: Match, query: str = "") -> str:
    response = client.get(f"/matches/{match.pk}/{query}", **REFRESH)
    assert response.status_code == 200
    return response.content.decode()


def keys_of(html: str) -> list[str]:
    return re.findall(r'name="idempotency_key" value="([^"]+)"', html)


def test_an_unchanged_refresh_is_not_drawn_again(match, user, renders) -> None:
    client = login(user)
    first = refresh(client, match)
    second = refresh(client, match)
    assert renders.call_count == 1
    # Each response has command forms of its own: fresh idempotency keys, no placeholders.
    assert keys_of(first) and keys_of(second)
    assert not set(keys_of(first)) & set(keys_of(second))
    assert len(set(keys_of(second))) == len(keys_of(second))
    assert all(re.fullmatch(r"[0-9a-f]{16}", key) for key in keys_of(second))
    assert tracker_cache.CSRF_PLACEHOLDER not in second
    assert tracker_cache.KEY_STEM not in second
    assert "csrfmiddlewaretoken" in second
    # The poll URL is signed per response (its signature holds the second it was made).
    strip = re.compile(
        r'value="[^"]{16,}"|id="cmd-[0-9a-f]+"|form="cmd-[0-9a-f]+"|data-poll-url="[^"]*"'
    )
    assert strip.sub("", first) == strip.sub("", second)


def test_a_served_copy_takes_a_tap(match, user) -> None:
    client = login(user)
    refresh(client, match)
    html = refresh(client, match)  # from the cache
    form = re.search(r'<form class="command[^"]*"[^>]*>(.*?)</form>', html, re.S).group(0)
    fields = dict(re.findall(r'name="([^"]+)" value="([^"]*)"', form))
    if "command" not in fields:
        pytest.skip("the first form of this board takes no fixed command")
    client_with_csrf = Client(HTTP_ACCEPT_LANGUAGE="en", enforce_csrf_checks=True)
    client_with_csrf.cookies = client.cookies
    response = client_with_csrf.post(
        f"/matches/{match.pk}/command/", fields, HTTP_HX_REQUEST="true"
    )
    assert response.status_code in (200, 422)  # the CSRF token of the copy was accepted


def test_any_change_of_what_it_shows_draws_it_fresh(match, user, opponent, renders) -> None:
    client = login(user)
    refresh(client, match)
    expected = 1
    changes = [
        lambda: refresh(client, match, "?unit=1"),  # the page's query
        lambda: refresh(login(user, "de"), match),  # the language
        lambda: refresh(login(opponent), match, "?seat=1"),  # another view: a seat's secrets
        lambda: Client().get(f"/matches/watch/{match.spectator_token}/", **REFRESH),
    ]
    for change in changes:
        change()
        expected += 1
        assert renders.call_count == expected
    # A command (the seq) and archiving (no new seq) draw it fresh as well.
    match.refresh_from_db()
    tap = {"command": "skip_gadgets", "expected_seq": str(match.seq)}
    client.post(f"/matches/{match.pk}/command/", tap, **REFRESH)
    expected += 1
    assert renders.call_count == expected
    refresh(client, match)
    assert renders.call_count == expected  # the tap's own answer was kept for the refresh
    services.match_archive(user=user, match_id=match.pk, archived=True)
    assert "Unarchive" in refresh(client, match)
    assert renders.call_count == expected + 1


def _without_fresh_values(html: str) -> str:
    """Without the values every response makes afresh: form keys, CSRF tokens, the poll URL
    (signed per response, with the second it was signed)."""
    fresh = (
        r'value="[^"]{16,}"|id="cmd-[0-9a-f]+"|form="cmd-[0-9a-f]+"|data-poll-url="[^"]*"'
        r'|"X-CSRFToken": "[^"]+"'
    )
    return re.sub(fresh, "", html)


def test_one_render_serves_every_participant_each_as_drawn_for_them(
    match, user, opponent, renders
) -> None:
    """Anna (who created the match and holds seat 0) taps; Ben (seat 1) refreshes: the kept
    render serves him, with his own poll URL, his own concede button and no delete link --
    exactly what a render drawn for him alone shows."""
    anna, ben = login(user), login(opponent)
    hers = refresh(anna, match)
    his = refresh(ben, match)
    assert renders.call_count == 1
    assert "Concede for Anna" in hers and "Concede for Ben" not in hers
    assert "Concede for Ben" in his and "Concede for Anna" not in his
    assert "Delete…" in hers and "Delete…" not in his
    poll = re.compile(r'data-poll-url="([^"]+)"')
    assert poll.search(hers).group(1) != poll.search(his).group(1)
    assert "<!--viewer" not in hers + his
    assert tracker_cache.CSRF_PLACEHOLDER not in his and POLL_PLACEHOLDER not in his

    # Drawn for Ben alone (nothing kept), the page is the same but for its fresh values.
    cache.clear()
    alone = ben.get(f"/matches/{match.pk}/?fresh=1", HTTP_HX_REQUEST="true").content.decode()
    assert _without_fresh_values(alone) == _without_fresh_values(his)


def page(client: Client, match: Match, query: str = "") -> str:
    response = client.get(f"/matches/{match.pk}/{query}")
    assert response.status_code == 200
    return response.content.decode()


def test_the_whole_page_shows_the_kept_board_each_as_drawn_for_them(
    match, user, opponent, renders
) -> None:
    """A room opening its pages: Anna's page draws the board once; Ben's page, and a refresh
    after it, get the kept render with his own parts. The page around it is drawn for each."""
    anna, ben = login(user), login(opponent)
    hers = page(anna, match)
    his = page(ben, match)
    assert renders.call_count == 1
    for html in (hers, his):
        assert html.startswith("<!doctype html>") and 'id="offline-banner"' in html
        assert html.count('id="tracker"') == 1 and "/js/tracker." in html
        assert tracker_cache.CSRF_PLACEHOLDER not in html and POLL_PLACEHOLDER not in html
        assert tracker_cache.KEY_STEM not in html and "<!--viewer" not in html
    assert "Concede for Anna" in hers and "Concede for Ben" not in hers
    assert "Concede for Ben" in his and "Concede for Anna" not in his
    assert "Delete…" in hers and "Delete…" not in his
    refresh(ben, match)
    assert renders.call_count == 1

    # Drawn for Ben alone (nothing kept), the page is the same but for its fresh values.
    cache.clear()
    alone = page(ben, match)
    assert renders.call_count == 2
    assert _without_fresh_values(alone) == _without_fresh_values(his)


def test_a_seat_s_secret_view_is_a_view_of_its_own(match, user, opponent, renders) -> None:
    """``?seat=0`` shows Anna's secrets to Anna only: Ben asking for it gets the plain view,
    and never the render kept for her peek."""
    refresh(login(user), match, "?seat=0")
    refresh(login(opponent), match, "?seat=0")
    assert renders.call_count == 2


@pytest.mark.parametrize("ask", [refresh, page], ids=["refresh", "page"])
def test_a_running_clock_is_always_drawn_fresh(match, user, renders, ask) -> None:  # noqa: ANN001
    client = login(user)
    response = client.post(
        f"/matches/{match.pk}/clock/", {"action": "start", "mode": "chess", "minutes": "30"}
    )
    assert response.status_code in (200, 302)
    ask(client, match)
    ask(client, match)
    assert renders.call_count == 0


def test_secrets_shown_with_seat_never_reach_another_viewer(match, user, opponent) -> None:
    mine = refresh(login(user), match, "?seat=0")
    theirs = refresh(login(opponent), match, "?seat=0")
    # Each viewer's own poll URL (it names its user) shows whose render it is.
    url = re.compile(r'data-poll-url="([^"]+)"')
    assert url.search(mine).group(1) != url.search(theirs).group(1)
    assert refresh(login(opponent), match, "?seat=0").count("data-poll-url") == 1


def test_a_secret_mission_shown_with_seat_reaches_no_other_viewer(catalogue: None, renders) -> None:
    """Universalis, for real: Anna's secret mission, drawn for her ``?seat=0`` and kept, is
    never what her opponent, a spectator, or Anna's own plain page gets at the same seq -- in
    whichever order they ask, and although every one of them asks with the same query."""
    from apps.catalog.models import GameSystem
    from tests.accounts.factories import UserFactory
    from tests.matches.test_universalis import command, opened

    anna, ben = UserFactory(), UserFactory()
    game = opened(GameSystem.objects.get(slug="universalis"), anna, ben)
    command(game, anna, "choose_mission", player=0, mission="kopfjagd")
    seq = Match.objects.get(pk=game.pk).seq
    # How the tracker shows a chosen mission (the mission line and the missions card); the bare
    # name is also a button of the choice a seat holder who has not chosen yet is offered.
    secret = re.compile(r"<strong>(?:[^<:]+: )?Kopfjagd")

    # Anna's peek first: the render with the secret is now in the cache.
    assert secret.search(refresh(login(anna), game, "?seat=0"))
    drawn = renders.call_count
    assert secret.search(refresh(login(anna), game, "?seat=0"))
    assert renders.call_count == drawn  # her second peek is the kept copy

    spectator = Client(HTTP_ACCEPT_LANGUAGE="en")
    watch = f"/matches/watch/{game.spectator_token}/"
    others = {
        "Ben with ?seat=0": lambda: refresh(login(ben), game, "?seat=0"),
        "Ben with ?seat=1": lambda: refresh(login(ben), game, "?seat=1"),
        "Ben": lambda: refresh(login(ben), game),
        "Ben's page with ?seat=0": lambda: page(login(ben), game, "?seat=0"),
        "Ben's page": lambda: page(login(ben), game),
        "Anna without ?seat": lambda: refresh(login(anna), game),
        "Anna with ?seat=1": lambda: refresh(login(anna), game, "?seat=1"),
        "a spectator's page with ?seat=0": lambda: spectator.get(
            f"{watch}?seat=0"
        ).content.decode(),
        "a spectator with ?seat=0": lambda: spectator.get(
            f"{watch}?seat=0", **REFRESH
        ).content.decode(),
        "a logged-in spectator": lambda: (
            login(UserFactory()).get(watch, **REFRESH).content.decode()
        ),
    }
    for _round in range(2):  # the second round is served from the kept renders
        for who, ask in others.items():
            html = ask()
            assert 'data-seq="' in html, who
            assert not secret.search(html), f"{who} saw Anna's secret mission"
    assert Match.objects.get(pk=game.pk).seq == seq  # all of it at one seq

    # And the other way round: what Ben drew for ?seat=0 first is not what Anna's peek gets.
    cache.clear()
    assert not secret.search(refresh(login(ben), game, "?seat=0"))
    assert secret.search(refresh(login(anna), game, "?seat=0"))
    # Nor what Ben's page drew first what Anna's page of her peek shows.
    cache.clear()
    assert not secret.search(page(login(ben), game, "?seat=0"))
    assert secret.search(page(login(anna), game, "?seat=0"))
