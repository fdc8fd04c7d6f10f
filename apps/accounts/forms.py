"""Forms for logging in, signing up and editing the profile.

Logging in and signing up are django-allauth's forms, labelled as the rest of Skirmish.
"""

from __future__ import annotations

from typing import Any

from allauth.account import forms as allauth_forms
from django import forms
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from apps.accounts.models import User


def _model_label(field: str) -> Any:
    return capfirst(User._meta.get_field(field).verbose_name)


class LoginForm(allauth_forms.LoginForm):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        login = self.fields["login"]
        login.label = _model_label("username")
        login.help_text = _("Or the email address of your account.")
        login.widget.attrs.update({"autocomplete": "username", "autofocus": True})
        login.widget.attrs.pop("placeholder", None)
        self.fields["password"].widget.attrs.pop("placeholder", None)
        # allauth puts a "forgot your password?" link into the help text; the page has its own.
        self.fields["password"].help_text = ""


class SignupForm(allauth_forms.SignupForm):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["username"].label = _model_label("username")
        self.fields["email"].label = _model_label("email")
        self.fields["email"].help_text = _(
            "For resetting your password, and for the organisers of your leagues."
        )
        for field in self.fields.values():
            field.widget.attrs.pop("placeholder", None)


class ProfileForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ("display_name", "email_notifications")
