"""The OpenAPI schema describes the API (issue 15): typed request bodies with examples, the
``{code, message}`` errors of every operation with their codes, lists as arrays, typed query
parameters."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

FREE_FORM = {"type": "object", "additionalProperties": {}}


@pytest.fixture(scope="module")
def openapi(django_db_blocker: Any) -> dict[str, Any]:
    with django_db_blocker.unblock():
        response = Client().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    return response.json()


def operations(openapi: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (method.upper(), path, operation)
        for path, item in openapi["paths"].items()
        for method, operation in item.items()
        if method in ("get", "post", "put", "patch", "delete")
    ]


def resolve(openapi: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    ref = schema.get("$ref")
    if ref is None:
        return schema
    return openapi["components"]["schemas"][ref.rsplit("/", 1)[1]]


def test_every_request_body_is_typed_and_has_an_example(openapi: dict[str, Any]) -> None:
    untyped, without_example = [], []
    for method, path, operation in operations(openapi):
        body = operation.get("requestBody")
        if body is None:
            continue
        media = body["content"]["application/json"]
        schema = resolve(openapi, media["schema"])
        if schema == FREE_FORM or not schema.get("properties"):
            untyped.append(f"{method} {path}")
        fields = set(schema.get("properties", {}))
        if "examples" not in media and len(fields) > 2:
            without_example.append(f"{method} {path}")
    assert untyped == []
    assert without_example == []


def test_every_operation_documents_its_errors_with_their_codes(openapi: dict[str, Any]) -> None:
    error = "#/components/schemas/Error"
    undocumented = []
    for method, path, operation in operations(openapi):
        errors = {
            status: response
            for status, response in operation["responses"].items()
            if status.startswith("4")
        }
        if "400" not in errors:
            undocumented.append(f"{method} {path}: no 400")
        for status, response in errors.items():
            schema = response["content"]["application/json"]["schema"]
            if schema.get("$ref") != error and status != "409":
                undocumented.append(f"{method} {path}: {status} is not an Error")
            if "`" not in response["description"]:
                undocumented.append(f"{method} {path}: {status} names no code")
    assert undocumented == []


def test_the_error_codes_of_an_operation_are_listed(openapi: dict[str, Any]) -> None:
    command = openapi["paths"]["/api/v1/matches/{match_id}/commands/"]["post"]["responses"]
    assert "`invalid_text`" in command["400"]["description"]
    assert "`invalid_args`" in command["400"]["description"]
    assert "`not_authenticated`" in command["401"]["description"]
    stale = resolve(openapi, command["409"]["content"]["application/json"]["schema"])
    assert resolve(openapi, stale["properties"]["code"])["enum"] == ["stale"]
    validate = openapi["paths"]["/api/v1/rosters/validate/"]["post"]["responses"]
    assert "`wrong_format`" in validate["400"]["description"]
    assert "`throttled`" in validate["429"]["description"]


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/matches/",
        "/api/v1/leagues/",
        "/api/v1/leagues/{key}/seasons/",
        "/api/v1/leagues/{key}/seasons/{season_id}/rounds/",
        "/api/v1/systems/{slug}/commands/",
        "/api/v1/rosters/",
    ],
)
def test_list_endpoints_are_arrays(openapi: dict[str, Any], path: str) -> None:
    ok = openapi["paths"][path]["get"]["responses"]["200"]
    assert ok["content"]["application/json"]["schema"]["type"] == "array"


def test_no_answer_is_a_free_form_object(openapi: dict[str, Any]) -> None:
    loose = [
        f"{method} {path} {status}"
        for method, path, operation in operations(openapi)
        for status, response in operation["responses"].items()
        if status.startswith("2")
        and "application/json" in response.get("content", {})
        and response["content"]["application/json"]["schema"] == FREE_FORM
    ]
    assert loose == []


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/matches/{match_id}/",
        "/api/v1/matches/{match_id}/events/",
        "/api/v1/matches/{match_id}/legal/",
    ],
)
def test_seat_is_an_integer_parameter(openapi: dict[str, Any], path: str) -> None:
    parameters = {p["name"]: p for p in openapi["paths"][path]["get"]["parameters"]}
    assert parameters["seat"]["schema"]["type"] == "integer"


def test_the_card_download_is_a_pdf(openapi: dict[str, Any]) -> None:
    download = openapi["paths"]["/api/v1/card-exports/{export_id}/download/"]["get"]
    assert "application/pdf" in download["responses"]["200"]["content"]
