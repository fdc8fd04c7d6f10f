"""Organisers edit the catalogue in the admin with the system's fields, not raw JSON."""

from __future__ import annotations

import pytest
from django.urls import reverse

from apps.catalog.models import Profile
from tests.accounts.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client, deathmatch):  # noqa: ANN201
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


def _form_data(response) -> dict[str, object]:  # noqa: ANN001
    form = response.context["adminform"].form
    data: dict[str, object] = {}
    for name in form.fields:
        value = form[name].value()
        if value is None:
            continue
        if isinstance(value, list):
            data[name] = [str(v) for v in value]
        elif isinstance(value, bool):
            if value:
                data[name] = "on"
        else:
            data[name] = value
    return data


def test_profile_form_shows_one_input_per_field(staff_client) -> None:
    profile = Profile.objects.get(slug="atalante-c021-anzi")
    response = staff_client.get(reverse("admin:catalog_profile_change", args=[profile.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    for name in ("stats__rank", "stats__reflex", "stats__weapons", "stats__abilities"):
        assert f'name="{name}"' in html
    assert 'name="stats"' not in html


def test_saving_a_change_in_the_admin_makes_a_new_version(staff_client) -> None:
    profile = Profile.objects.get(slug="atalante-c021-anzi")
    url = reverse("admin:catalog_profile_change", args=[profile.pk])
    data = _form_data(staff_client.get(url))
    data["stats__lp"] = int(profile.stats["lp"]) + 1
    response = staff_client.post(url, data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    profile.refresh_from_db()
    assert profile.version == 2
    assert profile.stats["lp"] == data["stats__lp"]


def test_a_bad_weapon_line_is_shown_on_its_field(staff_client) -> None:
    profile = Profile.objects.get(slug="atalante-c021-anzi")
    url = reverse("admin:catalog_profile_change", args=[profile.pk])
    data = _form_data(staff_client.get(url))
    data["stats__weapons"] = "Sigma Edge | M | RW 0 | NK lots | S 3"
    response = staff_client.post(url, data)
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert "stats__weapons" in errors
    profile.refresh_from_db()
    assert profile.version == 1


def test_item_form_offers_the_system_kinds(staff_client) -> None:
    response = staff_client.get(reverse("admin:catalog_item_add") + "?system=deathmatch")
    html = response.content.decode()
    assert 'value="character_upgrade"' in html
    assert 'name="stats__limit_per_model"' in html


def test_organisers_may_edit_the_catalogue_and_other_staff_may_not(client, deathmatch) -> None:
    from apps.catalog.services import organisers_group_ensure

    profile = Profile.objects.get(slug="atalante-c021-anzi")
    url = reverse("admin:catalog_profile_change", args=[profile.pk])
    staff = UserFactory(is_staff=True)
    client.force_login(staff)
    assert client.get(url).status_code == 403
    staff.groups.add(organisers_group_ensure())
    assert client.get(url).status_code == 200
    assert client.get(reverse("admin:accounts_user_changelist")).status_code == 403


@pytest.mark.parametrize("bulk", [False, True])
def test_deleting_a_card_in_the_admin_renews_the_catalogue_stamp(staff_client, bulk) -> None:
    from apps.catalog.models import GameSystem, Item
    from apps.rosters.selectors import catalog_data

    system = GameSystem.objects.get(slug="deathmatch")
    assert "medkit" in catalog_data(system).items  # read once: this process now caches it
    medkit = Item.objects.get(slug="medkit")
    if bulk:
        response = staff_client.post(
            reverse("admin:catalog_item_changelist"),
            {"action": "delete_selected", "_selected_action": [medkit.pk], "post": "yes"},
        )
    else:
        response = staff_client.post(
            reverse("admin:catalog_item_delete", args=[medkit.pk]), {"post": "yes"}
        )
    assert response.status_code == 302
    system.refresh_from_db()
    assert "medkit" not in catalog_data(system).items
