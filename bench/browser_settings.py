"""Production settings for the gunicorn of bench/browser.py (hashed static files as `make bench`
collects them), with a cache key prefix of the run's own: a shared Redis database may hold an
earlier run's entries, whose match ids this run's fresh database uses again."""

from __future__ import annotations

import os

from skirmish.settings import *  # noqa: F403

if "default" in CACHES:  # noqa: F405
    CACHES["default"]["KEY_PREFIX"] = os.environ.get("BENCH_LOAD_CACHE_PREFIX", "bench-browser")  # noqa: F405
