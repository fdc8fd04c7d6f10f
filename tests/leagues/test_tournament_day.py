"""Tournament day: the round timer (services, page, API, permissions, its include and script)
and the list reveal (who sees a roster before and after the reveal). Check-in:
test_check_in.py; printing: test_print.py; the projector: test_projector.py."""

from __future__ import annotations

import random
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from apps.leagues import round_timer as timers
from apps.leagues import services
from apps.leagues.day_settings import season_day_update
from apps.leagues.models import LogEntry, Round, Season
from apps.leagues.reveal import visible_log
from apps.leagues.selectors import LeagueAccess, league_access
from apps.leagues.services import LeagueError
from tests.accounts.factories import UserFactory
from tests.leagues.factories import join, make_league, make_season, organiser_of, pair_and_publish

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true", "HTTP_ACCEPT_LANGUAGE": "en"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture
def running_round() -> Round:
    season = make_season(make_league())
    join(season, 4)
    return pair_and_publish(season)


def _ids(round_: Round) -> dict[str, object]:
    season = round_.season
    return {"key": season.league.key, "season_id": season.pk, "number": round_.number}


def _organiser(round_: Round):  # noqa: ANN202
    return organiser_of(round_.season.league)


# --- Round timer --------------------------------------------------------------------------


def test_timer_starts_pauses_resumes_adjusts_and_stops(running_round: Round) -> None:
    ids, user = _ids(running_round), _organiser(running_round)
    round_ = timers.round_timer_start(user=user, **ids, minutes=90)
    timer = timers.round_timer(round_)
    assert timer is not None and timer.running and timer.minutes == 90
    assert 89 * 60 < timer.seconds_left <= 90 * 60

    round_ = timers.round_timer_pause(user=user, **ids)
    assert round_.timer_ends_at is None
    left = round_.timer_paused_remaining
    assert left is not None and 89 * 60 < left <= 90 * 60
    paused = timers.round_timer(round_)
    assert paused is not None and paused.paused
    assert paused.remaining(timezone.now() + timedelta(hours=5)) == left  # a pause holds time

    round_ = timers.round_timer_adjust(user=user, **ids, minutes=-10)
    assert round_.timer_paused_remaining == left - 600
    assert round_.timer_minutes == 80

    round_ = timers.round_timer_resume(user=user, **ids)
    assert round_.timer_paused_remaining is None and round_.timer_ends_at is not None
    round_ = timers.round_timer_adjust(user=user, **ids, minutes=5)
    assert timers.round_timer(round_).seconds_left > left - 600 + 4 * 60  # type: ignore[union-attr]

    round_ = timers.round_timer_stop(user=user, **ids)
    assert timers.round_timer(round_) is None
    actions = list(
        LogEntry.objects.filter(season=running_round.season)
        .filter(action__startswith="timer_")
        .values_list("action", flat=True)
    )
    assert sorted(actions) == sorted(
        ["timer_started", "timer_paused", "timer_adjusted", "timer_resumed", "timer_adjusted",
         "timer_stopped"]
    )  # fmt: skip


def test_taking_off_more_than_is_left_ends_at_zero(running_round: Round) -> None:
    ids, user = _ids(running_round), _organiser(running_round)
    timers.round_timer_start(user=user, **ids, minutes=5)
    round_ = timers.round_timer_adjust(user=user, **ids, minutes=-30)
    timer = timers.round_timer(round_)
    assert timer is not None and timer.expired and timer.minutes == 1


@pytest.mark.parametrize("minutes", [0, -1, 601])
def test_timer_minutes_out_of_range_are_refused(running_round: Round, minutes: int) -> None:
    with pytest.raises(LeagueError) as refused:
        timers.round_timer_start(
            user=_organiser(running_round), **_ids(running_round), minutes=minutes
        )
    assert refused.value.code == "invalid_minutes"
    running_round.refresh_from_db()
    assert running_round.timer_minutes is None


