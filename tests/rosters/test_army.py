"""Outside armies (Bunkers and Badasses): a BattleScribe file imported on the page and through
the API, the house rules' questions answered and remembered per unit name, units typed in by
hand, the roster document with units. The test files are read from ../shared/test-data."""

from __future__ import annotations

import io
import json
import zipfile

import pytest
from django.urls import reverse

from apps.rosters import army_services, services
from apps.rosters.models import ArmySource, ArmyUnit, Roster, UnitAnswer
from apps.rosters.selectors import roster_for_owner, roster_report
from tests.matches.bunkers import BATTLESCRIBE

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true", "HTTP_ACCEPT_LANGUAGE": "en"}


def _file(name: str) -> bytes:
    return (BATTLESCRIBE / name).read_bytes()


def _rosz(name: str) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(name, _file(name))
    return buffer.getvalue()


@pytest.fixture
def bunkers(catalogue: None):  # noqa: ANN201 - the GameSystem row
    return army_services.outside_army_system("bunkers")


@pytest.fixture
def army(bunkers, user) -> Roster:
    return army_services.army_import(
        owner=user,
        system=bunkers,
        data=_file("bloodangels-patrol.ros"),
        file_name="bloodangels-patrol.ros",
        settings={"points_limit": 1000},
    )


def test_import_saves_every_unit_with_the_files_totals(army) -> None:
    roster = roster_for_owner(army.owner, army.pk)
    units = list(roster.units.all())
    assert units, "the Blood Angels patrol has units"
    assert sum(unit.points for unit in units) == 625
    assert sum(unit.power for unit in units) == 30
    source = ArmySource.objects.get(roster=roster)
    assert source.declared["points"] == 625
    assert source.computed["points"] == 625
    assert not source.totals_differ
    assert roster.name == "BloodAngels test"


def test_an_import_asks_for_every_base_until_answered(army) -> None:
    report = roster_report(roster_for_owner(army.owner, army.pk))
    codes = [issue.code for issue in report.issues]
    assert codes.count("base_unknown") == ArmyUnit.objects.filter(roster=army).count()
    assert not army.legal


def test_answers_are_remembered_per_unit_name_for_the_next_import(army, bunkers, user) -> None:
    unit = ArmyUnit.objects.filter(roster=army).order_by("position").first()
    assert unit is not None
    army_services.army_unit_answer(
        owner=user,
        roster_id=army.pk,
        unit_id=unit.pk,
        walker=False,
        base="round:40",
        reserve=False,
        deep_strike=False,
    )
    assert UnitAnswer.objects.get(owner=user).base == "round:40"
    again = army_services.army_import(
        owner=user,
        system=bunkers,
        data=_rosz("bloodangels-patrol.ros"),
        file_name="bloodangels.rosz",
        settings={},
    )
    twins = ArmyUnit.objects.filter(roster=again, name=unit.name)
    assert twins and all(twin.base == "round:40" for twin in twins)


def test_a_refused_file_saves_nothing(bunkers, user) -> None:
    with pytest.raises(army_services.BattleScribeRefused) as refused:
        army_services.army_import(
            owner=user, system=bunkers, data=b"<html></html>", file_name="x.ros", settings={}
        )
    assert refused.value.code
    assert not Roster.objects.filter(owner=user).exists()
    assert not ArmyUnit.objects.exists()


