"""Error views: friendly pages for people, ``{"code", "message"}`` JSON for API clients."""

from __future__ import annotations

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template import loader
from django.utils.translation import gettext as _

from apps.common.api import error_payload, too_large_message


def _wants_json(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def _error(
    request: HttpRequest, *, status: int, code: str, title: str, message: str
) -> HttpResponse:
    if _wants_json(request):
        return JsonResponse(error_payload(code, message), status=status)
    context = {"status": status, "title": title, "message": message}
    return render(request, "errors/error.html", context, status=status)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if isinstance(exception, RequestDataTooBig):
        return _error(
            request,
            status=413,
            code="too_large",
            title=_("Too large"),
            message=too_large_message(),
        )
    return _error(
        request,
        status=400,
        code="bad_request",
        title=_("Bad request"),
        message=_("The request could not be understood."),
    )


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _error(
        request,
        status=403,
        code="permission_denied",
        title=_("Not allowed"),
        message=_("You do not have permission to see this page."),
    )


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _error(
        request,
        status=404,
        code="not_found",
        title=_("Page not found"),
        message=_("There is nothing at this address. It may have moved, or the link is wrong."),
    )


def server_error(request: HttpRequest) -> HttpResponse:
    if _wants_json(request):
        return JsonResponse(
            error_payload("server_error", "Something went wrong on our side."), status=500
        )
    # A bare render: the error may come from the database or a context processor.
    return HttpResponse(loader.get_template("errors/500.html").render(), status=500)
