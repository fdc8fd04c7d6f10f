"""Roster documents with something wrong anywhere: a legal document of each system with one
value (at any depth) replaced by any JSON, sent to validate, import, PUT and the import page.
The answer is a 2xx or a 4xx ``{"code", "message"}``; a refused import saves nothing and a
refused PUT leaves the roster as it was."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from apps.rosters import services as roster_services
from apps.rosters.documents import roster_document
from apps.rosters.models import Roster
from tests.matches.factories import small_team
from tests.matches.grundregeln import team_document
from tests.matches.test_universalis import group

pytestmark = pytest.mark.django_db

FUZZ = settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
JSON = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(10**20), 10**20),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(max_size=130),
        st.sampled_from(["", "skirmish-roster/1", "deathmatch", "phalanx", "bunkers", "0"]),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=10), inner, max_size=3)
    ),
    max_leaves=8,
)
DOCUMENTS = {
    "deathmatch": lambda: small_team("phalanx"),
    "grundregeln": lambda: team_document("eisenfaust"),
    "universalis": lambda: group("eisenwacht"),
}


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a document a value can be replaced (the root included)."""
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*prefix, index))
    return found


def _replaced(document: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    changed = copy.deepcopy(document)
    node = changed
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    return changed


@st.composite
def broken_documents(draw: st.DrawFn, document: dict[str, Any]) -> Any:
    paths = _paths(document) + [("settings", "extra"), ("entries", 0, "extra"), ("extra",)]
    path = draw(st.sampled_from(paths))
    try:
        return _replaced(document, path, draw(JSON))
    except (IndexError, KeyError, TypeError):
        return draw(JSON)


def _assert_error(response: Any) -> None:
    assert 400 <= response.status_code < 500, response.content[:300]
    body = response.json()
    assert isinstance(body["code"], str) and body["code"]
    assert isinstance(body["message"], str) and body["message"]


@pytest.mark.parametrize("system", sorted(DOCUMENTS))
def test_broken_documents_are_refused_cleanly_everywhere(deathmatch, user, system) -> None:
    legal = DOCUMENTS[system]()
    owner = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    owner.force_authenticate(user)
    anonymous = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    kept = roster_services.roster_import(owner=user, document=legal)
    browser = Client(HTTP_ACCEPT_LANGUAGE="en")
    browser.force_login(user)

    @FUZZ
    @given(document=broken_documents(legal))
    def check(document: Any) -> None:
        cache.clear()  # anonymous validation is rate-limited; this is one caller's burst
        validated = anonymous.post("/api/v1/rosters/validate/", document, format="json")
        if validated.status_code != 200:
            _assert_error(validated)

        count = Roster.objects.count()
        imported = owner.post("/api/v1/rosters/import/", document, format="json")
        if imported.status_code == 201:
            Roster.objects.filter(pk=imported.json()["id"]).delete()
        else:
            _assert_error(imported)
            assert Roster.objects.count() == count

        saved = roster_document(Roster.objects.get(pk=kept.pk))
        replaced = owner.put(f"/api/v1/rosters/{kept.pk}/", document, format="json")
        if replaced.status_code == 200:
            roster_services.roster_replace(owner=user, roster_id=kept.pk, document=legal)
        else:
            _assert_error(replaced)
            assert roster_document(Roster.objects.get(pk=kept.pk)) == saved

        page = browser.post(reverse("rosters:import"), {"text": json.dumps(document)})
        assert page.status_code in (200, 302, 400), page.status_code
        if page.status_code == 302:
            Roster.objects.exclude(pk=kept.pk).delete()
        assert Roster.objects.count() == count

    check()


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("big.json", b" " * (256 * 1024 + 1)),
        ("latin1.json", '{"name": "Mönch"}'.encode("latin-1")),
        ("binary.json", bytes(range(256))),
        ("empty.json", b""),
        ("list.json", b"[]"),
        ("deep.json", b"[" * 100_000),
    ],
)
def test_uploaded_files_that_are_no_roster_are_explained(deathmatch, user, name, content) -> None:
    browser = Client(HTTP_ACCEPT_LANGUAGE="en")
    browser.force_login(user)
    upload = SimpleUploadedFile(name, content, content_type="application/json")
    response = browser.post(reverse("rosters:import"), {"file": upload})
    assert response.status_code in (200, 400)
    assert "problem" in response.content.decode() or "errorlist" in response.content.decode()
    assert not Roster.objects.exists()
