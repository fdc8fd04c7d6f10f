"""HTML compression minding BREACH: the match pages are gzipped when the client accepts it,
pages that show a long-lived secret (a share link, a join code, the API token) never are.
The reasoning is in apps/common/compression.py and deploy/README.md."""

from __future__ import annotations

import gzip

import pytest
from django.test import Client

from apps.common.compression import COMPRESSED_VIEWS
from tests.matches.factories import small_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def browser(user) -> Client:  # noqa: ANN001 - the user factory's model
    client = Client(HTTP_ACCEPT_LANGUAGE="en", HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    client.force_login(user)
    return client


def test_the_tracker_page_and_its_partial_after_a_tap_are_gzipped(
    browser, user, deathmatch
) -> None:
    match = small_match(user, deathmatch)
    page = browser.get(f"/matches/{match.pk}/")
    assert page.status_code == 200
    assert page["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in page["Vary"]
    assert match.title.encode() in gzip.decompress(page.content)

    match.refresh_from_db()
    data = {
        "command": "choose_gadget",
        "expected_seq": str(match.seq),
        "args.player:int": "0",
        "args.option:int": "1",
    }
    partial = browser.post(f"/matches/{match.pk}/command/", data, HTTP_HX_REQUEST="true")
    assert partial.status_code in (200, 422)  # applied or explained: the tracker partial
    assert partial["Content-Encoding"] == "gzip"
    body = gzip.decompress(partial.content)
    assert len(partial.content) < len(body) / 3  # the point of it


def test_without_accept_encoding_the_tracker_is_sent_plain(user, deathmatch) -> None:
    match = small_match(user, deathmatch)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    page = client.get(f"/matches/{match.pk}/")
    assert not page.has_header("Content-Encoding")
    assert match.title.encode() in page.content


def test_two_compressed_tracker_pages_differ_in_csrf_token_and_length_padding(
    browser, user, deathmatch
) -> None:
    match = small_match(user, deathmatch)
    bodies = {browser.get(f"/matches/{match.pk}/").content for _ in range(5)}
    # The CSRF token is masked afresh and the gzip header padded at random each time.
    assert len(bodies) == 5
    assert len({len(body) for body in bodies}) > 1


def test_the_compressed_views_exist_and_show_no_share_or_join_secret() -> None:
    from django.urls import reverse

    for name in COMPRESSED_VIEWS:
        kwargs = {}
        if "spectate" in name:
            kwargs = {"token": "x"}
        elif name != "matches:list":
            kwargs = {"match_id": 1}
        reverse(name, kwargs=kwargs)  # a renamed view would silently stop being compressed
        assert not name.startswith(("rosters:", "leagues:", "accounts:", "cards:"))
