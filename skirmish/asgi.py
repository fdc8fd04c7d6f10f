"""ASGI entry point, for servers that follow matches with server-sent events."""

from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "skirmish.settings")
application = get_asgi_application()
