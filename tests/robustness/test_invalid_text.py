"""A NUL character or a lone surrogate in any text is a 400 ``invalid_text``, never a 500 and
never a half-save: in JSON bodies (also as an object key), query strings, paths, headers,
cookies, form fields and a roster document pasted into or uploaded on the import page.

PostgreSQL refuses NUL in ``text`` and ``jsonb``; neither database driver (nor the JSON
renderer) can encode a lone surrogate. One middleware refuses both before any view runs
(``apps.common.text_input``), so these tests hold on SQLite and on PostgreSQL alike.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from rest_framework.test import APIClient

from apps.common.text_input import bad_text, json_bad_text
from apps.leagues.models import League
from apps.matches.models import Match
from apps.rosters.models import Roster
from tests.matches.factories import roster_for, small_match, small_team
from tests.robustness.test_match_commands import _to_round_one

pytestmark = pytest.mark.django_db

NUL = "\x00"
SURROGATE = "\ud800"
BAD = pytest.mark.parametrize("bad", [NUL, SURROGATE], ids=["nul", "surrogate"])


@pytest.fixture
def api(deathmatch: Any, user: Any) -> APIClient:
    client = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    client.force_authenticate(user)
    return client


@pytest.fixture
def browser(deathmatch: Any, user: Any) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    return client


def post_json(client: Any, url: str, document: Any, method: str = "post") -> Any:
    # json.dumps escapes both as \u0000 and \ud800, as any JSON client sends them.
    return getattr(client, method)(url, json.dumps(document), content_type="application/json")


def assert_invalid_text(response: Any, where: str | None = None) -> None:
    assert response.status_code == 400, response.content[:300]
    body = response.json()
    assert body["code"] == "invalid_text"
    assert "NUL" in body["message"]
    if where is not None:
        assert body["where"] == where


@pytest.mark.parametrize(
    "value",
    ["a\x00b", "\ud800", "x\udfff", "\udc00y"],
)
def test_bad_text_is_nul_or_a_lone_surrogate(value: str) -> None:
    assert bad_text(value)


@pytest.mark.parametrize("value", ["", "Team Vortex", "Schildträger 🛡", "\ufffd", "\t\n"])
def test_good_text_passes(value: str) -> None:
    assert not bad_text(value)


def test_json_bad_text_names_where_it_is() -> None:
    document = {"name": "ok", "entries": [{"profile": "a"}, {"name": "x\x00"}]}
    assert json_bad_text(document) == "entries[1].name"
    assert json_bad_text({"ok": [1, 2.5, None, True, {"a": "b"}]}) is None


@BAD
def test_roster_name_through_the_api_is_refused_and_nothing_saved(api: APIClient, bad: str):
    for url in ("/api/v1/rosters/", "/api/v1/rosters/import/"):
        assert_invalid_text(post_json(api, url, small_team(name=f"Team{bad}")), "name")
    assert not Roster.objects.exists()


@BAD
def test_fighter_nickname_through_the_api_is_refused(api: APIClient, bad: str) -> None:
    document = small_team()
    document["entries"][1]["name"] = f"Kael{bad}"
    assert_invalid_text(post_json(api, "/api/v1/rosters/", document), "entries[1].name")
    assert not Roster.objects.exists()


@BAD
def test_renaming_a_roster_through_the_api_changes_nothing(api: APIClient, user: Any, bad: str):
    roster = roster_for(user)
    url = f"/api/v1/rosters/{roster.pk}/"
    assert_invalid_text(post_json(api, url, {"name": f"x{bad}"}, method="patch"))
    assert_invalid_text(post_json(api, url, small_team(name=f"x{bad}"), method="put"))
    roster.refresh_from_db()
    assert roster.name == small_team()["name"]


@BAD
def test_validate_refuses_it_without_login(deathmatch: Any, bad: str) -> None:
    anonymous = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    assert_invalid_text(post_json(anonymous, "/api/v1/rosters/validate/", small_team(name=bad)))


@BAD
def test_an_object_key_with_it_is_refused(api: APIClient, bad: str) -> None:
    document = {**small_team(), f"note{bad}": 1}
    assert_invalid_text(post_json(api, "/api/v1/rosters/validate/", document))


@BAD
@pytest.mark.parametrize(
    ("command", "args"),
    [("flip", {"player": 0, "label": "Tür{bad}"}), ("adjust_vp", {"player": 0, "points": 1})],
)
def test_command_labels_and_notes_are_refused_and_the_log_unchanged(
    api: APIClient, user: Any, deathmatch: Any, bad: str, command: str, args: dict[str, Any]
) -> None:
    match = small_match(user, deathmatch)
    _to_round_one("deathmatch", match, user, user)
    match.refresh_from_db()
    seq = match.seq
    args = {k: v.format(bad=bad) if isinstance(v, str) else v for k, v in args.items()}
    if command == "adjust_vp":
        args["note"] = f"penalty{bad}"
    body = {"type": command, "args": args, "expected_seq": seq}
    response = post_json(api, f"/api/v1/matches/{match.pk}/commands/", body)
    assert_invalid_text(response)
    match.refresh_from_db()
    assert match.seq == seq


@BAD
def test_opening_a_match_with_a_bad_player_name_is_refused(api: APIClient, user: Any, bad: str):
    rosters = [roster_for(user), roster_for(user, small_team("shelzahav"))]
    body = {
        "system": "deathmatch",
        "mission": "last-man-standing",
        "players": [{"name": f"A{bad}", "roster": rosters[0].pk}, {"roster": rosters[1].pk}],
        "settings": {"game_size": 3},
    }
    assert_invalid_text(post_json(api, "/api/v1/matches/", body), "players[0].name")
    assert not Match.objects.exists()


@BAD
def test_league_texts_are_refused(api: APIClient, bad: str) -> None:
    body = {"system": "deathmatch", "name": f"Liga{bad}", "visibility": "public"}
    assert_invalid_text(post_json(api, "/api/v1/leagues/", body), "name")
    assert not League.objects.exists()


@pytest.mark.parametrize(
    "url",
    [
        "/api/v1/systems/deathmatch/profiles/?faction=%00",
        "/api/v1/rosters/1/?share=%00",
        "/api/v1/matches/1/?spectate=a%00b",
        "/api/v1/leagues/?x%00=1",
        "/api/v1/leagues/%00/",
        "/api/v1/leagues/a%00b/seasons/",
    ],
)
def test_query_strings_and_paths_with_nul_are_refused(api: APIClient, url: str) -> None:
    assert_invalid_text(api.get(url))


def test_an_authorization_header_with_nul_is_refused(deathmatch: Any) -> None:
    client = APIClient(HTTP_ACCEPT_LANGUAGE="en", HTTP_AUTHORIZATION="Token abc\x00def")
    assert_invalid_text(client.get("/api/v1/rosters/"), "header: Authorization")


def test_a_session_cookie_with_nul_is_refused(deathmatch: Any) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.cookies["sessionid"] = "abcdefgh\x00ijkl"
    response = client.get("/rosters/")
    assert response.status_code == 400
    assert b"cannot be stored" in response.content


@pytest.mark.parametrize("url", ["/leagues/%00/", "/rosters/shared/a%00/", "/matches/watch/%00/"])
def test_pages_with_nul_in_the_path_answer_the_error_page(browser: Client, url: str) -> None:
    response = browser.get(url)
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")
    assert b"cannot be stored" in response.content


def test_the_error_page_speaks_the_browsers_language(browser: Client) -> None:
    response = browser.get("/leagues/%00/", HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 400
    assert 'lang="de"' in response.content.decode()


@BAD
def test_the_import_page_refuses_a_pasted_document_with_it(browser: Client, bad: str) -> None:
    text = json.dumps(small_team(name=f"Team{bad}"))
    response = browser.post("/rosters/import/", {"text": text})
    assert response.status_code == 400
    assert b"cannot be stored" in response.content
    assert not Roster.objects.exists()


@BAD
def test_the_import_page_refuses_an_uploaded_document_with_it(browser: Client, bad: str):
    document = small_team()
    document["entries"][0]["name"] = f"Hauptmann{bad}"
    upload = SimpleUploadedFile(
        "team.json", json.dumps(document).encode(), content_type="application/json"
    )
    response = browser.post("/rosters/import/", {"file": upload})
    assert response.status_code == 400
    assert not Roster.objects.exists()


def test_a_form_field_with_nul_is_refused(browser: Client) -> None:
    response = browser.post("/rosters/new/deathmatch/", {"name": "Team\x00", "game_size": "3"})
    assert response.status_code == 400
    assert not Roster.objects.exists()


def test_the_tracker_form_refuses_a_label_with_nul(browser: Client, user: Any, deathmatch: Any):
    match = small_match(user, deathmatch)
    _to_round_one("deathmatch", match, user, user)
    match.refresh_from_db()
    seq = match.seq
    response = browser.post(
        f"/matches/{match.pk}/command/",
        {"command": "flip", "player": "0", "label": "Tür\x00", "expected_seq": str(seq)},
    )
    assert response.status_code == 400
    match.refresh_from_db()
    assert match.seq == seq


def test_a_binary_upload_is_left_to_the_view(browser: Client) -> None:
    upload = SimpleUploadedFile("team.json", b"\xff\xfe\x00\x00", content_type="application/json")
    response = browser.post("/rosters/import/", {"file": upload})
    assert response.status_code != 400 or b"cannot be stored" not in response.content
    assert response.status_code < 500


def test_good_text_still_goes_through(api: APIClient) -> None:
    response = post_json(api, "/api/v1/rosters/", small_team(name="Team Ü 🛡 \ufffd"))
    assert response.status_code == 201, response.content[:300]


def test_a_multipart_body_to_the_api_is_still_an_unsupported_media_type(api: APIClient) -> None:
    response = api.post("/api/v1/rosters/", {"name": "Team"}, format="multipart")
    assert response.status_code == 415
    assert response.json()["code"] == "unsupported_media_type"
