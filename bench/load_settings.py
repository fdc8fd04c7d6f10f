"""Production settings for the web processes of `make bench-load`, except for the static files
(the same reason as tests/faults/proxy_settings.py: collecting them takes minutes, and nothing
measured here serves one) and a cache key prefix of the run's own (a shared Redis database may
hold the entries of an earlier run, whose match ids this run's fresh database uses again)."""

from __future__ import annotations

import os

from skirmish.settings import *  # noqa: F403

STORAGES = {
    **STORAGES,  # noqa: F405
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
if "default" in CACHES:  # noqa: F405
    CACHES["default"]["KEY_PREFIX"] = os.environ.get("BENCH_LOAD_CACHE_PREFIX", "bench-load")  # noqa: F405
