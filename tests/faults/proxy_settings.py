"""Production settings for the gunicorn behind nginx in tests/faults/test_proxy.py, except for
the static files.

The image collects the hashed, compressed static files at build time (the Dockerfile); doing
that for a test takes minutes (brotli over the API docs' bundles), and without it every page
Django renders (the 400 of a wrong host included) fails on the missing manifest. So this server
names the sources' static files unhashed; everything the proxy tests look at is the same.
"""

from __future__ import annotations

from skirmish.settings import *  # noqa: F403

STORAGES = {
    **STORAGES,  # noqa: F405
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
