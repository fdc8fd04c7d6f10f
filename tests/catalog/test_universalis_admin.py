"""Organisers edit Universalis unit cards in the admin: one input per field, structured values
as JSON text, telematon attributes left empty, and every card change a new version."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from apps.catalog.models import Profile
from tests.accounts.factories import UserFactory
from tests.catalog.test_admin import _form_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client, deathmatch):  # noqa: ANN001, ANN201 - the fixture loads every system
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


def test_unit_card_form_has_the_schema_fields(staff_client) -> None:  # noqa: ANN001
    profile = Profile.objects.get(slug="eisenwacht-spaeherdrohne")
    html = staff_client.get(reverse("admin:catalog_profile_change", args=[profile.pk])).content
    for name in ("stats__type", "stats__hp_critical", "stats__weapons", "stats__camouflage"):
        assert f'name="{name}"'.encode() in html


def test_a_telematon_saves_without_its_operator_attributes(staff_client) -> None:  # noqa: ANN001
    profile = Profile.objects.get(slug="eisenwacht-spaeherdrohne")
    url = reverse("admin:catalog_profile_change", args=[profile.pk])
    data = _form_data(staff_client.get(url))
    data["stats__speed"] = 16
    response = staff_client.post(url, data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    profile.refresh_from_db()
    assert profile.version == 2 and profile.stats["speed"] == 16
    assert "agi" not in profile.stats


def test_bad_weapon_json_is_shown_on_its_field(staff_client) -> None:  # noqa: ANN001
    profile = Profile.objects.get(slug="eisenwacht-wachsoldat")
    url = reverse("admin:catalog_profile_change", args=[profile.pk])
    data = _form_data(staff_client.get(url))
    data["stats__weapons"] = json.dumps([{"name": "Kanone", "wk": 9, "range": "NK"}])
    response = staff_client.post(url, data)
    assert response.status_code == 200
    errors = str(response.context["adminform"].form.errors)
    assert "weapons.0.wk" in errors and "weapons.0.strength" in errors
