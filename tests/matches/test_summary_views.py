"""The summary page: participants and spectator-link holders read it, everyone else gets 404;
it renders in German, and the tracker links to it."""

from __future__ import annotations

import pytest
from django.test import Client

from apps.matches.models import Match
from tests.accounts.factories import UserFactory
from tests.matches.factories import small_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(deathmatch, user) -> Match:
    return small_match(user, deathmatch)


def test_a_participant_reads_the_summary_so_far(user, match) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    page = client.get(f"/matches/{match.pk}/summary/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Summary so far" in text and "Luck" in text and "Hits from hit flips" in text
    assert "Anna" in text and "Ben" in text and "Hauptmann Brandt" in text


def test_the_spectator_link_opens_the_summary_without_logging_in(match) -> None:
    page = Client(HTTP_ACCEPT_LANGUAGE="en").get(f"/matches/watch/{match.spectator_token}/summary/")
    assert page.status_code == 200
    assert f"/matches/watch/{match.spectator_token}/" in page.content.decode()


def test_strangers_and_wrong_tokens_get_404(match) -> None:
    stranger = Client()
    stranger.force_login(UserFactory())
    assert stranger.get(f"/matches/{match.pk}/summary/").status_code == 404
    assert Client().get(f"/matches/{match.pk}/summary/").status_code == 404
    assert Client().get("/matches/watch/not-the-token/summary/").status_code == 404


def test_the_summary_renders_in_german(user, match) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    client.force_login(user)
    page = client.get(f"/matches/{match.pk}/summary/")
    assert page.status_code == 200
    assert page.headers["Content-Language"] == "de"
    text = page.content.decode()
    assert 'lang="de"' in text and "API-Dokumentation" in text


def test_the_tracker_links_to_the_summary(user, match) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    assert f"/matches/{match.pk}/summary/" in client.get(f"/matches/{match.pk}/").content.decode()
    watcher = Client(HTTP_ACCEPT_LANGUAGE="en").get(f"/matches/watch/{match.spectator_token}/")
    assert f"/matches/watch/{match.spectator_token}/summary/" in watcher.content.decode()
