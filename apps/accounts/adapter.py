"""How django-allauth fits Skirmish."""

from __future__ import annotations

from allauth.account.adapter import DefaultAccountAdapter
from django.contrib.auth.base_user import AbstractBaseUser
from django.http import HttpRequest

from apps.accounts.models import User
from apps.accounts.services import login_lockouts_clear
from apps.accounts.throttling import client_ip


class AccountAdapter(DefaultAccountAdapter):
    def get_client_ip(self, request: HttpRequest) -> str:
        """allauth's rate limits count per client address, decided as everywhere else
        (``NUM_PROXIES``) rather than by allauth's own proxy setting."""
        return client_ip(request) or super().get_client_ip(request)

    def set_password(self, user: AbstractBaseUser, password: str) -> None:
        """A new password (reset by mail, changed or set) ends a lockout of the account."""
        super().set_password(user, password)
        if isinstance(user, User):
            login_lockouts_clear(user=user)
