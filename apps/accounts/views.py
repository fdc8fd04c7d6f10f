"""The profile, the API token, and the pages for too many attempts.

Signing up, logging in and out, email addresses and passwords are django-allauth's views
(``apps/accounts/urls.py``), rendered with the templates in ``templates/account/``.
"""

from __future__ import annotations

from typing import Any

from allauth.account.models import EmailAddress
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from rest_framework.authtoken.models import Token

from apps.accounts.forms import ProfileForm
from apps.accounts.models import User
from apps.accounts.services import api_token_regenerate, user_update_profile
from apps.accounts.throttling import lockout_minutes


@login_required
@require_http_methods(["GET", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
    user = request.user
    assert isinstance(user, User)
    form = ProfileForm(request.POST or None, instance=user)
    if request.method == "POST" and form.is_valid():
        user_update_profile(
            user=user,
            display_name=form.cleaned_data["display_name"],
            email_notifications=form.cleaned_data["email_notifications"],
        )
        messages.success(request, _("Your profile was saved."))
        return redirect("accounts:profile")
    token = Token.objects.filter(user=user).first()
    primary = EmailAddress.objects.filter(user=user, primary=True).first()
    return render(
        request, "accounts/profile.html", {"form": form, "token": token, "primary_email": primary}
    )


@login_required
@require_POST
def token_regenerate(request: HttpRequest) -> HttpResponse:
    user = request.user
    assert isinstance(user, User)
    api_token_regenerate(user=user)
    messages.success(request, _("A new API token was created; the old one no longer works."))
    return redirect("accounts:profile")


def _too_many_attempts(request: HttpRequest, *, locked_out: bool, minutes: int) -> HttpResponse:
    response = render(
        request,
        "accounts/too_many_attempts.html",
        {"locked_out": locked_out, "minutes": minutes},
        status=429,
    )
    response["Retry-After"] = str(minutes * 60)
    return response


def locked_out(
    request: HttpRequest, original_response: HttpResponse | None, credentials: Any
) -> HttpResponse:
    """django-axes' answer to a login refused after too many failures (``AXES_LOCKOUT_CALLABLE``):
    the login page, the admin's and any other that authenticates."""
    return _too_many_attempts(request, locked_out=True, minutes=lockout_minutes(request))


def too_many_requests(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """allauth's answer when a rate limit (sign-ups, logins, password resets) is exceeded;
    allauth finds it as ``handler429`` of the root URLconf."""
    return _too_many_attempts(request, locked_out=False, minutes=1)
