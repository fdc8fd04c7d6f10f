"""Writes for accounts."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from rest_framework.authtoken.models import Token

from apps.accounts.models import User
from apps.catalog.services import organisers_group_ensure

DEMO_USERNAME = "demo"
DEMO_PASSWORD = "skirmish-demo"


@transaction.atomic
def user_update_profile(*, user: User, display_name: str, email: str) -> User:
    user.display_name = display_name
    user.email = email
    user.full_clean()
    user.save(update_fields=["display_name", "email"])
    return user


@transaction.atomic
def api_token_regenerate(*, user: User) -> Token:
    """Replace the user's API token; the old one stops working at once."""
    Token.objects.filter(user=user).delete()
    return Token.objects.create(user=user)


@dataclass(frozen=True)
class DemoLogin:
    username: str
    password: str
    created: bool


@transaction.atomic
def demo_user_ensure() -> DemoLogin:
    """Create (or reset) the demo login for a local first start: a staff user in the
    Organisers group, so the catalogue admin can be tried."""
    user, created = User.objects.get_or_create(
        username=DEMO_USERNAME, defaults={"display_name": "Demo"}
    )
    user.is_staff = True
    user.set_password(DEMO_PASSWORD)
    user.full_clean()
    user.save()
    user.groups.add(organisers_group_ensure())
    return DemoLogin(username=DEMO_USERNAME, password=DEMO_PASSWORD, created=created)
