"""Writes for accounts."""

from __future__ import annotations

from dataclasses import dataclass

from allauth.account.models import EmailAddress
from axes.utils import reset as axes_reset
from django.db import transaction
from rest_framework.authtoken.models import Token

from apps.accounts.models import User
from apps.catalog.services import organisers_group_ensure

DEMO_USERNAME = "demo"
DEMO_PASSWORD = "skirmish-demo"
DEMO_EMAIL = "demo@example.org"


@transaction.atomic
def user_update_profile(
    *, user: User, display_name: str, email_notifications: bool | None = None
) -> User:
    """The email address is not edited here: allauth's email page adds, verifies and makes an
    address primary (which copies it to ``user.email``). ``email_notifications`` None keeps
    the setting as it is."""
    user.display_name = display_name
    if email_notifications is not None:
        user.email_notifications = email_notifications
    user.full_clean()
    user.save(update_fields=["display_name", "email_notifications"])
    return user


def login_lockouts_clear(*, user: User) -> int:
    """Forget the failed logins counted against the names the user logs in with (the user name
    and every address): whoever just set a new password, through the mailed link or logged in,
    is the account's owner and must not stay locked out. Returns how many records went."""
    names = {user.username, user.email, *user.emailaddress_set.values_list("email", flat=True)}
    return sum(axes_reset(username=name.lower()) for name in names if name)


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
    user.email = DEMO_EMAIL
    user.set_password(DEMO_PASSWORD)
    user.full_clean()
    user.save()
    user.groups.add(organisers_group_ensure())
    # Verified, so that the demo login works with ACCOUNT_EMAIL_VERIFICATION=mandatory too.
    EmailAddress.objects.filter(user=user).exclude(email=DEMO_EMAIL).delete()
    EmailAddress.objects.update_or_create(
        user=user, email=DEMO_EMAIL, defaults={"verified": True, "primary": True}
    )
    return DemoLogin(username=DEMO_USERNAME, password=DEMO_PASSWORD, created=created)
