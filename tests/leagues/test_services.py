"""League services: joining, pairing, the report-confirm-dispute-override flow, bad input."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.http import Http404
from django.utils import timezone

from apps.leagues import services
from apps.leagues.forms import SeasonForm
from apps.leagues.models import LogEntry, Pairing, Registration, Result, Round, Season
from apps.leagues.selectors import season_standings
from apps.leagues.services import LeagueError
from apps.rosters import services as roster_services
from tests.accounts.factories import UserFactory
from tests.leagues.factories import (
    games,
    join,
    make_league,
    make_season,
    organiser_of,
    pair_and_publish,
    report_and_confirm,
)
from tests.rosters.factories import legal_standard_team

pytestmark = pytest.mark.django_db


@pytest.fixture
def season() -> Season:
    return make_season(make_league())


def test_joining_twice_is_refused_and_stores_one_registration(season) -> None:
    player = UserFactory()
    code = season.league.join_code
    services.season_join(user=player, season_id=season.pk, code=code, roster_id=None)
    with pytest.raises(LeagueError) as error:
        services.season_join(user=player, season_id=season.pk, code=code, roster_id=None)
    assert error.value.code == "already_joined"
    assert Registration.objects.filter(season=season, player=player).count() == 1


def test_the_database_refuses_a_second_registration(season) -> None:
    (registration,) = join(season, 1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Registration.objects.create(season=season, player=registration.player)


def test_join_code_is_forgiving_about_case_and_dashes(season) -> None:
    code = season.league.join_code
    typed = f"{code[:4].lower()}-{code[4:]}"
    registration = services.season_join(
        user=UserFactory(), season_id=season.pk, code=typed, roster_id=None
    )
    assert registration.season == season


def test_a_wrong_join_code_joins_nobody(season) -> None:
    with pytest.raises(Http404):
        services.season_join(user=UserFactory(), season_id=season.pk, code="NOPE", roster_id=None)
    assert not Registration.objects.exists()


def test_pairing_an_odd_number_gives_one_bye_to_someone(season) -> None:
    join(season, 5)
    round_ = pair_and_publish(season)
    pairings = list(round_.pairings.all())
    assert len(pairings) == 3
    assert sum(p.is_bye for p in pairings) == 1
    seated = [p.player_a_id for p in pairings] + [p.player_b_id for p in pairings if p.player_b_id]
    assert sorted(seated) == sorted(season.registrations.values_list("pk", flat=True))
    season.refresh_from_db()
    assert season.status == Season.Status.RUNNING


def test_pairing_one_player_is_refused(season) -> None:
    join(season, 1)
    with pytest.raises(LeagueError) as error:
        pair_and_publish(season)
    assert error.value.code == "not_enough_players"
    assert not Round.objects.exists()


def test_next_round_waits_for_every_result(season) -> None:
    join(season, 4)
    round_ = pair_and_publish(season)
    report_and_confirm(games(round_)[0])
    with pytest.raises(LeagueError) as error:
        pair_and_publish(season)
    assert error.value.code == "round_incomplete"
    assert error.value.message == "Round 1 still has 1 game without a result that counts."


def test_swiss_round_two_pairs_winners_and_avoids_rematches(season) -> None:
    join(season, 4)
    first = pair_and_publish(season)
    played = set()
    winners = set()
    for pairing in games(first):
        report_and_confirm(pairing)
        played.add(frozenset((pairing.player_a_id, pairing.player_b_id)))
        winners.add(pairing.player_a_id)
    second = pair_and_publish(season)
    pairs = {frozenset((p.player_a_id, p.player_b_id)) for p in games(second)}
    assert not pairs & played
    assert frozenset(winners) in pairs


def test_everyone_has_met_everyone_is_refused_unless_rematches_are_allowed(season) -> None:
    join(season, 2)
    report_and_confirm(games(pair_and_publish(season))[0])
    with pytest.raises(LeagueError) as error:
        pair_and_publish(season)
    assert error.value.code == "everyone_met"
    assert Round.objects.filter(season=season).count() == 1
    second = pair_and_publish(season, allow_rematches=True)
    assert second.rematches == 1


def test_round_robin_plays_everyone_once_then_stops(season) -> None:
    season = make_season(season.league, name="Rundenturnier", pairing_method="round_robin")
    join(season, 3)
    met = set()
    for _ in range(3):
        round_ = pair_and_publish(season)
        for pairing in games(round_):
            met.add(frozenset((pairing.player_a_id, pairing.player_b_id)))
            report_and_confirm(pairing)
    assert len(met) == 3
    with pytest.raises(LeagueError) as error:
        pair_and_publish(season)
    assert error.value.code == "everyone_met"
    with pytest.raises(LeagueError) as closed:
        join(season, 1)
    assert closed.value.code == "registration_closed"


def test_organiser_swaps_players_before_publishing(season) -> None:
    join(season, 4)
    league = season.league
    organiser = organiser_of(league)
    draft = services.round_pair(user=organiser, key=league.key, season_id=season.pk)
    first, second = list(draft.pairings.order_by("table"))
    services.round_swap(
        user=organiser,
        key=league.key,
        season_id=season.pk,
        number=1,
        player_x=first.player_a_id,
        player_y=second.player_a_id,
    )
    after = {frozenset((p.player_a_id, p.player_b_id)) for p in draft.pairings.all()}
    assert frozenset((second.player_a_id, first.player_b_id)) in after
    assert LogEntry.objects.filter(action=LogEntry.Action.PAIRING_SWAPPED).count() == 1
    services.round_publish(user=organiser, key=league.key, season_id=season.pk, number=1)
    with pytest.raises(LeagueError) as error:
        services.round_swap(
            user=organiser,
            key=league.key,
            season_id=season.pk,
            number=1,
            player_x=first.player_a_id,
            player_y=second.player_a_id,
        )
    assert error.value.code == "round_published"


def test_swapping_opponents_of_one_game_is_refused(season) -> None:
    join(season, 4)
    league = season.league
    organiser = organiser_of(league)
    draft = services.round_pair(user=organiser, key=league.key, season_id=season.pk)
    game = draft.pairings.order_by("table").first()
    with pytest.raises(LeagueError) as error:
        services.round_swap(
            user=organiser,
            key=league.key,
            season_id=season.pk,
            number=1,
            player_x=game.player_a_id,
            player_y=game.player_b_id,
        )
    assert error.value.code == "same_game"


@pytest.fixture
def game(season) -> Pairing:
    join(season, 2)
    return games(pair_and_publish(season))[0]


def _report(pairing: Pairing, user, outcome="a", vp_a=12, vp_b=7) -> Result:  # noqa: ANN001
    return services.result_report(
        user=user,
        key=pairing.round.season.league.key,
        pairing_id=pairing.pk,
        outcome=outcome,
        vp_a=vp_a,
        vp_b=vp_b,
    )


def test_report_then_confirm_counts_in_the_standings(game) -> None:
    season = game.round.season
    result = _report(game, game.player_a.player)
    assert result.status == Result.Status.REPORTED
    assert [row.points for row in season_standings(season)] == [0, 0]
    services.result_confirm(user=game.player_b.player, key=season.league.key, pairing_id=game.pk)
    top = season_standings(season)[0]
    assert (top.entrant.id, top.points, top.vp_diff) == (game.player_a_id, 3, 5)


def test_confirming_your_own_report_is_refused(game) -> None:
    _report(game, game.player_a.player)
    with pytest.raises(LeagueError) as error:
        services.result_confirm(
            user=game.player_a.player, key=game.round.season.league.key, pairing_id=game.pk
        )
    assert error.value.code == "own_report"
    assert Result.objects.get().status == Result.Status.REPORTED


def test_the_database_refuses_a_confirmation_by_the_reporting_side(game) -> None:
    result = _report(game, game.player_a.player)
    result.status, result.confirmed_side, result.confirmed_at = "confirmed", "a", timezone.now()
    with pytest.raises(IntegrityError), transaction.atomic():
        result.save()


def test_reporting_for_someone_elses_pairing_is_refused(game) -> None:
    with pytest.raises(LeagueError) as error:
        _report(game, UserFactory())
    assert error.value.code == "not_your_pairing"
    assert error.value.status == 403
    assert not Result.objects.exists()


def test_two_conflicting_reports_keep_the_first(game) -> None:
    _report(game, game.player_a.player, outcome="a")
    with pytest.raises(LeagueError) as error:
        _report(game, game.player_b.player, outcome="b", vp_a=3, vp_b=9)
    assert error.value.code == "conflicting_report"
    result = Result.objects.get()
    assert (result.outcome, result.status) == ("a", Result.Status.REPORTED)


def test_the_same_report_from_the_opponent_confirms_it(game) -> None:
    _report(game, game.player_a.player)
    result = _report(game, game.player_b.player)
    assert result.status == Result.Status.CONFIRMED
    assert result.confirmed_side == "b"


def test_the_reporter_may_correct_their_report_until_answered(game) -> None:
    _report(game, game.player_a.player, vp_a=12)
    result = _report(game, game.player_a.player, vp_a=14)
    assert (result.vp_a, Result.objects.count()) == (14, 1)


def test_dispute_goes_to_the_organisers_who_decide(game) -> None:
    season = game.round.season
    key = season.league.key
    _report(game, game.player_a.player, outcome="a")
    disputed = services.result_dispute(
        user=game.player_b.player, key=key, pairing_id=game.pk, reason="I won on objectives."
    )
    assert disputed.status == Result.Status.DISPUTED
    assert [row.points for row in season_standings(season)] == [0, 0]  # waits for the decision
    with pytest.raises(PermissionDenied):
        services.result_override(
            user=game.player_b.player,
            key=key,
            pairing_id=game.pk,
            outcome="b",
            vp_a=7,
            vp_b=12,
            reason="mine",
        )
    decided = services.result_override(
        user=organiser_of(season.league),
        key=key,
        pairing_id=game.pk,
        outcome="b",
        vp_a=7,
        vp_b=12,
        reason="Photo of the table shows player B holding both objectives.",
    )
    assert (decided.status, decided.outcome) == (Result.Status.DECIDED, "b")
    top = season_standings(season)[0]
    assert top.entrant.id == game.player_b_id
    entry = LogEntry.objects.get(action=LogEntry.Action.RESULT_OVERRIDDEN)
    assert entry.details["dispute"] is True
    assert "objectives" in entry.details["reason"]
    assert "(W)" in entry.details["before"] and "(L)" in entry.details["before"]


def test_override_needs_a_reason(game) -> None:
    with pytest.raises(LeagueError) as error:
        services.result_override(
            user=organiser_of(game.round.season.league),
            key=game.round.season.league.key,
            pairing_id=game.pk,
            outcome="a",
            vp_a=1,
            vp_b=0,
            reason="  ",
        )
    assert error.value.code == "reason_required"
    assert not Result.objects.exists()


def test_an_unanswered_report_counts_after_the_deadline(game) -> None:
    season = game.round.season
    _report(game, game.player_a.player)
    Result.objects.update(reported_at=timezone.now() - timedelta(hours=48, minutes=1))
    assert season_standings(season)[0].points == 3
    with pytest.raises(LeagueError) as error:
        services.result_dispute(
            user=game.player_b.player, key=season.league.key, pairing_id=game.pk, reason="late"
        )
    assert error.value.code == "confirmation_closed"


def test_the_deadline_is_configurable(season) -> None:
    quick = make_season(season.league, name="Blitz", confirm_hours=2)
    join(quick, 2)
    game = games(pair_and_publish(quick))[0]
    _report(game, game.player_a.player)
    Result.objects.update(reported_at=timezone.now() - timedelta(hours=2, minutes=1))
    assert season_standings(quick)[0].points == 3


def test_a_bye_scores_as_a_win_with_the_configured_vp(season) -> None:
    byes = make_season(season.league, name="Mit Freilos", bye_vp=10)
    join(byes, 3)
    round_ = pair_and_publish(byes)
    bye = round_.pairings.get(player_b__isnull=True)
    row = next(r for r in season_standings(byes) if r.entrant.id == bye.player_a_id)
    assert (row.points, row.vp_for, row.byes) == (3, 10, 1)


def test_dropped_players_are_not_paired(season) -> None:
    players = join(season, 4)
    services.registration_drop(
        user=players[0].player, key=season.league.key, registration_id=players[0].pk
    )
    round_ = pair_and_publish(season)
    seated = {p.player_a_id for p in round_.pairings.all()} | {
        p.player_b_id for p in round_.pairings.all()
    }
    assert players[0].pk not in seated
    assert round_.pairings.filter(player_b__isnull=True).count() == 1


def test_tracked_match_proposes_the_result_which_the_other_player_confirms(game) -> None:
    a, b = game.player_a.player, game.player_b.player
    result = services.league_result_propose_from_match(
        system_slug="plain",
        user_ids=(b.pk, a.pk),
        winner_user_id=b.pk,
        vp_by_user={a.pk: 4, b.pk: 11},
        match_url="/matches/17/",
        reporter_user_id=b.pk,
    )
    assert result is not None
    assert (result.source, result.outcome, result.vp_a, result.vp_b) == ("tracked", "b", 4, 11)
    assert (result.match_url, result.reported_side, result.reported_by) == ("/matches/17/", "b", b)
    confirmed = services.result_confirm(
        user=a, key=game.round.season.league.key, pairing_id=game.pk
    )
    assert confirmed.status == Result.Status.CONFIRMED


def test_tracked_match_without_a_league_game_is_none(game) -> None:
    a = game.player_a.player
    stranger = UserFactory()
    kwargs = {
        "winner_user_id": None,
        "vp_by_user": {},
        "match_url": "/matches/1/",
        "reporter_user_id": a.pk,
    }
    assert (
        services.league_result_propose_from_match(
            system_slug="plain", user_ids=(a.pk, stranger.pk), **kwargs
        )
        is None
    )
    assert (
        services.league_result_propose_from_match(
            system_slug="deathmatch", user_ids=(a.pk, game.player_b.player.pk), **kwargs
        )
        is None
    )
    assert (
        services.league_result_propose_from_match(
            system_slug="no-such-system", user_ids=(a.pk, a.pk), **kwargs
        )
        is None
    )
    assert not Result.objects.exists()


def test_tracked_match_that_disagrees_with_a_report_disputes_it(game) -> None:
    a, b = game.player_a.player, game.player_b.player
    _report(game, a, outcome="a", vp_a=12, vp_b=7)
    result = services.league_result_propose_from_match(
        system_slug="plain",
        user_ids=(a.pk, b.pk),
        winner_user_id=b.pk,
        vp_by_user={a.pk: 7, b.pk: 12},
        match_url="/matches/3/",
        reporter_user_id=a.pk,
    )
    assert result is not None and result.status == Result.Status.DISPUTED
    assert result.match_url == "/matches/3/"


def test_tracked_match_does_not_touch_a_confirmed_result(game) -> None:
    report_and_confirm(game)
    a, b = game.player_a.player, game.player_b.player
    assert (
        services.league_result_propose_from_match(
            system_slug="plain",
            user_ids=(a.pk, b.pk),
            winner_user_id=b.pk,
            vp_by_user={},
            match_url="/matches/4/",
            reporter_user_id=a.pk,
        )
        is None
    )
    assert Result.objects.get().outcome == "a"


def test_roster_is_frozen_at_registration_and_changes_need_approval(deathmatch) -> None:
    league = make_league(system="deathmatch")
    season = make_season(league)
    player = UserFactory()
    roster = roster_services.roster_import(owner=player, document=legal_standard_team())
    with pytest.raises(LeagueError) as error:
        services.season_join(
            user=player, season_id=season.pk, code=league.join_code, roster_id=None
        )
    assert error.value.code == "roster_required"
    registration = services.season_join(
        user=player, season_id=season.pk, code=league.join_code, roster_id=roster.pk
    )
    frozen = registration.roster_snapshot
    assert frozen["name"] == "Team Vortex" and len(frozen["entries"]) == 5

    # Editing the roster afterwards leaves the registered version alone.
    roster_services.roster_update(owner=player, roster_id=roster.pk, name="Renamed", settings={})
    registration.refresh_from_db()
    assert registration.roster_snapshot == frozen

    change = services.roster_change_request(
        user=player, key=league.key, registration_id=registration.pk, roster_id=roster.pk
    )
    with pytest.raises(LeagueError) as pending:
        services.roster_change_request(
            user=player, key=league.key, registration_id=registration.pk, roster_id=roster.pk
        )
    assert pending.value.code == "change_pending"
    with pytest.raises(PermissionDenied):
        services.roster_change_decide(
            user=player, key=league.key, change_id=change.pk, approve=True
        )
    services.roster_change_decide(
        user=organiser_of(league), key=league.key, change_id=change.pk, approve=True, note="ok"
    )
    registration.refresh_from_db()
    assert registration.roster_snapshot["name"] == "Renamed"
    actions = set(LogEntry.objects.values_list("action", flat=True))
    assert {LogEntry.Action.ROSTER_REQUESTED, LogEntry.Action.ROSTER_APPROVED} <= actions


def test_a_roster_of_another_system_or_with_problems_is_refused(deathmatch) -> None:
    league = make_league(system="deathmatch")
    season = make_season(league)
    player = UserFactory()
    document = legal_standard_team()
    document["entries"] = document["entries"][:2]
    draft = roster_services.roster_import(owner=player, document=document)
    with pytest.raises(LeagueError) as error:
        services.season_join(
            user=player, season_id=season.pk, code=league.join_code, roster_id=draft.pk
        )
    assert error.value.code == "roster_not_legal"
    someone_elses = roster_services.roster_import(
        owner=UserFactory(), document=legal_standard_team()
    )
    with pytest.raises(LeagueError) as foreign:
        services.season_join(
            user=player, season_id=season.pk, code=league.join_code, roster_id=someone_elses.pk
        )
    assert foreign.value.code == "unknown_roster"
    assert not Registration.objects.exists()


def test_tracked_match_link_that_could_run_script_is_dropped(game) -> None:
    a, b = game.player_a.player, game.player_b.player
    result = services.league_result_propose_from_match(
        system_slug="plain",
        user_ids=(a.pk, b.pk),
        winner_user_id=None,
        vp_by_user={a.pk: 3, b.pk: 3},
        match_url="javascript:alert(1)",
        reporter_user_id=a.pk,
    )
    assert result is not None and result.match_url == ""
    assert result.outcome == "draw"


def test_a_new_season_breaks_ties_by_the_common_order() -> None:
    """Issue: "Default to the common order: points, then strength of schedule, then VP
    difference, then head-to-head" (points always come first)."""
    season = make_season(make_league())
    assert season.tie_breakers == ["sos", "vp_diff", "h2h"]


def test_the_season_form_starts_at_the_common_order() -> None:
    form = SeasonForm()
    chosen = [field.initial for field in form.tie_breaker_fields()]
    assert chosen == ["sos", "vp_diff", "h2h", "", ""]
