"""The OpenAPI schema's error responses: every operation documents the ``{"code", "message"}``
errors it may answer, by status, with their codes and an example.

An operation names its own codes with ``apps.common.api.api_errors``; the codes every operation
of its kind may answer are added here from what the view is (a body to parse, a login to need,
an id in the path, a rate limit), so that no operation forgets them:

- 400 ``invalid_text`` (every input; ``apps.common.text_input``), ``parse_error`` (a body);
- 401 ``authentication_failed`` (a wrong token), ``not_authenticated`` (a login needed);
- 403 ``permission_denied`` (a change through a session without its CSRF token);
- 404 ``not_found`` (an id or key in the path); 413 ``too_large``, 415
  ``unsupported_media_type`` (a body); 429 ``throttled`` (a rate limit).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiExample, OpenApiResponse
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import IsAuthenticated

from apps.common.api import ErrorSerializer

# Example messages for the codes the schema adds; an operation's own codes get a generic one.
MESSAGES = {
    "invalid_text": "The request contains a character that cannot be stored: a NUL character "
    "or an unpaired surrogate. Remove it and try again.",
    "parse_error": "JSON parse error - Expecting value: line 1 column 1 (char 0)",
    "invalid": "name: This field is required.",
    "authentication_failed": "Invalid token.",
    "not_authenticated": "Authentication credentials were not provided.",
    "permission_denied": "You do not have permission to perform this action.",
    "not_found": "Not found.",
    "too_large": "The request is too large: at most 2.0 MB are accepted.",
    "unsupported_media_type": 'Unsupported media type "text/plain" in request.',
    "throttled": "Request was throttled. Expected available in 42 seconds.",
}
DESCRIPTIONS = {
    400: "Bad input",
    401: "No valid credentials",
    403: "Not allowed",
    404: "Not found (or not visible to you)",
    409: "The state has moved on",
    413: "Body too large",
    415: "Not JSON",
    429: "Too many requests",
    503: "A service is unavailable",
}


class ApiAutoSchema(AutoSchema):
    """drf-spectacular's schema with the API's error responses added to every operation."""

    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        responses: dict[str, Any] = super()._get_response_bodies(direction)
        for status, codes in sorted(self.error_codes().items()):
            key = str(status)
            if key in responses:
                continue  # the operation documents this status with its own body (409 stale)
            response = OpenApiResponse(
                ErrorSerializer,
                description=_description(status, codes),
                examples=[_example(status, codes[0])],
            )
            responses[key] = self._get_response_for_code(response, key, direction=direction)
        return dict(sorted(responses.items()))

    def error_codes(self) -> dict[int, list[str]]:
        """The error codes of this operation by status: its own and those of its kind."""
        codes: dict[int, list[str]] = defaultdict(list)
        handler = getattr(self.view, self.method.lower(), None)
        for status, names in getattr(handler, "api_error_codes", {}).items():
            codes[status].extend(names)
        for status, name in self._kind_codes():
            if name not in codes[status]:
                codes[status].append(name)
        return dict(codes)

    def _kind_codes(self) -> list[tuple[int, str]]:
        kind = [(400, "invalid_text")]
        has_body = self.method in ("POST", "PUT", "PATCH") and self.get_request_serializer()
        if has_body:
            kind += [(400, "parse_error"), (413, "too_large"), (415, "unsupported_media_type")]
        authenticators = self.view.get_authenticators()
        if authenticators:
            kind.append((401, "authentication_failed"))
        if any(isinstance(p, IsAuthenticated) for p in self.view.get_permissions()):
            kind.append((401, "not_authenticated"))
        unsafe = self.method not in ("GET", "HEAD", "OPTIONS")
        if unsafe and any(isinstance(a, SessionAuthentication) for a in authenticators):
            kind.append((403, "permission_denied"))
        if "{" in self.path:
            kind.append((404, "not_found"))
        if self.view.get_throttles():
            kind.append((429, "throttled"))
        return kind


def _description(status: int, codes: list[str]) -> str:
    listed = ", ".join(f"`{code}`" for code in codes)
    return f"{DESCRIPTIONS.get(status, 'Error')}: `{{code, message}}` with code {listed}."


def _example(status: int, code: str) -> OpenApiExample:
    message = MESSAGES.get(code, f"Why the request was refused ({code}).")
    return OpenApiExample(
        code, value={"code": code, "message": message}, status_codes=[str(status)]
    )
