"""URLs for account pages.

django-allauth's URLs are included beside these (``skirmish/urls.py``); the names here are the
ones the rest of Skirmish links to, each on the same path as allauth's own.
"""

from __future__ import annotations

from allauth.account import views as allauth_views
from django.urls import path
from django.views.generic import RedirectView

from apps.accounts import views

app_name = "accounts"

urlpatterns = [
    path("signup/", allauth_views.signup, name="signup"),
    path("login/", allauth_views.login, name="login"),
    path("logout/", allauth_views.logout, name="logout"),
    path("profile/", views.profile, name="profile"),
    path("password/change/", allauth_views.password_change, name="password_change"),
    path("token/", views.token_regenerate, name="token_regenerate"),
    # Addresses from before allauth, and the one people guess.
    path("password/", RedirectView.as_view(pattern_name="account_change_password")),
    path("password_reset/", RedirectView.as_view(pattern_name="account_reset_password")),
]
