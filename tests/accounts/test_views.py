"""Sign-up, login, logout, profile and API token pages (django-allauth behind Skirmish's URLs)."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.urls import reverse
from rest_framework.authtoken.models import Token

from apps.accounts.models import User
from tests.accounts.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def signup_data(username: str = "kael", **changes: str) -> dict[str, str]:
    return {
        "username": username,
        "email": f"{username}@example.org",
        "password1": PASSWORD,
        "password2": PASSWORD,
        **changes,
    }


def logged_in_user_id(client) -> str | None:  # noqa: ANN001
    return client.session.get("_auth_user_id")


def test_signup_creates_account_and_logs_in(client) -> None:
    response = client.post(reverse("accounts:signup"), signup_data())
    assert response.status_code == 302
    assert response["Location"] == reverse("rosters:list")
    user = User.objects.get(username="kael")
    assert user.check_password(PASSWORD)
    assert user.email == "kael@example.org"
    assert EmailAddress.objects.get(user=user).primary
    assert client.get(reverse("accounts:profile")).status_code == 200


def test_signup_lands_on_building_the_first_team(client, catalogue) -> None:  # noqa: ANN001
    """A new account starts at "build your first team", not at the API token page."""
    response = client.post(reverse("accounts:signup"), signup_data(), follow=True, **EN)
    assert response.redirect_chain == [(reverse("rosters:list"), 302)]
    page = response.content.decode()
    assert "Build your first team" in page
    assert reverse("rosters:new", args=["deathmatch"]) in page
    assert "API token" not in page


def test_signup_keeps_a_next_page_it_was_sent_from(client) -> None:
    target = reverse("leagues:join")
    response = client.post(f"{reverse('accounts:signup')}?next={target}", signup_data())
    assert response["Location"] == target


def test_signup_with_mismatched_passwords_saves_nothing_and_says_why(client) -> None:
    response = client.post(reverse("accounts:signup"), signup_data(password2=PASSWORD + "x"), **EN)
    assert response.status_code == 200
    assert not User.objects.filter(username="kael").exists()
    assert response.context["form"].errors["password2"]


def test_signup_needs_an_email_address(client) -> None:
    response = client.post(reverse("accounts:signup"), signup_data(email=""))
    assert response.status_code == 200
    assert "email" in response.context["form"].errors
    assert not User.objects.filter(username="kael").exists()


def test_signup_refuses_a_user_name_taken_in_another_case(client, user) -> None:
    response = client.post(reverse("accounts:signup"), signup_data(user.username.upper()))
    assert response.status_code == 200
    assert "username" in response.context["form"].errors


def test_signup_keeps_the_look_of_the_site(client) -> None:
    page = client.get(reverse("accounts:signup"), **EN).content.decode()
    assert '<form class="card form"' in page
    assert "Create an account" in page
    assert 'name="email"' in page and 'name="password2"' in page


def test_login_by_user_name_reaches_profile(client, user) -> None:
    credentials = {"login": user.username, "password": PASSWORD}
    response = client.post(reverse("accounts:login"), credentials)
    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:profile")
    assert logged_in_user_id(client) == str(user.pk)


def test_login_by_email_address(client, user) -> None:
    response = client.post(reverse("accounts:login"), {"login": user.email, "password": PASSWORD})
    assert response.status_code == 302
    assert logged_in_user_id(client) == str(user.pk)


def test_login_keeps_the_next_page(client, user) -> None:
    response = client.post(
        reverse("accounts:login") + "?next=/rosters/",
        {"login": user.username, "password": PASSWORD, "next": "/rosters/"},
    )
    assert response["Location"] == "/rosters/"


def test_login_lasts_beyond_the_browser_session(client, user) -> None:
    client.post(reverse("accounts:login"), {"login": user.username, "password": PASSWORD})
    assert not client.session.get_expire_at_browser_close()


def test_login_with_wrong_password_shows_error(client, user) -> None:
    response = client.post(
        reverse("accounts:login"), {"login": user.username, "password": "x"}, **EN
    )
    assert response.status_code == 200
    assert response.context["form"].non_field_errors()
    assert logged_in_user_id(client) is None


def test_login_page_labels_in_german_and_english(client) -> None:
    german = client.get(reverse("accounts:login"), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert ">Benutzername</label>" in german and ">Passwort</label>" in german
    english = client.get(reverse("accounts:login"), **EN).content.decode()
    assert ">Username</label>" in english and ">Password</label>" in english
    assert reverse("account_reset_password") in english


def test_logout_asks_on_get_and_logs_out_on_post(client, user) -> None:
    client.force_login(user)
    confirm = client.get(reverse("accounts:logout"), **EN)
    assert confirm.status_code == 200
    assert logged_in_user_id(client) == str(user.pk)
    response = client.post(reverse("accounts:logout"))
    assert response.status_code == 302
    assert response["Location"] == reverse("pages:home")
    assert client.get(reverse("accounts:profile")).status_code == 302


def test_profile_requires_login(client) -> None:
    response = client.get(reverse("accounts:profile"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))


def test_profile_update_saves_display_name(client, user) -> None:
    client.force_login(user)
    response = client.post(reverse("accounts:profile"), {"display_name": "Anzi"})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.display_name == "Anzi"
    assert user.shown_name == "Anzi"


def test_profile_does_not_change_the_email_address_unverified(client, user) -> None:
    client.force_login(user)
    client.post(reverse("accounts:profile"), {"display_name": "", "email": "other@example.org"})
    user.refresh_from_db()
    assert user.email != "other@example.org"


def test_profile_shows_the_email_address_and_links_its_page(client, user) -> None:
    EmailAddress.objects.create(user=user, email=user.email, primary=True, verified=True)
    client.force_login(user)
    page = client.get(reverse("accounts:profile"), **EN).content.decode()
    assert user.email in page
    assert reverse("account_email") in page
    assert reverse("accounts:password_change") in page


def test_password_change(client, user) -> None:
    client.force_login(user)
    new = "a different horse battery"
    response = client.post(
        reverse("accounts:password_change"),
        {"oldpassword": PASSWORD, "password1": new, "password2": new},
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password(new)
    assert logged_in_user_id(client) == str(user.pk)  # still logged in


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("/accounts/password/", "/accounts/password/change/"),
        ("/accounts/password_reset/", "/accounts/password/reset/"),
    ],
)
def test_old_and_guessed_addresses_redirect(client, old: str, new: str) -> None:
    response = client.get(old)
    assert response.status_code == 302
    assert response["Location"] == new


def test_the_names_other_pages_link_to_resolve_to_allauth_paths() -> None:
    assert reverse("accounts:login") == reverse("account_login") == "/accounts/login/"
    assert reverse("accounts:signup") == reverse("account_signup")
    assert reverse("accounts:logout") == reverse("account_logout")
    assert reverse("accounts:password_change") == reverse("account_change_password")


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
    anonymous = Client(enforce_csrf_checks=True)
    login = {"login": user.username, "password": PASSWORD}
    assert anonymous.post(reverse("accounts:login"), login).status_code == 403


def test_no_mail_is_sent_for_a_plain_login(client) -> None:
    other = UserFactory()
    client.post(reverse("accounts:login"), {"login": other.username, "password": PASSWORD})
    assert mail.outbox == []
