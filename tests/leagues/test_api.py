"""League API: the whole flow through HTTP, the error format, and who may do what."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from apps.leagues.models import League, Registration, Result
from tests.accounts.factories import UserFactory
from tests.leagues.factories import games, join, make_league, make_season, pair_and_publish

pytestmark = pytest.mark.django_db


def client_for(user) -> APIClient:  # noqa: ANN001
    client = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    client.force_authenticate(user)
    return client


def test_organiser_runs_a_round_and_players_report_and_confirm() -> None:
    organiser = UserFactory()
    boss = client_for(organiser)
    response = boss.post(
        "/api/v1/leagues/",
        {"system": "plain", "name": "Kellerliga", "visibility": "public"},
        format="json",
    )
    assert response.status_code == 201, response.json()
    key, code = response.json()["key"], response.json()["join_code"]
    season = boss.post(
        f"/api/v1/leagues/{key}/seasons/",
        {"name": "Herbst", "starts_on": "2026-09-01", "ends_on": "2026-12-20"},
        format="json",
    )
    assert season.status_code == 201, season.json()
    season_url = f"/api/v1/leagues/{key}/seasons/{season.json()['id']}/"
    assert season.json()["tie_breakers"] == ["sos", "vp_diff", "h2h"]

    players = [UserFactory() for _ in range(2)]
    for player in players:
        joined = client_for(player).post(season_url + "join/", {"code": code}, format="json")
        assert joined.status_code == 201, joined.json()
    again = client_for(players[0]).post(season_url + "join/", {"code": code}, format="json")
    assert again.status_code == 409
    assert again.json()["code"] == "already_joined"

    paired = boss.post(season_url + "rounds/", {}, format="json")
    assert paired.status_code == 201, paired.json()
    assert paired.json()["status"] == "draft"
    published = boss.post(season_url + "rounds/1/publish/")
    assert published.json()["status"] == "published"
    (pairing,) = published.json()["pairings"]
    a_id = pairing["player_a"]["id"]
    a_user = Registration.objects.get(pk=a_id).player
    b_user = next(p for p in players if p != a_user)
    pairing_url = f"/api/v1/leagues/{key}/pairings/{pairing['id']}/"

    report = client_for(a_user).post(
        pairing_url + "result/", {"outcome": "a", "vp_a": 15, "vp_b": 9}, format="json"
    )
    assert report.status_code == 200, report.json()
    assert report.json()["result"]["status"] == "reported"
    own = client_for(a_user).post(pairing_url + "result/confirm/")
    assert (own.status_code, own.json()["code"]) == (403, "own_report")
    confirmed = client_for(b_user).post(pairing_url + "result/confirm/")
    assert confirmed.json()["result"]["status"] == "confirmed"

    standings = APIClient().get(season_url + "standings/").json()
    top = standings["rows"][0]
    assert (top["player"]["id"], top["points"], top["vp_diff"]) == (a_id, 3, 6)
    assert top["history"][0]["result"] == "W"


@pytest.fixture
def played():  # noqa: ANN201
    """A published round 1 of two players and the API clients of everyone involved."""
    league = make_league()
    season = make_season(league)
    a, b = join(season, 2)
    organiser = league.organisers.get()
    pairing = games(pair_and_publish(season))[0]
    return {
        "league": league,
        "url": f"/api/v1/leagues/{league.key}/pairings/{pairing.pk}/",
        "a": pairing.player_a.player,
        "b": pairing.player_b.player,
        "organiser": organiser,
    }


def test_conflicting_reports_answer_409_and_keep_the_first(played) -> None:
    url = played["url"]
    client_for(played["a"]).post(
        url + "result/", {"outcome": "a", "vp_a": 5, "vp_b": 1}, format="json"
    )
    response = client_for(played["b"]).post(
        url + "result/", {"outcome": "b", "vp_a": 1, "vp_b": 5}, format="json"
    )
    assert response.status_code == 409
    assert response.json()["code"] == "conflicting_report"
    assert set(response.json()) >= {"code", "message"}
    assert Result.objects.get().outcome == "a"


def test_outsider_cannot_report_and_gets_the_error_format(played) -> None:
    response = client_for(UserFactory()).post(
        played["url"] + "result/", {"outcome": "a", "vp_a": 5, "vp_b": 1}, format="json"
    )
    assert response.status_code == 403
    assert response.json()["code"] == "not_your_pairing"
    assert not Result.objects.exists()


def test_bad_input_is_a_400_with_a_message(played) -> None:
    response = client_for(played["a"]).post(
        played["url"] + "result/", {"outcome": "won", "vp_a": -3}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert response.json()["message"]


def test_dispute_then_override_by_an_organiser_only(played) -> None:
    url = played["url"]
    client_for(played["a"]).post(
        url + "result/", {"outcome": "a", "vp_a": 5, "vp_b": 1}, format="json"
    )
    disputed = client_for(played["b"]).post(
        url + "result/dispute/", {"reason": "I won"}, format="json"
    )
    assert disputed.json()["result"]["status"] == "disputed"
    decision = {"outcome": "b", "vp_a": 1, "vp_b": 5, "reason": "Scoresheet"}
    refused = client_for(played["a"]).post(url + "result/override/", decision, format="json")
    assert (refused.status_code, refused.json()["code"]) == (403, "permission_denied")
    decided = client_for(played["organiser"]).post(
        url + "result/override/", decision, format="json"
    )
    assert decided.status_code == 200, decided.json()
    assert decided.json()["result"]["status"] == "decided"
    assert decided.json()["result"]["decision_reason"] == "Scoresheet"


def test_players_cannot_pair_or_publish(played) -> None:
    league = played["league"]
    season = league.seasons.get()
    url = f"/api/v1/leagues/{league.key}/seasons/{season.pk}/rounds/"
    response = client_for(played["a"]).post(url, {}, format="json")
    assert response.status_code == 403


def test_members_only_league_is_hidden_from_outsiders_and_anonymous() -> None:
    league = make_league(visibility=League.Visibility.MEMBERS)
    season = make_season(league)
    (member,) = join(season, 1)
    url = f"/api/v1/leagues/{league.key}/"
    assert APIClient().get(url).status_code == 404
    assert client_for(UserFactory()).get(url).status_code == 404
    assert client_for(member.player).get(url).status_code == 200
    standings = f"{url}seasons/{season.pk}/standings/"
    assert APIClient().get(standings).status_code == 404
    listed = [item["key"] for item in APIClient().get("/api/v1/leagues/").json()]
    assert league.key not in listed


def test_public_league_reads_work_logged_out_and_hide_the_join_code() -> None:
    league = make_league(visibility=League.Visibility.PUBLIC)
    body = APIClient().get(f"/api/v1/leagues/{league.key}/").json()
    assert body["name"] == "Dienstagsliga"
    assert "join_code" not in body
    assert APIClient().post("/api/v1/leagues/", {}, format="json").status_code in (401, 403)


def test_joining_with_another_leagues_code_is_refused() -> None:
    first, second = make_league(), make_league(name="Andere Liga")
    season = make_season(first)
    response = client_for(UserFactory()).post(
        f"/api/v1/leagues/{first.key}/seasons/{season.pk}/join/",
        {"code": second.join_code},
        format="json",
    )
    assert (response.status_code, response.json()["code"]) == (400, "wrong_code")
    assert not Registration.objects.exists()
