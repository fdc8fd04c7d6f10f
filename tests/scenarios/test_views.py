"""The scenario editor: organisers write scenarios, players read them, bad input saves nothing."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group

from apps.catalog.models import GameSystem, Mission
from apps.catalog.services import organisers_group_ensure
from tests.accounts.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def grundregeln(deathmatch) -> GameSystem:  # noqa: ARG001 - loads every shipped catalogue
    return GameSystem.objects.get(slug="grundregeln")


@pytest.fixture
def organiser(db):  # noqa: ANN201
    user = UserFactory()
    user.groups.add(organisers_group_ensure())
    return user


FORM = {
    "name": "Brückenkampf",
    "victory": "objectives",
    "rounds": "4",
    "objectives": "1",
    "vp_kill": "1",
    "vp_npc": "0",
    "vp_objective": "3",
    "summary": "Die Brücke ist Ziel A.",
    "npc_0_profile": "npc-bandit",
    "npc_0_behaviour": "active",
    "npc_0_count": "2",
}


def test_an_organiser_writes_a_scenario_with_npcs_copied_in(grundregeln, organiser, client) -> None:
    client.force_login(organiser)
    response = client.post("/scenarios/grundregeln/new/", FORM)
    assert response.status_code == 302
    mission = Mission.objects.get(system=grundregeln, name="Brückenkampf")
    assert mission.slug == "bruckenkampf"
    assert mission.data["npcs"][0]["stats"]["npc"] is True and mission.data["npcs"][0]["count"] == 2
    edit = client.get(f"/scenarios/grundregeln/{mission.slug}/", HTTP_ACCEPT_LANGUAGE="en")
    assert 'value="Brückenkampf"' in edit.content.decode()


def test_an_organiser_says_who_begins_each_round(grundregeln, organiser, client) -> None:
    client.force_login(organiser)
    page = client.get("/scenarios/grundregeln/new/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Who begins each round" in page and 'name="starter"' in page
    client.post("/scenarios/grundregeln/new/", {**FORM, "starter": "first"})
    assert Mission.objects.get(system=grundregeln, name="Brückenkampf").data["starter"] == "first"
    client.post("/scenarios/grundregeln/new/", {**FORM, "name": "Ohne Vorgabe"})
    assert Mission.objects.get(system=grundregeln, name="Ohne Vorgabe").data["starter"] == "roll"
    response = client.post("/scenarios/grundregeln/new/", {**FORM, "name": "X", "starter": "3"})
    assert response.status_code == 422
    assert not Mission.objects.filter(system=grundregeln, name="X").exists()


def test_a_scenario_with_problems_saves_nothing(grundregeln, organiser, client) -> None:
    client.force_login(organiser)
    response = client.post(
        "/scenarios/grundregeln/new/", {**FORM, "vp_objective": "0", "rounds": "0"}
    )
    assert response.status_code == 422
    assert not Mission.objects.filter(name="Brückenkampf").exists()


def test_players_read_the_scenarios_but_cannot_write_them(grundregeln, user, client) -> None:
    client.force_login(user)
    page = client.get("/scenarios/grundregeln/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Die Wachhunde" in page and "New scenario" not in page
    assert client.post("/scenarios/grundregeln/new/", FORM).status_code == 403
    assert client.post("/scenarios/grundregeln/die-wachhunde/delete/").status_code == 403


def test_an_organiser_deletes_a_scenario(grundregeln, organiser, client) -> None:
    client.force_login(organiser)
    assert client.post("/scenarios/grundregeln/der-brunnen/delete/").status_code == 302
    assert not Mission.objects.filter(system=grundregeln, slug="der-brunnen").exists()


def test_systems_without_scenario_rules_have_no_editor(deathmatch, organiser, client) -> None:
    client.force_login(organiser)
    assert client.get("/scenarios/deathmatch/").status_code == 404
    assert Group.objects.filter(name="Organisers").exists()
