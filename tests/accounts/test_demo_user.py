"""``manage.py demo_user``: the demo login that `make run` prints."""

from __future__ import annotations

from io import StringIO

import pytest
from allauth.account.models import EmailAddress
from django.core.management import CommandError, call_command
from django.urls import reverse
from rest_framework.test import APIClient

from apps.accounts.models import User
from apps.accounts.services import DEMO_PASSWORD, DEMO_USERNAME

pytestmark = pytest.mark.django_db


def test_demo_user_is_created_once_and_printed(settings) -> None:
    settings.DEBUG = True
    out = StringIO()
    call_command("demo_user", stdout=out)
    call_command("demo_user", stdout=out)
    assert User.objects.filter(username=DEMO_USERNAME).count() == 1
    assert User.objects.get(username=DEMO_USERNAME).check_password(DEMO_PASSWORD)
    assert f"'{DEMO_PASSWORD}'" in out.getvalue()


def test_demo_user_refused_in_production_mode(settings) -> None:
    settings.DEBUG = False
    with pytest.raises(CommandError, match="DJANGO_DEBUG"):
        call_command("demo_user")
    assert not User.objects.filter(username=DEMO_USERNAME).exists()


def test_demo_user_is_an_organiser(settings) -> None:
    settings.DEBUG = True
    call_command("demo_user", stdout=StringIO())
    demo = User.objects.get(username=DEMO_USERNAME)
    assert demo.is_staff and not demo.is_superuser
    assert demo.has_perm("catalog.change_profile")


def test_demo_login_works_on_the_login_page_and_for_an_api_token(settings, client) -> None:
    settings.DEBUG = True
    call_command("demo_user", stdout=StringIO())
    response = client.post(
        reverse("accounts:login"), {"login": DEMO_USERNAME, "password": DEMO_PASSWORD}
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:profile")
    token = APIClient().post(
        "/api/v1/auth/token/",
        {"username": DEMO_USERNAME, "password": DEMO_PASSWORD},
        format="json",
    )
    assert token.status_code == 200
    assert token.json()["token"]


def test_demo_user_has_a_verified_address_and_keeps_it_on_reset(settings) -> None:
    settings.DEBUG = True
    call_command("demo_user", stdout=StringIO())
    call_command("demo_user", stdout=StringIO())
    demo = User.objects.get(username=DEMO_USERNAME)
    address = EmailAddress.objects.get(user=demo)
    assert (address.email, address.primary, address.verified) == (demo.email, True, True)