def test_timer_refusals_name_the_state(running_round: Round) -> None:
    ids, user = _ids(running_round), _organiser(running_round)
    with pytest.raises(LeagueError, match="not running"):
        timers.round_timer_pause(user=user, **ids)
    timers.round_timer_start(user=user, **ids)
    with pytest.raises(LeagueError) as twice:
        timers.round_timer_start(user=user, **ids)
    assert twice.value.code == "timer_running" and twice.value.status == 409
    with pytest.raises(LeagueError) as resume:
        timers.round_timer_resume(user=user, **ids)
    assert resume.value.code == "timer_not_paused"


def test_timer_only_for_published_rounds(running_round: Round) -> None:
    season = running_round.season
    for pairing in running_round.pairings.filter(player_b__isnull=False):
        services.result_override(
            user=_organiser(running_round), key=season.league.key, pairing_id=pairing.pk,
            outcome="a", vp_a=3, vp_b=1, reason="table judge",
        )  # fmt: skip
    draft = services.round_pair(
        user=_organiser(running_round), key=season.league.key, season_id=season.pk,
        rng=random.Random(2),
    )  # fmt: skip
    with pytest.raises(LeagueError) as refused:
        timers.round_timer_start(user=_organiser(running_round), **_ids(draft))
    assert refused.value.code == "round_not_published"


def test_no_timer_actions_once_the_season_is_finished(running_round: Round) -> None:
    """Review: the API must refuse what the page hides on a finished season."""
    Season.objects.filter(pk=running_round.season_id).update(status=Season.Status.FINISHED)
    with pytest.raises(LeagueError) as refused:
        timers.round_timer_start(user=_organiser(running_round), **_ids(running_round))
    assert refused.value.code == "season_finished"


def test_only_organisers_run_the_timer(running_round: Round) -> None:
    player = running_round.pairings.first().player_a.player  # type: ignore[union-attr]
    with pytest.raises(PermissionDenied):
        timers.round_timer_start(user=player, **_ids(running_round))


def test_database_keeps_the_timer_consistent(running_round: Round) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        Round.objects.filter(pk=running_round.pk).update(timer_minutes=601)
    with pytest.raises(IntegrityError), transaction.atomic():
        Round.objects.filter(pk=running_round.pk).update(
            timer_minutes=10, timer_ends_at=timezone.now(), timer_paused_remaining=5
        )


def test_timer_page_actions_with_htmx_and_without(client, running_round: Round) -> None:
    season = running_round.season
    url = reverse("leagues:round_timer", args=[season.league.key, season.pk, running_round.number])
    client.force_login(_organiser(running_round))
    page = client.post(url, {"action": "start", "minutes": "120"}, **HTMX)
    assert page.status_code == 200
    html = page.content.decode()
    assert "data-round-timer-ends" in html and "data-server-now" in html
    assert ">2:00:00<" in html or ">1:59:59<" in html
    refused = client.post(url, {"action": "start", "minutes": "120"}, **HTMX)
    assert refused.status_code == 422 and "already set" in refused.content.decode()
    bad = client.post(url, {"action": "adjust", "minutes": "lots"}, **HTMX)
    assert bad.status_code == 422
    plain = client.post(url, {"action": "pause"}, **EN)
    assert plain.status_code == 302
    running_round.refresh_from_db()
    assert running_round.timer_paused_remaining is not None
    season_page = client.get(reverse("leagues:season", args=[season.league.key, season.pk]), **EN)
    assert "round-timer-clock" in season_page.content.decode()
    assert "paused" in season_page.content.decode()
    round_page = client.get(
        reverse("leagues:round", args=[season.league.key, season.pk, running_round.number]), **EN
    )
    assert "round-timer-clock" in round_page.content.decode()


def test_timer_page_is_403_for_players_and_404_for_unknown_leagues(client, running_round) -> None:
    season = running_round.season
    url = reverse("leagues:round_timer", args=[season.league.key, season.pk, running_round.number])
    client.force_login(running_round.pairings.first().player_a.player)
    assert client.post(url, {"action": "start"}).status_code == 403
    other = reverse("leagues:round_timer", args=["nope", season.pk, running_round.number])
    assert client.post(other, {"action": "start"}).status_code == 404


