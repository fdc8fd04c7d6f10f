"""Who a request comes from, for the throttles and the login lockout.

The API's throttles (DRF ``NUM_PROXIES``), allauth's rate limits (through the account adapter)
and django-axes (``AXES_CLIENT_IP_CALLABLE``) all take the client address from here, configured
by the one setting ``NUM_PROXIES``.
"""

from __future__ import annotations

from typing import Any

from axes.helpers import get_cool_off
from django.conf import settings
from django.db.models import Q
from django.http import HttpRequest

from apps.accounts.models import User


def client_ip(request: HttpRequest) -> str:
    """The client's address: ``REMOTE_ADDR``, or, behind ``NUM_PROXIES`` trusted proxies that
    each append the address they saw to ``X-Forwarded-For``, the entry the outermost one added.

    With no trusted proxy the header is ignored: a client can write anything into it, and a new
    address per request must not give it a fresh allowance. The same rule as DRF's
    ``SimpleRateThrottle.get_ident``, so that every throttle counts the same client.
    """
    remote_addr = request.META.get("REMOTE_ADDR") or ""
    proxies = settings.NUM_PROXIES
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR")
    if proxies <= 0 or not forwarded:
        return remote_addr
    addresses = [address.strip() for address in forwarded.split(",") if address.strip()]
    if not addresses:
        return remote_addr
    return addresses[-min(proxies, len(addresses))]


def login_name(request: HttpRequest, credentials: dict[str, Any] | None) -> str | None:
    """The name a login attempt is counted under (``AXES_USERNAME_CALLABLE``): the account's
    user name, without case, whether the user name or an address of the account was typed, so
    that ``Alice``, ``alice`` and ``alice@example.org`` share one count."""
    name = (credentials or {}).get("username")
    if name is None:
        data = getattr(request, "data", request.POST)
        if hasattr(data, "get"):
            name = data.get("username") or data.get("login")
    if not isinstance(name, str) or not name.strip():
        return None
    name = name.strip().lower()
    if "@" in name and not User.objects.filter(username__iexact=name).exists():
        owners = list(
            User.objects.filter(Q(email__iexact=name) | Q(emailaddress__email__iexact=name))
            .values_list("username", flat=True)
            .distinct()[:2]
        )
        if len(owners) == 1:
            return owners[0].lower()
    return name


def lockout_minutes(request: HttpRequest) -> int:
    """How long a locked-out login waits, in whole minutes (``LOGIN_LOCKOUT_MINUTES``)."""
    cool_off = get_cool_off(request)
    return max(1, round(cool_off.total_seconds() / 60)) if cool_off else 1
