"""Printing a season's pairings and standings through the cards' export pipeline: the export
row, the in-process task, the PDF (WeasyPrint, for real), who may see and download it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from apps.cards.models import CardExport
from apps.cards.services import card_export_render, export_filename
from apps.leagues import printing
from apps.leagues.models import League
from apps.leagues.services import LeagueError
from tests.accounts.factories import UserFactory
from tests.leagues.factories import join, make_league, make_season, pair_and_publish

pytestmark = pytest.mark.django_db
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture(autouse=True)
def media(settings: Any, tmp_path: Path) -> Path:
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


@pytest.fixture
def season():  # noqa: ANN201
    season = make_season(make_league(name="Dienstagsliga"))
    join(season, 5)
    pair_and_publish(season)
    return season


def _request(season, kind: str, user=None) -> CardExport:  # noqa: ANN001
    return printing.season_print_request(
        user=user or UserFactory(),
        key=season.league.key,
        season_id=season.pk,
        kind=kind,
        language="en",
    )


@pytest.mark.parametrize("kind", ["pairings", "standings"])
def test_season_documents_render_to_pdf(season, kind, django_capture_on_commit_callbacks) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        export = _request(season, kind)
    export.refresh_from_db()
    assert export.status == CardExport.Status.DONE, export.message
    assert export.contents == kind and export.document["season"] == season.pk
    with export.file.open("rb") as pdf:
        assert pdf.read(4) == b"%PDF"
    assert export_filename(export).endswith(f"{kind}.pdf")


def test_the_same_season_version_reuses_the_pdf(season, django_capture_on_commit_callbacks) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        first = _request(season, "standings")
    with django_capture_on_commit_callbacks(execute=True):
        second = _request(season, "standings", user=UserFactory())
    assert first.pk == second.pk
    assert CardExport.objects.count() == 1


def test_pairings_need_a_published_round() -> None:
    season = make_season(make_league())
    join(season, 2)
    with pytest.raises(LeagueError) as refused:
        _request(season, "pairings")
    assert refused.value.code == "no_round"


def test_the_export_page_and_download_follow_the_season_visibility(
    client, django_capture_on_commit_callbacks
) -> None:
    league = make_league(visibility=League.Visibility.MEMBERS)
    season = make_season(league)
    players = join(season, 2)
    pair_and_publish(season)
    client.force_login(players[0].player)
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(
            reverse("leagues:season_print", args=[league.key, season.pk, "pairings"]), **EN
        )
    assert answer.status_code == 302
    export = CardExport.objects.get()
    assert answer["Location"] == reverse("cards:export", args=[export.pk])
    page = client.get(answer["Location"], **EN)
    assert page.status_code == 200 and "Print pairings" in page.content.decode()
    download = client.get(reverse("cards:download", args=[export.pk]))
    assert download.status_code == 200
    assert b"".join(download.streaming_content).startswith(b"%PDF")
    client.force_login(UserFactory())
    assert client.get(reverse("cards:export", args=[export.pk])).status_code == 404
    unknown = reverse("leagues:season_print", args=[league.key, season.pk, "cards"])
    client.force_login(players[0].player)
    assert client.post(unknown).status_code == 404


def test_print_api_answers_202_and_the_export_is_followed(
    api_client, season, django_capture_on_commit_callbacks
) -> None:
    api_client.force_authenticate(UserFactory())
    url = reverse("api:season-print", args=[season.league.key, season.pk, "standings"])
    with django_capture_on_commit_callbacks(execute=True):
        answer = api_client.post(url)
    assert answer.status_code == 202
    detail = api_client.get(reverse("api:card-export", args=[answer.json()["id"]]))
    assert detail.json()["status"] == "done"


def test_a_deleted_season_fails_the_export_with_a_message(season) -> None:
    export = CardExport.objects.create(
        system=season.league.system,
        contents="standings",
        layout="single",
        paper="a4",
        language="en",
        fingerprint="x" * 64,
        document={"season": season.pk + 1000},
    )
    card_export_render(export_id=export.pk)
    export.refresh_from_db()
    assert export.status == CardExport.Status.FAILED and "deleted" in export.message
