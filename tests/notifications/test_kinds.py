"""One test per kind: who is told what when a league changes."""

from __future__ import annotations

import pytest
from django.urls import reverse

from apps.leagues import services
from apps.leagues.models import Pairing
from apps.notifications.models import Notification
from apps.notifications.texts import notification_text
from tests.leagues.factories import join, make_league, make_season, organiser_of, pair_and_publish
from tests.notifications.helpers import of_kind, published_game, report

pytestmark = pytest.mark.django_db
Kind = Notification.Kind


def text(notification: Notification) -> str:
    return notification_text(notification.kind, notification.params)


def pairing_url(pairing: Pairing) -> str:
    return reverse("leagues:pairing", args=[pairing.round.season.league.key, pairing.pk])


def test_round_published_tells_every_player_their_opponent_table_or_bye() -> None:
    season = make_season(make_league())
    a, b, c = join(season, 3)
    round_ = pair_and_publish(season)
    notifications = {n.user_id: n for n in of_kind(Kind.ROUND_PUBLISHED)}
    assert set(notifications) == {a.player_id, b.player_id, c.player_id}
    for pairing in round_.pairings.select_related("player_a__player", "player_b__player"):
        first = notifications[pairing.player_a.player_id]
        assert first.url == pairing_url(pairing)
        assert first.league_id == season.league_id
        if pairing.player_b is None:
            assert text(first) == (
                "Round 1 of Frühjahr (Dienstagsliga) is published: you have a bye."
            )
            continue
        second = notifications[pairing.player_b.player_id]
        assert text(first) == (
            "Round 1 of Frühjahr (Dienstagsliga) is published: you play "
            f"{pairing.player_b.player.shown_name} at table {pairing.table}."
        )
        assert pairing.player_a.player.shown_name in text(second)


def test_a_draft_round_tells_nobody() -> None:
    season = make_season(make_league())
    join(season, 2)
    organiser = organiser_of(season.league)
    services.round_pair(user=organiser, key=season.league.key, season_id=season.pk)
    assert not Notification.objects.exists()


def test_result_to_confirm_asks_the_opponent_of_the_reporter() -> None:
    pairing = published_game()
    assert pairing.player_b is not None
    report(pairing, side="a")
    [notification] = of_kind(Kind.RESULT_TO_CONFIRM)
    assert notification.user_id == pairing.player_b.player_id
    assert notification.pairing_id == pairing.pk
    assert notification.url == pairing_url(pairing)
    assert text(notification) == (
        f"{pairing.player_a.player.shown_name} reported {pairing.player_a.player.shown_name} – "
        f"{pairing.player_b.player.shown_name} 12:7 (round 1, Dienstagsliga). Confirm or "
        "dispute the result."
    )


def test_result_to_confirm_from_a_tracked_match_asks_the_other_player() -> None:
    pairing = published_game()
    assert pairing.player_b is not None
    a, b = pairing.player_a.player, pairing.player_b.player
    services.league_result_propose_from_match(
        system_slug="plain",
        user_ids=(a.pk, b.pk),
        winner_user_id=a.pk,
        vp_by_user={a.pk: 9, b.pk: 4},
        match_url="/matches/1/",
        reporter_user_id=a.pk,
    )
    [notification] = of_kind(Kind.RESULT_TO_CONFIRM)
    assert notification.user_id == b.pk
    assert notification.params["tracked"] is True
    assert text(notification).startswith(f"Your tracked match {a.shown_name} – {b.shown_name}")
    assert "9:4" in text(notification)


def test_result_disputed_tells_the_organisers_and_the_reporter() -> None:
    pairing = published_game()
    assert pairing.player_b is not None
    report(pairing, side="a")
    services.result_dispute(
        user=pairing.player_b.player,
        key=pairing.round.season.league.key,
        pairing_id=pairing.pk,
        reason="We played to 9, not 12.",
    )
    notifications = of_kind(Kind.RESULT_DISPUTED)
    organiser = organiser_of(pairing.round.season.league)
    assert {n.user_id for n in notifications} == {organiser.pk, pairing.player_a.player_id}
    assert text(notifications[0]) == (
        f"{pairing.player_b.player.shown_name} disputed the result of "
        f"{pairing.player_a.player.shown_name} – {pairing.player_b.player.shown_name} "
        "(round 1, Dienstagsliga); the organisers decide. Reason: “We played to 9, not 12.”"
    )


def test_a_tracked_match_contradicting_a_report_tells_organisers_and_both_players() -> None:
    pairing = published_game()
    assert pairing.player_b is not None
    a, b = pairing.player_a.player, pairing.player_b.player
    report(pairing, side="a", vp_a=12, vp_b=7)
    services.league_result_propose_from_match(
        system_slug="plain",
        user_ids=(a.pk, b.pk),
        winner_user_id=b.pk,
        vp_by_user={a.pk: 3, b.pk: 8},
        match_url="/matches/1/",
        reporter_user_id=b.pk,
    )
    organiser = organiser_of(pairing.round.season.league)
    notifications = of_kind(Kind.RESULT_DISPUTED)
    assert {n.user_id for n in notifications} == {organiser.pk, a.pk, b.pk}
    assert "the tracked match says otherwise" in text(notifications[0])


def test_result_decided_tells_both_players() -> None:
    pairing = published_game()
    assert pairing.player_b is not None
    league = pairing.round.season.league
    services.result_override(
        user=organiser_of(league),
        key=league.key,
        pairing_id=pairing.pk,
        outcome="draw",
        vp_a=5,
        vp_b=5,
        reason="Both agreed at the table.",
    )
    notifications = of_kind(Kind.RESULT_DECIDED)
    assert {n.user_id for n in notifications} == {
        pairing.player_a.player_id,
        pairing.player_b.player_id,
    }
    assert text(notifications[0]) == (
        f"An organiser set the result of {pairing.player_a.player.shown_name} – "
        f"{pairing.player_b.player.shown_name} (round 1, Dienstagsliga) to 5:5. "
        "Reason: “Both agreed at the table.”"
    )


def test_an_unknown_kind_is_refused_by_the_database() -> None:
    from django.db import IntegrityError, transaction

    pairing = published_game()
    with pytest.raises(IntegrityError), transaction.atomic():
        Notification.objects.create(user=pairing.player_a.player, kind="gossip")


def test_a_link_to_another_site_is_refused_by_the_database() -> None:
    from django.db import IntegrityError, transaction

    pairing = published_game()
    with pytest.raises(IntegrityError), transaction.atomic():
        Notification.objects.create(
            user=pairing.player_a.player, kind=Kind.RESULT_DECIDED, url="//evil.example/"
        )
