"""Forms for signing up and editing the profile."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm

from apps.accounts.models import User


class SignUpForm(UserCreationForm):
    class Meta:
        model = User
        fields = ("username", "email")


class ProfileForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ("display_name", "email")
