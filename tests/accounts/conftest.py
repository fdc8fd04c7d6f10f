"""Each accounts test counts its throttles in a cache of its own.

The login, sign-up and API throttles count in the default cache, which lives as long as the
test process. Tests here make dozens of logins from 127.0.0.1; a fresh local-memory cache per
test keeps their counts from reaching each other or the rest of the suite (django-axes' lockout
counts are database rows, rolled back with the test). Mail goes to ``django.core.mail.outbox``
(pytest-django sets the local-memory email backend).
"""

from __future__ import annotations

import uuid

import pytest


@pytest.fixture(autouse=True)
def _own_cache(settings) -> None:  # noqa: ANN001 - pytest-django's settings fixture
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"accounts-test-{uuid.uuid4().hex}",
        }
    }
