"""Duplicating a roster from the builder: a POST with CSRF by the owner, the copy opens and is
listed beside the original."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from apps.rosters import services
from apps.rosters.documents import roster_document
from apps.rosters.models import Roster
from apps.rosters.selectors import roster_for_owner
from tests.accounts.factories import UserFactory
from tests.rosters.factories import legal_standard_team

pytestmark = pytest.mark.django_db
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture
def roster(deathmatch, user) -> Roster:
    return services.roster_import(owner=user, document=legal_standard_team())


def test_the_builder_offers_duplicate_as_a_post_form_with_csrf(client, user, roster) -> None:
    client.force_login(user)
    html = client.get(reverse("rosters:builder", args=[roster.pk]), **EN).content.decode()
    form = re.search(
        rf'<form method="post" action="{reverse("rosters:duplicate", args=[roster.pk])}"[^>]*>'
        r"(.*?)</form>",
        html,
        re.S,
    )
    assert form, "no duplicate form in the builder"
    assert 'name="csrfmiddlewaretoken"' in form.group(1)
    assert ">Duplicate</button>" in form.group(1)


def test_duplicate_opens_the_copy_and_lists_it_beside_the_original(client, user, roster) -> None:
    client.force_login(user)
    response = client.post(reverse("rosters:duplicate", args=[roster.pk]), **EN)
    copy = Roster.objects.exclude(pk=roster.pk).get(owner=user)
    assert response.status_code == 302
    assert response["Location"] == reverse("rosters:builder", args=[copy.pk])
    assert copy.name == "Team Vortex (copy)"
    original = roster_document(roster_for_owner(user, roster.pk))
    assert {**roster_document(roster_for_owner(user, copy.pk)), "name": "Team Vortex"} == original

    builder = client.get(response["Location"], **EN).content.decode()
    assert "Roster duplicated." in builder
    assert "Team Vortex (copy)" in builder
    listing = client.get(reverse("rosters:list"), **EN).content.decode()
    for shown in (roster, copy):
        link = f'<a class="roster-link" href="{reverse("rosters:builder", args=[shown.pk])}">'
        assert f"{link}<strong>{shown.name}</strong></a>" in listing


def test_duplicating_someone_elses_roster_is_404_and_copies_nothing(client, roster) -> None:
    client.force_login(UserFactory())
    response = client.post(reverse("rosters:duplicate", args=[roster.pk]))
    assert response.status_code == 404
    assert Roster.objects.count() == 1


def test_duplicate_needs_login(client, roster) -> None:
    response = client.post(reverse("rosters:duplicate", args=[roster.pk]))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))
    assert Roster.objects.count() == 1


def test_duplicate_is_post_only(client, user, roster) -> None:
    client.force_login(user)
    assert client.get(reverse("rosters:duplicate", args=[roster.pk])).status_code == 405
    assert Roster.objects.count() == 1


def test_duplicate_needs_the_csrf_token(user, roster) -> None:
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(user)
    url = reverse("rosters:duplicate", args=[roster.pk])
    assert strict.post(url).status_code == 403
    assert Roster.objects.count() == 1

    page = strict.get(reverse("rosters:builder", args=[roster.pk])).content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert token
    assert strict.post(url, {"csrfmiddlewaretoken": token.group(1)}).status_code == 302
    assert Roster.objects.count() == 2
