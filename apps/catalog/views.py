"""Pages about the rule systems."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.views.decorators.http import require_GET

from apps.catalog.selectors import system_get, system_reference_html


@require_GET
def system_reference(request: HttpRequest, slug: str) -> HttpResponse:
    system = system_get(slug)
    language = (get_language() or "en").split("-")[0]
    reference = mark_safe(system_reference_html(system.slug, language))  # noqa: S308 - shipped text
    return render(
        request, "catalog/system_reference.html", {"system": system, "reference": reference}
    )
