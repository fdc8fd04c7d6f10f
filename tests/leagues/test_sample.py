"""``manage.py sample_league``: a believable sample season of a system with rosters, labelled as
sample, with results in every state."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from apps.leagues.models import League, LogEntry, Result, Round
from apps.leagues.selectors import result_counts, season_standings

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo(settings, catalogue) -> None:  # noqa: ANN001
    settings.DEBUG = True
    call_command("demo_user", stdout=StringIO())


def test_the_sample_league_is_made_with_sample_teams_and_every_result_state(demo) -> None:
    out = StringIO()
    call_command("sample_league", stdout=out)
    league = League.objects.get(sample=True)
    assert f"/leagues/{league.key}/" in out.getvalue()
    assert league.system.slug == "grundregeln" and "ample" in league.name
    season = league.seasons.get()
    registrations = list(season.registrations.select_related("player", "roster"))
    assert len(registrations) == 9
    for registration in registrations:
        assert "(sample)" in registration.player.shown_name
        assert registration.roster is not None and registration.roster.legal
        assert "(sample)" in registration.roster_name and registration.roster_snapshot

    rounds = list(Round.objects.filter(season=season).order_by("number"))
    assert [r.status for r in rounds] == ["published"] * 4
    assert [r.published_at for r in rounds] == sorted(r.published_at for r in rounds)
    statuses = set(
        Result.objects.filter(pairing__round__season=season).values_list("status", flat=True)
    )
    assert statuses == {"reported", "confirmed", "disputed", "decided"}
    open_round = Result.objects.filter(pairing__round=rounds[-1])
    assert open_round.filter(status="disputed").count() == 1
    waiting = open_round.get(status="reported")
    assert not result_counts(waiting, season.confirm_hours, timezone.now())
    counted_alone = Result.objects.get(pairing__round=rounds[2], status="reported")
    assert result_counts(counted_alone, season.confirm_hours, rounds[3].published_at)
    decided = Result.objects.filter(status="decided")
    assert decided.count() == 2 and all(r.decision_reason for r in decided)
    actions = set(LogEntry.objects.filter(league=league).values_list("action", flat=True))
    assert {"result_disputed", "result_overridden", "round_published"} <= actions
    # Rounds 1-3 count in full (4 games each); of round 4 only the confirmed game.
    assert sum(row.played for row in season_standings(season)) == 2 * 13


def test_the_sample_league_pages_render_in_both_languages(demo, client) -> None:
    call_command("sample_league", stdout=StringIO())
    league = League.objects.get(sample=True)
    season = league.seasons.get()
    game = Result.objects.get(pairing__round__season=season, status="disputed").pairing
    urls = [
        reverse("leagues:detail", args=[league.key]),
        reverse("leagues:season", args=[league.key, season.pk]),
        reverse("leagues:pairing", args=[league.key, game.pk]),
        reverse("leagues:player", args=[league.key, season.pk, game.player_a_id]),
    ]
    client.force_login(league.organisers.get())
    for url in urls:
        for language in ("en", "de"):
            page = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
            assert page.status_code == 200, (url, language)
            assert f'<html lang="{language}">' in page.content.decode()
            assert "(sample)" in page.content.decode()


def test_the_sample_league_is_made_once(demo) -> None:
    call_command("sample_league", stdout=StringIO())
    call_command("sample_league", stdout=StringIO())
    assert League.objects.filter(sample=True).count() == 1