def test_the_import_page_uploads_a_rosz_and_opens_the_builder(client, bunkers, user) -> None:
    client.force_login(user)
    upload = io.BytesIO(_rosz("salamanders-battalion.ros"))
    upload.name = "salamanders.rosz"
    response = client.post(
        reverse("rosters:army_import", args=["bunkers"]),
        {"file": upload, "name": "", "points_limit": "1000"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    roster = Roster.objects.get(owner=user)
    assert response.status_code == 302
    assert response["Location"] == reverse("rosters:builder", args=[roster.pk])
    page = client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Imported from salamanders.rosz" in page
    assert sum(unit.points for unit in roster.units.all()) == 625


def test_the_import_page_names_the_problem_of_a_bad_file(client, bunkers, user) -> None:
    client.force_login(user)
    upload = io.BytesIO(b"PK\x03\x04 not really a zip")
    upload.name = "broken.rosz"
    response = client.post(
        reverse("rosters:army_import", args=["bunkers"]),
        {"file": upload},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 400
    assert "nothing was saved" in response.content.decode()
    assert not Roster.objects.filter(owner=user).exists()


def test_the_import_page_is_only_for_outside_armies(client, user, catalogue) -> None:
    client.force_login(user)
    assert client.get(reverse("rosters:army_import", args=["deathmatch"])).status_code == 404


def test_a_unit_typed_in_by_hand_joins_the_army(client, army, user) -> None:
    client.force_login(user)
    response = client.post(
        reverse("rosters:unit_add", args=[army.pk]),
        {
            "name": "Sample Sentinels",
            "models": "2",
            "wounds": "6",
            "points": "120",
            "keywords": "Vehicle, Walker",
            "base": "60",
            "walker": "on",
        },
        **HTMX,
    )
    assert response.status_code == 200
    unit = ArmyUnit.objects.get(roster=army, name="Sample Sentinels")
    assert (unit.model_count, unit.wounds, unit.base, unit.walker) == (2, 6, "round:60", True)
    assert unit.keywords == ["Vehicle", "Walker"]


def test_a_base_typed_wrongly_is_refused_inline(client, army, user) -> None:
    client.force_login(user)
    unit = ArmyUnit.objects.filter(roster=army).first()
    assert unit is not None
    response = client.post(
        reverse("rosters:unit_answer", args=[army.pk, unit.pk]), {"base": "big"}, **HTMX
    )
    assert response.status_code == 422
    assert "round base" in response.content.decode()
    unit.refresh_from_db()
    assert unit.base == ""


def test_an_oval_base_over_the_limit_is_a_problem_of_its_unit(army, user) -> None:
    unit = ArmyUnit.objects.filter(roster=army).order_by("position").first()
    assert unit is not None
    army_services.army_unit_answer(
        owner=user,
        roster_id=army.pk,
        unit_id=unit.pk,
        walker=False,
        base="oval:170x105",
        reserve=False,
        deep_strike=False,
    )
    report = roster_report(roster_for_owner(user, army.pk))
    assert any(
        issue.code == "base_oval_too_large" and issue.entry == unit.position
        for issue in report.issues
    )


def test_the_document_round_trip_keeps_the_units(army, user) -> None:
    from apps.rosters.documents import roster_document

    document = roster_document(roster_for_owner(user, army.pk))
    assert len(document["units"]) == ArmyUnit.objects.filter(roster=army).count()
    copy = services.roster_import(owner=user, document=json.loads(json.dumps(document)))
    again = roster_document(roster_for_owner(user, copy.pk))
    assert again["units"] == document["units"]


def test_a_document_unit_of_the_wrong_shape_is_a_problem_with_its_path(bunkers, user) -> None:
    from apps.rosters.documents import DocumentInvalid

    document = {
        "format": "skirmish-roster/1",
        "system": "bunkers",
        "name": "Broken",
        "units": [{"name": "Fine"}, {"name": "", "models": 0, "base": "square:3"}],
    }
    with pytest.raises(DocumentInvalid) as invalid:
        services.roster_import(owner=user, document=document)
    paths = {problem.path for problem in invalid.value.problems}
    assert {"units[1].name", "units[1].models", "units[1].base"} <= paths


def test_duplicate_copies_the_units(army, user) -> None:
    copy = services.roster_duplicate(owner=user, roster_id=army.pk, name="Copy")
    assert ArmyUnit.objects.filter(roster=copy).count() == army.units.count()


def test_api_import_takes_a_multipart_upload(api_client, bunkers, user) -> None:
    api_client.force_authenticate(user)
    upload = io.BytesIO(_file("necrons-patrol-over-limit.ros"))
    upload.name = "necrons.ros"
    response = api_client.post(
        reverse("api:army-import", args=["bunkers"]),
        {"file": upload, "points_limit": 500},
        format="multipart",
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["system"] == "bunkers"
    assert "points_over" in {issue["code"] for issue in body["issues"]}
    assert len(body["units"]) == ArmyUnit.objects.filter(roster_id=body["id"]).count()


def test_api_import_takes_json_content(api_client, bunkers, user) -> None:
    api_client.force_authenticate(user)
    response = api_client.post(
        reverse("api:army-import", args=["bunkers"]),
        {"content": _file("bloodangels-patrol.ros").decode(), "file_name": "ba.ros"},
        format="json",
    )
    assert response.status_code == 201, response.json()
    assert response.json()["totals"]["points"] == 625


def test_api_validate_reports_without_saving(api_client, bunkers) -> None:
    import base64

    response = api_client.post(
        reverse("api:army-validate", args=["bunkers"]),
        {"content_base64": base64.b64encode(_rosz("salamanders-battalion.ros")).decode()},
        format="json",
    )
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["army"]["computed"]["points"] == 625
    assert body["army"]["computed"]["power"] == 32
    assert body["valid"] is False  # bases are not known yet
    assert not Roster.objects.exists()


def test_api_refuses_a_billion_laughs_with_its_problem(api_client, bunkers, user) -> None:
    api_client.force_authenticate(user)
    bomb = (
        '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaaaaaaaa">'
        '<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><roster>&b;</roster>'
    )
    response = api_client.post(
        reverse("api:army-import", args=["bunkers"]),
        {"content": bomb, "file_name": "laughs.ros"},
        format="json",
    )
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == body["problems"][0]["code"]
    assert body["problems"][0]["path"] == "file"
    assert not Roster.objects.exists()


def test_a_league_freezes_an_imported_army_with_its_units(client, army, user) -> None:
    from apps.leagues import services as league_services
    from tests.leagues.factories import make_league, make_season

    unit = ArmyUnit.objects.filter(roster=army).first()
    assert unit is not None
    ArmyUnit.objects.filter(roster=army).update(base="round:32", walker=True)
    services.roster_refresh_legality(army)
    season = make_season(make_league(system="bunkers"))
    registration = league_services.season_join(
        user=user, season_id=season.pk, code=season.league.join_code, roster_id=army.pk
    )
    assert registration.roster_snapshot is not None
    frozen = registration.roster_snapshot["units"]
    assert [row["name"] for row in frozen] == [u.name for u in army.units.all()]
    page = client.get(
        reverse("leagues:player", args=[season.league.key, season.pk, registration.pk]),
        HTTP_ACCEPT_LANGUAGE="en",
    ).content.decode()
    assert unit.name in page


@pytest.mark.parametrize(
    "body",
    [["a list"], "text", 42],
    ids=["list", "string", "number"],
)
def test_api_refuses_a_body_that_is_not_an_object(api_client, bunkers, body) -> None:
    response = api_client.post(reverse("api:army-validate", args=["bunkers"]), body, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"


@pytest.mark.parametrize("limit", ["²", "1" * 5000, "ten", -3])
def test_api_refuses_a_points_limit_that_is_no_number(api_client, bunkers, user, limit) -> None:
    api_client.force_authenticate(user)
    upload = io.BytesIO(_file("bloodangels-patrol.ros"))
    upload.name = "ba.ros"
    response = api_client.post(
        reverse("api:army-import", args=["bunkers"]),
        {"file": upload, "points_limit": limit},
        format="multipart",
    )
    assert response.status_code == 400
    assert response.json()["code"] == "points_limit"
    assert not Roster.objects.filter(owner=user).exists()


def test_units_cannot_be_added_to_a_catalogue_team(client, user, deathmatch) -> None:
    """Only a system whose armies come from outside the catalogue holds units."""
    from tests.rosters.factories import legal_standard_team

    team = services.roster_import(owner=user, document=legal_standard_team())
    client.force_login(user)
    response = client.post(
        reverse("rosters:unit_add", args=[team.pk]),
        {"name": "Stray", "models": "1", "wounds": "1"},
        **HTMX,
    )
    assert response.status_code == 422
    assert not ArmyUnit.objects.exists()
