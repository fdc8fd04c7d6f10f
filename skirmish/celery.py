"""The Celery app (cookiecutter-django style): configured from Django settings named CELERY_*.

Tasks take primary keys and call a service; they are idempotent and acknowledged late, so a worker
killed mid-task leaves the message to be retried rather than lost.
"""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "skirmish.settings")

app = Celery("skirmish")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
