"""A rule system defined only in its own package plus its templates and fixtures gets rosters,
matches and printed cards from the generic apps, untouched: the probe system (points-based
game sizes) is built, played and printed through the pages and the API."""

from __future__ import annotations

import re
from io import BytesIO
from typing import Any

import pytest
from django.core.files.storage import default_storage
from pypdf import PdfReader
from rest_framework.test import APIClient

from apps.cards.models import CardExport
from apps.cards.services import ExportOptions, card_export_request
from apps.matches.models import Match
from apps.matches.services import match_rebuilt_state
from apps.rosters.models import Roster
from apps.rosters.selectors import roster_for_owner
from apps.systems.core.registry import registry

pytestmark = pytest.mark.django_db


def _army(client: Any, name: str, faction: str, points_limit: str, models: list[str]) -> Roster:
    response = client.post(
        "/rosters/new/probe/",
        {"name": name, "faction": _faction_pk(faction), "points_limit": points_limit},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    roster = Roster.objects.get(name=name)
    for slug in models:
        assert client.post(f"/rosters/{roster.pk}/fighters/", {"profile": slug}).status_code == 302
    return roster_for_owner(roster.owner, roster.pk)


def _faction_pk(slug: str) -> int:
    from apps.catalog.models import Faction

    return Faction.objects.get(system__slug="probe", slug=slug).pk


def test_the_probe_is_registered_only_for_the_test(probe_system) -> None:
    assert "probe" in registry().slugs()


def test_a_points_system_asks_for_a_points_limit_not_fighters(client, user, probe_system) -> None:
    client.force_login(user)
    page = client.get("/rosters/new/probe/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Points limit" in page and "Game size" not in page
    assert 'name="points_limit"' in page and 'value="100"' in page  # the system's default
    assert "Small (100 points)" in page  # the presets, as suggestions
    roster = _army(client, "Rote Probe", "red", "100", ["red-captain", "red-soldier"])
    assert roster.settings == {"points_limit": 100}
    listing = client.get("/rosters/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "100 points" in listing and "fighters" not in listing


def test_the_builder_reports_the_systems_own_issues(client, user, probe_system) -> None:
    client.force_login(user)
    roster = _army(client, "Zu Teuer", "red", "50", ["red-captain"])
    page = client.get(f"/rosters/{roster.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "The army costs 60 points, 10 more than the limit." in page
    assert "Red Captain · 60" in page


def test_a_probe_match_is_opened_played_and_finished_through_the_generic_apps(
    client, user, probe_system
) -> None:
    client.force_login(user)
    red = _army(client, "Rot", "red", "100", ["red-captain", "red-soldier"])
    blue = _army(client, "Blau", "blue", "100", ["blue-captain", "blue-soldier"])
    form = client.get("/matches/new/probe/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Rot · 100 points" in form
    created = client.post(
        "/matches/new/probe/",
        {
            "mode": "random",
            "name_0": "Anna",
            "roster_0": red.pk,
            "name_1": "Ben",
            "roster_1": blue.pk,
        },
    )
    assert created.status_code == 302, created.content.decode()[:3000]
    match = Match.objects.get()
    tracker = client.get(f"/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<p class="muted">Probe · <span class="phase">Round 1</span>' in tracker
    assert "Red Captain → Blue Captain" in tracker  # a strike button of the board template
    api = APIClient()
    api.force_authenticate(user)
    for _turn in range(20):
        match.refresh_from_db()
        if match.status == "finished":
            break
        legal = api.get(f"/api/v1/matches/{match.pk}/legal/").json()["commands"]
        command = next(c for c in legal if c["legal"] and c["type"] != "concede")
        answer = api.post(
            f"/api/v1/matches/{match.pk}/commands/",
            {"type": command["type"], "args": command["args"], "expected_seq": match.seq},
            format="json",
        )
        assert answer.status_code == 200, answer.json()
    match.refresh_from_db()
    assert match.status == "finished" and match.result is not None
    engine = registry().get("probe").matches
    assert engine is not None
    assert engine.dump_state(match_rebuilt_state(match)) == match.state
    log = client.get(f"/matches/{match.pk}/log/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert re.search(r"strikes .+: \d", log)


def test_the_probe_prints_its_cards_with_its_own_templates(
    client, user, probe_system, settings, tmp_path, django_capture_on_commit_callbacks
) -> None:
    settings.MEDIA_ROOT = tmp_path
    client.force_login(user)
    roster = _army(client, "Rot", "red", "100", ["red-captain", "red-soldier"])
    with django_capture_on_commit_callbacks(execute=True):
        export = card_export_request(
            roster=roster,
            requested_by=user,
            options=ExportOptions(),
            language="en",
            share_url="",
        )
    export.refresh_from_db()
    assert export.status == CardExport.Status.DONE, export.message
    with default_storage.open(export.file.name, "rb") as pdf:
        text = "\n".join(page.extract_text() for page in PdfReader(BytesIO(pdf.read())).pages)
    assert "Red Captain" in text and "Red Soldier" in text
