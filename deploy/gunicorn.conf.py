"""gunicorn's settings for the web container: ``gunicorn -c deploy/gunicorn.conf.py skirmish.wsgi``.

Sync workers serve one request at a time each: simple, and right for Django's ORM, but a client
that sends its headers slowly holds a worker for as long as it likes. So gunicorn is never
published to the network: nginx (deploy/nginx) reads every request completely and buffers every
response before gunicorn sees either, and only nginx's port is published (docker-compose.yml).

Every value can be set from the environment (the README's configuration table).
"""

from __future__ import annotations

import gc
import os


def _integer(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    try:
        return int(value)
    except ValueError:
        raise SystemExit(f"{name} must be a whole number (got {value!r})") from None


bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
worker_class = "sync"
# WEB_CONCURRENCY is the name Heroku and others use for the same thing. Five for the two cores
# of a small server (gunicorn's 2 x cores + 1): a tap holds a worker for 30-50 ms, and with
# three, 100 tables x 4 devices queued behind the taps (p95 134 ms at 1.1 cores busy, issue 16,
# `make bench-load`); with five the same load held p95 58 ms.
workers = _integer("GUNICORN_WORKERS", _integer("WEB_CONCURRENCY", 5))

# A request still running after this long is killed and logged. Pages answer in well under a
# second; the slow work (card PDFs) runs in Celery, and every broker call is bounded (settings).
timeout = _integer("GUNICORN_TIMEOUT", 30)
# On a restart (SIGTERM, a new deployment) requests in flight get this long to finish.
graceful_timeout = _integer("GUNICORN_GRACEFUL_TIMEOUT", 30)
keepalive = 2

# Each worker is replaced after about this many requests, so that a slow leak (a growing cache,
# fragmentation) cannot grow forever. Under load (issue 16: 200 tables, ~440 requests a second)
# 1,000 meant a restart every few seconds. The jitter spreads the restarts: the workers start
# together and share the requests evenly, so with a jitter of 10% all five were replaced within
# a few seconds of each other and, while the new ones opened their connections, a club night's
# answers took up to a second (bench-load's p95 by ten seconds). Half of max_requests spreads
# them over the time the workers take to serve 2,500 more requests each.
max_requests = _integer("GUNICORN_MAX_REQUESTS", 5000)
max_requests_jitter = _integer("GUNICORN_MAX_REQUESTS_JITTER", max_requests // 2)

# Load Django once in the master and fork the workers from it. Without it every worker (and
# every replacement after max_requests) imported and set up Django itself: 1.25 s of CPU on the
# 2-core machine of issue 16, about 1.2 ms per request at max_requests = 1000 -- half of what a
# cheap poll cost through gunicorn. The price: a HUP reloads the configuration, not the code (a
# deployment starts new containers anyway). GUNICORN_PRELOAD=false restores the old way.
preload_app = os.environ.get("GUNICORN_PRELOAD", "true").strip().lower() not in ("0", "false", "no")

# nginx caps request lines and headers too; these are gunicorn's own limits behind it.
limit_request_line = 8190
limit_request_fields = 100
limit_request_field_size = 8190

# The workers' heartbeat files: on a container's overlay file system a write to /tmp can stall
# long enough for the arbiter to think a healthy worker hung.
if os.path.isdir("/dev/shm"):
    worker_tmp_dir = "/dev/shm"

# nginx logs every request in front of gunicorn; GUNICORN_ACCESS_LOG=off drops gunicorn's second
# copy of those lines (a formatted write per request, measurable on a cheap poll).
accesslog = None if os.environ.get("GUNICORN_ACCESS_LOG", "-").strip() in ("", "off") else "-"
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")


def _warm() -> None:
    """Import the URLconf, and with it every view, then load what the first requests would
    (apps.common.warmup: the rule systems, the compiled templates, the catalogues of every
    language, the URL tables): otherwise every new worker, also each one that replaces a worker
    after ``max_requests``, pays for it on its first requests, most of a second of CPU."""
    from django.urls import get_resolver

    from apps.common.warmup import warm_process

    get_resolver().url_patterns  # noqa: B018 - the lookup is what imports them
    warm_process()


def when_ready(server: object) -> None:
    """With preload_app the master has Django set up: warm it there, once, so that every
    worker forked from it starts warm."""
    if preload_app:
        _warm()
        # What the master loaded is never garbage: keep the collector of every worker from
        # walking (and so copying, page by page) the memory they share with it.
        gc.collect()
        gc.freeze()


def pre_fork(server: object, worker: object) -> None:
    """No connection the master may have opened (a database or Redis socket) may be shared by
    the workers forked from it: each would read the others' answers."""
    if preload_app:
        from django.core.cache import caches
        from django.db import connections

        connections.close_all()
        caches.close_all()


def post_worker_init(worker: object) -> None:
    """Without preload_app, each worker warms itself before it takes its first request (with
    preload_app it was forked warm)."""
    if not preload_app:
        _warm()
