"""gunicorn's settings for the web container: ``gunicorn -c deploy/gunicorn.conf.py skirmish.wsgi``.

Sync workers serve one request at a time each: simple, and right for Django's ORM, but a client
that sends its headers slowly holds a worker for as long as it likes. So gunicorn is never
published to the network: nginx (deploy/nginx) reads every request completely and buffers every
response before gunicorn sees either, and only nginx's port is published (docker-compose.yml).

Every value can be set from the environment (the README's configuration table).
"""

from __future__ import annotations

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
# WEB_CONCURRENCY is the name Heroku and others use for the same thing.
workers = _integer("GUNICORN_WORKERS", _integer("WEB_CONCURRENCY", 3))

# A request still running after this long is killed and logged. Pages answer in well under a
# second; the slow work (card PDFs) runs in Celery, and every broker call is bounded (settings).
timeout = _integer("GUNICORN_TIMEOUT", 30)
# On a restart (SIGTERM, a new deployment) requests in flight get this long to finish.
graceful_timeout = _integer("GUNICORN_GRACEFUL_TIMEOUT", 30)
keepalive = 2

# Each worker is replaced after about this many requests, so that a slow leak (a growing cache,
# fragmentation) cannot grow forever; the jitter keeps the workers from restarting together.
max_requests = _integer("GUNICORN_MAX_REQUESTS", 1000)
max_requests_jitter = _integer("GUNICORN_MAX_REQUESTS_JITTER", 100)

# nginx caps request lines and headers too; these are gunicorn's own limits behind it.
limit_request_line = 8190
limit_request_fields = 100
limit_request_field_size = 8190

# The workers' heartbeat files: on a container's overlay file system a write to /tmp can stall
# long enough for the arbiter to think a healthy worker hung.
if os.path.isdir("/dev/shm"):
    worker_tmp_dir = "/dev/shm"

accesslog = "-"
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")


def post_worker_init(worker: object) -> None:
    """Import the URLconf, and with it every view, before the worker takes its first request:
    otherwise the first request of every new worker (also after ``max_requests``) pays for
    those imports, seconds on a small machine."""
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 - the lookup is what imports them
