"""League tests create many players: a fast password hasher keeps them quick."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def fast_password_hashing(settings) -> None:  # noqa: ANN001
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
