"""The new-match page with a seat field that fails its own check (a name over 40 characters,
a team that is not one of yours or not of this system, a shared link of any length): the page
answers 422 with the form, no match is made."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from apps.matches.models import Match
from tests.matches.factories import roster_for, small_team

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("system", "field", "value"),
    [
        ("deathmatch", "name_0", "a" * 41),
        ("deathmatch", "name_1", "a" * 3000),
        ("deathmatch", "roster_0", "999999"),
        ("deathmatch", "roster_1", "x"),
        ("deathmatch", "share_0", "s" * 301),
        ("grundregeln", "roster_0", "{deathmatch_roster}"),
        ("universalis", "roster_1", "{deathmatch_roster}"),
        ("universalis", "share_1", "s" * 301),
    ],
)
def test_a_seat_field_that_fails_its_check_is_a_422(deathmatch, user, system, field, value):
    first = roster_for(user, small_team("phalanx"))
    second = roster_for(user, small_team("shelzahav"))
    browser = Client(HTTP_ACCEPT_LANGUAGE="en")
    browser.force_login(user)
    data = {
        "mode": "last-man-standing",
        "game_size": "3",
        "name_0": "Anna",
        "roster_0": str(first.pk),
        "name_1": "Ben",
        "roster_1": str(second.pk),
        field: value.format(deathmatch_roster=first.pk),
    }
    response = browser.post(reverse("matches:new", args=[system]), data)
    assert response.status_code == 422
    assert not Match.objects.exists()
