"""Request bodies over the cap are refused before anything reads them: ``413 too_large``.

Django's ``DATA_UPLOAD_MAX_MEMORY_SIZE`` counts form fields but not uploaded files, and a file
over ``FILE_UPLOAD_MAX_MEMORY_SIZE`` is streamed to a temporary file while the form is parsed:
a 50 MB upload reached the disk before the view could refuse it. ``RequestSizeLimitMiddleware``
looks at the declared ``Content-Length`` first and answers 413 without reading a byte of the
body: ``{"code": "too_large", "message"}`` under ``/api/``, the error page elsewhere.

A body without a ``Content-Length`` (chunked) is never read by Django, so the declared length
is the whole story. It must come before every middleware that reads the body (CSRF, the text
check); the proxy in front caps bodies as well (``client_max_body_size``).
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse
from django.utils import translation

from apps.common.errors import bad_request


def declared_length(request: HttpRequest) -> int:
    """The body length the client declared; 0 when it declared none (or nonsense, which
    Django reads as no body at all)."""
    try:
        return max(int(request.META.get("CONTENT_LENGTH") or 0), 0)
    except ValueError:
        return 0


class RequestSizeLimitMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if declared_length(request) > settings.REQUEST_MAX_BODY_SIZE:
            # Before LocaleMiddleware: the refusal speaks the language the request asks for.
            with translation.override(translation.get_language_from_request(request)):
                return bad_request(request, RequestDataTooBig())
        return self.get_response(request)
