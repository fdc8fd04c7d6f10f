"""POST /api/v1/auth/token/: token authentication and its errors."""

from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token

from tests.accounts.factories import PASSWORD

pytestmark = pytest.mark.django_db
URL = "/api/v1/auth/token/"


def test_token_for_right_credentials(api_client, user) -> None:
    credentials = {"username": user.username, "password": PASSWORD}
    response = api_client.post(URL, credentials, format="json")
    assert response.status_code == 200
    assert response.json() == {"token": Token.objects.get(user=user).key}


def test_same_token_twice(api_client, user) -> None:
    first = api_client.post(URL, {"username": user.username, "password": PASSWORD}, format="json")
    second = api_client.post(URL, {"username": user.username, "password": PASSWORD}, format="json")
    assert first.json() == second.json()


def test_token_authenticates_api_requests(api_client, user) -> None:
    token = api_client.post(
        URL, {"username": user.username, "password": PASSWORD}, format="json"
    ).json()["token"]
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert api_client.get("/api/v1/systems/").status_code == 200


def test_wrong_password_is_a_400_with_code_and_message(api_client, user) -> None:
    response = api_client.post(URL, {"username": user.username, "password": "x"}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid"
    assert "credentials" in body["message"].lower()


def test_missing_fields_name_the_field(api_client) -> None:
    response = api_client.post(URL, {"username": "someone"}, format="json")
    assert response.status_code == 400
    assert response.json()["message"].startswith("password:")


def test_broken_json_is_a_parse_error(api_client) -> None:
    response = api_client.post(URL, data="{not json", content_type="application/json")
    assert response.status_code == 400
    assert response.json()["code"] == "parse_error"


def test_form_encoded_body_is_refused(api_client) -> None:
    response = api_client.post(URL, {"username": "a", "password": "b"})
    assert response.status_code == 415
    assert response.json()["code"] == "unsupported_media_type"


def test_get_is_method_not_allowed_as_json(api_client) -> None:
    response = api_client.get(URL)
    assert response.status_code == 405
    assert response.json()["code"] == "method_not_allowed"


def test_bad_token_is_401_json(api_client) -> None:
    api_client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    response = api_client.get("/api/v1/systems/")
    assert response.status_code == 401
    assert response.json()["code"] == "authentication_failed"