def test_timer_api(api_client, running_round: Round) -> None:
    season = running_round.season
    url = reverse("api:round-timer", args=[season.league.key, season.pk, running_round.number])
    assert api_client.get(url).json() == {"round": 1, "timer": None}
    api_client.force_authenticate(running_round.pairings.first().player_a.player)
    assert api_client.post(url, {"action": "start"}, format="json").status_code == 403
    api_client.force_authenticate(_organiser(running_round))
    started = api_client.post(url, {"action": "start", "minutes": 30}, format="json")
    assert started.status_code == 200 and started.json()["timer"]["minutes"] == 30
    again = api_client.post(url, {"action": "start"}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "timer_running"
    bad = api_client.post(url, {"action": "adjust", "minutes": 9999}, format="json")
    assert bad.status_code == 400 and "code" in bad.json()
    rounds = api_client.get(reverse("api:round-list", args=[season.league.key, season.pk]))
    assert rounds.json()[0]["timer"]["minutes"] == 30


def test_timer_include_renders_remaining_time_and_expiry() -> None:
    now = timezone.now()
    running = timers.RoundTimer(
        minutes=150, ends_at=now + timedelta(minutes=65, seconds=9), paused_remaining=None,
        read_at=now,
    )  # fmt: skip
    html = render_to_string("leagues/_round_timer.html", {"timer": running})
    assert "1:05:09" in html and 'data-round-timer-ends="' in html
    over = timers.RoundTimer(minutes=5, ends_at=now - timedelta(seconds=1), paused_remaining=None)
    assert "Time is up" in render_to_string("leagues/_round_timer.html", {"timer": over})
    paused = timers.RoundTimer(minutes=5, ends_at=None, paused_remaining=299, read_at=now)
    html = render_to_string("leagues/_round_timer.html", {"timer": paused})
    assert "4:59" in html and "data-round-timer-ends" not in html


def test_timer_script_is_a_static_file_the_pages_load(client, running_round: Round) -> None:
    script = Path(settings.BASE_DIR) / "static" / "js" / "round-timer.js"
    text = script.read_text()
    assert "roundTimerEnds" in text and "serverNow" in text and "setInterval" in text
    season = running_round.season
    page = client.get(reverse("leagues:season", args=[season.league.key, season.pk]), **EN)
    html = page.content.decode()
    assert "js/round-timer.js" in html and "<script>" not in html


# --- List reveal -------------------------------------------------------------------------


@pytest.fixture
def hidden_lists(deathmatch):  # noqa: ANN001, ANN201
    """A Deathmatch season whose lists are revealed tomorrow, with one registered roster."""
    from apps.rosters import services as roster_services
    from tests.rosters.factories import legal_standard_team

    league = make_league(system="deathmatch")
    season = make_season(league, lists_reveal_at=timezone.now() + timedelta(days=1))
    owner = UserFactory()
    roster = roster_services.roster_import(owner=owner, document=legal_standard_team())
    registration = services.season_join(
        user=owner, season_id=season.pk, code=league.join_code, roster_id=roster.pk
    )
    return season, registration


def test_lists_are_hidden_before_the_reveal(client, hidden_lists) -> None:
    season, registration = hidden_lists
    url = reverse("leagues:player", args=[season.league.key, season.pk, registration.pk])
    name = registration.roster_name
    assert name
    opponent = UserFactory()
    client.force_login(opponent)
    page = client.get(url, **EN).content.decode()
    assert name not in page and "Lists are revealed at" in page
    client.force_login(registration.player)
    assert name in client.get(url, **EN).content.decode()
    client.force_login(organiser_of(season.league))
    assert name in client.get(url, **EN).content.decode()
    season_page = client.get(reverse("leagues:season", args=[season.league.key, season.pk]), **EN)
    assert "Lists are revealed at" in season_page.content.decode()


def test_lists_show_to_everyone_after_the_reveal(client, hidden_lists) -> None:
    season, registration = hidden_lists
    Season.objects.filter(pk=season.pk).update(lists_reveal_at=timezone.now() - timedelta(1))
    client.force_login(UserFactory())
    url = reverse("leagues:player", args=[season.league.key, season.pk, registration.pk])
    assert registration.roster_name in client.get(url, **EN).content.decode()


def test_roster_changes_leave_the_log_of_others_before_the_reveal(hidden_lists) -> None:
    from apps.rosters import services as roster_services
    from tests.rosters.factories import legal_standard_team

    season, registration = hidden_lists
    other = roster_services.roster_import(
        owner=registration.player, document=legal_standard_team(name="Geheimplan")
    )
    services.roster_change_request(
        user=registration.player, key=season.league.key, registration_id=registration.pk,
        roster_id=other.pk,
    )  # fmt: skip
    key = season.league.key
    player = LeagueAccess(season.league, UserFactory(), is_organiser=False, is_member=True)
    organiser = league_access(organiser_of(season.league), key)
    assert not visible_log(player, season).filter(action="roster_requested").exists()
    assert visible_log(organiser, season).filter(action="roster_requested").exists()
    Season.objects.filter(pk=season.pk).update(lists_reveal_at=timezone.now() - timedelta(1))
    season.refresh_from_db()
    assert visible_log(player, season).filter(action="roster_requested").exists()


def test_reveal_time_in_the_api_and_settable_by_organisers(api_client, hidden_lists) -> None:
    season, _registration = hidden_lists
    url = reverse("api:season-detail", args=[season.league.key, season.pk])
    assert api_client.get(url).json()["lists_reveal_at"] is not None
    day = reverse("api:season-day", args=[season.league.key, season.pk])
    api_client.force_authenticate(UserFactory())
    assert api_client.patch(day, {"lists_reveal_at": None}, format="json").status_code == 403
    api_client.force_authenticate(organiser_of(season.league))
    changed = api_client.patch(
        day, {"lists_reveal_at": None, "check_in_required": True}, format="json"
    )
    assert changed.status_code == 200
    assert changed.json()["lists_reveal_at"] is None and changed.json()["check_in_required"]
    bad = api_client.patch(day, {"lists_reveal_at": "soon"}, format="json")
    assert bad.status_code == 400 and bad.json()["code"]


def test_a_day_settings_change_keeps_what_it_does_not_name(hidden_lists) -> None:
    """Review: a PATCH of one setting must not write back a stale read of the other."""
    season, _registration = hidden_lists
    organiser = organiser_of(season.league)
    ids = {"user": organiser, "key": season.league.key, "season_id": season.pk}
    season_day_update(**ids, check_in_required=True)
    reveal = season.lists_reveal_at
    season_day_update(**ids, lists_reveal_at=None)
    season.refresh_from_db()
    assert (season.lists_reveal_at, season.check_in_required) == (None, True)
    assert reveal is not None


@pytest.mark.parametrize("when", ["0119-12-11T10:01:43-17:49", "2100-01-01T00:00:00Z"])
def test_a_reveal_time_outside_this_century_is_refused(api_client, hidden_lists, when) -> None:
    """Schemathesis found it: a year-119 time came back with Berlin's historic +00:53:28
    offset, which is no date-time a client reads. Refused at the edge, and by the database."""
    season, _registration = hidden_lists
    api_client.force_authenticate(organiser_of(season.league))
    day = reverse("api:season-day", args=[season.league.key, season.pk])
    refused = api_client.patch(day, {"lists_reveal_at": when}, format="json")
    assert refused.status_code == 400, refused.json()
    assert "2000" in refused.json()["message"]
    with pytest.raises(IntegrityError), transaction.atomic():
        Season.objects.filter(pk=season.pk).update(
            lists_reveal_at=timezone.make_aware(timezone.datetime(1999, 12, 31, 23))
        )


def test_season_form_sets_the_reveal_and_check_in(client) -> None:
    league = make_league()
    client.force_login(organiser_of(league))
    page = client.post(
        reverse("leagues:season_new", args=[league.key]),
        {
            "name": "Turniertag", "starts_on": "2026-03-01", "ends_on": "2026-03-01",
            "pairing_method": "swiss", "win_points": 3, "draw_points": 1, "loss_points": 0,
            "vp_bonus_points": 0, "vp_bonus_margin": 0, "bye_vp": 0, "confirm_hours": 48,
            "tie_breaker_1": "vp_diff", "lists_reveal_at": "2026-03-01T10:00",
            "check_in_required": "on",
        },
        **EN,
    )  # fmt: skip
    assert page.status_code == 302, page.content.decode()[:2000]
    season = Season.objects.get(name="Turniertag")
    assert season.lists_reveal_at is not None and season.check_in_required
