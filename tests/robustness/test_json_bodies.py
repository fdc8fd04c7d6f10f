"""Bodies no client should send still get a 4xx ``{"code", "message"}``: JSON nested so deep
that the parser would overflow the stack, and documents with the wrong shapes in every field
the roster import reads. Nothing is saved for any of them."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from apps.rosters.models import Roster
from tests.matches.factories import small_match, small_team

pytestmark = pytest.mark.django_db

DEEP = "[" * 100_000 + "]" * 100_000
DEEP_BUT_PARSEABLE = '{"type": "pass", "args": {"note": ' + "[" * 200 + "]" * 200 + "}}"


@pytest.fixture
def client(deathmatch, user) -> APIClient:
    client = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    client.force_authenticate(user)
    return client


def assert_error(response, status: int = 400) -> dict:  # noqa: ANN001
    assert response.status_code == status, response.content[:300]
    body = response.json()
    assert isinstance(body["code"], str) and body["code"]
    assert isinstance(body["message"], str) and body["message"]
    return body


@pytest.mark.parametrize(
    "url",
    [
        "/api/v1/rosters/validate/",
        "/api/v1/rosters/import/",
        "/api/v1/rosters/",
        "/api/v1/matches/",
        "/api/v1/leagues/",
        "/api/v1/auth/token/",
    ],
)
def test_json_nested_too_deep_for_the_parser_is_a_parse_error(client, url: str) -> None:
    body = assert_error(client.post(url, DEEP, content_type="application/json"))
    assert body["code"] == "parse_error"


def test_json_nested_deeper_than_any_request_needs_is_refused(client, user, deathmatch) -> None:
    match = small_match(user, deathmatch)
    seq = match.seq
    response = client.post(
        f"/api/v1/matches/{match.pk}/commands/", DEEP_BUT_PARSEABLE, content_type="application/json"
    )
    assert assert_error(response)["code"] == "parse_error"
    match.refresh_from_db()
    assert match.seq == seq


@pytest.mark.parametrize("profile", [[1], {"slug": "phalanx-schildtraeger"}, [], {}])
@pytest.mark.parametrize("url", ["/api/v1/rosters/import/", "/api/v1/rosters/"])
def test_a_profile_that_is_not_a_slug_is_a_problem_not_a_crash(client, url, profile) -> None:
    document = small_team()
    document["entries"][1]["profile"] = profile
    body = assert_error(client.post(url, document, format="json"))
    assert body["problems"][0]["path"] == "entries[1].profile"
    assert not Roster.objects.exists()


def test_replacing_a_roster_with_an_unhashable_profile_changes_nothing(client, user) -> None:
    from tests.matches.factories import roster_for

    roster = roster_for(user)
    document = small_team(name="Changed")
    document["entries"][0]["profile"] = ["phalanx-hauptmann-brandt"]
    assert_error(client.put(f"/api/v1/rosters/{roster.pk}/", document, format="json"))
    roster.refresh_from_db()
    assert roster.name == "Team Phalanx"
    assert roster.entries.count() == 3


@pytest.fixture
def browser(user) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    return client


@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000,
        "[" * 50_000 + "]" * 50_000,
        '{"format": ' + "[" * 100 + "]" * 100 + "}",
        '{"count": ' + "1" * 5000 + "}",
    ],
    ids=["unclosed-deep", "deep", "deeper-than-any-document", "five-thousand-digits"],
)
def test_the_import_page_explains_json_it_cannot_read(browser, deathmatch, text) -> None:
    response = browser.post(reverse("rosters:import"), {"text": text})
    assert response.status_code == 400
    assert "not valid JSON" in response.content.decode()
    assert not Roster.objects.exists()


def test_the_import_page_lists_a_profile_that_is_not_a_slug(browser, deathmatch) -> None:
    document = small_team()
    document["entries"][0]["profile"] = ["phalanx-hauptmann-brandt"]
    response = browser.post(reverse("rosters:import"), {"text": json.dumps(document)})
    assert response.status_code == 400
    assert "entries[0].profile" in response.content.decode()
    assert not Roster.objects.exists()
