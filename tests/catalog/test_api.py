"""/api/v1/systems/ and the API schema and docs."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db

FIVE_SLUGS = ["deathmatch", "grundregeln", "universalis", "stahlgewitter", "bunkers"]


def test_systems_lists_the_five_slugs_anonymously(api_client) -> None:
    response = api_client.get("/api/v1/systems/")
    assert response.status_code == 200
    assert [system["slug"] for system in response.json()] == FIVE_SLUGS


def test_system_entry_has_unit_dice_and_player_counts(api_client) -> None:
    deathmatch = api_client.get("/api/v1/systems/deathmatch/").json()
    assert deathmatch["name"] == "Deathmatch"
    assert deathmatch["unit"] == "inch"
    assert deathmatch["dice"] == "rng_deck"
    assert (deathmatch["min_players"], deathmatch["max_players"]) == (2, 4)
    assert [size["value"] for size in deathmatch["game_sizes"]] == [3, 5, 7]


def test_system_text_follows_the_request_language(api_client) -> None:
    english = api_client.get("/api/v1/systems/deathmatch/", HTTP_ACCEPT_LANGUAGE="en").json()
    german = api_client.get("/api/v1/systems/deathmatch/", HTTP_ACCEPT_LANGUAGE="de").json()
    assert english["tagline"] != german["tagline"]


def test_unknown_system_is_json_404(api_client) -> None:
    response = api_client.get("/api/v1/systems/chess/")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_writing_to_systems_is_refused_with_json(api_client) -> None:
    response = api_client.post("/api/v1/systems/", {}, format="json")
    assert response.status_code == 405
    assert response.json()["code"] == "method_not_allowed"


def test_openapi_schema_lists_the_stable_paths(api_client) -> None:
    response = api_client.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    paths = response.json()["paths"]
    assert "/api/v1/systems/" in paths
    assert "/api/v1/auth/token/" in paths


def test_api_docs_are_served_without_a_cdn(client) -> None:
    response = client.get("/api/docs/")
    html = response.content.decode()
    assert response.status_code == 200
    assert "swagger-ui" in html
    for cdn in ("cdn.jsdelivr", "unpkg.com", "cdnjs"):
        assert cdn not in html
