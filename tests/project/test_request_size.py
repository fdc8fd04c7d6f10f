"""Request bodies over the cap are refused before they are read: nothing reaches the disk.

Issue 15: a 50 MB multipart upload to the roster import page was written to a temporary file
before the import form's 256 KB check refused it (Django's DATA_UPLOAD_MAX_MEMORY_SIZE does not
count files). ``RequestSizeLimitMiddleware`` answers 413 from the declared Content-Length.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.files.uploadhandler import TemporaryFileUploadHandler
from django.http.multipartparser import MultiPartParser
from django.test import Client

pytestmark = pytest.mark.django_db

OVER_THE_CAP = settings.REQUEST_MAX_BODY_SIZE + 1024


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Records every attempt to parse a multipart body or to spool an upload to disk."""
    seen: list[str] = []
    parse = MultiPartParser.parse
    new_file = TemporaryFileUploadHandler.new_file

    def recording_parse(self: MultiPartParser) -> Any:
        seen.append("parse")
        return parse(self)

    def recording_new_file(self: TemporaryFileUploadHandler, *args: Any, **kwargs: Any) -> Any:
        seen.append("temporary file")
        return new_file(self, *args, **kwargs)

    monkeypatch.setattr(MultiPartParser, "parse", recording_parse)
    monkeypatch.setattr(TemporaryFileUploadHandler, "new_file", recording_new_file)
    return seen


def _big_upload() -> dict[str, Any]:
    """The import form with a file over the cap (the test client encodes it as multipart)."""
    document = SimpleUploadedFile(
        "roster.json", b"{" + b" " * OVER_THE_CAP + b"}", content_type="application/json"
    )
    return {"file": document}


def test_a_big_upload_is_refused_before_it_is_parsed_or_stored(
    client: Client, user: Any, reads: list[str]
) -> None:
    client.force_login(user)
    response = client.post(
        "/rosters/import/", data=_big_upload(), headers={"accept-language": "en"}
    )
    assert response.status_code == 413
    assert reads == []
    assert "text/html" in response["Content-Type"]
    assert "at most 2.0" in response.content.decode()


def test_the_refusal_speaks_the_readers_language(client: Client, user: Any) -> None:
    client.force_login(user)
    response = client.post(
        "/rosters/import/",
        data=_big_upload(),
        headers={"accept-language": "de"},
    )
    assert response.status_code == 413
    assert '<html lang="de">' in response.content.decode()


def test_an_api_body_over_the_cap_is_413_too_large_json(api_client: Any, reads: list[str]) -> None:
    body = json.dumps({"format": "skirmish-roster/1", "name": "x" * OVER_THE_CAP})
    response = api_client.post(
        "/api/v1/rosters/validate/", data=body, content_type="application/json"
    )
    assert response.status_code == 413
    assert response.json()["code"] == "too_large"
    assert "at most" in response.json()["message"]
    assert reads == []


def test_a_body_under_the_cap_is_read_as_before(api_client: Any) -> None:
    response = api_client.post("/api/v1/rosters/validate/", data={"format": "nope"}, format="json")
    assert response.status_code != 413


def test_a_body_without_a_length_is_not_refused(client: Client) -> None:
    # Django reads no body without a Content-Length (a chunked request), so there is nothing
    # to cap; a malformed length counts as none.
    response = client.get("/", CONTENT_LENGTH="not-a-number")
    assert response.status_code == 200


def test_uploads_never_go_to_temporary_files() -> None:
    assert settings.FILE_UPLOAD_HANDLERS == [
        "django.core.files.uploadhandler.MemoryFileUploadHandler"
    ]
    assert settings.FILE_UPLOAD_MAX_MEMORY_SIZE >= settings.REQUEST_MAX_BODY_SIZE
