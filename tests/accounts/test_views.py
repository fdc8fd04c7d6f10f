"""Sign-up, login, logout, profile and API token pages."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.authtoken.models import Token

from apps.accounts.models import User
from tests.accounts.factories import PASSWORD

pytestmark = pytest.mark.django_db


def test_signup_creates_account_and_logs_in(client) -> None:
    response = client.post(
        reverse("accounts:signup"),
        {
            "username": "kael",
            "email": "kael@example.org",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:profile")
    assert User.objects.get(username="kael").check_password(PASSWORD)
    assert client.get(reverse("accounts:profile")).status_code == 200


def test_signup_with_mismatched_passwords_saves_nothing_and_says_why(client) -> None:
    response = client.post(
        reverse("accounts:signup"),
        {"username": "kael", "password1": PASSWORD, "password2": PASSWORD + "x"},
    )
    assert response.status_code == 200
    assert not User.objects.filter(username="kael").exists()
    assert response.context["form"].errors["password2"]


def test_login_with_right_password_reaches_profile(client, user) -> None:
    response = client.post(
        reverse("accounts:login"), {"username": user.username, "password": PASSWORD}
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:profile")


def test_login_with_wrong_password_shows_error(client, user) -> None:
    response = client.post(reverse("accounts:login"), {"username": user.username, "password": "x"})
    assert response.status_code == 200
    assert response.context["form"].non_field_errors()


def test_logout_needs_post(client, user) -> None:
    client.force_login(user)
    assert client.get(reverse("accounts:logout")).status_code == 405
    assert client.post(reverse("accounts:logout")).status_code == 302
    assert client.get(reverse("accounts:profile")).status_code == 302


def test_profile_requires_login(client) -> None:
    response = client.get(reverse("accounts:profile"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))


def test_profile_update_saves_display_name(client, user) -> None:
    client.force_login(user)
    response = client.post(
        reverse("accounts:profile"), {"display_name": "Anzi", "email": "anzi@example.org"}
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.display_name == "Anzi"
    assert user.shown_name == "Anzi"


def test_profile_update_rejects_bad_email(client, user) -> None:
    client.force_login(user)
    response = client.post(reverse("accounts:profile"), {"display_name": "", "email": "nope"})
    assert response.status_code == 200
    assert "email" in response.context["form"].errors
    user.refresh_from_db()
    assert user.email != "nope"


def test_token_regenerate_replaces_old_token(client, user) -> None:
    old = Token.objects.create(user=user)
    client.force_login(user)
    response = client.post(reverse("accounts:token_regenerate"))
    assert response.status_code == 302
    new = Token.objects.get(user=user)
    assert new.key != old.key


def test_token_regenerate_refuses_get(client, user) -> None:
    client.force_login(user)
    assert client.get(reverse("accounts:token_regenerate")).status_code == 405


def test_forms_carry_csrf_protection(user) -> None:
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    strict.force_login(user)
    assert strict.post(reverse("accounts:token_regenerate")).status_code == 403
