"""A match is sized as its system sizes teams (``Sizing``): the words say fighters or points,
and a size given as digits is read as the number it is."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.matches.factories import roster_for, small_team

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(deathmatch, user) -> APIClient:
    client = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    client.force_authenticate(user)
    return client


def _create(api: APIClient, user, game_size: object) -> dict:
    first = roster_for(user, small_team("phalanx"))
    second = roster_for(user, small_team("shelzahav"))
    response = api.post(
        "/api/v1/matches/",
        {
            "system": "deathmatch",
            "mission": "last-man-standing",
            "players": [{"roster": first.pk}, {"roster": second.pk}],
            "settings": {"game_size": game_size, "gadgets": False},
        },
        format="json",
    )
    return {**response.json(), "http": response.status_code}


def test_a_game_size_given_as_digits_is_the_number(api, user) -> None:
    answer = _create(api, user, "3")
    assert answer["http"] == 201, answer
    assert answer["state"]["game_size"] == 3


def test_a_game_size_that_is_no_size_is_refused_with_the_sizes_it_may_be(api, user) -> None:
    answer = _create(api, user, "five")
    assert answer["http"] == 400
    assert answer["code"] == "settings_invalid"
    assert "3, 5, 7" in answer["message"]


def test_a_team_of_another_size_is_refused_in_fighters(api, user) -> None:
    answer = _create(api, user, 5)
    assert answer["http"] == 400
    assert answer["code"] == "game_size_mismatch"
    assert answer["message"] == "Team Phalanx is built for 3 fighters, the match for 5 fighters."
