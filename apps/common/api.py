"""The API's error format: every error is JSON ``{"code", "message", ...}`` with a 4xx status.

DRF's own exceptions, Django's 404/403 and the rule systems' ``RuleViolation`` all pass through
``exception_handler`` so a client only ever has to understand one shape.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext as _
from rest_framework import exceptions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from apps.systems.core.errors import RuleViolation

F = TypeVar("F", bound=Callable[..., Any])


class ApiError(exceptions.APIException):
    """An error a service raises for the API with a stable code and a human message."""

    def __init__(self, code: str, message: str, status_code: int = 400, **extra: Any) -> None:
        super().__init__(detail=message, code=code)
        self.status_code = status_code
        self.error_code = code
        self.extra = extra


def error_payload(code: str, message: str, **extra: Any) -> dict[str, Any]:
    return {"code": code, "message": message, **extra}


def too_large_message() -> str:
    """Why a request body over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` was refused."""
    limit = filesizeformat(settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
    return _("The request is too large: at most %(limit)s are accepted.") % {"limit": limit}


def _first_message(detail: Any) -> str:
    """The first human-readable message in a (possibly nested) DRF error detail."""
    if isinstance(detail, dict):
        for field, value in detail.items():
            message = _first_message(value)
            return message if field in ("non_field_errors", "detail") else f"{field}: {message}"
    if isinstance(detail, list) and detail:
        return _first_message(detail[0])
    return str(detail)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, RuleViolation):
        # A rule's message is a catalogue msgid (gettext_noop); others pass through unchanged.
        return Response(error_payload(exc.code, _(exc.message)), status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, RequestDataTooBig):
        # Raised while DRF reads the body; left alone it would become Django's generic 400.
        return Response(
            error_payload("too_large", too_large_message()),
            status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
        )

    if isinstance(exc, DjangoValidationError):
        # A model's full_clean() in a service refusing what the request's shape let through
        # (a blank list, a duplicate): the client's input, so a 400 like any other.
        detail = exc.message_dict if hasattr(exc, "error_dict") else exc.messages
        exc = exceptions.ValidationError(detail)

    # DRF turns these into NotFound/PermissionDenied internally; do it here to reshape them too.
    if isinstance(exc, Http404):
        exc = exceptions.NotFound(str(exc) or None)
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or None)

    response = drf_exception_handler(exc, context)
    if response is None:
        # Not an API error: let Django's 500 handler answer (also as JSON under /api/).
        return None

    if isinstance(exc, ApiError):
        response.data = error_payload(exc.error_code, str(exc.detail), **exc.extra)
    elif isinstance(exc, exceptions.ValidationError):
        response.data = error_payload("invalid", _first_message(exc.detail), errors=exc.detail)
    elif isinstance(exc, exceptions.APIException):
        codes = exc.get_codes()
        code = codes if isinstance(codes, str) else "error"
        response.data = error_payload(code, _first_message(exc.detail))
    return response


# --- The error format in the OpenAPI schema ---------------------------------------------------


class ProblemSerializer(serializers.Serializer):
    """Why a roster document cannot be read, and where in it."""

    code = serializers.CharField()
    path = serializers.CharField(help_text='Where in the document, e.g. "entries[2].items[0]".')
    message = serializers.CharField()


class ErrorSerializer(serializers.Serializer):
    """Every error of the API: a stable ``code`` to branch on and a ``message`` for people;
    some errors add fields of their own (listed with the operation)."""

    code = serializers.CharField(help_text="Stable and machine-readable; see the operation.")
    message = serializers.CharField(help_text="For people, in the request's language.")
    where = serializers.CharField(
        required=False, help_text="invalid_text: where the character is (a field, a parameter)."
    )
    errors = serializers.JSONField(
        required=False, help_text="invalid: the refused fields with their messages."
    )
    problems = ProblemSerializer(
        many=True, required=False, help_text="A roster document that cannot be read: every problem."
    )


def api_errors(codes: dict[int, Sequence[str]]) -> Callable[[F], F]:
    """Document the error codes an operation answers, by status, besides those every
    operation of its kind may answer (``apps.common.schema`` adds those: ``invalid_text``,
    ``parse_error``, ``not_authenticated``, ``not_found``, ``throttled``, ...)."""

    def decorate(method: F) -> F:
        method.api_error_codes = {status: tuple(names) for status, names in codes.items()}  # type: ignore[attr-defined]
        return method

    return decorate


_INTEGER = re.compile(r"-?[0-9]{1,18}")


def query_integer(request: Request, name: str, *, minimum: int | None = None) -> int | None:
    """The query parameter ``name`` as a whole number, ``None`` when it is absent; anything
    else (text, "", "٣", a number below ``minimum``) is a 400 ``invalid`` naming it."""
    value = request.query_params.get(name)
    if value is None:
        return None
    if _INTEGER.fullmatch(value) is None or (minimum is not None and int(value) < minimum):
        if minimum is None:
            message = _("%(name)s: must be a whole number.") % {"name": name}
        else:
            message = _("%(name)s: must be a whole number from %(minimum)d.") % {
                "name": name,
                "minimum": minimum,
            }
        raise ApiError("invalid", message)
    return int(value)
