"""Pages for signing up, logging in and out, and the profile."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import PasswordChangeForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from rest_framework.authtoken.models import Token

from apps.accounts.forms import ProfileForm, SignUpForm
from apps.accounts.models import User
from apps.accounts.services import api_token_regenerate, user_update_profile


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("accounts:profile")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome to Skirmish, %(name)s!") % {"name": user.username})
        return redirect("accounts:profile")
    return render(request, "accounts/signup.html", {"form": form})


class LoginView(auth_views.LoginView):
    template_name = "accounts/login.html"
    redirect_authenticated_user = True


class LogoutView(auth_views.LogoutView):
    """Logout is a POST (a link could be triggered by another site)."""


class PasswordChangeView(auth_views.PasswordChangeView):
    template_name = "accounts/password_change.html"
    success_url = reverse_lazy("accounts:profile")

    def form_valid(self, form: PasswordChangeForm) -> HttpResponse:
        messages.success(self.request, _("Your password was changed."))
        return super().form_valid(form)


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
            email=form.cleaned_data["email"],
        )
        messages.success(request, _("Your profile was saved."))
        return redirect("accounts:profile")
    token = Token.objects.filter(user=user).first()
    return render(request, "accounts/profile.html", {"form": form, "token": token})


@login_required
@require_POST
def token_regenerate(request: HttpRequest) -> HttpResponse:
    user = request.user
    assert isinstance(user, User)
    api_token_regenerate(user=user)
    messages.success(request, _("A new API token was created; the old one no longer works."))
    return redirect("accounts:profile")
