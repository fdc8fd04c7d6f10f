"""Account recovery and email addresses: password reset by mail, adding, verifying and changing
the address, the verification setting, and the users from before django-allauth."""

from __future__ import annotations

import importlib
import re

import pytest
from allauth.account.models import EmailAddress
from django.apps import apps
from django.core import mail
from django.urls import reverse

from apps.accounts.models import User
from tests.accounts.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
NEW_PASSWORD = "a brand new horse battery"


def link_in(message: mail.EmailMessage) -> str:
    """The path of the first link to this site in a mail."""
    match = re.search(r"https?://testserver(/\S+)", message.body)
    assert match, message.body
    return match.group(1)


def can_log_in(username: str, password: str) -> bool:
    from django.test import Client

    client = Client()
    client.post(reverse("accounts:login"), {"login": username, "password": password})
    return "_auth_user_id" in client.session


def test_password_reset_by_mail_end_to_end(client, user) -> None:
    EmailAddress.objects.create(user=user, email=user.email, primary=True, verified=True)
    assert client.get("/accounts/password_reset/", follow=True).status_code == 200

    response = client.post(reverse("account_reset_password"), {"email": user.email.upper()})
    assert response.status_code == 302
    assert response["Location"] == reverse("account_reset_password_done")
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == [user.email]
    assert message.subject.startswith("[Skirmish]")

    form = client.get(link_in(message), follow=True, **EN)
    assert form.status_code == 200
    assert "form" in form.context and not form.context.get("token_fail")
    set_password_url = form.redirect_chain[-1][0]
    done = client.post(set_password_url, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    assert done.status_code == 302

    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)
    assert can_log_in(user.username, NEW_PASSWORD)
    assert not can_log_in(user.username, PASSWORD)


def test_password_reset_link_works_once(client, user) -> None:
    client.post(reverse("account_reset_password"), {"email": user.email})
    link = link_in(mail.outbox[0])
    form = client.get(link, follow=True)
    client.post(form.redirect_chain[-1][0], {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    again = client.get(link, follow=True, **EN)
    assert again.context["token_fail"]
    assert "This link does not work" in again.content.decode()


def test_password_reset_for_unknown_address_tells_nothing_on_the_page(client) -> None:
    response = client.post(reverse("account_reset_password"), {"email": "nobody@example.org"})
    assert response.status_code == 302
    assert response["Location"] == reverse("account_reset_password_done")


def test_add_verify_and_make_primary_a_new_address(client, user) -> None:
    old = user.email
    EmailAddress.objects.create(user=user, email=old, primary=True, verified=True)
    client.force_login(user)
    assert client.get(reverse("account_email"), **EN).status_code == 200

    client.post(reverse("account_email"), {"action_add": "", "email": "New@Example.org"})
    added = EmailAddress.objects.get(user=user, email="new@example.org")
    assert not added.verified
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["new@example.org"]

    confirm_url = link_in(mail.outbox[0])
    page = client.get(confirm_url, **EN)
    assert page.status_code == 200 and "new@example.org" in page.content.decode()
    client.post(confirm_url)
    added.refresh_from_db()
    assert added.verified

    client.post(reverse("account_email"), {"action_primary": "", "email": "new@example.org"})
    user.refresh_from_db()
    assert user.email == "new@example.org"  # what organisers see
    client.post(reverse("account_email"), {"action_remove": "", "email": old})
    assert list(EmailAddress.objects.filter(user=user).values_list("email", flat=True)) == [
        "new@example.org"
    ]


def test_a_foreign_confirmation_link_confirms_nothing(client, user) -> None:
    client.force_login(user)
    response = client.get("/accounts/confirm-email/not-a-key/", **EN)
    assert response.status_code == 200
    assert "has expired or is not valid" in response.content.decode()


def test_optional_verification_logs_in_and_sends_a_confirmation(client, settings) -> None:
    settings.ACCOUNT_EMAIL_VERIFICATION = "optional"
    client.post(reverse("accounts:signup"), signup("kael"))
    assert "_auth_user_id" in client.session
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["kael@example.org"]


def test_no_verification_sends_no_mail(client, settings) -> None:
    settings.ACCOUNT_EMAIL_VERIFICATION = "none"
    client.post(reverse("accounts:signup"), signup("kael"))
    assert "_auth_user_id" in client.session
    assert mail.outbox == []


def test_mandatory_verification_logs_in_only_after_the_link(client, settings) -> None:
    settings.ACCOUNT_EMAIL_VERIFICATION = "mandatory"
    response = client.post(reverse("accounts:signup"), signup("kael"))
    assert response.status_code == 302
    assert response["Location"] == reverse("account_email_verification_sent")
    assert "_auth_user_id" not in client.session
    assert not can_log_in("kael", PASSWORD)

    client.post(link_in(mail.outbox[0]))
    assert EmailAddress.objects.get(email="kael@example.org").verified
    assert can_log_in("kael", PASSWORD)


def test_mandatory_verification_still_lets_the_demo_user_in(settings) -> None:
    from apps.accounts.services import DEMO_PASSWORD, DEMO_USERNAME, demo_user_ensure

    settings.ACCOUNT_EMAIL_VERIFICATION = "mandatory"
    demo_user_ensure()
    assert can_log_in(DEMO_USERNAME, DEMO_PASSWORD)


def signup(username: str) -> dict[str, str]:
    return {
        "username": username,
        "email": f"{username}@example.org",
        "password1": PASSWORD,
        "password2": PASSWORD,
    }


def test_users_from_before_allauth_get_their_address_recorded() -> None:
    migration = importlib.import_module("apps.accounts.migrations.0002_email_addresses")
    old = UserFactory(email=" Old.Player@Example.org ")
    no_address = UserFactory(email="")
    already = UserFactory()
    EmailAddress.objects.create(user=already, email=already.email, primary=True, verified=True)

    migration.email_addresses_create(apps, None)

    recorded = EmailAddress.objects.get(user=old)
    assert (recorded.email, recorded.primary, recorded.verified) == (
        "old.player@example.org",
        True,
        False,
    )
    assert not EmailAddress.objects.filter(user=no_address).exists()
    assert EmailAddress.objects.filter(user=already).count() == 1
    assert can_log_in("old.player@example.org", PASSWORD)  # by address, like a new account
    assert User.objects.count() >= 3


def test_a_password_reset_ends_a_lockout(client, user, settings) -> None:
    for n in range(settings.AXES_FAILURE_LIMIT):
        client.post(reverse("accounts:login"), {"login": user.email, "password": f"x{n}"})
    assert not can_log_in(user.username, PASSWORD)  # locked out from this address

    client.post(reverse("account_reset_password"), {"email": user.email})
    form = client.get(link_in(mail.outbox[0]), follow=True)
    client.post(form.redirect_chain[-1][0], {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})

    assert can_log_in(user.username, NEW_PASSWORD)
