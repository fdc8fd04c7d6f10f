"""Template context every page needs."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from apps.systems.core.registry import registry


def site(request: HttpRequest) -> dict[str, Any]:
    return {"rule_systems": registry().all()}
